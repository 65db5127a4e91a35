import { inspect } from "node:util";
import { readErrorBody, type ErrorBodyReading } from "../../schema/assumptions";
import { inertText } from "../../text/inert";

/**
 * The one error hierarchy of the typed client. Every value the client throws is an
 * {@link InsightsError}; none of them ever carries the client secret or the Authorization header,
 * and none puts a query string (which can carry viewer ids) into its message.
 */

/** The HTTP methods the Insights API uses (spec section 4). */
export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/** Base class of every error the client throws. */
export class InsightsError extends Error {
  /**
   * The client builds its errors itself; a program builds one only to stand in for the client (a
   * wrapper, a test double). `name` becomes the class's name.
   *
   * @param message - What went wrong, in words for people; it never holds a secret or a query string.
   * @param options - What the error came from, as `Error`'s own options.
   */
  constructor(
    message: string,
    options?: {
      /** The error beneath this one, as `Error`'s own `cause`: the caller's abort reason, undici's connection error. */
      cause?: unknown;
    },
  ) {
    super(message, options);
    this.name = new.target.name;
  }

  /** A plain, secret-free description for logs and `JSON.stringify`. */
  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message };
  }
}

/**
 * The caller's `signal` aborted the call. `cause` is the signal's reason as given (an `Error`, a
 * `DOMException` or any value), so the caller can still tell its own reasons apart; the message
 * names the call and summarises the reason.
 */
export class AbortError extends InsightsError {
  /**
   * The message names the call aborted and summarises the reason.
   *
   * @param reason - The signal's `reason` as given, kept as `cause`.
   */
  constructor(
    /** What was aborted, for example `GET /bulk_filters/fields`. */
    what: string,
    reason: unknown,
  ) {
    super(`${what}: aborted by the caller (${reasonSummary(reason)})`, { cause: reason });
  }
}

/** The reason of an abort in a few words: its message when it is an Error, else its description. */
function reasonSummary(reason: unknown): string {
  if (reason instanceof Error) return reason.message === "" ? reason.name : reason.message;
  return reason === undefined ? "no reason given" : describeValue(reason);
}

/** Longest description {@link describeValue} answers; longer ones are cut with an ellipsis. */
const MAX_DESCRIPTION_LENGTH = 120;

/**
 * A short description of any value for an error message, which never throws: JSON where the value
 * has a JSON form (`"abc"`, `[1,2]`), else Node's inspection (`10n`, `Symbol(x)`, `[Function f]`,
 * `<ref *1> { a: [Circular *1] }`), cut to a bounded length. A value whose every description
 * throws (a hostile Proxy) is named as such. Validation messages use it, so describing what a
 * JavaScript caller passed can never turn an ArgumentError into a TypeError.
 */
export function describeValue(value: unknown): string {
  let text: string | undefined;
  try {
    // Numbers by String: JSON would write NaN and Infinity as null.
    if (typeof value === "number") text = String(value);
    else if (typeof value !== "bigint" && typeof value !== "function" && typeof value !== "symbol") text = JSON.stringify(value);
  } catch {
    // cycles, BigInt inside, throwing toJSON: inspected below
  }
  if (text === undefined) {
    try {
      text = inspect(value, { depth: 2, breakLength: Infinity, maxArrayLength: 10, maxStringLength: MAX_DESCRIPTION_LENGTH });
    } catch {
      text = "a value that cannot be described";
    }
  }
  return text.length > MAX_DESCRIPTION_LENGTH ? `${text.slice(0, MAX_DESCRIPTION_LENGTH - 1)}…` : text;
}

/** A setting (base URL, client id, client secret) is missing or not acceptable. */
export class SettingsError extends InsightsError {
  /**
   * The client and the data sources build it while reading their settings, before any request.
   *
   * @param message - What is wrong with the setting and where it is set (an option, an environment variable, the stack config); never its value.
   */
  constructor(
    /** The option at fault, for example `clientSecret`. */
    readonly option: string,
    message: string,
  ) {
    super(message);
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), option: this.option };
  }
}

/**
 * An argument was rejected before any request was sent (client-side validation).
 * `path` names the argument, for example `metrics[3]`; the message says what to change.
 */
export class ArgumentError extends InsightsError {
  /** The message is `path: reason`. */
  constructor(
    /** Where in the arguments the problem is, for example `metrics[3]` or `identifiers`. */
    readonly path: string,
    /** What is wrong and what to change. */
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), path: this.path };
  }
}

/** What identifies one request in an error: method and path, the query kept apart. */
export interface RequestDescription {
  /** The HTTP method. */
  method: HttpMethod;
  /** The path without the query string. */
  path: string;
  /** The query string without `?` (kept out of messages, `toJSON` and inspection). */
  query?: string;
}

/** Base of the errors about one request: method and path, and the query as a hidden field. */
export abstract class RequestError extends InsightsError {
  /** The HTTP method of the request. */
  readonly method: HttpMethod;
  /** The path of the request, without the query string. */
  readonly path: string;
  /** The query string of the request; non-enumerable because queries can carry viewer ids. */
  declare readonly query: string;
  /** How many attempts were made before this error was thrown (the retry policy may make several). */
  attempts = 1;

  /**
   * Keeps the method and the path of `request`, and its query out of sight.
   *
   * @param request - The request the error is about; its query is kept but hidden (non-enumerable).
   * @param message - What went wrong, starting with the method and the path; never the query.
   * @param options - What the error came from, as `Error`'s own options.
   */
  constructor(
    request: RequestDescription,
    message: string,
    options?: {
      /** The error beneath this one, as `Error`'s own `cause`. */
      cause?: unknown;
    },
  ) {
    super(message, options);
    this.method = request.method;
    this.path = request.path;
    Object.defineProperty(this, "query", { value: request.query ?? "", enumerable: false });
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), method: this.method, path: this.path, attempts: this.attempts };
  }
}

/** Everything an {@link ApiError} is built from. */
export interface ApiErrorDetails extends RequestDescription {
  /** The HTTP status of the answer. */
  status: number;
  /** The response body: parsed JSON, or the raw text when it is not JSON (an ApiError keeps at most 4,096 characters of it). */
  body: unknown;
  /** The wait the server asked for with `Retry-After`, in milliseconds. */
  retryAfterMs?: number;
  /** The response headers, names in lower case. */
  headers?: Readonly<Record<string, string>>;
  /**
   * What must never be shown of the answer's texts (the client's credential, the call's personal
   * data), removed from the body and the headers as they came, before anything reads, cuts or
   * escapes them (transport.ts).
   */
  redact?: (text: string) => string;
}

/**
 * The most characters of an error body an {@link ApiError} keeps in `body`: its JSON text, or its raw
 * text. An error travels into logs, messages and `JSON.stringify`, so what a server answers cannot
 * make it large (docs/api.md 11.7).
 */
export const MAX_KEPT_ERROR_BODY = 4_096;

/**
 * The body an {@link ApiError} keeps: the value itself when its JSON text (or its text) is at most
 * {@link MAX_KEPT_ERROR_BODY} characters, else the beginning of that text ending with an ellipsis.
 */
function keptErrorBody(body: unknown, redact: (text: string) => string): unknown {
  if (body === undefined || body === null || typeof body === "number" || typeof body === "boolean") return body;
  let text: string | undefined;
  if (typeof body === "string") text = body;
  else {
    try {
      text = JSON.stringify(body);
    } catch {
      // cycles, BigInt, a body too deep to write: described below
    }
  }
  if (text === undefined) return describeValue(body);
  // Redacted whole, then cut: a redacted JSON body is kept as its text.
  const redacted = redact(text);
  const kept = redacted === text ? body : redacted;
  return redacted.length <= MAX_KEPT_ERROR_BODY ? kept : `${redacted.slice(0, MAX_KEPT_ERROR_BODY - 1)}…`;
}

/**
 * What an error reads of a body, redacted before it is read: the text, or the object with each of its
 * top-level texts redacted (the members readErrorBody reads; schema/assumptions.ts).
 */
function redactedReading(body: unknown, redact: (text: string) => string): unknown {
  if (typeof body === "string") return redact(body);
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, typeof value === "string" ? redact(value) : value]));
}

/** Headers that carry a request id, in the order they are looked for (the service documents none). */
const REQUEST_ID_HEADERS = ["x-request-id", "request-id", "x-amzn-requestid", "x-correlation-id"] as const;

/**
 * The service answered with an error status. The body's shape is not shown (docs/api.md 7): any body,
 * JSON or text, is read by `readErrorBody` (provider/schema/assumptions.ts), and `code`, `detail` and
 * `parameter` are set when it has them. They are for people: the client decides on the status alone.
 * The service's texts in `message`, `detail` and `parameter` are made inert (provider/text/inert.ts):
 * each is one line whatever the answer held, so no escape sequence, bidi control or line break of
 * the service reaches a terminal or a log raw, nor forges a line of its own; `body` keeps them as sent.
 * Before anything reads, cuts or escapes them, the body and the headers lose what must never be shown
 * (`redact` of {@link ApiErrorDetails}: the client's credential in any form, the call's personal
 * data), so no message, excerpt or header of the error holds it.
 */
export class ApiError extends RequestError {
  /** The HTTP status of the answer (spec 7). */
  readonly status: number;
  /**
   * The response body: parsed JSON, or its text when it is not JSON; when its text is longer than
   * 4,096 characters (or was cut while reading, docs/api.md 11.7), the beginning of that text ending
   * with an ellipsis.
   */
  readonly body: unknown;
  /** The machine-readable code of the body (`error`), when given. */
  readonly code?: string;
  /** The server's message, when the body has one (inert: see the class). */
  readonly detail?: string;
  /** The parameter the server names as the cause, when given (inert: see the class). */
  readonly parameter?: string;
  /** The wait the server asked for with `Retry-After`, in milliseconds. */
  readonly retryAfterMs?: number;
  /** The response headers, names in lower case (empty when the error was not built from an answer). */
  readonly headers: Readonly<Record<string, string>>;
  /** The request id the answer carried (`x-request-id` or a similar header), for the service's support. */
  readonly requestId?: string;

  /**
   * The message names the request, the status and what the body says (its code, message and
   * parameter, made inert) and the request id; the client builds the subclass of the status.
   */
  constructor(details: ApiErrorDetails) {
    const redact = details.redact ?? ((text: string) => text);
    const headers = Object.fromEntries(Object.entries(details.headers ?? {}).map(([name, value]) => [name, redact(value)]));
    const reading = readErrorBody(redactedReading(details.body, redact));
    const errorBody: ErrorBodyReading = {
      ...reading,
      ...(reading.message === undefined ? {} : { message: inertText(reading.message) }),
      ...(reading.parameter === undefined ? {} : { parameter: inertText(reading.parameter) }),
    };
    const requestId = REQUEST_ID_HEADERS.map((name) => headers[name]).find((value) => value !== undefined && value !== "");
    super(details, `${describeApiError({ ...details, headers }, errorBody)}${requestId === undefined ? "" : ` (request id ${inertText(requestId)})`}`);
    this.headers = headers;
    if (requestId !== undefined) this.requestId = requestId;
    this.status = details.status;
    this.body = keptErrorBody(details.body, redact);
    if (errorBody.code !== undefined) this.code = errorBody.code;
    if (errorBody.message !== undefined) this.detail = errorBody.message;
    if (errorBody.parameter !== undefined) this.parameter = errorBody.parameter;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      status: this.status,
      ...(this.code === undefined ? {} : { code: this.code }),
      ...(this.parameter === undefined ? {} : { parameter: this.parameter }),
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
      ...(this.requestId === undefined ? {} : { requestId: this.requestId }),
      body: this.body,
    };
  }
}

function describeApiError(details: ApiErrorDetails, body: ErrorBodyReading): string {
  const head = `${details.method} ${details.path} failed with HTTP ${details.status}`;
  // A redirect's body is a page for browsers: the message says where it pointed instead.
  if (isRedirectStatus(details.status)) {
    return `${head}: a redirect ${describeRedirectTarget(redirectTarget(details.headers?.location))}, not followed (the API does not redirect; check the base URL)`;
  }
  const code = body.code === undefined ? "" : ` (${body.code})`;
  const parameter = body.parameter === undefined ? "" : ` [parameter: ${body.parameter}]`;
  return `${head}${code}${body.message === undefined ? "" : `: ${body.message}`}${parameter}`;
}

/** True for a 3xx status: a redirect (RFC 9110 15.4). */
function isRedirectStatus(status: number): boolean {
  return status >= 300 && status < 400;
}

/** Where a `Location` header points, as far as a message may say: a host, the same host, or nothing readable. */
type RedirectTarget = { host: string } | "same host" | "no location" | "unreadable";

/**
 * The target of a redirect's `Location`: only the host of an absolute or scheme-relative one (its
 * path and query could carry anything), as the URL parser normalises it (no spaces or control
 * characters can remain in it).
 */
function redirectTarget(location: string | undefined): RedirectTarget {
  if (location === undefined || location.trim() === "") return "no location";
  const placeholder = "relative.invalid";
  try {
    const url = new URL(location.trim(), `http://${placeholder}/`);
    if (url.host === placeholder && !/^[a-z][a-z0-9+.-]*:|^\/\//i.test(location.trim())) return "same host";
    return url.host === "" ? "unreadable" : { host: url.host };
  } catch {
    return "unreadable";
  }
}

function describeRedirectTarget(target: RedirectTarget): string {
  if (target === "no location") return "without a Location";
  if (target === "unreadable") return "to a Location that is not a URL";
  if (target === "same host") return "to another path of the same host";
  return `to the host ${target.host}`;
}

/** 400: invalid parameters (spec 7). */
export class BadRequestError extends ApiError {}
/** 401: the client id or secret was not accepted (spec 5, 7). */
export class AuthenticationError extends ApiError {}
/** 403: the account may not use this feature (for example bulk filters, spec 1). */
export class PermissionDeniedError extends ApiError {}
/** 404: no such object or endpoint. */
export class NotFoundError extends ApiError {}
/** 409: the request conflicts with the current state. */
export class ConflictError extends ApiError {}
/** 413: the response would be larger than 5,700,000 bytes (spec 8). */
export class PayloadTooLargeError extends ApiError {}
/** 422: a time range beyond the limits, or dates not in ISO 8601 form (spec 7). */
export class UnprocessableEntityError extends ApiError {}
/** 429: too many requests; `retryAfterMs` is the wait the server asked for, if it did. */
export class RateLimitError extends ApiError {}
/** 5xx: the service failed (spec 7: for PII, retry after several minutes). */
export class InternalServerError extends ApiError {}

const API_ERROR_BY_STATUS: Readonly<Record<number, typeof ApiError>> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/**
 * 3xx: the answer was a redirect, which the client never follows (docs/api.md 11.7): the request is
 * not sent on, so its credentials never reach another host. `locationHost` is the host the
 * `Location` header names, when it names one (an absolute or scheme-relative URL); a relative one
 * stays on the same host.
 */
export class RedirectError extends ApiError {
  /** The host of the `Location` header (`host:port` when it has a port), when it names one. */
  readonly locationHost?: string;

  /** `locationHost` is read from the `location` header of `details`. */
  constructor(details: ApiErrorDetails) {
    super(details);
    const target = redirectTarget(this.headers.location);
    if (typeof target === "object") this.locationHost = target.host;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), ...(this.locationHost === undefined ? {} : { locationHost: this.locationHost }) };
  }
}

/** The most specific {@link ApiError} subclass for a status. */
export function apiErrorFor(details: ApiErrorDetails): ApiError {
  const ErrorClass = isRedirectStatus(details.status)
    ? RedirectError
    : details.status >= 500
      ? InternalServerError
      : (API_ERROR_BY_STATUS[details.status] ?? ApiError);
  return new ErrorClass(details);
}

/** The connection failed or was reset before a complete answer arrived; `cause` says how. */
export class ConnectionError extends RequestError {
  /**
   * The message names the request and quotes the code and message of `cause`.
   *
   * @param cause - The error of the connection (undici's, with a `code` such as `ECONNREFUSED`), kept as `cause`.
   */
  constructor(request: RequestDescription, cause: unknown) {
    super(request, `${request.method} ${request.path}: connection failed (${causeSummary(cause)})`, { cause });
  }
}

/** No complete answer arrived within the per-request timeout; `cause` is the underlying error. */
export class TimeoutError extends RequestError {
  /**
   * The message names the request and the timeout.
   *
   * @param cause - The error the request ended with when the timeout aborted it, kept as `cause`.
   */
  constructor(
    request: RequestDescription,
    /** The timeout that elapsed, in milliseconds. */
    readonly timeoutMs: number,
    cause?: unknown,
  ) {
    super(request, `${request.method} ${request.path}: no answer within ${timeoutMs} ms`, { cause });
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), timeoutMs: this.timeoutMs };
  }
}

/** Spec 8: the service refuses a metric answer over 5,700,000 bytes with a 413; no answer of the API is larger. */
const API_ANSWER_LIMIT_BYTES = 5_700_000;

/**
 * A successful answer was larger than the client reads (`maxResponseBytes`, docs/api.md 11.7): the
 * client stopped reading at the limit and closed the connection. The service refuses an answer over
 * 5,700,000 bytes with a 413 (spec 8), so no answer of the API is this large. The request itself was
 * received and answered: after a POST its outcome is unknown (retry.ts `isOutcomeUnknown`).
 */
export class ResponseTooLargeError extends RequestError {
  /** The message says how much was read and, past the API's own limit, to check the base URL. */
  constructor(
    request: RequestDescription,
    /** The HTTP status of the answer. */
    readonly status: number,
    /** The limit the answer passed, in bytes. */
    readonly limitBytes: number,
    /** The size the answer announced in `Content-Length`, when it announced one over the limit. */
    readonly announcedBytes?: number,
  ) {
    const limit = `the client's limit of ${limitBytes} bytes (maxResponseBytes)`;
    const what = announcedBytes === undefined ? `is larger than ${limit}; reading stopped there` : `announces ${announcedBytes} bytes, more than ${limit}; it was not read`;
    // Past the contract's own limit the answer cannot be the API's: most likely the base URL points elsewhere.
    const advice = limitBytes >= API_ANSWER_LIMIT_BYTES ? "; the API answers nothing that large (it refuses answers over 5,700,000 bytes with HTTP 413, spec 8): check the base URL" : "";
    super(request, `${request.method} ${request.path}: the HTTP ${status} answer ${what}${advice}`);
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), status: this.status, limitBytes: this.limitBytes, ...(this.announcedBytes === undefined ? {} : { announcedBytes: this.announcedBytes }) };
  }
}

/** The response did not match its schema; `issues` list where (the body is not kept: it can hold PII). */
export class ResponseValidationError extends RequestError {
  /** The message names the first five mismatches. */
  constructor(
    request: RequestDescription,
    /** The HTTP status of the answer that did not match (a success: an error status makes an {@link ApiError} instead). */
    readonly status: number,
    /** Each mismatch as `path: message`. */
    readonly issues: readonly string[],
  ) {
    super(request, `${request.method} ${request.path}: the HTTP ${status} response does not match its schema: ${issues.slice(0, 5).join("; ")}`);
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), status: this.status, issues: this.issues };
  }
}

/** One problem found by a zod schema, as zod reports it. */
interface SchemaIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** A zod issue path in the notation users write: `filters[3].rules.op`, rooted at `root`. */
export function issuePath(root: string, path: readonly PropertyKey[]): string {
  let text = root;
  for (const key of path) {
    text += typeof key === "number" ? `[${key}]` : text === "" ? String(key) : `.${String(key)}`;
  }
  return text === "" ? "(root)" : text;
}

/** Each issue as `path: message`. */
export function describeIssues(issues: readonly SchemaIssue[]): string[] {
  return issues.map((issue) => `${issuePath("", issue.path)}: ${issue.message}`);
}

/** The name and code of an underlying error, without anything else it may carry. */
function causeSummary(cause: unknown): string {
  if (!(cause instanceof Error)) return "unknown error";
  const code = (cause as { code?: unknown }).code;
  return typeof code === "string" ? `${code}: ${cause.message}` : cause.message;
}

/**
 * What a failed request met, in words that are the same for every request that meets it, so that a
 * log can say one cause once: `HTTP 503 (unavailable)`, `connection failed (ECONNREFUSED: connect
 * ECONNREFUSED 127.0.0.1:9)`, `no answer within 30000 ms`. An answer's own message and request id
 * are left out: they differ from request to request.
 */
export function describeFailure(error: unknown): string {
  if (error instanceof ApiError) return `HTTP ${error.status}${error.code === undefined ? "" : ` (${error.code})`}`;
  if (error instanceof RequestError) {
    const request = `${error.method} ${error.path}: `;
    return error.message.startsWith(request) ? error.message.slice(request.length) : error.message;
  }
  return error instanceof Error ? error.message : describeValue(error);
}
