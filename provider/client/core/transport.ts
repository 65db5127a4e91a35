import { Pool, type Dispatcher } from "undici";
import type { z } from "zod";
import { accountSemaphore, type AccountSemaphore } from "./concurrency";
import {
  AbortError,
  apiErrorFor,
  ArgumentError,
  ConnectionError,
  describeFailure,
  describeIssues,
  describeValue,
  InsightsError,
  RateLimitError,
  RequestError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
  type RequestDescription,
} from "./errors";
import type { QueryParams, Requester, RequestOptions } from "./request";
import { formatDuration, isLogger, logWait, type InsightsLogger } from "./logging";
import { Pacer, type CountedRequest } from "./rate-budget";
import { decideRetry, isRetryable, parseRetryAfter } from "./retry";
import { packageVersion } from "./version";
import { readJson } from "./json";
import type { ClientSettings } from "./settings";
import { redactor } from "../../text/redaction";

/**
 * Per-call options every API method takes as its last argument: a timeout, a cancel signal, the
 * retries allowed and a logger for this call.
 */
export type CallOptions = Pick<RequestOptions, "timeoutMs" | "signal" | "maxRetries" | "logger">;

/**
 * The most bytes read of an error answer (any status from 300 on), whatever `maxResponseBytes` is:
 * enough for any explanation, and an endless error body ends there. The error keeps less
 * (errors.ts `MAX_KEPT_ERROR_BODY`).
 */
const MAX_ERROR_BODY_READ = 65_536;

/** The `User-Agent` of every request: this package's version and Node's. */
const USER_AGENT = `pulumi-insights/${packageVersion()} node/${process.versions.node}`;

/** One answer as read from the wire. */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** False when reading stopped at {@link MAX_ERROR_BODY_READ} before the body's end (error answers only). */
  complete: boolean;
}

/**
 * The HTTP transport shared by every API family of a client: an undici keep-alive pool to the base
 * URL's origin, HTTP Basic authentication (spec 5), the account's concurrency bound and the rate
 * budgets of the process (spec 8, rate-budget.ts), per-attempt timeouts, the retry policy of
 * retry.ts, zod parsing of the answers, and a log line for every retry and wait.
 */
export class Transport implements Requester {
  readonly #settings: ClientSettings;
  readonly #pool: Pool;
  readonly #bound: AccountSemaphore;
  readonly #pacer: Pacer | undefined;
  #closed = false;

  constructor(settings: ClientSettings) {
    this.#settings = settings;
    this.#pool = new Pool(settings.baseUrl.origin, { connections: settings.maxConcurrency, keepAliveTimeout: 10_000 });
    const account = `${settings.baseUrl.origin}${settings.baseUrl.pathname} ${settings.credentials.clientId}`;
    this.#bound = accountSemaphore(account, settings.maxConcurrency);
    this.#pacer = settings.rateBudget === false ? undefined : new Pacer(settings.baseUrl.origin, account, settings.rateBudget);
  }

  /** Where this client's retries, waits, splits and caps are reported. */
  get logger(): InsightsLogger {
    return this.#settings.logger;
  }

  /** Base URL and client id (never the secret), for logs. */
  toJSON(): { baseUrl: string; clientId: string } {
    return { baseUrl: this.#settings.baseUrl.href, clientId: this.#settings.credentials.clientId };
  }

  /** @internal Sends one request, applying the retry policy, and parses the answer with `schema`. */
  async request<Schema extends z.ZodType>(options: RequestOptions, schema: Schema): Promise<z.infer<Schema>> {
    const query = queryString(options.query);
    const description: RequestDescription = { method: options.method, path: options.path, query };
    const what = `${options.method} ${options.path}`;
    // Everything a caller passes is checked before a slot of the account's bound is taken: a bad
    // option that threw while holding a slot would shrink the bound of every client of the account.
    const checked = checkCallOptions(options);
    const call: CallContext = {
      what,
      timeoutMs: checked.timeoutMs ?? this.#settings.timeoutMs,
      logger: checked.logger ?? this.#settings.logger,
      body: serializeBody(options.body),
      pacedMs: 0,
    };
    const retry = checked.maxRetries === undefined ? this.#settings.retry : { ...this.#settings.retry, maxRetries: checked.maxRetries };
    const startedMs = retry.now();
    for (let attempt = 1; ; attempt++) {
      // Checked before every attempt, so a retry loop stops when the client is closed under it.
      if (this.#closed) throw new InsightsError("the client is closed: create a new InsightsClient");
      try {
        const answer = await this.#attempt(options, description, call);
        return parseAnswer(answer, description, schema, retry.now(), this.#redaction(options));
      } catch (error) {
        // A caller's cancellation ends the call as the caller asked, never retried.
        if (options.signal?.aborted) throw abortErrorOf(what, options.signal.reason);
        if (error instanceof RequestError) error.attempts = attempt;
        if (error instanceof RateLimitError && error.retryAfterMs === undefined) {
          // The service's 429 says neither which budget nor how long: every call of the process
          // holds back for the advised wait rather than meeting the same refusal.
          this.#pacer?.block(options.path, retry.now() + retry.rateLimitWaitMs);
        }
        // Time spent waiting for the rate budget is not spent on this call's retries.
        const decision = decideRetry(retry, { method: options.method, attempt, error, elapsedMs: retry.now() - startedMs - call.pacedMs });
        if (!decision.retry) {
          if (isRetryable(error)) {
            const failure = describeFailure(error);
            call.logger.warn(`${what}: ${failure}: giving up after ${attempt} attempt${attempt === 1 ? "" : "s"}: ${decision.reason}`, { event: "give-up", reason: decision.reason, request: what, failure });
            // A 429 that was not waited out says why, so the user knows what to raise.
            if (error instanceof RateLimitError) error.message += ` (not retried: ${decision.reason})`;
          }
          throw asInsightsError(what, error);
        }
        call.logger.info(`${what}: ${decision.reason}, retry ${attempt} of ${retry.maxRetries} in ${formatDuration(decision.delayMs)}`, {
          event: "retry",
          reason: decision.reason,
          durationMs: decision.delayMs,
          request: what,
        });
        try {
          await retry.sleep(decision.delayMs, options.signal);
        } catch (sleepError) {
          throw options.signal?.aborted ? abortErrorOf(what, options.signal.reason) : asInsightsError(what, sleepError);
        }
      }
    }
  }

  /**
   * What every text of an answer the client keeps loses first: the client's credential in any form
   * (settings.ts `scrub`) and the personal data the request carried (request.ts `personal`), however
   * the answer writes them (provider/text/redaction.ts).
   */
  #redaction(options: RequestOptions): (text: string) => string {
    const credentials = this.#settings.credentials;
    if (options.personal === undefined || options.personal.length === 0) return (text) => credentials.scrub(text);
    let personal: ((text: string) => string) | undefined;
    return (text) => {
      personal ??= redactor(options.personal!);
      return personal(credentials.scrub(text));
    };
  }

  /** Stops accepting requests and closes the pool's connections once in-flight requests end. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#bound.release();
    await this.#pool.close();
  }

  /**
   * One attempt: a slot of the account's bound, the wait for the rate budgets (holding the slot, so
   * the request is sent the moment the budgets allow it), then the request under its own timeout.
   */
  async #attempt(options: RequestOptions, description: RequestDescription, call: CallContext): Promise<RawAnswer> {
    const { what } = call;
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
    let counted: CountedRequest | undefined;
    try {
      counted = await this.#pace(options, call);
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, call.timeoutMs);
      options.signal?.addEventListener("abort", forwardAbort, { once: true });
      // The slot may have been granted just as the caller aborted.
      if (options.signal?.aborted) throw abortErrorOf(what, options.signal.reason);
      // A base URL may carry a path prefix; its trailing slash is dropped so paths join with one "/".
      const base = this.#settings.baseUrl.pathname.replace(/\/+$/, "");
      // A Pool follows no redirect (undici does only through its redirect interceptor, never used
      // here): a 3xx comes back as it is and parseAnswer makes it an error, so the credentials never
      // travel on to the Location.
      const response = await this.#pool.request({
        method: options.method,
        path: `${base}${options.path}${description.query ? `?${description.query}` : ""}`,
        headers: {
          authorization: this.#settings.credentials.authorizationHeader(),
          accept: "application/json",
          "user-agent": USER_AGENT,
          ...(call.body === null ? {} : { "content-type": "application/json" }),
        },
        body: call.body,
        signal: controller.signal,
      });
      return await readAnswer(response, description, this.#settings.maxResponseBytes);
    } catch (error) {
      if (error instanceof InsightsError) throw error;
      if (timedOut) throw new TimeoutError(description, call.timeoutMs, error);
      if (options.signal?.aborted) throw abortErrorOf(what, options.signal.reason);
      throw new ConnectionError(description, error);
    } finally {
      // The service counted the request at its arrival, at the latest now.
      counted?.answered(this.#settings.retry.now());
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", forwardAbort);
      release();
    }
  }

  /**
   * Waits until the request fits in the rate budgets of the process, saying so when it waits, and
   * counts it. Budgets are checked again after each wait: an answer that arrived meanwhile may have
   * moved the window.
   */
  async #pace(options: RequestOptions, call: CallContext): Promise<CountedRequest | undefined> {
    if (this.#pacer === undefined) return undefined;
    const { now, sleep } = this.#settings.retry;
    for (let waited = false; ; waited = true) {
      const nowMs = now();
      const earliest = this.#pacer.earliest(options.path, nowMs);
      if (earliest.atMs <= nowMs) return this.#pacer.take(options.path, nowMs);
      const waitMs = earliest.atMs - nowMs;
      if (!waited) logWait(call.logger, call.what, earliest.reason ?? "rate budget", waitMs);
      call.pacedMs += waitMs;
      try {
        await sleep(waitMs, options.signal);
      } catch (error) {
        throw options.signal?.aborted ? abortErrorOf(call.what, options.signal.reason) : asInsightsError(call.what, error);
      }
    }
  }
}

/** What the attempts of one call share. */
interface CallContext {
  /** `METHOD /path`, for messages. */
  what: string;
  timeoutMs: number;
  logger: InsightsLogger;
  /** The JSON body, or null. */
  body: string | null;
  /** Time spent waiting for the rate budgets so far. */
  pacedMs: number;
}

/**
 * Reads an answer without ever holding more of it than its limit: `maxResponseBytes` for a
 * successful one, whose excess ends the attempt with a {@link ResponseTooLargeError} (refused at
 * once when `Content-Length` announces more), {@link MAX_ERROR_BODY_READ} for an error, which keeps
 * the beginning. Reading stops at the limit and the body is destroyed, which closes the connection:
 * an endless body costs no more than the limit (docs/api.md 11.7). (undici's own `maxResponseSize`
 * would end both kinds alike, with an error that names no limit.)
 */
async function readAnswer(response: Dispatcher.ResponseData, description: RequestDescription, maxResponseBytes: number): Promise<RawAnswer> {
  const status = response.statusCode;
  const headers = flatHeaders(response.headers);
  const success = status < 300;
  const limit = success ? maxResponseBytes : MAX_ERROR_BODY_READ;
  const announced = Number(headers["content-length"]);
  if (success && Number.isFinite(announced) && announced > limit) {
    discard(response.body);
    throw new ResponseTooLargeError(description, status, limit, announced);
  }
  const chunks: Buffer[] = [];
  let length = 0;
  let complete = true;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    if (length + chunk.length > limit) {
      chunks.push(chunk.subarray(0, limit - length));
      length = limit;
      complete = false;
      break;
    }
    chunks.push(chunk);
    length += chunk.length;
  }
  if (!complete) {
    // Leaving the loop early has destroyed the body already; once more costs nothing and says why.
    discard(response.body);
    if (success) throw new ResponseTooLargeError(description, status, limit);
  }
  // As undici's own `text()`: UTF-8, a byte order mark dropped, invalid sequences replaced.
  return { status, headers, text: new TextDecoder().decode(Buffer.concat(chunks, length)), complete };
}

/** Stops reading a body and closes its connection; the abort it reports is expected, not a failure. */
function discard(body: Dispatcher.ResponseData["body"]): void {
  body.on("error", () => {});
  body.destroy();
}

/** Response headers as single strings (repeated ones joined with ", "). */
function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

/** The longest timer Node can set (2^31 - 1 ms, about 24.8 days); longer ones fire at once. */
const MAX_TIMEOUT_MS = 2_147_483_647;

/** Most retries a call may ask for. */
const MAX_RETRIES_PER_CALL = 100;

/**
 * Checks the per-call options a JavaScript caller may get wrong and answers them (each undefined
 * when not given). Throws {@link ArgumentError} naming the option.
 */
function checkCallOptions(options: RequestOptions): Pick<RequestOptions, "timeoutMs" | "maxRetries" | "logger"> {
  const { timeoutMs, signal, maxRetries, logger } = options as { timeoutMs?: unknown; signal?: unknown; maxRetries?: unknown; logger?: unknown };
  if (timeoutMs !== undefined && (typeof timeoutMs !== "number" || !(timeoutMs > 0) || timeoutMs > MAX_TIMEOUT_MS)) {
    throw new ArgumentError("options.timeoutMs", `must be a number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got ${describeValue(timeoutMs)}`);
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new ArgumentError("options.signal", `must be an AbortSignal (for example AbortSignal.timeout(5000) or an AbortController's signal), got ${describeValue(signal)}`);
  }
  if (maxRetries !== undefined && (typeof maxRetries !== "number" || !Number.isInteger(maxRetries) || maxRetries < 0 || maxRetries > MAX_RETRIES_PER_CALL)) {
    throw new ArgumentError("options.maxRetries", `must be a whole number from 0 to ${MAX_RETRIES_PER_CALL}, got ${describeValue(maxRetries)}`);
  }
  if (logger !== undefined && !isLogger(logger)) {
    throw new ArgumentError("options.logger", `must be an object with debug, info and warn methods, got ${describeValue(logger)}`);
  }
  return {
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(maxRetries === undefined ? {} : { maxRetries }),
    ...(logger === undefined ? {} : { logger }),
  };
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

/**
 * Turns an answer into the parsed result, or the {@link ApiError} subclass of its status: from 300
 * on, since a redirect is never followed (a 3xx is a `RedirectError` of errors.ts, docs/api.md 11.7) and its
 * body, however well it fits the schema, is not the answer to the request. Every text the error
 * keeps is redacted first (`redact`). A successful answer that cannot be read for any reason (not
 * JSON, not its schema, a tree too deep for the parser's stack) is a {@link ResponseValidationError}:
 * after a write, an unknown outcome (retry.ts `isOutcomeUnknown`).
 */
function parseAnswer<Schema extends z.ZodType>(
  answer: RawAnswer,
  description: RequestDescription,
  schema: Schema,
  nowMs: number,
  redact: (text: string) => string,
): z.infer<Schema> {
  let json: unknown;
  let isJson = answer.complete;
  try {
    if (isJson) json = answer.text.length === 0 ? undefined : readJson(answer.text);
  } catch {
    isJson = false;
  }
  if (answer.status >= 300) {
    const retryAfterMs = parseRetryAfter(answer.headers["retry-after"], nowMs);
    throw apiErrorFor({
      ...description,
      status: answer.status,
      // A body cut while reading is kept as text; ApiError keeps its beginning (errors.ts).
      body: isJson ? json : answer.text,
      headers: answer.headers,
      redact,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }
  if (!isJson) throw new ResponseValidationError(description, answer.status, ["(body): not JSON"]);
  let parsed: z.ZodSafeParseResult<z.infer<Schema>>;
  try {
    parsed = schema.safeParse(json);
  } catch (error) {
    // A body the schema cannot even walk (a tree 100,000 levels deep overflows the stack).
    throw new ResponseValidationError(description, answer.status, [`(body): cannot be read (${error instanceof Error ? error.name : "failure"}: ${redact(error instanceof Error ? error.message : describeValue(error))})`]);
  }
  if (!parsed.success) throw new ResponseValidationError(description, answer.status, describeIssues(parsed.error.issues).map(redact));
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
