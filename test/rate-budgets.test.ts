import { describe, expect, it } from "vitest";
import { DEV, useTestEmulator } from "./support/emulator";

// The rate budgets of docs/api.md 8 and 10.1 as the emulator enforces them, on its own clock: a
// minute passes by advancing the clock, never by waiting.

const MINUTE_MS = 60_000;
/** A cheap request of the historical-metric family (docs/api.md 4.6): the group-by list of a metric. */
const HISTORICAL = "/insights/3.0/metrics/plays/group-by";
const REAL_TIME = "/insights/3.0/real-time-metrics/concurrent-plays/group-by";

describe("emulator rate budgets", () => {
  const emulator = useTestEmulator({ rateBudgets: true }, { resetEach: true });

  /** Sends `count` GETs of `path` as `account`, `parallel` at a time; answers their statuses. */
  async function statuses(path: string, count: number, account = DEV, parallel = 16): Promise<number[]> {
    const answers: number[] = [];
    for (let sent = 0; sent < count; sent += parallel) {
      const batch = Array.from({ length: Math.min(parallel, count - sent) }, () => emulator.get(path, undefined, account));
      for (const answer of await Promise.all(batch)) answers.push(answer.status);
    }
    return answers;
  }

  it("starts with the service's budgets: 3000 per 5 minutes per address, 400 and 500 a minute per account", async () => {
    const answer = await emulator.control("GET", "rate-budgets");
    expect(answer.body).toEqual({
      rateBudgets: {
        perAddress: { limit: 3000, windowMs: 5 * MINUTE_MS },
        historicalMetrics: { limit: 400, windowMs: MINUTE_MS },
        realTimeMetrics: { limit: 500, windowMs: MINUTE_MS },
      },
    });
  });

  it("answers 429 without Retry-After after 400 historical-metric requests in a minute, and again after the minute passes", async () => {
    const first = await statuses(HISTORICAL, 400);
    expect(first.filter((status) => status === 200)).toHaveLength(400);
    const refused = await emulator.get(HISTORICAL);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBeNull();
    expect(refused.body).toMatchObject({ error: "rate_limited", message: expect.stringContaining("wait more than a minute") });
    // Other families and other accounts have budgets of their own.
    expect((await emulator.get(REAL_TIME)).status).toBe(200);
    expect((await emulator.get("/bulk_filters/fields")).status).toBe(200);
    // Just short of a minute after the first request the window is still full; at a minute it slides.
    expect((await emulator.control("POST", "clock", { advance: MINUTE_MS - 1 })).status).toBe(200);
    expect((await emulator.get(HISTORICAL)).status).toBe(429);
    expect((await emulator.control("POST", "clock", { advance: 1 })).status).toBe(200);
    // Refused requests were not counted: the next minute admits exactly 400 again.
    const second = await statuses(HISTORICAL, 401);
    expect(second.filter((status) => status === 200)).toHaveLength(400);
    expect(second.filter((status) => status === 429)).toHaveLength(1);
  });

  it("counts real-time metrics against a budget of 500 a minute", async () => {
    const answers = await statuses(REAL_TIME, 501);
    expect(answers.filter((status) => status === 200)).toHaveLength(500);
    expect(answers[500]).toBe(429);
  });

  it("counts every request of a client address, across accounts and families, when the budget is lowered", async () => {
    const lowered = await emulator.control("POST", "rate-budgets", { perAddress: { limit: 5, windowMs: 5 * MINUTE_MS } });
    expect(lowered.status).toBe(200);
    const basic = { clientId: "basic", clientSecret: "basic-secret" };
    const answers = [
      (await emulator.get("/bulk_filters/fields")).status,
      (await emulator.get(HISTORICAL)).status,
      (await emulator.get("/pii-opt-out")).status,
      (await emulator.get("/insights/3.0/sessions/_meta/references/dimensions", undefined, basic)).status,
      (await emulator.get("/kpis", undefined, null)).status,
      (await emulator.get("/bulk_filters/fields", undefined, basic)).status,
    ];
    expect(answers.slice(0, 5).every((status) => status !== 429)).toBe(true);
    expect(answers[5]).toBe(429);
    // The control plane is not an API request: it is never counted.
    expect((await emulator.control("GET", "health")).status).toBe(200);
    expect((await emulator.control("POST", "clock", { advance: 5 * MINUTE_MS })).status).toBe(200);
    expect((await emulator.get("/bulk_filters/fields")).status).toBe(200);
  });

  it("keeps the Retry-After variant as a fault rule, and lifts budgets on request", async () => {
    expect((await emulator.control("POST", "faults", { path: HISTORICAL, status: 429, retryAfter: 90, times: 1 })).status).toBe(201);
    const faulted = await emulator.get(HISTORICAL);
    expect(faulted.status).toBe(429);
    expect(faulted.headers.get("retry-after")).toBe("90");
    expect((await emulator.control("POST", "rate-budgets", false)).body).toEqual({ rateBudgets: false });
    const answers = await statuses(HISTORICAL, 450);
    expect(answers.every((status) => status === 200)).toBe(true);
    expect((await emulator.control("POST", "rate-budgets", { historicalMetrics: { limit: 0 } })).status).toBe(400);
  });
});
