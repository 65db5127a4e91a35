import diagnosticsChannel from "node:diagnostics_channel";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AbortError, InsightsClient, RateLimitError, SettingsError, type ApiError, type InsightsClientOptions, type LogDetails } from "../provider/client";
import { DEV, useTestEmulator } from "./support/emulator";
import { failure } from "./support/failure";
import { journalMark, requestsSince } from "./support/query-families";

// The rate budgets of docs/api.md 8 and 10.1 as the emulator enforces them and as the client paces
// itself within them, on the emulator's clock: a minute passes by advancing the clock, never by
// waiting.

const MINUTE_MS = 60_000;
/** A cheap request of the historical-metric family (docs/api.md 4.6): the group-by list of a metric. */
const HISTORICAL = "/insights/3.0/metrics/plays/group-by";
const REAL_TIME = "/insights/3.0/real-time-metrics/concurrent-plays/group-by";
/** The package's version, as the User-Agent must carry it. */
const PACKAGE_VERSION = (JSON.parse(readFileSync(path.resolve(__dirname, "..", "package.json"), "utf8")) as { version: string }).version;

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

describe("client pacing against the emulator's budgets", () => {
  const emulator = useTestEmulator({ rateBudgets: true }, { resetEach: true });
  const clients: InsightsClient[] = [];
  let accountsMade = 0;
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  /** Log lines a client wrote, as `level: message`, with their details. */
  interface Logged {
    level: string;
    message: string;
    details: LogDetails | undefined;
  }

  /**
   * A client whose waits run on the emulator's frozen clock: its sleep moves that clock forward to
   * the end of the wait (never back), so a minute of budget passes at once and the waits can be
   * read from the clock, not from wall time. Each client gets an account of its own, so the
   * process-wide budgets of one test never carry over to another.
   */
  async function pacedClient(options: InsightsClientOptions = {}): Promise<{ client: InsightsClient; logged: Logged[]; waits: number[] }> {
    const account = { clientId: `pacing-${++accountsMade}`, clientSecret: "pacing-secret" };
    expect((await emulator.control("POST", "accounts", account)).status).toBe(201);
    const logged: Logged[] = [];
    const record = (level: string) => (message: string, details?: LogDetails) => void logged.push({ level, message, details });
    const waits: number[] = [];
    const clock = emulator.state.clock;
    const client = new InsightsClient({
      baseUrl: emulator.url,
      ...account,
      env: {},
      logger: { debug: record("debug"), info: record("info"), warn: record("warn") },
      logLevel: "debug",
      ...options,
      retry: {
        now: () => clock.now(),
        sleep: async (ms) => {
          waits.push(ms);
          const target = clock.now() + ms;
          if (target > clock.now()) clock.set(target);
        },
        ...options.retry,
      },
    });
    clients.push(client);
    return { client, logged, waits };
  }

  it("sends 450 historical-metric requests within 400 a minute: no 429, one wait of about a minute, logged", async () => {
    const { client, logged } = await pacedClient();
    const startedMs = emulator.state.clock.now();
    const since = await journalMark(emulator);
    const answers = await Promise.all(Array.from({ length: 450 }, () => client.metrics.groupByDimensions({ metric: "plays" })));
    expect(answers).toHaveLength(450);
    const statuses = (await requestsSince(emulator, since)).map((entry) => entry.status);
    expect(statuses).toHaveLength(450);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    // The 401st request waited for the first to leave the one-minute window, and no longer than the margin allows.
    const elapsedMs = emulator.state.clock.now() - startedMs;
    expect(elapsedMs).toBeGreaterThanOrEqual(60_000);
    expect(elapsedMs).toBeLessThan(63_000);
    const budgetWaits = logged.filter((line) => line.details?.event === "wait");
    expect(budgetWaits.length).toBeGreaterThan(0);
    expect(budgetWaits[0]!.message).toMatch(/^GET \/insights\/3\.0\/metrics\/plays\/group-by: rate budget historical metrics \(400 a minute\), waiting 1 min( \d+ s)?$/);
  });

  it("waits the service's advised minute after a 429 without Retry-After, says so, and then succeeds", async () => {
    // The emulator's budget is lowered below the client's, so the client meets a refusal.
    expect((await emulator.control("POST", "rate-budgets", { historicalMetrics: { limit: 2, windowMs: 60_000 } })).status).toBe(200);
    const { client, logged, waits } = await pacedClient();
    const since = await journalMark(emulator);
    for (let call = 0; call < 3; call++) await client.metrics.groupByDimensions({ metric: "plays" });
    expect((await requestsSince(emulator, since)).map((entry) => entry.status)).toEqual([200, 200, 429, 200]);
    expect(waits).toEqual([61_000]);
    const retries = logged.filter((line) => line.details?.event === "retry");
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ level: "info", details: { durationMs: 61_000 } });
    expect(retries[0]!.message).toBe("GET /insights/3.0/metrics/plays/group-by: HTTP 429 without Retry-After (the service asks to wait more than a minute), retry 1 of 3 in 1 min 1 s");
  });

  it("gives up on a 429 when the advised wait does not fit in the call's time budget, and says which setting to raise", async () => {
    expect((await emulator.control("POST", "rate-budgets", { historicalMetrics: { limit: 1, windowMs: 60_000 } })).status).toBe(200);
    const { client, logged, waits } = await pacedClient({ retry: { budgetMs: 30_000 } });
    await client.metrics.groupByDimensions({ metric: "plays" });
    const error = await failure(client.metrics.groupByDimensions({ metric: "plays" }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as Error).message).toContain("would exceed the call's time budget of 30000 ms (retry.budgetMs)");
    expect(waits).toEqual([]);
    expect(logged.filter((line) => line.details?.event === "give-up")).toHaveLength(1);
  });

  it("logs the split of a range longer than the family allows, with the number of requests", async () => {
    const { client, logged } = await pacedClient({ now: () => emulator.state.clock.now() });
    const end = emulator.state.clock.now();
    await client.alerts.listContent({ range: { start: end - 31 * 86_400_000, end } });
    const splits = logged.filter((line) => line.details?.event === "split");
    expect(splits).toHaveLength(1);
    expect(splits[0]!.message).toBe("GET /insights/2.6/ai-alerts/content-metrics: range longer than 30 days (spec 8), split into 2 requests");
  });

  it("ends a wait for the rate budget at once when the caller aborts, with an AbortError", async () => {
    // A budget of 1 a minute, spent by the first call; the second waits, and its caller gives up
    // while it waits (the sleep stands for the minute passing until the caller aborts).
    const controller = new AbortController();
    const aborting = await pacedClient({
      rateBudget: { historicalMetricsPerMinute: 1 },
      retry: {
        sleep: async (_ms, signal) => {
          controller.abort(new Error("no time to wait"));
          signal?.throwIfAborted();
        },
      },
    });
    await aborting.client.metrics.groupByDimensions({ metric: "plays" });
    const since = await journalMark(emulator);
    const error = await failure(aborting.client.metrics.groupByDimensions({ metric: "plays" }, { signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortError);
    expect(error).toMatchObject({ cause: { message: "no time to wait" } });
    expect(await requestsSince(emulator, since)).toEqual([]);
  });

  it("refuses an INSIGHTS_LOG or logLevel it does not know, naming the setting", () => {
    const base = { baseUrl: emulator.url, ...DEV };
    expect(() => new InsightsClient({ ...base, env: { INSIGHTS_LOG: "verbose" } })).toThrow(SettingsError);
    expect(() => new InsightsClient({ ...base, env: { INSIGHTS_LOG: "verbose" } })).toThrow("INSIGHTS_LOG must be debug, info, warn or off");
    expect(() => new InsightsClient({ ...base, env: {}, logLevel: "loud" as never })).toThrow("logLevel must be debug, info, warn or off");
    expect(() => new InsightsClient({ ...base, env: { INSIGHTS_RATE_BUDGET: "maybe" } })).toThrow("INSIGHTS_RATE_BUDGET must be on or off");
    expect(() => new InsightsClient({ ...base, env: {}, rateBudget: { historicalMetricsPerMinute: 0 } })).toThrow("rateBudget.historicalMetricsPerMinute");
  });

  it("sends at once without pacing (rateBudget: false) and meets the service's 429", async () => {
    expect((await emulator.control("POST", "rate-budgets", { historicalMetrics: { limit: 3, windowMs: 60_000 } })).status).toBe(200);
    const { client, waits } = await pacedClient({ rateBudget: false, retry: { maxRetries: 0 } });
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => client.metrics.groupByDimensions({ metric: "plays" })));
    expect(outcomes.filter((outcome) => outcome.status === "rejected")).toHaveLength(2);
    expect(waits).toEqual([]);
  });
});

describe("per-call options, User-Agent and error headers", () => {
  const emulator = useTestEmulator();

  it("honours maxRetries per call, sends the User-Agent of the package and Node, and keeps the answer's headers", async () => {
    const client = new InsightsClient({ baseUrl: emulator.url, ...DEV, env: {}, retry: { sleep: async () => undefined } });
    try {
      expect((await emulator.control("POST", "faults", { path: "/bulk_filters/fields", status: 503, times: 5 })).status).toBe(201);
      const agents: string[] = [];
      const onRequest = (message: unknown) => {
        const { request } = message as { request: { url: string; headers: Record<string, string> } };
        if (request.url.startsWith("/bulk_filters/fields")) agents.push(String(request.headers["user-agent"]));
      };
      diagnosticsChannel.subscribe("http.server.request.start", onRequest);
      const since = await journalMark(emulator);
      let error: unknown;
      try {
        error = await failure(client.filters.fields({}, { maxRetries: 1 }));
      } finally {
        diagnosticsChannel.unsubscribe("http.server.request.start", onRequest);
      }
      expect(error).toMatchObject({ status: 503, attempts: 2 });
      expect(await requestsSince(emulator, since)).toHaveLength(2);
      expect((error as ApiError).headers["content-type"]).toContain("application/json");
      const userAgent = `pulumi-insights/${PACKAGE_VERSION} node/${process.versions.node}`;
      expect(agents).toEqual([userAgent, userAgent]);
      expect(await failure(client.filters.fields({}, { maxRetries: -1 }))).toMatchObject({ path: "options.maxRetries" });
    } finally {
      await client.close();
    }
  });
});
