import diagnosticsChannel from "node:diagnostics_channel";
import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  AbortError,
  ApiError,
  ArgumentError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  InsightsClient,
  InsightsError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  SettingsError,
  TimeoutError,
  type InsightsClientOptions,
} from "../provider/client";
import { resolveSettings } from "../provider/client/core/settings";
import { Transport } from "../provider/client/core/transport";
import { journalMark, requestsSince, withClient } from "./support/query-families";
import { BASIC, DIALECT_ANSWERS, startTestEmulator, useTestEmulator } from "./support/emulator";
import { failure } from "./support/failure";

// The transport, settings, errors and retry policy of the typed client, over real HTTP against the
// emulator. Attempts are counted in the emulator's journal; waits are recorded by an injected sleep
// (they are never asserted as wall-clock time).

const SECRET = "s3cr3t-H5-never-print-me";
const ACCOUNT = { clientId: "h5-core", clientSecret: SECRET };
const AUTHORIZATION = Buffer.from(`${ACCOUNT.clientId}:${SECRET}`).toString("base64");

const emulator = useTestEmulator();
const clients: InsightsClient[] = [];

beforeAll(async () => {
  const added = await emulator.control("POST", "accounts", { ...ACCOUNT, features: { bulkFilters: true } });
  expect(added.status).toBe(201);
});
afterEach(async () => {
  await emulator.control("DELETE", "faults");
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
});

/** A client of the test account whose retry waits are recorded instead of slept. */
function clientWith(options: InsightsClientOptions = {}): { client: InsightsClient; waits: number[] } {
  const waits: number[] = [];
  const client = new InsightsClient({
    baseUrl: emulator.url,
    ...ACCOUNT,
    ...options,
    retry: { random: () => 0.5, baseDelayMs: 10, sleep: async (ms) => void waits.push(ms), ...options.retry },
  });
  clients.push(client);
  return { client, waits };
}

/** Journal entries after `since`, only those on `path` when given. */
async function journal(since: number, path?: string) {
  return (await requestsSince(emulator, since)).filter((entry) => path === undefined || entry.path === path);
}

async function fault(rule: Record<string, unknown>): Promise<void> {
  const response = await emulator.control("POST", "faults", { account: ACCOUNT.clientId, ...rule });
  expect(response.status).toBe(201);
}

/** Every way an error can be printed or serialised; none may hold the secret or the Authorization value. */
function expectNoSecret(value: unknown): void {
  const error = value as Error;
  const renderings = [
    inspect(error, { depth: 20, showHidden: true }),
    inspect(error, { depth: 20 }),
    JSON.stringify(error),
    String(error),
    String(error.stack),
    error.message,
  ];
  for (const text of renderings) {
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(AUTHORIZATION);
    expect(text.toLowerCase()).not.toContain("authorization");
  }
}

const asset = (name: string) => ({
  name,
  rules: { op: "and" as const, rules: [{ op: "or" as const, rules: [{ field: "Asset Name", op: "contains" as const, value: name }] }] },
});

describe("settings", () => {
  it("names the option and the environment variable of each missing setting", () => {
    const cases = [
      [{ clientId: "a", clientSecret: "b" }, "baseUrl", "INSIGHTS_BASE_URL"],
      [{ baseUrl: "https://api.example.com", clientSecret: "b" }, "clientId", "INSIGHTS_CLIENT_ID"],
      [{ baseUrl: "https://api.example.com", clientId: "a", clientSecret: "  " }, "clientSecret", "INSIGHTS_CLIENT_SECRET"],
    ] as const;
    for (const [options, option, variable] of cases) {
      const error = (() => {
        try {
          new InsightsClient({ ...options, env: {} });
        } catch (thrown) {
          return thrown;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(SettingsError);
      expect(error).toMatchObject({ option, message: expect.stringContaining(variable) });
      expect((error as Error).message).toContain(`\`${option}\``);
    }
  });

  it("reads base URL and credentials from the environment when the options leave them out", async () => {
    vi.stubEnv("INSIGHTS_BASE_URL", emulator.url);
    vi.stubEnv("INSIGHTS_CLIENT_ID", ACCOUNT.clientId);
    vi.stubEnv("INSIGHTS_CLIENT_SECRET", SECRET);
    try {
      const client = new InsightsClient();
      clients.push(client);
      expect(await client.filters.fields()).toContain("Asset Name");
      expect(client.toJSON()).toEqual({ baseUrl: `${emulator.url}/`, clientId: ACCOUNT.clientId });
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("prefers explicit options over the environment", async () => {
    const client = new InsightsClient({
      ...ACCOUNT,
      baseUrl: emulator.url,
      env: { INSIGHTS_BASE_URL: "https://elsewhere.example.com", INSIGHTS_CLIENT_ID: "other", INSIGHTS_CLIENT_SECRET: "other" },
    });
    clients.push(client);
    expect(await client.filters.fields()).toContain("ASN");
  });

  it("requires HTTPS except for loopback hosts", () => {
    const make = (baseUrl: string) => () => resolveSettings({ baseUrl, clientId: "a", clientSecret: SECRET });
    for (const baseUrl of ["https://api.example.com", "https://api.example.com/prefix/", "http://localhost:8080", "http://127.0.0.1:1", "http://127.42.0.9", "http://[::1]:9"]) {
      expect(make(baseUrl), baseUrl).not.toThrow();
    }
    for (const baseUrl of ["http://api.example.com", "http://10.0.0.1", "http://128.0.0.1", "http://localhost.example.com", "ftp://127.0.0.1"]) {
      expect(make(baseUrl), baseUrl).toThrow(SettingsError);
    }
    expect(make("http://api.example.com")).toThrow(/HTTPS is required except for loopback/);
  });

  it("rejects a base URL with user information or that is not a URL, without echoing it", () => {
    for (const baseUrl of [`https://a:${SECRET}@api.example.com`, `not a url ${SECRET}`]) {
      let thrown: unknown;
      try {
        new InsightsClient({ baseUrl, clientId: "a", clientSecret: SECRET });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(SettingsError);
      expectNoSecret(thrown);
    }
  });

  it("rejects unusable numbers and an id containing a colon", () => {
    const base = { baseUrl: "https://api.example.com", clientId: "a", clientSecret: "b" };
    expect(() => resolveSettings({ ...base, maxConcurrency: 0 })).toThrow(/maxConcurrency must be a positive integer/);
    expect(() => resolveSettings({ ...base, timeoutMs: -1 })).toThrow(/timeoutMs/);
    expect(() => resolveSettings({ ...base, retry: { maxRetries: 1.5 } })).toThrow(/retry.maxRetries/);
    expect(() => resolveSettings({ ...base, clientId: "a:b" })).toThrow(/must not contain ':'/);
    expect(() => resolveSettings({ ...base, maxResponseBytes: 0 })).toThrow(/maxResponseBytes must be a positive integer/);
    expect(() => resolveSettings({ ...base, maxResponseBytes: 1.5 })).toThrow(/maxResponseBytes must be a positive integer/);
    expect(() => resolveSettings({ ...base, maxResponseBytes: 600_000_000 })).toThrow("maxResponseBytes must be at most 500000000, got 600000000");
  });

  it("keeps the secret out of the client's inspection and serialisation", () => {
    const { client } = clientWith();
    for (const text of [inspect(client, { depth: 20, showHidden: true }), JSON.stringify(client), String(client)]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(AUTHORIZATION);
    }
  });
});

describe("errors", () => {
  it("maps a refused credential to AuthenticationError with the body, not retried, without the secret", async () => {
    const since = await journalMark(emulator);
    const { client } = clientWith({ clientSecret: `${SECRET}-wrong` });
    const error = await failure(client.filters.fields());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, method: "GET", path: "/bulk_filters/fields", body: { message: "Unauthorized" }, attempts: 1 });
    expect((error as Error).message).toBe("GET /bulk_filters/fields failed with HTTP 401: Unauthorized");
    expect(await journal(since)).toHaveLength(1);
    expectNoSecret(error);
  });

  it("maps 400 to BadRequestError with code and parameter, keeping the query out of message and JSON", async () => {
    const transport = new Transport(resolveSettings({ baseUrl: emulator.url, ...ACCOUNT }));
    try {
      const error = await failure(transport.request({ method: "GET", path: "/bulk_filters/", query: { id: "viewer-4711,x" } }, z.unknown()));
      expect(error).toBeInstanceOf(BadRequestError);
      const badRequest = error as BadRequestError;
      expect(badRequest).toMatchObject({ status: 400, path: "/bulk_filters/", query: "id=viewer-4711%2Cx" });
      expect(Object.keys(badRequest)).not.toContain("query");
      expect(JSON.stringify(badRequest)).not.toContain("id=viewer");
      if (DIALECT_ANSWERS.errorsNameTheParameter) {
        expect(badRequest).toMatchObject({ parameter: "id", code: expect.any(String) });
        expect(badRequest.message).toMatch(/^GET \/bulk_filters\/ failed with HTTP 400 \(.+\): .+ \[parameter: id\]$/);
      } else {
        // A `{"message"}` body: the message is read, no code or parameter is made up.
        expect(badRequest).toMatchObject({ parameter: undefined, code: undefined });
        expect(badRequest.message).toMatch(/^GET \/bulk_filters\/ failed with HTTP 400: .+/);
      }
      expect(JSON.parse(JSON.stringify(badRequest))).toMatchObject({ name: "BadRequestError", status: 400, method: "GET", path: "/bulk_filters/" });
      expectNoSecret(badRequest);
    } finally {
      await transport.close();
    }
  });

  it("maps 403 and 404 to their classes", async () => {
    const denied = await withClient(emulator, BASIC, (basic) => failure(basic.filters.fields()));
    expect(denied).toBeInstanceOf(PermissionDeniedError);
    expect(denied).toMatchObject({ status: 403, ...(DIALECT_ANSWERS.errorsNameTheParameter ? { parameter: "bulkFilters" } : {}) });

    const transport = new Transport(resolveSettings({ baseUrl: emulator.url, ...ACCOUNT }));
    try {
      const missing = await failure(transport.request({ method: "GET", path: "/no/such/endpoint" }, z.unknown()));
      expect(missing).toBeInstanceOf(NotFoundError);
      expect(missing).toBeInstanceOf(ApiError);
      expect(missing).toBeInstanceOf(InsightsError);
    } finally {
      await transport.close();
    }
  });

  it("reports an answer that does not match its schema as ResponseValidationError, naming where", async () => {
    const transport = new Transport(resolveSettings({ baseUrl: emulator.url, ...ACCOUNT }));
    try {
      const error = await failure(transport.request({ method: "GET", path: "/bulk_filters/fields" }, z.object({ values: z.array(z.number()) })));
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error).toMatchObject({ status: 200, path: "/bulk_filters/fields" });
      expect((error as ResponseValidationError).issues[0]).toMatch(/^values\[0\]: /);
    } finally {
      await transport.close();
    }
  });
});

describe("retry policy over HTTP", () => {
  // The alternate dialect never sends Retry-After (as the service, docs/api.md 10.1): these three are
  // about honouring it when a server does.
  it.skipIf(!DIALECT_ANSWERS.retryAfterFromFaultRules)("retries a GET after 429s, waiting the Retry-After seconds", async () => {
    await fault({ method: "GET", path: "/bulk_filters/fields", status: 429, retryAfter: 1, times: 2 });
    const since = await journalMark(emulator);
    const { client, waits } = clientWith();
    expect(await client.filters.fields()).toContain("Tag");
    expect((await journal(since)).map((entry) => entry.status)).toEqual([429, 429, 200]);
    expect(waits).toEqual([1_000, 1_000]);
  });

  it.skipIf(!DIALECT_ANSWERS.retryAfterFromFaultRules)("honours Retry-After as an HTTP date", async () => {
    const nowMs = Date.parse("2030-01-01T00:00:00Z");
    await fault({ method: "GET", path: "/bulk_filters/fields", status: 429, retryAfter: new Date(nowMs + 5_000).toUTCString(), times: 1 });
    const { client, waits } = clientWith({ retry: { now: () => nowMs } });
    expect(await client.filters.fields()).toContain("Tag");
    expect(waits).toEqual([5_000]);
  });

  it("retries 503 with a capped, jittered backoff", async () => {
    await fault({ method: "GET", path: "/bulk_filters/fields", status: 503, times: 3 });
    const since = await journalMark(emulator);
    const { client, waits } = clientWith({ retry: { baseDelayMs: 100, maxDelayMs: 300, random: () => 0 } });
    await client.filters.fields();
    expect((await journal(since)).map((entry) => entry.status)).toEqual([503, 503, 503, 200]);
    expect(waits).toEqual([50, 100, 150]);
  });

  it("retries a GET whose connection was reset", async () => {
    await fault({ method: "GET", path: "/bulk_filters/fields", reset: "before", times: 2 });
    const since = await journalMark(emulator);
    const { client } = clientWith();
    await client.filters.fields();
    expect((await journal(since)).map((entry) => entry.status)).toEqual([0, 0, 200]);
  });

  it("retries PUT and DELETE", async () => {
    const { client } = clientWith();
    const [created] = await client.filters.create({ filters: [asset("h5-retried-put")] });
    await fault({ method: "PUT", path: "/bulk_filters", status: 503, times: 1 });
    // A 429 is retried after its Retry-After; without one (the alternate dialect) the wait is over a
    // minute (docs/api.md 10.1), so a 502 stands for it there.
    const refused = DIALECT_ANSWERS.retryAfterFromFaultRules ? 429 : 502;
    await fault({ method: "DELETE", path: "/bulk_filters", status: refused, retryAfter: 0, times: 1 });
    const since = await journalMark(emulator);
    await client.filters.update({ changes: [{ id: created!.id, enabled: false }] });
    expect(await client.filters.delete({ ids: [created!.id] })).toEqual([{ id: created!.id, name: "h5-retried-put" }]);
    expect((await journal(since, "/bulk_filters")).map((entry) => `${entry.method} ${entry.status}`)).toEqual(["PUT 503", "PUT 200", `DELETE ${refused}`, "DELETE 200"]);
  });

  it("never retries a POST, after a 503 or a reset", async () => {
    const { client, waits } = clientWith();
    await fault({ method: "POST", path: "/bulk_filters", status: 503, times: 5 });
    let since = await journalMark(emulator);
    const unavailable = await failure(client.filters.create({ filters: [asset("h5-post-503")] }));
    expect(unavailable).toBeInstanceOf(InternalServerError);
    expect(unavailable).toMatchObject({ status: 503, attempts: 1 });
    expect(await journal(since, "/bulk_filters")).toHaveLength(1);

    await emulator.control("DELETE", "faults");
    await fault({ method: "POST", path: "/bulk_filters", reset: "before", times: 5 });
    since = await journalMark(emulator);
    const reset = await failure(client.filters.create({ filters: [asset("h5-post-reset")] }));
    expect(reset).toBeInstanceOf(ConnectionError);
    expect((reset as ConnectionError).cause).toBeInstanceOf(Error);
    expect(await journal(since, "/bulk_filters")).toHaveLength(1);
    expect(waits).toEqual([]);
    expectNoSecret(reset);
  });

  it("gives up after maxRetries and says how many attempts were made", async () => {
    await fault({ method: "GET", path: "/bulk_filters/fields", status: 502, times: 10 });
    const since = await journalMark(emulator);
    const { client } = clientWith({ retry: { maxRetries: 2 } });
    const error = await failure(client.filters.fields());
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 502, attempts: 3 });
    expect(await journal(since)).toHaveLength(3);
  });

  it.skipIf(!DIALECT_ANSWERS.retryAfterFromFaultRules)("gives up at once when Retry-After asks for more than the remaining budget", async () => {
    await fault({ method: "GET", path: "/bulk_filters/fields", status: 429, retryAfter: 120, times: 5 });
    const since = await journalMark(emulator);
    const { client, waits } = clientWith({ retry: { budgetMs: 30_000 } });
    const error = await failure(client.filters.fields());
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 120_000, attempts: 1 });
    expect(waits).toEqual([]);
    expect(await journal(since)).toHaveLength(1);
  });

  it("times out an attempt that gets no answer in time, keeping the cause", async () => {
    await fault({ method: "GET", path: "/bulk_filters/categories", latencyMs: 400, times: 1 });
    const { client } = clientWith({ timeoutMs: 60, retry: { maxRetries: 0 } });
    const error = await failure(client.filters.lookup({ lookup: "categories" }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ timeoutMs: 60, path: "/bulk_filters/categories/", attempts: 1 });
    expect((error as TimeoutError).cause).toBeDefined();
    expectNoSecret(error);
  });

  it("applies a per-call timeout and retries a GET that timed out", async () => {
    await fault({ method: "GET", path: "/bulk_filters/continents", latencyMs: 400, times: 1 });
    const { client, waits } = clientWith({ timeoutMs: 30_000 });
    expect(await client.filters.lookup({ lookup: "continents" }, { timeoutMs: 60 })).toContain("Europe");
    expect(waits).toHaveLength(1);
  });

  it("reports a refused connection as ConnectionError after the retries", async () => {
    const closed = await startTestEmulator();
    const url = closed.url;
    await closed.close();
    const { client, waits } = clientWith({ baseUrl: url, retry: { maxRetries: 2 } });
    const error = await failure(client.filters.fields());
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ attempts: 3, message: expect.stringContaining("ECONNREFUSED") });
    expect(waits).toHaveLength(2);
    expectNoSecret(error);
  });

  it("stops at once when the caller aborts, with an AbortError that keeps the reason", async () => {
    // The emulator holds the request; the abort comes once the emulator has received it (observed on
    // Node's http.server.request.start channel: the emulator runs in this process), so the test
    // does not depend on timers.
    await fault({ method: "GET", path: "/bulk_filters/fields", latencyMs: 300, times: 1 });
    const since = await journalMark(emulator);
    const { client, waits } = clientWith();
    const controller = new AbortController();
    const reason = new Error("caller gave up");
    const abortOnArrival = () => controller.abort(reason);
    diagnosticsChannel.subscribe("http.server.request.start", abortOnArrival);
    try {
      const error = await failure(client.filters.fields({}, { signal: controller.signal }));
      expect(error).toBeInstanceOf(AbortError);
      expect(error).toBeInstanceOf(InsightsError);
      expect(error).toMatchObject({ name: "AbortError", cause: reason, message: expect.stringContaining("caller gave up") });
    } finally {
      diagnosticsChannel.unsubscribe("http.server.request.start", abortOnArrival);
    }
    expect(waits).toEqual([]);
    // The held request is journaled when the emulator is done with it; the call made no other.
    await emulator.state.journal.waitFor(since, (entries) => entries.some((entry) => entry.path === "/bulk_filters/fields"));
    expect(await journal(since, "/bulk_filters/fields")).toHaveLength(1);
  });

  it("wraps an abort before the call, and any abort reason, in an AbortError", async () => {
    const { client } = clientWith();
    const since = await journalMark(emulator);
    const error = await failure(client.filters.fields({}, { signal: AbortSignal.abort("stop") }));
    expect(error).toBeInstanceOf(AbortError);
    expect(error).toMatchObject({ cause: "stop", message: expect.stringContaining('"stop"') });
    // Only this call's path: a request an earlier test left in flight may reach the journal meanwhile.
    expect((await journal(since)).filter((entry) => entry.path === "/bulk_filters/fields")).toHaveLength(0);
  });
});

describe("call options", () => {
  it("refuses an invalid timeoutMs before taking a slot, so the account's bound stays whole", async () => {
    const { client } = clientWith({ maxConcurrency: 2 });
    const invalid: unknown[] = [10n, "100", -1, 0, Number.NaN, Symbol("t"), { ms: 5 }, 2 ** 40];
    for (const timeoutMs of invalid) {
      const error = await failure(client.filters.fields({}, { timeoutMs } as never));
      expect(error).toBeInstanceOf(ArgumentError);
      expect(error).toMatchObject({ path: "options.timeoutMs" });
    }
    expect(((await failure(client.filters.fields({}, { timeoutMs: 10n } as never))) as Error).message).toContain("got 10n");
    // Eight refusals later, both slots are free: two calls run and answer.
    const answers = await Promise.all([client.filters.fields(), client.filters.lookup({ lookup: "continents" })]);
    expect(answers[0].length).toBeGreaterThan(0);
    expect(answers[1]).toContain("Europe");
  });

  it("refuses a signal that is not an AbortSignal with an ArgumentError", async () => {
    const { client } = clientWith();
    const error = await failure(client.filters.fields({}, { signal: { aborted: false } } as never));
    expect(error).toBeInstanceOf(ArgumentError);
    expect(error).toMatchObject({ path: "options.signal", message: expect.stringContaining("must be an AbortSignal") });
  });

  it("describes a BigInt or a cyclic value in an ArgumentError, never throwing a TypeError", async () => {
    const { client } = clientWith();
    const bigint = await failure(client.filters.lookup({ lookup: 7n } as never));
    expect(bigint).toBeInstanceOf(ArgumentError);
    expect((bigint as Error).message).toContain("7n");
    const cycle: Record<string, unknown> = { name: "x" };
    cycle["self"] = cycle;
    const cyclic = await failure(client.filters.lookup({ lookup: cycle } as never));
    expect(cyclic).toBeInstanceOf(ArgumentError);
    expect((cyclic as Error).message).toContain("[Circular");
  });
});

describe("concurrency bound", () => {
  /** Sends a slow and a fast request at once; answers which the emulator answered first. */
  async function race(clientsOf: [InsightsClient, InsightsClient]): Promise<string[]> {
    await fault({ method: "GET", path: "/bulk_filters/countries", latencyMs: 250, times: 1 });
    const since = await journalMark(emulator);
    try {
      await Promise.all([clientsOf[0].filters.lookup({ lookup: "countries" }), clientsOf[1].filters.lookup({ lookup: "states" })]);
    } finally {
      await Promise.all(clientsOf.map((client) => client.close()));
    }
    // Only the two raced paths: a request another test of this file left in flight (an abort's
    // target, say) may still reach the journal inside this window.
    const raced = new Set(["/bulk_filters/countries", "/bulk_filters/states"]);
    return (await journal(since)).map((entry) => entry.path).filter((path) => raced.has(path));
  }

  it("runs requests in parallel up to maxConcurrency", async () => {
    const { client } = clientWith({ maxConcurrency: 2 });
    expect(await race([client, client])).toEqual(["/bulk_filters/states", "/bulk_filters/countries"]);
  });

  it("queues requests beyond maxConcurrency", async () => {
    const { client } = clientWith({ maxConcurrency: 1 });
    expect(await race([client, client])).toEqual(["/bulk_filters/countries", "/bulk_filters/states"]);
  });

  it("shares the bound between the clients of one account", async () => {
    const first = clientWith({ maxConcurrency: 1 }).client;
    const second = clientWith({ maxConcurrency: 1 }).client;
    expect(await race([first, second])).toEqual(["/bulk_filters/countries", "/bulk_filters/states"]);
  });
});

describe("lifecycle", () => {
  it("refuses calls after close()", async () => {
    const { client } = clientWith();
    await client.filters.fields();
    await client.close();
    await expect(client.filters.fields()).rejects.toThrow(/client is closed/);
    await client.close();
  });
});
