import { connect } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { seededRandom } from "../emulator/random";
import { DEV, useTestEmulator } from "./support/emulator";

// The emulator's HTTP layer under malformed input: every answer to a request the client got wrong
// is a 4xx, never a 5xx, and the emulator logs as internal errors only its own defects. The fuzz is
// seeded and bounded in count, so a failure replays the same requests; requests go over raw
// sockets, because an HTTP client of ours would refuse to send most of them.

const emulator = useTestEmulator();

/** Lines the emulator wrote to stderr during the test (its internal-error log). */
let stderrLines: string[] = [];
beforeEach(() => {
  stderrLines = [];
  const write = process.stderr.write.bind(process.stderr);
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    stderrLines.push(String(chunk));
    return write(chunk, ...(rest as []));
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** What came back on one connection: the status of the first answer, or 0 when none came. */
interface RawAnswer {
  status: number;
  text: string;
}

/**
 * Sends `bytes` on a new loopback connection and reads until the server closes it (every request
 * asks for `Connection: close`). Never rejects: a reset before an answer is status 0.
 */
function sendRaw(port: number, bytes: Buffer | string, after: "end" | "wait" | "destroy" = "end"): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect({ port, host: "127.0.0.1" }, () => {
      if (after === "destroy") socket.write(bytes, () => socket.destroy());
      else socket.write(bytes);
      if (after === "end") socket.end();
    });
    const finish = () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: match ? Number(match[1]) : 0, text });
    };
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => undefined);
    socket.on("close", finish);
  });
}

const port = (): number => Number(new URL(emulator.url).port);
const DEV_AUTHORIZATION = `Basic ${Buffer.from(`${DEV.clientId}:${DEV.clientSecret}`).toString("base64")}`;

/** One path per endpoint family of spec section 4 (sessions, metrics, alerts, saved filters, PII, lookups). */
const ENDPOINT_PATHS = [
  "/insights/3.0/sessions/content",
  "/insights/3.0/sessions/ad",
  "/insights/3.0/sessions/content/viewer",
  "/insights/3.0/sessions/ad/viewer",
  "/insights/3.0/sessions/content/viewer/summary",
  "/insights/3.0/sessions/_meta/references/dimensions",
  "/insights/3.0/sessions/_meta/references/endpoints",
  "/insights/3.0/metrics/plays",
  "/insights/3.0/metrics/plays/group-by/country",
  "/insights/3.0/metrics/custom-selection",
  "/insights/3.0/metrics/custom-selection/group-by/dimension-tag/genre",
  "/insights/3.0/metrics/video-start-time/group-by",
  "/insights/3.0/real-time-metrics/concurrent-plays",
  "/insights/3.0/real-time-metrics/custom-selection/group-by/country",
  "/3.0/metrics/_meta/references/filters",
  "/kpis",
  "/insights/2.6/ai-alerts/content-metrics",
  "/insights/2.6/ai-alerts/ad-metrics/alert-1",
  "/bulk_filters/",
  "/bulk_filters/fields",
  "/bulk_filters/subcategories",
  "/bulk_filters/countries",
  "/pii-opt-out",
] as const;

/** Path segments and query values a careless or hostile client sends. */
const BAD_SEGMENTS = ["%zz", "%", "%E2%82", "%00", "%2F", "..", ".", "", "é", "a%20b", "x".repeat(3000), "-1", "1e309", "NaN", "__proto__", "constructor", "%C0%AF", ";", "a:b", "*"];
const BAD_VALUES = ["", "-1", "0", "1e309", "NaN", "Infinity", "%zz", "%", "abc", "2026-13-45", "2026-11-20T25:61:00Z", "99999999999999999999", "true", "null", ",,,", "[]", "{}", "x".repeat(4000), "P10000W", "PT0S", "ALL", "__proto__", "%E2%82", "2026-11-20", "1700000000000"];
const QUERY_KEYS = ["start", "end", "last_days", "last_minutes", "last_hours", "limit", "granularity", "metric", "id", "name", "fields", "severity", "status", "alert_metric", "creator", "enabled", "advanced", "created", "viewer_id", "viewer_ip", "filter_id", "pattern", "category", "subcategory", "timezone", "tag_genre", "country", "sort", "group_by_limit", "__proto__", "", "%zz", "constructor"];
const BAD_HOSTS = ["[bad", "a b", "%zz", "127.0.0.1:99999", "", "exa mple", "[::1", "user@", "::::"];
const METHODS = ["GET", "GET", "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"];

/** Deterministic choices from one seed. */
function chooser(seed: number) {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  return { random, pick };
}

type Chooser = ReturnType<typeof chooser>;

/** A random JSON-ish value: wrong types, deep nesting, filter-like and PII-like shapes. */
function randomJson({ random, pick }: Chooser, depth = 0): unknown {
  const roll = random();
  if (depth > 4 || roll < 0.3) return pick([null, true, 0, -1, 1e308, "", "x", "viewer-1", "user-2", pick(BAD_VALUES), 12.5]);
  if (roll < 0.55) return Array.from({ length: Math.floor(random() * 4) }, () => randomJson({ random, pick }, depth + 1));
  const keys = ["name", "category", "subcategory", "advanced", "content", "enabled", "rules", "id", "viewer_id", "user_id", "identifiers", "email", "op", "field", "value", "__proto__"];
  const object: Record<string, unknown> = {};
  for (let index = Math.floor(random() * 5); index > 0; index--) object[pick(keys)] = randomJson({ random, pick }, depth + 1);
  return object;
}

/** A request body: JSON of a wrong shape, text that is not JSON, deep nesting, or invalid UTF-8. */
function randomBody(choose: Chooser): Buffer {
  const kind = choose.random();
  if (kind < 0.55) return Buffer.from(JSON.stringify(randomJson(choose)));
  if (kind < 0.65) return Buffer.from(JSON.stringify([randomJson(choose), randomJson(choose), randomJson(choose)]));
  if (kind < 0.75) return Buffer.from(choose.pick(["{", "[1,", "nul", "\u0000", "{\"a\":}", "'x'", "1 2"]));
  if (kind < 0.82) return Buffer.from(`${"[".repeat(20_000)}${"]".repeat(20_000)}`);
  if (kind < 0.88) return Buffer.from(`[${'{"name":"f","rules":'.repeat(200)}null${"}".repeat(200)}]`);
  if (kind < 0.94) return Buffer.from([0x5b, 0x22, 0xff, 0xfe, 0xc0, 0x22, 0x5d]);
  return Buffer.alloc(0);
}

/** One malformed request as bytes: method, a mangled target, a mangled query, headers and a body. */
function malformedRequest(choose: Chooser, host: string): Buffer {
  const { random, pick } = choose;
  const segments = pick(ENDPOINT_PATHS).split("/");
  if (random() < 0.6) segments[1 + Math.floor(random() * (segments.length - 1))] = pick(BAD_SEGMENTS);
  if (random() < 0.1) segments.push(pick(BAD_SEGMENTS));
  let path = segments.join("/");
  if (random() < 0.05) path = path.replace(/^\//, "");
  const query = Array.from({ length: Math.floor(random() * 5) }, () => {
    const key = pick(QUERY_KEYS);
    return random() < 0.1 ? pick(["&&", "=", "=x", "a=%", "%=1", "a==b"]) : `${key}=${pick(BAD_VALUES)}`;
  }).join("&");
  let target = query === "" ? path : `${path}?${query}`;
  const form = random();
  if (form < 0.12) target = `http://${pick(BAD_HOSTS)}${target.startsWith("/") ? target : `/${target}`}`;
  else if (form < 0.15) target = `http://${host}${target.startsWith("/") ? target : `/${target}`}`;
  else if (form < 0.17) target = pick(["*", "http://", "//x", "http:/x", "mailto:x", "file:///etc/passwd", "javascript:1"]);
  const method = pick(METHODS);
  const body = method === "GET" && random() < 0.9 ? Buffer.alloc(0) : randomBody(choose);
  const authorization = pick([DEV_AUTHORIZATION, DEV_AUTHORIZATION, DEV_AUTHORIZATION, "", "Basic %%%", "Basic ", `Basic ${Buffer.from("dev").toString("base64")}`, `Basic ${Buffer.from("dev:wrong").toString("base64")}`, "Bearer x"]);
  const headers = [
    `${method} ${target} HTTP/1.1`,
    `host: ${random() < 0.9 ? host : pick(BAD_HOSTS)}`,
    "connection: close",
    ...(authorization === "" ? [] : [`authorization: ${authorization}`]),
    ...(body.length > 0 || random() < 0.3 ? [`content-type: ${pick(["application/json", "text/plain", "application/json; charset=latin1", ""])}`] : []),
  ];
  if (body.length > 0 && random() < 0.15) {
    // A well-formed chunked body in two chunks.
    const half = Math.floor(body.length / 2);
    const chunk = (part: Buffer) => (part.length === 0 ? "" : `${part.length.toString(16)}\r\n${part.toString("latin1")}\r\n`);
    return Buffer.from(`${headers.join("\r\n")}\r\ntransfer-encoding: chunked\r\n\r\n${chunk(body.subarray(0, half))}${chunk(body.subarray(half))}0\r\n\r\n`, "latin1");
  }
  return Buffer.concat([Buffer.from(`${headers.join("\r\n")}\r\ncontent-length: ${body.length}\r\n\r\n`, "latin1"), body]);
}

/** Runs `count` requests from `make` with `parallel` connections at a time; answers every status. */
async function runAll(count: number, parallel: number, make: (index: number) => Buffer): Promise<RawAnswer[]> {
  const answers: RawAnswer[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      answers[index] = await sendRaw(port(), make(index));
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return answers;
}

/** True when the emulator still answers a well-formed request as before. */
async function stillServes(): Promise<void> {
  const health = await emulator.control("GET", "health");
  expect(health.status).toBe(200);
  expect((await emulator.get("/bulk_filters/fields")).status).toBe(200);
}

describe("emulator under malformed requests", () => {
  it("answers a bad %-escape in a path segment with 400 naming the segment", async () => {
    const answer = await emulator.get("/bulk_filters/%zz/");
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: "invalid_path", parameter: "lookup" });
    const metric = await emulator.get("/insights/3.0/metrics/%E2%82/group-by/country");
    expect(metric.status).toBe(400);
    expect(metric.body).toMatchObject({ parameter: "metric" });
  });

  it("answers an absolute-form target with an unreadable host with 400, and serves a readable one", async () => {
    const host = new URL(emulator.url).host;
    const bad = await sendRaw(port(), `GET http://[bad/bulk_filters/fields HTTP/1.1\r\nhost: ${host}\r\nauthorization: ${DEV_AUTHORIZATION}\r\nconnection: close\r\n\r\n`);
    expect(bad.status).toBe(400);
    const good = await sendRaw(port(), `GET http://${host}/bulk_filters/fields HTTP/1.1\r\nhost: ${host}\r\nauthorization: ${DEV_AUTHORIZATION}\r\nconnection: close\r\n\r\n`);
    expect(good.status).toBe(200);
  });

  it("answers 413 to a body over 10 MiB, whether sent in full or only declared", async () => {
    const oversized = await emulator.call("POST", "/bulk_filters/", { body: `[${" ".repeat(10 * 1024 * 1024)}]` });
    expect(oversized.status).toBe(413);
    expect(oversized.body).toMatchObject({ error: "body_too_large" });
    const host = new URL(emulator.url).host;
    const declared = await sendRaw(
      port(),
      `POST /bulk_filters/ HTTP/1.1\r\nhost: ${host}\r\nauthorization: ${DEV_AUTHORIZATION}\r\ncontent-type: application/json\r\ncontent-length: ${200 * 1024 * 1024}\r\n\r\n[`,
      "wait",
    );
    expect(declared.status).toBe(413);
    await stillServes();
  });

  it("logs nothing when a client disconnects in the middle of a body", async () => {
    const host = new URL(emulator.url).host;
    const gone = await sendRaw(port(), `POST /bulk_filters/ HTTP/1.1\r\nhost: ${host}\r\nauthorization: ${DEV_AUTHORIZATION}\r\ncontent-length: 5000\r\n\r\n[{"name":`, "destroy");
    expect(gone.status).toBe(0);
    // The next request is served after the emulator has seen the disconnect on the same event loop.
    await stillServes();
    expect(stderrLines.filter((line) => line.includes("internal error"))).toEqual([]);
  });

  it("answers 3000 seeded malformed requests on every endpoint family with 4xx or 2xx, never 5xx, and keeps serving", async () => {
    const host = new URL(emulator.url).host;
    const choose = chooser(20261124);
    const requests = Array.from({ length: 3000 }, () => malformedRequest(choose, host));
    const answers = await runAll(requests.length, 8, (index) => requests[index]!);
    expect(answers).toHaveLength(3000);
    const byStatus = new Map<number, number>();
    for (const answer of answers) byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
    const serverErrors = answers.flatMap((answer, index) => (answer.status >= 500 ? [`${requests[index]!.toString("latin1").split("\r\n")[0]!.slice(0, 200)} -> ${answer.text.split("\r\n\r\n")[1]?.slice(0, 200)}`] : []));
    expect(serverErrors).toEqual([]);
    // Every request got an answer (none was met with a reset), and most were refused as they should be.
    expect(byStatus.get(0) ?? 0).toBe(0);
    const refused = answers.filter((answer) => answer.status >= 400 && answer.status < 500).length;
    expect(refused).toBeGreaterThan(1500);
    expect(stderrLines.filter((line) => line.includes("internal error"))).toEqual([]);
    await stillServes();
  });
});
