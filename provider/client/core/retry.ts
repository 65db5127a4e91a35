import { setTimeout as delay } from "node:timers/promises";
import {
  ApiError,
  ConnectionError,
  RateLimitError,
  RedirectError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
  type HttpMethod,
} from "./errors";

/** Settings of the retry policy (`decideRetry` in provider/client/core/retry.ts); defaults in {@link DEFAULT_RETRY_OPTIONS}. */
export interface RetryOptions {
  /** Retries after the first attempt. Default 3; 0 turns retries off. */
  maxRetries: number;
  /** Backoff of the first retry, doubled for each further one. Default 250 ms. */
  baseDelayMs: number;
  /** Upper bound of the backoff (not of a server's `Retry-After`). Default 8 s. */
  maxDelayMs: number;
  /**
   * Time budget of one call from its first attempt, retry waits included (waits for the rate budget
   * before sending are not: the request has not been made yet). Default 150 s, room for one wait
   * after a 429 without `Retry-After`.
   */
  budgetMs: number;
  /** Wait after a 429 without `Retry-After`: the service asks for more than a minute (docs/api.md 10.1). Default 61 s. */
  rateLimitWaitMs: number;
  /** Source of jitter in [0, 1); injectable for tests. */
  random: () => number;
  /** Waits `ms` milliseconds unless `signal` aborts; injectable for tests. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Current time in epoch milliseconds (budget and `Retry-After` dates); injectable for tests. */
  now: () => number;
}

/** Defaults of {@link RetryOptions}. */
export const DEFAULT_RETRY_OPTIONS = {
  /** 3 retries after the first attempt. */
  maxRetries: 3,
  /** 250 ms before the first retry, doubled for each further one. */
  baseDelayMs: 250,
  /** Backoffs of at most 8 s. */
  maxDelayMs: 8_000,
  /** 150 s for a call from its first attempt, retry waits included: room for one wait after a 429. */
  budgetMs: 150_000,
  /** 61 s after a 429 without `Retry-After`: the service asks for more than a minute (docs/api.md 10.1). */
  rateLimitWaitMs: 61_000,
  /** Jitter source. */
  random: Math.random,
  /** Waits between attempts; an abort ends the wait. */
  sleep: (ms, signal) => delay(ms, undefined, signal ? { signal } : {}),
  /** The clock the retry budget is measured with. */
  now: Date.now,
} satisfies RetryOptions;

/** What the policy knows about a failed attempt. */
export interface FailedAttempt {
  method: HttpMethod;
  /** 1 for the first attempt. */
  attempt: number;
  /** What the attempt threw. */
  error: unknown;
  /** Time since the first attempt started. */
  elapsedMs: number;
}

/** The policy's answer: wait and retry, or give up; with the reason, for the log and the error. */
export type RetryDecision = { retry: true; delayMs: number; reason: string } | { retry: false; reason: string };

/**
 * Decides about one failed attempt by the client's one retry policy (a pure decision; the clock
 * it runs on is in the options). Rules, in order:
 * 1. A POST is retried after a 429 only: a 429 refuses the request before anything is applied, so
 *    sending it again cannot create twice. After any other failure a POST is never retried: the
 *    API has no idempotency key (docs/api.md 10.1), so a resent POST could create twice; the
 *    resource layer reconciles instead (see `isOutcomeUnknown`).
 * 2. At most `maxRetries` retries after the first attempt.
 * 3. Only 429, 5xx, connection errors and timeouts are retried (GET, PUT and DELETE are idempotent).
 * 4. The wait is the server's `Retry-After` when given (seconds or HTTP date); after a 429 without
 *    it, the service's advice of more than a minute (`rateLimitWaitMs`, docs/api.md 10.1); else a
 *    capped, jittered exponential backoff.
 * 5. When the wait would end after the time budget of the call, the call gives up at once with the
 *    last error instead of sleeping in vain.
 */
export function decideRetry(options: RetryOptions, failed: FailedAttempt): RetryDecision {
  if (failed.method === "POST" && !(failed.error instanceof RateLimitError)) return { retry: false, reason: "POST is never retried" };
  if (failed.attempt > options.maxRetries) return { retry: false, reason: `no retries left (maxRetries ${options.maxRetries})` };
  if (!isRetryable(failed.error)) return { retry: false, reason: "the error is not retryable" };
  const { delayMs, reason } = retryWait(options, failed);
  if (failed.elapsedMs + delayMs > options.budgetMs) {
    return { retry: false, reason: `${reason}: waiting ${delayMs} ms would exceed the call's time budget of ${options.budgetMs} ms (retry.budgetMs)` };
  }
  return { retry: true, delayMs, reason };
}

/** How long to wait before retrying a retryable failure, and why. */
function retryWait(options: RetryOptions, failed: FailedAttempt): { delayMs: number; reason: string } {
  const error = failed.error;
  const what = error instanceof ApiError ? `HTTP ${error.status}` : error instanceof TimeoutError ? "timeout" : "connection failed";
  if (error instanceof ApiError && error.retryAfterMs !== undefined) return { delayMs: error.retryAfterMs, reason: `${what} with Retry-After` };
  if (error instanceof RateLimitError) {
    return { delayMs: options.rateLimitWaitMs, reason: `${what} without Retry-After (the service asks to wait more than a minute)` };
  }
  return { delayMs: backoffDelay(options, failed.attempt), reason: `${what}, backoff` };
}

/**
 * 429, 5xx, connection errors and timeouts: failures that a later identical request may not meet.
 * Not a redirect nor an answer larger than `maxResponseBytes`: the same request meets them again
 * (docs/api.md 11.7).
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof ConnectionError || error instanceof TimeoutError || error instanceof RateLimitError) return true;
  return error instanceof ApiError && error.status >= 500;
}

/**
 * True when a failed write may have been applied although no usable answer came (docs/api.md 11.7):
 * - a connection error or a timeout: the request may have been committed before the answer was lost;
 * - any 5xx: a server error after a write does not say whether the write was committed;
 * - a successful status whose answer could not be read (larger than `maxResponseBytes`, or not
 *   matching its schema): the write was applied, but what it made is not known;
 * - a redirect other than 307 and 308. RFC 9110 15.4: a 303 is typically sent after a POST has been
 *   processed, pointing at its result; 301 and 302 say the resource moved, but clients long turned
 *   a POST into a GET after them, so a server may have acted on the write first: neither can be
 *   taken as a refusal. A 307 or a 308 asks for the same request at another URI without changing it,
 *   so nothing was done here: the write failed, known not applied.
 * The callers that POST (the saved-filter gateway, the PII submission) reconcile through a list before
 * sending anything again. A 4xx is a refusal: nothing was applied.
 */
export function isOutcomeUnknown(error: unknown): boolean {
  if (error instanceof ConnectionError || error instanceof TimeoutError) return true;
  if (error instanceof ResponseTooLargeError || error instanceof ResponseValidationError) return true;
  if (error instanceof RedirectError) return error.status !== 307 && error.status !== 308;
  return error instanceof ApiError && error.status >= 500;
}

/**
 * Exponential backoff capped at `maxDelayMs`, with "equal jitter": between half and all of the
 * capped value, so concurrent clients spread out while every retry still waits a little.
 */
export function backoffDelay(options: Pick<RetryOptions, "baseDelayMs" | "maxDelayMs" | "random">, attempt: number): number {
  const capped = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(capped / 2 + (capped / 2) * options.random());
}

/**
 * Reads a `Retry-After` header (RFC 9110 10.2.3): delay seconds or an HTTP date.
 * Returns the wait in milliseconds (never negative), or undefined when absent or unreadable.
 */
export function parseRetryAfter(header: string | string[] | undefined, nowMs: number): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  // An HTTP date names its weekday and month; without letters, Date.parse would read "-3" as a year.
  const dateMs = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(dateMs)) return undefined;
  return Math.max(0, dateMs - nowMs);
}
