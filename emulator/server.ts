import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { handleControl } from "./control";
import { foreignControlRequest } from "./local-only";
import { errorAnswer, PLAIN_TEXT } from "./dialect";
import { badRequest, HttpError, type RouteResult } from "./http";
import type { AccountState } from "./accounts";
import type { FaultRule } from "./faults";
import { createApiRouter } from "./routes";
import { EmulatorState, type EmulatorOptions } from "./state";

/** A running emulator. */
export interface RunningEmulator {
  /** Base URL, for example `http://127.0.0.1:43117`. */
  url: string;
  /** The emulator's state, for in-process tests that want to look inside. */
  state: EmulatorState;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;
const router = createApiRouter();

/**
 * Starts an emulator of the whole Insights API (spec section 4) on loopback.
 * `startEmulator({ port: 0 })` picks a free port, as tests want.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const state = new EmulatorState(options);
  const bound = options.host ?? "127.0.0.1";
  const server = createServer((request, response) => {
    handle(state, request, response, bound).catch((error: unknown) => {
      // A bug in the emulator must not crash it: answer 500 and say so on stderr. Only its own
      // defects get here: what a client did wrong is answered 4xx by handle().
      process.stderr.write(`insights-emulator: internal error: ${error instanceof Error ? error.stack : String(error)}\n`);
      if (!response.headersSent && !response.destroyed) send(response, 500, { status: 500, error: "internal_error", message: "internal emulator error" });
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(state: EmulatorState, request: IncomingMessage, response: ServerResponse, bound: string): Promise<void> {
  const body = await readBody(request);
  // A client that left mid-body gets no answer and is nobody's defect.
  if (body.kind === "gone") return;
  if (body.kind === "too-large") {
    send(response, 413, { status: 413, error: "body_too_large", message: `the request body is over ${MAX_BODY_BYTES} bytes` }, { connection: "close" });
    return;
  }
  const rawBody = body.text;
  const url = requestUrl(request.url);
  if (url === undefined) {
    const error = badRequest("the request target is not a path or an absolute URL this server can read", undefined, "invalid_request_target");
    send(response, error.status, error.toBody());
    return;
  }
  const method = (request.method ?? "GET").toUpperCase();
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, "") : url.pathname;

  if (path === "/_emulator" || path.startsWith("/_emulator/")) {
    // For this machine only (local-only.ts): a web page elsewhere must not drive or read it.
    const refusal = foreignControlRequest(request, method, bound);
    if (refusal !== undefined) send(response, refusal.status, refusal.toBody());
    else await handleControlRequest(state, method, path, url.searchParams, rawBody, response);
    return;
  }

  const nowMs = state.clock.now();
  const account = authenticate(state, request.headers.authorization);
  const journal = (status: number, fault?: FaultRule, reset?: boolean) =>
    state.journal.record({
      at: new Date(nowMs).toISOString(),
      method,
      path,
      query: url.search.replace(/^\?/, ""),
      status,
      ...(account ? { account: account.config.clientId } : {}),
      ...(fault ? { fault: fault.id } : {}),
      ...(reset ? { reset } : {}),
    });

  const fault = state.faults.match(method, path, account?.config.clientId);
  const latency = state.latencyMs + (fault?.latencyMs ?? 0);
  if (latency > 0) await sleep(latency);
  // A late write is handled whatever became of the connection meanwhile (emulator/README.md "Fault rules").
  if (fault?.lateWriteMs !== undefined) await sleep(fault.lateWriteMs);
  if (fault?.reset === "before") {
    journal(0, fault, true);
    request.socket.destroy();
    return;
  }
  if (fault?.status !== undefined) {
    const headers: Record<string, string> = {};
    // The alternate dialect never sends Retry-After, even when a fault rule gives one.
    if (fault.retryAfter !== undefined && account?.dialect !== "alternate") headers["retry-after"] = String(fault.retryAfter);
    const body = fault.body ?? { status: fault.status, error: "injected_fault", message: `fault ${fault.id} injected by the emulator's control plane` };
    journal(fault.status, fault);
    send(response, fault.status, body, headers);
    return;
  }

  // The service's rate budgets (docs/api.md 8, 10.1): a 429 without Retry-After, as the service
  // answers it; a fault rule gives the Retry-After variant.
  const refusal = state.rateBudgets.admit(request.socket.remoteAddress ?? "unknown", account?.config.clientId, path, nowMs);
  if (refusal) {
    journal(429, fault);
    const answer = errorAnswer(new HttpError(429, "rate_limited", refusal.message), account?.dialect ?? "standard", path);
    send(response, 429, answer.body, answer.headers);
    return;
  }

  let result: RouteResult;
  if (!account) {
    // docs/api.md 10.1: a bad credential gets 401 with {"message":"Unauthorized"}.
    result = { status: 401, body: { message: "Unauthorized" }, headers: { "www-authenticate": 'Basic realm="insights"' } };
  } else {
    result = await route(state, account, method, path, url.searchParams, rawBody, nowMs);
  }
  const status = result.status ?? 200;
  // Only a successful write changes state; persist() itself does nothing without a state file.
  if (method !== "GET" && status >= 200 && status < 300) state.persist();
  if (fault?.reset === "after-write") {
    // The write above is applied; the answer is lost on the way (the case callers must reconcile).
    journal(0, fault, true);
    request.socket.destroy();
    return;
  }
  journal(status, fault);
  send(response, status, result.body, result.headers);
}

async function route(
  state: EmulatorState,
  account: AccountState,
  method: string,
  path: string,
  query: URLSearchParams,
  rawBody: string,
  nowMs: number,
): Promise<RouteResult> {
  try {
    const resolved = router.resolve(method, path);
    if (!resolved) throw new HttpError(404, "not_found", `no endpoint ${method} ${path}; see the spec's section 4 for the paths`);
    if ("methodNotAllowed" in resolved) {
      throw new HttpError(405, "method_not_allowed", `${method} is not allowed on ${path}; allowed: ${resolved.methodNotAllowed.join(", ")}`, undefined, {
        allow: resolved.methodNotAllowed.join(", "),
      });
    }
    const body = parseJsonBody(rawBody);
    return await resolved.handler({ method, path, query, params: resolved.params, body, account, emulator: state, nowMs });
  } catch (error) {
    if (error instanceof HttpError) return errorAnswer(error, account.dialect, path);
    throw error;
  }
}

async function handleControlRequest(
  state: EmulatorState,
  method: string,
  path: string,
  query: URLSearchParams,
  rawBody: string,
  response: ServerResponse,
): Promise<void> {
  try {
    const body = parseJsonBody(rawBody);
    const result = handleControl(state, method, path, query, body);
    if (!result) throw new HttpError(404, "not_found", `no control endpoint ${method} ${path}; see emulator/README.md`);
    if (method !== "GET") state.persist();
    send(response, result.status ?? 200, result.body, result.headers);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    send(response, error.status, error.toBody(), error.headers);
  }
}

/** The JSON body of a request, undefined when empty; 400 when it is not JSON. */
function parseJsonBody(rawBody: string): unknown {
  if (rawBody.length === 0) return undefined;
  try {
    return JSON.parse(rawBody);
  } catch {
    throw new HttpError(400, "invalid_json", "the request body is not valid JSON", "body");
  }
}

function authenticate(state: EmulatorState, header: string | undefined): AccountState | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "");
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  return state.authenticate(decoded.slice(0, colon), decoded.slice(colon + 1));
}

/**
 * The URL of a request target: origin form (`/path?query`) or absolute form (`http://host/path`,
 * RFC 9112 3.2.2), whose host is ignored. Undefined when the target cannot be read as either.
 */
function requestUrl(target: string | undefined): URL | undefined {
  try {
    const url = new URL(target ?? "/", "http://emulator");
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}

/** A request body as read: its text, too large (the rest was read and dropped), or the client left. */
type ReadBody = { kind: "text"; text: string } | { kind: "too-large" } | { kind: "gone" };

/**
 * Bodies beyond {@link MAX_BODY_BYTES} are read to their end and dropped so that the 413 reaches
 * the client (closing with unread data would reset the connection instead); beyond this many
 * bytes the emulator stops reading and closes the connection.
 */
const MAX_DRAINED_BYTES = 8 * MAX_BODY_BYTES;

/** Reads the whole body; never rejects (a disconnect is `gone`, an oversized body `too-large`). */
function readBody(request: IncomingMessage): Promise<ReadBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: ReadBody) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const declared = Number(request.headers["content-length"] ?? 0);
    if (declared > MAX_DRAINED_BYTES) {
      // Not worth reading: answer at once; the connection closes after the answer.
      request.resume();
      settle({ kind: "too-large" });
      return;
    }
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_DRAINED_BYTES) {
        request.destroy();
        settle({ kind: "gone" });
        return;
      }
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      else chunks.length = 0;
    });
    request.on("end", () => settle(size > MAX_BODY_BYTES ? { kind: "too-large" } : { kind: "text", text: Buffer.concat(chunks).toString("utf8") }));
    // An "aborted" error, or a close before the end: the client went away mid-body.
    request.on("error", () => settle({ kind: "gone" }));
    request.on("close", () => settle({ kind: "gone" }));
  });
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  // A string body with the plain-text type goes out as it is (an alternate-dialect error); the rest is JSON.
  const text = headers["content-type"] === PLAIN_TEXT && typeof body === "string" ? body : JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}
