import { describe, expect, it } from "vitest";
import { TEST_NOW, useTestEmulator } from "./support/emulator";

describe("emulator core: auth, control plane, faults, journal", () => {
  const emulator = useTestEmulator();

  it("answers health with the frozen clock", async () => {
    const health = await emulator.control("GET", "health");
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: "ok", now: TEST_NOW });
  });

  it("rejects a bad credential with 401 {message: Unauthorized} (docs/api.md 10.1)", async () => {
    const wrong = await emulator.get("/bulk_filters/", undefined, { clientId: "dev", clientSecret: "nope" });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: "Unauthorized" });
    const none = await emulator.get("/bulk_filters/", undefined, null);
    expect(none.status).toBe(401);
  });

  it("answers unknown paths with a JSON 404 that names the path", async () => {
    const response = await emulator.get("/no/such/path");
    expect(response.status).toBe(404);
    expect(response.body.message).toContain("/no/such/path");
  });

  it("advances and sets the clock", async () => {
    const advanced = await emulator.control("POST", "clock", { advance: "PT5M" });
    expect(advanced.body.now).toBe("2026-11-20T12:35:00.000Z");
    const set = await emulator.control("POST", "clock", { set: TEST_NOW });
    expect(set.body).toMatchObject({ now: TEST_NOW, frozen: true });
    const bad = await emulator.control("POST", "clock", { advance: "soon" });
    expect(bad.status).toBe(400);
  });

  it("injects a 429 with Retry-After for N requests, then lets requests through, and journals them", async () => {
    await emulator.control("DELETE", "requests");
    await emulator.control("POST", "faults", { path: "/kpis", method: "GET", status: 429, retryAfter: 3, times: 2 });
    const first = await emulator.get("/kpis");
    const second = await emulator.get("/kpis");
    const third = await emulator.get("/kpis");
    expect([first.status, second.status]).toEqual([429, 429]);
    expect(first.headers.get("retry-after")).toBe("3");
    expect(third.status).not.toBe(429);
    const journal = await emulator.control("GET", "requests");
    expect(journal.body.requests.map((entry: { status: number }) => entry.status).slice(0, 2)).toEqual([429, 429]);
    expect(journal.body.requests).toHaveLength(3);
  });

  it("resets the connection before the answer when a reset fault says so", async () => {
    await emulator.control("POST", "faults", { path: "/kpis", reset: "before", times: 1 });
    // The socket closes without an answer: a connection error, not an HTTP status.
    await expect(emulator.get("/kpis")).rejects.toSatisfy((error: Error & { cause?: { code?: string } }) =>
      ["UND_ERR_SOCKET", "ECONNRESET"].includes(error.cause?.code ?? ""));
    const journal = await emulator.control("GET", "requests");
    expect(journal.body.requests.at(-1)).toMatchObject({ path: "/kpis", status: 0, reset: true });
  });

  it("refuses an invalid fault rule with 400", async () => {
    const response = await emulator.control("POST", "faults", { path: "/kpis", status: 200 });
    expect(response.status).toBe(400);
    expect(response.body.message).toContain("status");
  });
});
