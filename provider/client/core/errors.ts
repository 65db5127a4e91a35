import { inspect } from "node:util";
import { readErrorBody, type ErrorBodyReading } from "../assumptions";

/**
 * The one error hierarchy of the typed client. Every value the client throws is an
 * {@link InsightsError}; none of them ever carries the client secret or the Authorization header,
 * and none puts a query string (which can carry viewer ids) into its message.
 */

/** The HTTP methods the Insights API uses (spec section 4). */
export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/** Base class of every error the client throws. */
export class InsightsError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
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

  constructor(request: RequestDescription, message: string, options?: { cause?: unknown }) {
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
  /** The response body: parsed JSON, or the raw text when it is not JSON. */
  body: unknown;
  /** The wait the server asked for with `Retry-After`, in milliseconds. */
  retryAfterMs?: number;
  /** The response headers, names in lower case. */
  headers?: Readonly<Record<string, string>>;
}

/** Headers that carry a request id, in the order they are looked for (the service documents none). */
const REQUEST_ID_HEADERS = ["x-request-id", "request-id", "x-amzn-requestid", "x-correlation-id"] as const;

/**
 * The service answered with an error status. The body's shape is not shown (docs/api.md 7): any body,
 * JSON or text, is read by `readErrorBody` (provider/client/assumptions.ts), and `code`, `detail` and
 * `parameter` are set when it has them. They are for people: the client decides on the status alone.
 */
export class ApiError extends RequestError {
  /** The HTTP status of the answer (spec 7). */
  readonly status: number;
  /** The parsed response body as received. */
  readonly body: unknown;
  /** The machine-readable code of the body (`error`), when given. */
  readonly code?: string;
  /** The server's message, when the body has one. */
  readonly detail?: string;
  /** The parameter the server names as the cause, when given. */
  readonly parameter?: string;
  /** The wait the server asked for with `Retry-After`, in milliseconds. */
  readonly retryAfterMs?: number;
  /** The response headers, names in lower case (empty when the error was not built from an answer). */
  readonly headers: Readonly<Record<string, string>>;
  /** The request id the answer carried (`x-request-id` or a similar header), for the service's support. */
  readonly requestId?: string;

  constructor(details: ApiErrorDetails) {
    const errorBody = readErrorBody(details.body);
    const headers = details.headers ?? {};
    const requestId = REQUEST_ID_HEADERS.map((name) => headers[name]).find((value) => value !== undefined && value !== "");
    super(details, `${describeApiError(details, errorBody)}${requestId === undefined ? "" : ` (request id ${requestId})`}`);
    this.headers = headers;
    if (requestId !== undefined) this.requestId = requestId;
    this.status = details.status;
    this.body = details.body;
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
  const code = body.code === undefined ? "" : ` (${body.code})`;
  const parameter = body.parameter === undefined ? "" : ` [parameter: ${body.parameter}]`;
  return `${head}${code}${body.message === undefined ? "" : `: ${body.message}`}${parameter}`;
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

/** The most specific {@link ApiError} subclass for a status. */
export function apiErrorFor(details: ApiErrorDetails): ApiError {
  const ErrorClass = details.status >= 500 ? InternalServerError : (API_ERROR_BY_STATUS[details.status] ?? ApiError);
  return new ErrorClass(details);
}

/** The connection failed or was reset before a complete answer arrived; `cause` says how. */
export class ConnectionError extends RequestError {
  constructor(request: RequestDescription, cause: unknown) {
    super(request, `${request.method} ${request.path}: connection failed (${causeSummary(cause)})`, { cause });
  }
}

/** No complete answer arrived within the per-request timeout; `cause` is the underlying error. */
export class TimeoutError extends RequestError {
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

/** The response did not match its schema; `issues` list where (the body is not kept: it can hold PII). */
export class ResponseValidationError extends RequestError {
  constructor(
    request: RequestDescription,
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
