import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startEmulator } from "../emulator";
import { EMULATOR_BIN, TEST_NOW, useTestEmulator } from "./support/emulator";

/**
 * The control plane is as strict as the API (emulator/README.md "Control plane"): a key or query
 * parameter an endpoint does not know is a 400 that names it and lists the valid ones, and nothing
 * changes.
 */
describe("emulator control plane strictness", () => {
  const emulator = useTestEmulator({}, { resetEach: true });

  /** Expects a 400 naming `key` and every one of `valid`. */
  const refused = async (method: string, path: string, body: unknown, key: string, valid: string[]) => {
    const response = await emulator.control(method, path, body);
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(response.body.message).toContain(`"${key}"`);
    for (const name of valid) expect(response.body.message).toContain(`"${name}"`);
    return response.body;
  };

  it("refuses an unknown clock key (advanceMs) with 400 naming set, advance and frozen, and leaves the clock alone", async () => {
    const body = await refused("POST", "clock", { advanceMs: 1000 }, "advanceMs", ["set", "advance", "frozen"]);
    expect(body.parameter).toBe("advanceMs");
    expect((await emulator.control("GET", "clock")).body.now).toBe(TEST_NOW);
    expect((await emulator.control("POST", "clock", { advance: 1000 })).body.nowMs).toBe(Date.parse(TEST_NOW) + 1000);
  });

  it("refuses an unknown fault-rule key, alone or in a list, and adds no rule", async () => {
    await refused("POST", "faults", { path: "/kpis", status: 429, retry_after: 3 }, "retry_after", ["path", "status", "retryAfter", "times", "probability", "reset"]);
    const listed = await refused("POST", "faults", { rules: [{ path: "/kpis", status: 503 }, { path: "/kpis", stauts: 503 }] }, "stauts", ["status"]);
    expect(listed.parameter).toBe("rules.1.stauts");
    await refused("POST", "faults", { rules: [{ path: "/kpis", status: 503 }], times: 1 }, "times", ["rules"]);
    expect((await emulator.control("GET", "faults")).body.rules).toEqual([]);
  });

  it("refuses unknown account keys, at the top and inside features, and creates no account", async () => {
    await refused("POST", "accounts", { clientId: "x", clientSecret: "y", secret: "z" }, "secret", ["clientId", "clientSecret", "userName", "features"]);
    const nested = await refused("POST", "accounts", { clientId: "x", clientSecret: "y", features: { bulkFilter: true } }, "bulkFilter", ["bulkFilters", "adInsights", "viewerModule"]);
    expect(nested.parameter).toBe("features.bulkFilter");
    const accounts = (await emulator.control("GET", "accounts")).body.accounts.map((account: { clientId: string }) => account.clientId);
    expect(accounts).not.toContain("x");
  });

  it("refuses an unknown latency key and an unknown state key", async () => {
    await refused("POST", "latency", { latencyMs: 5 }, "latencyMs", ["ms"]);
    const state = (await emulator.control("GET", "state")).body;
    await refused("POST", "state", { ...state, extra: true }, "extra", ["version", "seed", "clock", "accounts"]);
    expect((await emulator.control("POST", "state", state)).status).toBe(200);
  });

  it("refuses unknown query parameters of control endpoints, and keeps id and since", async () => {
    const faults = await emulator.control("GET", "faults?verbose=1");
    expect(faults.status).toBe(400);
    expect(faults.body.parameter).toBe("verbose");
    expect((await emulator.control("GET", "requests?since=0")).status).toBe(200);
    const requests = await emulator.control("GET", "requests?from=0");
    expect(requests.status).toBe(400);
    expect(requests.body.message).toContain('"since"');
    expect((await emulator.control("DELETE", "faults?id=fault-1")).status).toBe(200);
    expect((await emulator.control("GET", "nothing-here?x=1")).status).toBe(404);
  });
});

describe("emulator control plane: POST /_emulator/reset (emulator/README.md \"Control plane\")", () => {
  const emulator = useTestEmulator();
  const EXTRA = { clientId: "extra", clientSecret: "extra-secret" } as const;
  const RULES = { op: "and", rules: [{ field: "CDN", op: "equals", value: "Akamai" }] };

  it("puts everything back as the emulator started: accounts, their filters and PII requests, faults, journal, rate budgets and clock", async () => {
    expect((await emulator.control("POST", "accounts", { ...EXTRA, features: { bulkFilters: true } })).status).toBe(201);
    expect((await emulator.call("POST", "/bulk_filters/", { body: [{ name: "Extra", rules: RULES }], account: EXTRA })).status).toBe(201);
    const created = await emulator.call("POST", "/bulk_filters/", { body: [{ name: "Akamai", rules: RULES }] });
    expect(created.body[0].id).toBe(1001);
    const request = await emulator.call("POST", "/pii-opt-out", { body: { viewer_id: ["viewer-000123"], "@notification_email": ["privacy@example.com"] } });
    expect((await emulator.control("POST", "pii-deletion-faults", { keepViewers: 1 })).status).toBe(201);
    expect((await emulator.control("POST", "faults", { path: "/kpis", status: 503, times: 5 })).status).toBe(201);
    expect((await emulator.control("POST", "rate-budgets", true)).status).toBe(200);
    await emulator.control("POST", "clock", { advance: "PT10M", frozen: false });
    expect((await emulator.control("GET", "emails")).body.emails).toHaveLength(1);
    const lastSeq = (await emulator.control("GET", "requests")).body.last_seq;

    expect((await emulator.control("POST", "reset")).body).toEqual({ status: "reset" });
    const journal = (await emulator.control("GET", "requests")).body;
    expect(journal.requests).toEqual([]);
    expect(journal.last_seq).toBe(lastSeq);

    const accounts = (await emulator.control("GET", "accounts")).body.accounts.map((account: { clientId: string }) => account.clientId);
    expect(accounts).toEqual(["dev", "basic"]);
    expect((await emulator.get("/bulk_filters/", {}, EXTRA)).status).toBe(401);
    expect((await emulator.get("/bulk_filters/")).body.filters).toEqual([]);
    expect((await emulator.get("/pii-opt-out")).body.requests).toEqual([]);
    expect((await emulator.control("GET", "pii-deletion-faults")).body.faults).toEqual([]);
    expect((await emulator.control("GET", "emails")).body.emails).toEqual([]);
    expect((await emulator.control("GET", "faults")).body.rules).toEqual([]);
    expect((await emulator.control("GET", "rate-budgets")).body.rateBudgets).toBe(false);
    expect((await emulator.control("GET", "clock")).body).toMatchObject({ now: TEST_NOW, frozen: true });
    // Ids start again: the first filter is 1001 and the first PII request has the same id as before.
    expect((await emulator.call("POST", "/bulk_filters/", { body: [{ name: "Akamai", rules: RULES }] })).body[0].id).toBe(1001);
    expect((await emulator.call("POST", "/pii-opt-out", { body: { viewer_id: ["viewer-000123"] } })).body.id).toBe(request.body.id);
    // The journal's sequence numbers went on from before the reset.
    expect((await emulator.control("GET", "requests")).body.requests[0].seq).toBe(lastSeq + 1);
  });
});

describe("emulator control plane: for its own machine only (emulator/README.md \"Control plane\")", () => {
  const emulator = useTestEmulator({}, { resetEach: true });

  /** A control request as a web page elsewhere would send it: any Host, Origin and Content-Type. */
  const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(`/_emulator/${path}`, emulator.url);
      const sent = request(url, { method, headers }, (response) => {
        let text = "";
        response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk)).on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
      });
      sent.on("error", reject);
      sent.end(body);
    });
  const port = () => new URL(emulator.url).port;
  const json = { "content-type": "application/json" };

  it("refuses a Host that is not loopback nor its address (DNS rebinding): no state, no e-mails, no reset", async () => {
    await emulator.call("POST", "/bulk_filters/", { body: [{ name: "Kept", rules: { op: "and", rules: [{ field: "CDN", op: "equals", value: "Akamai" }] } }] });
    for (const host of [`attacker.example:${port()}`, `127.0.0.1.attacker.example:${port()}`, "[::2]"]) {
      const state = await send("GET", "state", { host });
      expect(state.status, host).toBe(403);
      expect(JSON.parse(state.body)).toMatchObject({ error: "foreign_host", parameter: "Host" });
      expect(state.body).not.toContain("dev-secret");
      expect((await send("GET", "emails", { host })).status).toBe(403);
      expect((await send("POST", "reset", { host, ...json }, "{}")).status).toBe(403);
    }
    expect((await emulator.get("/bulk_filters/")).body.filters).toHaveLength(1);
    // Loopback under any of its names is answered.
    for (const host of [`localhost:${port()}`, `127.0.0.1:${port()}`, "127.0.0.1"]) expect((await send("GET", "health", { host })).status, host).toBe(200);
  });

  it("refuses a request from a web page of another origin, and a write that is not JSON", async () => {
    const host = `127.0.0.1:${port()}`;
    for (const origin of ["https://attacker.example", "null", "http://attacker.example:8080"]) {
      expect((await send("POST", "clock", { host, origin, ...json }, JSON.stringify({ advance: 60_000 }))).status, origin).toBe(403);
      expect((await send("GET", "state", { host, origin })).status, origin).toBe(403);
    }
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const refused = await send("POST", "accounts", { host, "content-type": type }, JSON.stringify({ clientId: "page", clientSecret: "page-secret" }));
      expect(refused.status, type).toBe(415);
      expect(JSON.parse(refused.body)).toMatchObject({ error: "unsupported_media_type" });
    }
    expect((await send("POST", "reset", { host })).status).toBe(415);
    expect((await emulator.control("GET", "clock")).body.now).toBe(TEST_NOW);
    expect((await emulator.control("GET", "accounts")).body.accounts.map((account: { clientId: string }) => account.clientId)).not.toContain("page");
    // Its own pages (a loopback origin) and JSON writes are answered.
    expect((await send("POST", "clock", { host, origin: `http://localhost:${port()}`, "content-type": "application/json; charset=utf-8" }, JSON.stringify({ advance: 1 }))).status).toBe(200);
  });

  it("writes its state file for its owner only, and warns when bound beyond loopback", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "insights-state-"));
    const stateFile = path.join(dir, "state.json");
    const withFile = await startEmulator({ port: 0, stateFile });
    try {
      expect((await fetch(`${withFile.url}/_emulator/clock`, { method: "POST", headers: json, body: JSON.stringify({ advance: 1 }) })).status).toBe(200);
      expect(statSync(stateFile).mode & 0o777).toBe(0o600);
    } finally {
      await withFile.close();
      rmSync(dir, { recursive: true, force: true });
    }
    const child = spawn(process.execPath, [EMULATOR_BIN, "--port", "0", "--host", "0.0.0.0"], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      const [line] = (await once(child.stderr!, "data")) as [Buffer];
      expect(line.toString()).toMatch(/^insights-emulator: warning: bound to 0\.0\.0\.0, beyond this machine: .*the control plane \(\/_emulator\/\) still answers only requests whose Host is a loopback address/);
    } finally {
      child.kill();
    }
  });
});
