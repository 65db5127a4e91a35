import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  BadRequestError,
  DEFAULT_CLIENT_OPTIONS,
  InsightsClient,
  InternalServerError,
  RedirectError,
  ResponseTooLargeError,
  type InsightsClientOptions,
} from "../provider/client";
import { MAX_KEPT_ERROR_BODY } from "../provider/client/core/errors";
import { isOutcomeUnknown } from "../provider/client/core/retry";
import { FilterGateway } from "../provider/saved-filters/gateway/filter-gateway";
import { isDeclaredFilter } from "../provider/saved-filters/model/state";
import { listedItems, useTestEmulator } from "./support/emulator";
import { failure } from "./support/failure";
import { journalMark, requestsSince } from "./support/query-families";
import { startRawServer, streamBody, type RawHandler, type RawServer, type Streamed } from "./support/raw-server";

// Answers no service of the contract gives, from hand-written servers on loopback (test/support/
// raw-server.ts): endless and oversized bodies, endless error bodies, redirects (docs/api.md 11.7).
// The emulator serves only as the account behind a server that swaps its answers. The servers are
// ours, not the emulator's dialect, so this file runs once (not a client-* file, vitest.config.mts).

const SECRET = "s3cr3t-hostile-never-print-me";
const MB = 1_000_000;
/** More than the client may read, but less than a body the client read to its end would reach. */
const WRITTEN_BOUND = 64 * MB;
const rules = (value: string) => ({ op: "and" as const, rules: [{ op: "or" as const, rules: [{ field: "Asset Name", op: "contains" as const, value }] }] });

let respond: RawHandler = (_request, response) => void response.writeHead(500).end();
let server: RawServer;
/** Where the redirects point: it must never be asked anything. */
let elsewhere: RawServer;
const clients: InsightsClient[] = [];

beforeAll(async () => {
  server = await startRawServer((request, response, body) => respond(request, response, body));
  elsewhere = await startRawServer((_request, response) => void response.writeHead(200, { "content-type": "application/json" }).end("{}"));
});
afterEach(() => {
  server.requests.length = 0;
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await Promise.all([server.close(), elsewhere.close()]);
});

/** A client of the hostile server with retries on (default 3) and their waits recorded, not slept. */
function hostileClient(options: InsightsClientOptions = {}): { client: InsightsClient; waits: number[] } {
  const waits: number[] = [];
  const client = new InsightsClient({
    baseUrl: server.url,
    clientId: "hostile-test",
    clientSecret: SECRET,
    env: {},
    rateBudget: false,
    ...options,
    retry: { random: () => 0.5, sleep: async (ms) => void waits.push(ms), ...options.retry },
  });
  clients.push(client);
  return { client, waits };
}

/** Answers every request with `status`, `headers` and `chunk` repeated up to `total` bytes (default: forever); `served` settles with how it ended. */
function streaming(status: number, headers: Record<string, string | number>, chunk: string, total?: number): { served: Promise<Streamed> } {
  let settle!: (streamed: Streamed) => void;
  const served = new Promise<Streamed>((resolve) => (settle = resolve));
  respond = (_request, response) => {
    response.writeHead(status, headers);
    void streamBody(response, Buffer.from(chunk), total).then(settle);
  };
  return { served };
}

describe("answers larger than the client reads", () => {
  it("ends an endless successful answer at maxResponseBytes with a ResponseTooLargeError that names the limit, sent once", async () => {
    const { served } = streaming(200, { "content-type": "application/json" }, '{"values":["Tag",' + '"Country",'.repeat(6_000));
    const { client, waits } = hostileClient();
    const error = await failure(client.filters.fields());
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    const limit = DEFAULT_CLIENT_OPTIONS.maxResponseBytes;
    expect(limit).toBeGreaterThan(5_700_000);
    expect(error).toMatchObject({ status: 200, limitBytes: limit, attempts: 1, path: "/bulk_filters/fields" });
    expect((error as Error).message).toBe(
      `GET /bulk_filters/fields: the HTTP 200 answer is larger than the client's limit of ${limit} bytes (maxResponseBytes); reading stopped there; ` +
        "the API answers nothing that large (it refuses answers over 5,700,000 bytes with HTTP 413, spec 8): check the base URL",
    );
    // The same request meets the same answer: not retried, though a GET.
    expect(server.requests).toHaveLength(1);
    expect(waits).toEqual([]);
    const streamed = await served;
    expect(streamed.closedByClient).toBe(true);
    expect(streamed.written).toBeLessThan(WRITTEN_BOUND);
    expect(JSON.stringify(error)).not.toContain(SECRET);
  });

  it("reads an answer of exactly maxResponseBytes and refuses one byte more", async () => {
    const answer = (size: number) => {
      const head = '{"values":["Tag","';
      return `${head}${"x".repeat(size - head.length - 3)}"]}`;
    };
    const { client } = hostileClient({ maxResponseBytes: 5_000 });
    streaming(200, { "content-type": "application/json" }, answer(5_000), 5_000);
    expect(await client.filters.fields()).toEqual(["Tag", "x".repeat(5_000 - 21)]);
    streaming(200, { "content-type": "application/json" }, answer(5_001), 5_001);
    expect(await failure(client.filters.fields())).toMatchObject({ name: "ResponseTooLargeError", limitBytes: 5_000 });
  });

  it("refuses a 200 MB answer that announces its length without reading it", async () => {
    const { served } = streaming(200, { "content-type": "application/json", "content-length": 200 * MB }, " ", 200 * MB);
    const { client } = hostileClient();
    const error = await failure(client.filters.list({}));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ announcedBytes: 200 * MB, limitBytes: DEFAULT_CLIENT_OPTIONS.maxResponseBytes });
    expect((error as Error).message).toContain(`answer announces 200000000 bytes, more than the client's limit of ${DEFAULT_CLIENT_OPTIONS.maxResponseBytes} bytes (maxResponseBytes); it was not read`);
    expect((await served).written).toBeLessThan(WRITTEN_BOUND);
  });

  it("keeps the process of a call under 300 MB with an endless answer and 200 MB ones with and without a length", async () => {
    const clientModule = path.resolve(__dirname, "../dist/provider/client/index.js");
    expect(existsSync(clientModule), `${clientModule} is missing: run \`npm run build\` first`).toBe(true);
    const chunk = Buffer.from('"Country",'.repeat(6_500));
    const written: Array<Promise<Streamed>> = [];
    respond = (request, response) => {
      if (request.method === "GET" && request.url?.startsWith("/bulk_filters/fields")) {
        response.writeHead(200, { "content-type": "application/json" });
        written.push(streamBody(response, chunk));
      } else if (request.method === "POST") {
        response.writeHead(201, { "content-type": "application/json" });
        written.push(streamBody(response, chunk, 200 * MB));
      } else {
        response.writeHead(200, { "content-type": "application/json", "content-length": 200 * MB });
        written.push(streamBody(response, chunk, 200 * MB));
      }
    };
    // The calls run in a process of their own from the tsc build, so its peak memory is theirs alone.
    const script = `
      const [clientModule, baseUrl] = process.argv.slice(1);
      const { InsightsClient } = require(clientModule);
      const client = new InsightsClient({ baseUrl, clientId: "hostile-test", clientSecret: "secret", env: {}, rateBudget: false });
      const rules = { op: "and", rules: [{ op: "or", rules: [{ field: "Asset Name", op: "contains", value: "x" }] }] };
      const calls = [() => client.filters.fields(), () => client.filters.create({ filters: [{ name: "x", rules }] }), () => client.filters.list({})];
      (async () => {
        const outcomes = [];
        for (const call of calls) outcomes.push(await call().then(() => "resolved", (error) => error.name));
        await client.close();
        process.stdout.write(JSON.stringify({ outcomes, maxRssBytes: process.resourceUsage().maxRSS * 1024 }));
      })();
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ["-e", script, clientModule, server.url], { env: { PATH: process.env.PATH ?? "" } });
    const { outcomes, maxRssBytes } = JSON.parse(stdout) as { outcomes: string[]; maxRssBytes: number };
    expect(outcomes).toEqual(["ResponseTooLargeError", "ResponseTooLargeError", "ResponseTooLargeError"]);
    expect(maxRssBytes).toBeLessThan(300 * 1024 * 1024);
    for (const streamed of await Promise.all(written)) expect(streamed).toMatchObject({ closedByClient: true, written: expect.any(Number) });
    expect(Math.max(...(await Promise.all(written)).map((streamed) => streamed.written))).toBeLessThan(WRITTEN_BOUND);
  });
});

describe("error answers", () => {
  /** Every rendering of an error a user or a log may make stays small. */
  function expectBounded(error: unknown): void {
    const body = (error as { body: unknown }).body;
    expect(typeof body).toBe("string");
    expect((body as string).length).toBeLessThanOrEqual(MAX_KEPT_ERROR_BODY);
    expect(JSON.stringify(error).length).toBeLessThan(2 * MAX_KEPT_ERROR_BODY);
    expect((error as Error).message.length).toBeLessThan(1_000);
  }

  it("keeps an endless error body to a bounded excerpt and stops reading it", async () => {
    const { served } = streaming(500, { "content-type": "text/plain" }, "the disk is full; ");
    const { client } = hostileClient({ retry: { maxRetries: 0 } });
    const error = await failure(client.filters.fields({}, { maxRetries: 0 }));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 500, detail: expect.stringMatching(/^the disk is full; /) });
    expect((error as InternalServerError).body).toMatch(/^the disk is full; .*…$/);
    expectBounded(error);
    const streamed = await served;
    expect(streamed.closedByClient).toBe(true);
    expect(streamed.written).toBeLessThan(WRITTEN_BOUND);
  });

  it("keeps a 50 MB JSON error body, announced or not, to a bounded excerpt", async () => {
    const { client } = hostileClient();
    for (const headers of [{ "content-type": "application/json", "content-length": 50 * MB }, { "content-type": "application/json" }]) {
      let served!: Promise<Streamed>;
      respond = (_request, response) => {
        response.writeHead(400, headers);
        response.write('{"message":"');
        served = streamBody(response, Buffer.from("x".repeat(65_536)), 50 * MB - 12, '"}');
      };
      const error = await failure(client.filters.fields());
      expect(error).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).body).toMatch(/^\{"message":"x+…$/);
      expectBounded(error);
      expect(await served).toMatchObject({ closedByClient: true });
      expect((await served).written).toBeLessThan(WRITTEN_BOUND);
    }
  });

  it("reads the explanation of a JSON error body and keeps an excerpt of it when it is long", async () => {
    const answer = JSON.stringify({ message: "disk full", parameter: "name", trace: Array.from({ length: 2_000 }, (_, index) => `frame ${index}`) });
    respond = (_request, response) => void response.writeHead(400, { "content-type": "application/json" }).end(answer);
    const { client } = hostileClient();
    const error = await failure(client.filters.fields());
    expect(error).toMatchObject({ status: 400, detail: "disk full", parameter: "name" });
    expect((error as BadRequestError).body).toBe(`${answer.slice(0, MAX_KEPT_ERROR_BODY - 1)}…`);
    expectBounded(error);
  });
});

describe("redirects", () => {
  const emulator = useTestEmulator();
  /** A listing of one filter, as the emulator answers it: it fits the schema of a listing and of a create answer. */
  let listing: string;

  beforeAll(async () => {
    const created = await emulator.call("POST", "/bulk_filters/", { body: [{ name: "Harbor Lights", rules: rules("Harbor") }] });
    expect(created.status).toBe(201);
    listing = JSON.stringify(created.body);
  });

  const redirecting = (status: number, body: string, location = `${elsewhere.url}/bulk_filters/`) => {
    respond = (_request, response) => void response.writeHead(status, { location, "content-type": "application/json" }).end(body);
  };

  for (const status of [301, 302, 303, 307, 308]) {
    it(`refuses a ${status} to a read, a create and an update, following none and naming the host`, async () => {
      const { client, waits } = hostileClient();
      const calls = [
        () => client.filters.list({}),
        () => client.filters.create({ filters: [{ name: "Harbor Lights", rules: rules("Harbor") }] }),
        () => client.filters.update({ changes: [{ id: "1", enabled: false }] }),
      ];
      const bodies = [listing, listing, "{}"];
      for (const [index, call] of calls.entries()) {
        server.requests.length = 0;
        redirecting(status, bodies[index]!);
        const error = await failure(call());
        expect(error).toBeInstanceOf(RedirectError);
        expect(error).toMatchObject({ status, locationHost: elsewhere.host, attempts: 1 });
        expect((error as Error).message).toContain(`failed with HTTP ${status}: a redirect to the host ${elsewhere.host}, not followed`);
        expect(server.requests).toHaveLength(1);
        if (index === 1) {
          // RFC 9110 15.4: a 307 or 308 asks to repeat the request elsewhere (nothing was done here); after the others a create may have been made.
          expect(isOutcomeUnknown(error), `POST ${status}`).toBe(status !== 307 && status !== 308);
        }
      }
      expect(waits).toEqual([]);
      expect(elsewhere.requests).toEqual([]);
    });
  }

  it("says when a redirect stays on the same host or names no place", async () => {
    const { client } = hostileClient();
    redirecting(302, listing, "/login?next=%2Fbulk_filters%2F");
    const relative = await failure(client.filters.list({}));
    expect(relative).toMatchObject({ status: 302, message: expect.stringContaining("a redirect to another path of the same host, not followed") });
    expect((relative as RedirectError).locationHost).toBeUndefined();
    respond = (_request, response) => void response.writeHead(302).end();
    expect(await failure(client.filters.list({}))).toMatchObject({ message: expect.stringContaining("a redirect without a Location, not followed") });
    expect(elsewhere.requests).toEqual([]);
  });
});

describe("a create whose answer is unusable, through the saved-filter gateway", () => {
  const emulator = useTestEmulator({}, { resetEach: true });
  /** How the server in front of the emulator treats a create: forwards it and swaps the answer, or answers alone. */
  let onCreate: "endless answer" | "see other" | "temporary redirect";

  beforeAll(() => {
    respond = async (request, response, body) => {
      const create = request.method === "POST";
      if (create && onCreate === "temporary redirect") return void response.writeHead(307, { location: `${elsewhere.url}/bulk_filters/` }).end();
      const forwarded = await fetch(new URL(request.url ?? "/", emulator.url), {
        method: request.method ?? "GET",
        headers: { authorization: request.headers.authorization ?? "", ...(body.length > 0 ? { "content-type": "application/json" } : {}) },
        ...(body.length > 0 ? { body } : {}),
      });
      const text = await forwarded.text();
      if (create && onCreate === "see other") {
        // What a 303 carries is not the create's answer: here it fits the schema but names another id.
        const created = listedItems<Record<string, unknown>>(JSON.parse(text), "filters");
        return void response.writeHead(303, { location: "/bulk_filters/" }).end(JSON.stringify(created.map((filter) => ({ ...filter, id: 999_999 }))));
      }
      response.writeHead(forwarded.status, { "content-type": "application/json" });
      if (create) void streamBody(response, Buffer.from(text.repeat(100)));
      else response.end(text);
    };
  });

  /** A gateway of a client of the swapping server, which looks at the account once after an unknown outcome. */
  function gateway(): FilterGateway {
    const { client } = hostileClient({ clientId: "dev", clientSecret: "dev-secret" });
    return new FilterGateway(() => client.filters, { isDeclared: isDeclaredFilter, outcomeWait: () => ({ waitMs: 0, clock: { now: () => 0, sleep: async () => {} } }) });
  }
  const posts = async (mark: number) => (await requestsSince(emulator, mark)).filter((entry) => entry.method === "POST").length;

  for (const swap of ["endless answer", "see other"] as const) {
    it(`finds the filter in the account after a 201 with an ${swap === "endless answer" ? "endless answer" : "answer swapped for a 303"}, posted once`, async () => {
      onCreate = swap;
      const mark = await journalMark(emulator);
      const [made] = gateway().createAll([{ input: { name: "Harbor Lights", rules: rules("Harbor") }, findEarlier: false }]);
      const found = await made;
      const account = await emulator.get("/bulk_filters/", { name: "Harbor Lights" });
      expect(account.body.filters).toHaveLength(1);
      expect(found).toMatchObject({ name: "Harbor Lights", id: String(account.body.filters[0].id) });
      expect(await posts(mark)).toBe(1);
    });
  }

  it("fails a create answered with a 307, made nowhere and sent nowhere else", async () => {
    onCreate = "temporary redirect";
    const mark = await journalMark(emulator);
    const [made] = gateway().createAll([{ input: { name: "Harbor Lights", rules: rules("Harbor") }, findEarlier: false }]);
    const error = await failure(made!);
    expect(error).toBeInstanceOf(RedirectError);
    expect(error).toMatchObject({ status: 307 });
    expect(await posts(mark)).toBe(0);
    expect(elsewhere.requests).toEqual([]);
  });
});
