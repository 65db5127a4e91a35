import { createServer, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { secret, type ProviderCallError } from "../../engine";
import { DEV } from "../support/emulator";
import { failure } from "../support/failure";
import { BIDI, C1, rawHidden, startFakeService, TERMINAL, type FakeService } from "../support/hostile";
import { startProviderFixture, summarize, type ProviderFixture } from "./fixture";

/**
 * What `pulumi up` shows while the host's client waits: a wait or retry of 3 s or more is a line
 * naming the resource (provider/accounts/runtime.ts), so a slow run says why instead of hanging; a
 * request that gives up is a line once per cause.
 */
const named = (name: string) => ({ name, rules: { op: "and", rules: [{ field: "Asset Name", op: "contains", value: name }] } });

describe("waits shown by the dynamic-provider host", () => {
  let fixture: ProviderFixture;
  const harbor = { name: "Harbor Lights", rules: { op: "and", rules: [{ field: "Asset Name", op: "contains", value: "Harbor Lights" }] } };

  beforeAll(async () => {
    fixture = await startProviderFixture({ module: "dist/provider/index.js", exportName: "SavedFilter", args: ["f", harbor] });
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it("names the resource, the reason and the duration of a 3 s wait after a 429", async () => {
    // A 429 with Retry-After: 3 is the shortest real wait the host reports; the test waits it out.
    expect((await fixture.emulator.control("POST", "faults", { method: "POST", path: "/bulk_filters*", status: 429, retryAfter: 3, times: 1 })).status).toBe(201);
    const mark = fixture.mark();
    const checked = await fixture.host.check({}, fixture.inputs(harbor));
    expect(checked.failures).toEqual([]);
    await fixture.host.create(checked.inputs);
    expect(summarize(fixture.requestsSince(mark)).filter((request) => request.startsWith("POST"))).toEqual(["POST 429", "POST 201"]);
    const line = await fixture.host.waitForDiagnostic((diagnostic) => diagnostic.message.includes("waiting 3 s"));
    expect(line.message.trim()).toBe('SavedFilter "Harbor Lights": HTTP 429 with Retry-After, retrying, waiting 3 s');
  });
});

describe("a wait for the address's request budget, shown by the dynamic-provider host", () => {
  let fixture: ProviderFixture;

  beforeAll(async () => {
    // A budget of 2 requests per 5 minutes: the first create (a listing of its name, then the POST)
    // spends it, and the second waits most of 5 minutes for room.
    fixture = await startProviderFixture({
      module: "dist/provider/index.js",
      exportName: "SavedFilter",
      args: ["f", named("Harbor Lights")],
      hostEnv: { INSIGHTS_REQUESTS_PER_FIVE_MINUTES: "2" },
    });
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it("names the resource, the budget and the wait instead of hanging silently", async () => {
    await fixture.host.create(fixture.inputs(named("Harbor Lights")));
    const waiting = fixture.host.create(fixture.inputs(named("Night Shift")));
    // The create stays waiting for the budget; the host is closed under it at the end.
    waiting.catch(() => undefined);
    const line = await fixture.host.waitForDiagnostic((diagnostic) => diagnostic.message.includes("rate budget"));
    expect(line.message.trim()).toMatch(/^SavedFilter "Night Shift": rate budget requests per address \(2 per 5 minutes\), waiting [45] min( \d+ s)?$/);
  });
});

describe("an unreachable API, shown by the dynamic-provider host", () => {
  let fixture: ProviderFixture;
  let port: number;

  beforeAll(async () => {
    // One retry per request, so that each create gives up soon.
    fixture = await startProviderFixture({ module: "dist/provider/index.js", exportName: "SavedFilter", args: ["f", named("Harbor Lights")], hostEnv: { INSIGHTS_MAX_RETRIES: "1" } });
    // A loopback port nothing listens on: every connection is refused.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    await fixture.host.configure({ "insights:baseUrl": `http://127.0.0.1:${port}`, "insights:clientId": DEV.clientId, "insights:clientSecret": secret(DEV.clientSecret) });
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it("says a cause once however many resources meet it, and each resource's error names it", async () => {
    const names = ["Harbor Lights", "Night Shift", "Morning Show", "Late Movie", "Evening News"];
    const errors: string[] = [];
    // One after another: each create is a batch of its own with requests of its own, which all meet the one cause.
    for (const name of names) errors.push(((await failure(fixture.host.create(fixture.inputs(named(name))))) as Error).message);
    const cause = `connection failed (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${port})`;
    expect(errors).toEqual(names.map((name) => `SavedFilter "${name}": create failed: GET /bulk_filters/: ${cause}`));
    // Lines travel in order on the host's stdout: once a line printed after the creates has come, every earlier one has.
    await fixture.host.diff("1", named("Sentinel"), fixture.inputs({ ...named("Sentinel"), rules: { op: "and", rules: [{ field: "Asset Name", op: "contains", value: "Sentinel 2" }] } }));
    await fixture.host.waitForDiagnostic('SavedFilter "Sentinel": rules change');
    const givingUp = fixture.host.diagnostics.map((diagnostic) => diagnostic.message.trim()).filter((message) => message.includes("giving up"));
    expect(givingUp).toEqual([`SavedFilter "Harbor Lights": GET /bulk_filters/: ${cause}: giving up after 2 attempts: no retries left (maxRetries 1); said once for this cause, however many requests meet it`]);
  });
});

describe("text of a hostile service in the host's lines and errors", () => {
  let fixture: ProviderFixture;
  let service: FakeService;
  const declared = { name: "Harbor Lights", rules: { op: "and", rules: [{ field: "Asset Name", op: "contains", value: "Harbor Lights" }] } };
  /** What the service holds for filter 1: a value changed in the console to one that drives the terminal. */
  const listed = { id: "1", name: "Harbor Lights", rules: { op: "and", rules: [{ field: "Asset Name", op: "contains", value: `Harbor ${TERMINAL}${BIDI}${C1}` }] } };
  const refusal = `refused ${TERMINAL} ${BIDI}\nforged line ${C1}`;
  const escapedRefusal = "refused \\u001b[2J\\u001b[31mPWNED\\u001b[0m access\\u202e";

  beforeAll(async () => {
    fixture = await startProviderFixture({ module: "dist/provider/index.js", exportName: "SavedFilter", args: ["f", declared] });
    // Filter 1 is listed with its hostile value, filter 2 and every write are refused with a hostile message.
    service = await startFakeService(({ method, query }) =>
      method === "GET" && query.get("id") === "1" ? { status: 200, body: { status: "ok", filters: [listed] } }
      : method === "GET" && query.get("id") !== "2" ? { status: 200, body: { status: "ok", filters: [] } }
      : { status: 400, body: { error: "bad_request", message: refusal } });
    await fixture.host.configure({ "insights:baseUrl": service.url, "insights:clientId": DEV.clientId, "insights:clientSecret": secret(DEV.clientSecret) });
  });
  afterAll(async () => {
    await fixture?.close();
    await service?.close();
  });

  it("writes a refreshed value's escape sequences, bidi and C1 controls escaped in the rule-tree diff", async () => {
    const read = await fixture.host.read("1", fixture.inputs(declared));
    expect((read.outputs.rules as typeof listed.rules).rules[0]!.value).toBe(listed.rules.rules[0]!.value);
    await fixture.host.diff("1", read.outputs, fixture.inputs(declared));
    await fixture.host.waitForDiagnostic('SavedFilter "Harbor Lights": rules change');
    const changed = await fixture.host.waitForDiagnostic((diagnostic) => diagnostic.message.includes("PWNED"));
    expect(changed.message).toContain("Harbor \\u001b[2J\\u001b[31mPWNED\\u001b[0maccess\\u202e\\u2066");
    expect(fixture.host.diagnostics.filter((diagnostic) => rawHidden(diagnostic.message).length > 0)).toEqual([]);
  });

  it("shows the errors of a refused read and a refused create, message and stack, with the service's text escaped", async () => {
    const readError = (await failure(fixture.host.read("2", fixture.inputs(declared)))) as ProviderCallError;
    const createError = (await failure(fixture.host.create(fixture.inputs(declared)))) as ProviderCallError;
    for (const error of [readError, createError]) {
      expect(error.message).toContain(escapedRefusal);
      // The service's line break is escaped with the rest: its text cannot forge a line of its own.
      expect(error.message).toContain("\\nforged line del\\u007f");
      expect(rawHidden(error.message)).toEqual([]);
    }
    // The host prints a failed read with its stack on stderr, which the engine shows as well.
    await fixture.host.waitForDiagnostic((diagnostic) => diagnostic.source === "stderr" && diagnostic.message.includes("refused"));
    expect(fixture.host.stderr.filter((line) => rawHidden(line).length > 0)).toEqual([]);
    expect(fixture.host.diagnostics.filter((diagnostic) => rawHidden(diagnostic.message).length > 0)).toEqual([]);
  });
});
