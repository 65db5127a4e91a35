import { describe, expect, it } from "vitest";
import {
  ApiError,
  apiErrorFor,
  ArgumentError,
  ConnectionError,
  RedirectError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
  type HttpMethod,
} from "../provider/client/core/errors";
import { backoffDelay, decideRetry, DEFAULT_RETRY_OPTIONS, isOutcomeUnknown, parseRetryAfter, type RetryOptions } from "../provider/client/core/retry";

// Pure unit tests of the retry policy (provider/client/core/retry.ts): no HTTP, no clock.

const request = { method: "GET" as const, path: "/kpis" };
const policy: RetryOptions = { ...DEFAULT_RETRY_OPTIONS, maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1_000, budgetMs: 10_000, random: () => 0.5 };

function statusError(status: number, retryAfterMs?: number): ApiError {
  return apiErrorFor({ ...request, status, body: { status, error: "x", message: "m" }, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
}

function decide(error: unknown, overrides: { method?: HttpMethod; attempt?: number; elapsedMs?: number; options?: Partial<RetryOptions> } = {}) {
  return decideRetry({ ...policy, ...overrides.options }, {
    method: overrides.method ?? "GET",
    attempt: overrides.attempt ?? 1,
    error,
    elapsedMs: overrides.elapsedMs ?? 0,
  });
}

describe("retry policy", () => {
  it("retries 429, every 5xx, connection errors and timeouts of GET, PUT and DELETE", () => {
    const retryable = [statusError(429), statusError(500), statusError(502), statusError(503), statusError(504), new ConnectionError(request, new Error("reset")), new TimeoutError(request, 50)];
    for (const method of ["GET", "PUT", "DELETE"] as const) {
      // The budget leaves room for the wait after a 429 without Retry-After (more than a minute).
      for (const error of retryable) expect(decide(error, { method, options: { budgetMs: 100_000 } }).retry, `${method} ${error.name}`).toBe(true);
    }
  });

  it("never retries a POST after a 5xx, a connection error or a timeout", () => {
    for (const error of [statusError(500), statusError(503), new ConnectionError(request, new Error("reset")), new TimeoutError(request, 50)]) {
      expect(decide(error, { method: "POST" })).toEqual({ retry: false, reason: "POST is never retried" });
    }
  });

  it("retries a POST after a 429 (refused before anything was applied), within the retries and the budget", () => {
    expect(decide(statusError(429, 2_000), { method: "POST" })).toMatchObject({ retry: true, delayMs: 2_000 });
    expect(decide(statusError(429), { method: "POST", attempt: 2, options: { budgetMs: 100_000 } })).toMatchObject({ retry: true, delayMs: 61_000 });
    expect(decide(statusError(429, 0), { method: "POST", attempt: 4 })).toMatchObject({ retry: false, reason: expect.stringContaining("maxRetries 3") });
    expect(decide(statusError(429, 120_000), { method: "POST" })).toMatchObject({ retry: false, reason: expect.stringContaining("budget") });
  });

  it("does not retry client errors, redirects, answers too large, schema mismatches or other thrown values", () => {
    const unretried = [statusError(302), statusError(307), new ResponseTooLargeError(request, 200, 6_000_000), new ResponseValidationError(request, 200, ["x: y"])];
    for (const error of [statusError(400), statusError(401), statusError(403), statusError(404), statusError(409), statusError(413), statusError(422), ...unretried, new ArgumentError("limit", "too big"), new Error("bug")]) {
      expect(decide(error).retry, String(error)).toBe(false);
    }
  });

  it("stops after maxRetries retries", () => {
    expect(decide(statusError(503), { attempt: 3 }).retry).toBe(true);
    expect(decide(statusError(503), { attempt: 4 })).toMatchObject({ retry: false, reason: expect.stringContaining("maxRetries 3") });
    expect(decide(statusError(503), { options: { maxRetries: 0 } }).retry).toBe(false);
  });

  it("waits what Retry-After asks, even above the backoff cap", () => {
    expect(decide(statusError(429, 7_000))).toEqual({ retry: true, delayMs: 7_000, reason: "HTTP 429 with Retry-After" });
    expect(decide(statusError(503, 0))).toMatchObject({ retry: true, delayMs: 0 });
  });

  it("waits the service's advice of more than a minute after a 429 without Retry-After, and says so", () => {
    expect(decide(statusError(429), { options: { budgetMs: 150_000 } })).toEqual({
      retry: true,
      delayMs: 61_000,
      reason: "HTTP 429 without Retry-After (the service asks to wait more than a minute)",
    });
    expect(DEFAULT_RETRY_OPTIONS.rateLimitWaitMs).toBeGreaterThan(60_000);
    // The default time budget of a call leaves room for that wait.
    expect(DEFAULT_RETRY_OPTIONS.budgetMs).toBeGreaterThan(DEFAULT_RETRY_OPTIONS.rateLimitWaitMs);
    expect(decide(statusError(429))).toMatchObject({ retry: false, reason: expect.stringContaining("would exceed the call's time budget of 10000 ms (retry.budgetMs)") });
  });

  it("gives up at once when the wait would end after the budget", () => {
    expect(decide(statusError(429, 120_000))).toMatchObject({ retry: false, reason: expect.stringContaining("budget") });
    expect(decide(statusError(503), { elapsedMs: 9_990 })).toMatchObject({ retry: false, reason: expect.stringContaining("budget") });
    expect(decide(statusError(429, 5_000), { elapsedMs: 5_000 })).toMatchObject({ retry: true, delayMs: 5_000 });
  });

  it("backs off exponentially, capped, with equal jitter", () => {
    const at = (random: number) => (attempt: number) => backoffDelay({ ...policy, random: () => random }, attempt);
    expect([1, 2, 3, 4, 5, 6].map(at(0))).toEqual([50, 100, 200, 400, 500, 500]);
    expect([1, 2, 3, 4, 5, 6].map(at(0.999999))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(decide(statusError(503), { attempt: 2 })).toEqual({ retry: true, delayMs: 150, reason: "HTTP 503, backoff" });
  });
});

describe("outcome of a failed write", () => {
  it("is unknown after a connection error, a timeout or a 5xx, and known (refused) after a 4xx", () => {
    for (const error of [new ConnectionError(request, new Error("reset")), new TimeoutError(request, 50), statusError(500), statusError(503)]) {
      expect(isOutcomeUnknown(error), error.name).toBe(true);
    }
    for (const error of [statusError(400), statusError(409), statusError(429), new ArgumentError("limit", "too big"), new Error("bug")]) {
      expect(isOutcomeUnknown(error), String(error)).toBe(false);
    }
  });

  it("is unknown after a success whose answer could not be read: too large, or not its schema", () => {
    expect(isOutcomeUnknown(new ResponseTooLargeError(request, 201, 6_000_000))).toBe(true);
    expect(isOutcomeUnknown(new ResponseTooLargeError(request, 201, 6_000_000, 200_000_000))).toBe(true);
    expect(isOutcomeUnknown(new ResponseValidationError(request, 201, ["(body): not JSON"]))).toBe(true);
  });

  it("is unknown after a redirect that may follow processing (300 to 305), known not applied after 307 and 308", () => {
    for (const status of [300, 301, 302, 303, 304, 305]) {
      const error = statusError(status);
      expect(error).toBeInstanceOf(RedirectError);
      expect(isOutcomeUnknown(error), String(status)).toBe(true);
    }
    for (const status of [307, 308]) expect(isOutcomeUnknown(statusError(status)), String(status)).toBe(false);
  });
});

describe("Retry-After parsing", () => {
  const now = Date.parse("2026-11-20T12:30:00Z");
  it("reads delay seconds", () => {
    expect(parseRetryAfter("3", now)).toBe(3_000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("1.5", now)).toBe(1_500);
    expect(parseRetryAfter(["2", "9"], now)).toBe(2_000);
  });
  it("reads an HTTP date, never negative", () => {
    expect(parseRetryAfter("Fri, 20 Nov 2026 12:30:05 GMT", now)).toBe(5_000);
    expect(parseRetryAfter("Fri, 20 Nov 2026 12:29:00 GMT", now)).toBe(0);
  });
  it("ignores an absent or unreadable header", () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter("", now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter("-3", now)).toBeUndefined();
  });
});
