import { Pool } from "undici";
import type { z } from "zod";
import { accountSemaphore, type AccountSemaphore } from "./concurrency";
import {
  AbortError,
  apiErrorFor,
  ArgumentError,
  ConnectionError,
  describeIssues,
  describeValue,
  InsightsError,
  RequestError,
  ResponseValidationError,
  TimeoutError,
  type RequestDescription,
} from "./errors";
import type { QueryParams, Requester, RequestOptions } from "./request";
import { decideRetry, parseRetryAfter } from "./retry";
import type { ClientSettings } from "./settings";

/** Per-call options every API method takes as its last argument: a timeout and a cancel signal. */
export type CallOptions = Pick<RequestOptions, "timeoutMs" | "signal">;

/** Error bodies longer than this are cut when kept as raw text (they end up in error objects). */
const MAX_RAW_ERROR_BODY = 2_000;

/** One answer as read from the wire. */
interface RawAnswer {
  status: number;
  retryAfter: string | string[] | undefined;
  text: string;
}

/**
 * The HTTP transport shared by every API family of a client: an undici keep-alive pool to the base
 * URL's origin, HTTP Basic authentication (spec 5), the account's concurrency bound (spec 8),
 * per-attempt timeouts, the retry policy of retry.ts, and zod parsing of the answers.
 */
export class Transport implements Requester {
  readonly #settings: ClientSettings;
  readonly #pool: Pool;
  readonly #bound: AccountSemaphore;
  #closed = false;

  constructor(settings: ClientSettings) {
    this.#settings = settings;
    this.#pool = new Pool(settings.baseUrl.origin, { connections: settings.maxConcurrency, keepAliveTimeout: 10_000 });
    this.#bound = accountSemaphore(`${settings.baseUrl.origin}${settings.baseUrl.pathname} ${settings.credentials.clientId}`, settings.maxConcurrency);
  }

  /** Base URL and client id (never the secret), for logs. */
  toJSON(): { baseUrl: string; clientId: string } {
    return { baseUrl: this.#settings.baseUrl.href, clientId: this.#settings.credentials.clientId };
  }

  /** Sends one request, applying the retry policy, and parses the answer with `schema`. */
  async request<Schema extends z.ZodType>(options: RequestOptions, schema: Schema): Promise<z.infer<Schema>> {
    const query = queryString(options.query);
    const description: RequestDescription = { method: options.method, path: options.path, query };
    const what = `${options.method} ${options.path}`;
    // Everything a caller passes is checked before a slot of the account's bound is taken: a bad
    // option that threw while holding a slot would shrink the bound of every client of the account.
    const timeoutMs = checkCallOptions(options) ?? this.#settings.timeoutMs;
    const body = serializeBody(options.body);
    const retry = this.#settings.retry;
    const startedMs = retry.now();
    for (let attempt = 1; ; attempt++) {
      // Checked before every attempt, so a retry loop stops when the client is closed under it.
      if (this.#closed) throw new InsightsError("the client is closed: create a new InsightsClient");
      try {
        const answer = await this.#attempt(options, description, body, timeoutMs);
        return parseAnswer(answer, description, schema, retry.now());
      } catch (error) {
        // A caller's cancellation ends the call as the caller asked, never retried.
        if (options.signal?.aborted) throw abortErrorOf(what, options.signal.reason);
        if (error instanceof RequestError) error.attempts = attempt;
        const decision = decideRetry(retry, { method: options.method, attempt, error, elapsedMs: retry.now() - startedMs });
        if (!decision.retry) throw asInsightsError(what, error);
        try {
          await retry.sleep(decision.delayMs, options.signal);
        } catch (sleepError) {
          throw options.signal?.aborted ? abortErrorOf(what, options.signal.reason) : asInsightsError(what, sleepError);
        }
      }
    }
  }

  /** Stops accepting requests and closes the pool's connections once in-flight requests end. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#bound.release();
    await this.#pool.close();
  }

  /** One attempt: a slot of the account's bound, then the request under its own timeout. */
  async #attempt(options: RequestOptions, description: RequestDescription, body: string | null, timeoutMs: number): Promise<RawAnswer> {
    const what = `${options.method} ${options.path}`;
    let release: () => void;
    try {
      release = await this.#bound.semaphore.acquire(options.signal);
    } catch (error) {
      throw options.signal?.aborted ? abortErrorOf(what, options.signal.reason) : asInsightsError(what, error);
    }
    // From here on every path gives the slot back (the finally below).
    const controller = new AbortController();
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const forwardAbort = () => controller.abort(options.signal?.reason);
    try {
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs);
      options.signal?.addEventListener("abort", forwardAbort, { once: true });
      // The slot may have been granted just as the caller aborted.
      if (options.signal?.aborted) throw abortErrorOf(what, options.signal.reason);
      // A base URL may carry a path prefix; its trailing slash is dropped so paths join with one "/".
      const base = this.#settings.baseUrl.pathname.replace(/\/+$/, "");
      const response = await this.#pool.request({
        method: options.method,
        path: `${base}${options.path}${description.query ? `?${description.query}` : ""}`,
        headers: {
          authorization: this.#settings.credentials.authorizationHeader(),
          accept: "application/json",
          "user-agent": "pulumi-insights",
          ...(body === null ? {} : { "content-type": "application/json" }),
        },
        body,
        signal: controller.signal,
      });
      const text = await response.body.text();
      return { status: response.statusCode, retryAfter: response.headers["retry-after"], text };
    } catch (error) {
      if (error instanceof InsightsError) throw error;
      if (timedOut) throw new TimeoutError(description, timeoutMs, error);
      if (options.signal?.aborted) throw abortErrorOf(what, options.signal.reason);
      throw new ConnectionError(description, error);
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", forwardAbort);
      release();
    }
  }
}

/** The longest timer Node can set (2^31 - 1 ms, about 24.8 days); longer ones fire at once. */
const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * Checks the per-call options a JavaScript caller may get wrong and answers the call's timeout
 * (undefined when not given). Throws {@link ArgumentError} naming the option.
 */
function checkCallOptions(options: RequestOptions): number | undefined {
  const { timeoutMs, signal } = options as { timeoutMs?: unknown; signal?: unknown };
  if (timeoutMs !== undefined && (typeof timeoutMs !== "number" || !(timeoutMs > 0) || timeoutMs > MAX_TIMEOUT_MS)) {
    throw new ArgumentError("options.timeoutMs", `must be a number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got ${describeValue(timeoutMs)}`);
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new ArgumentError("options.signal", `must be an AbortSignal (for example AbortSignal.timeout(5000) or an AbortController's signal), got ${describeValue(signal)}`);
  }
  return timeoutMs;
}

/** The JSON text of a request body (null for none); a body JSON cannot write is the caller's error. */
function serializeBody(body: unknown): string | null {
  if (body === undefined) return null;
  try {
    return JSON.stringify(body);
  } catch (error) {
    throw new ArgumentError("body", `cannot be sent as JSON (${error instanceof Error ? error.message : describeValue(error)})`);
  }
}

/** The {@link AbortError} of a call whose signal aborted with `reason` (kept as an AbortError when it is one). */
function abortErrorOf(what: string, reason: unknown): AbortError {
  return reason instanceof AbortError ? reason : new AbortError(what, reason);
}

/** `error` when it is an {@link InsightsError}, else an InsightsError that keeps it as `cause`. */
function asInsightsError(what: string, error: unknown): InsightsError {
  if (error instanceof InsightsError) return error;
  return new InsightsError(`${what}: unexpected failure (${error instanceof Error ? error.message : describeValue(error)})`, { cause: error });
}

/** Turns an answer into the parsed result, or the {@link ApiError} subclass of its status. */
function parseAnswer<Schema extends z.ZodType>(answer: RawAnswer, description: RequestDescription, schema: Schema, nowMs: number): z.infer<Schema> {
  let json: unknown;
  let isJson = true;
  try {
    json = answer.text.length === 0 ? undefined : JSON.parse(answer.text);
  } catch {
    isJson = false;
  }
  if (answer.status >= 400) {
    const retryAfterMs = parseRetryAfter(answer.retryAfter, nowMs);
    throw apiErrorFor({
      ...description,
      status: answer.status,
      body: isJson ? json : answer.text.slice(0, MAX_RAW_ERROR_BODY),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }
  if (!isJson) throw new ResponseValidationError(description, answer.status, ["(body): not JSON"]);
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ResponseValidationError(description, answer.status, describeIssues(parsed.error.issues));
  return parsed.data;
}

/** The query string of a request: undefined values left out, arrays repeat their key (spec 4.6). */
function queryString(query: QueryParams | undefined): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) search.append(key, String(item));
    else search.append(key, String(value));
  }
  return search.toString();
}
