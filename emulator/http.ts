/**
 * A 4xx (or, from a fault rule, 5xx) answer with a JSON body that names the parameter and why.
 * The real service's error shape is not shown (spec 7): `{status, error, message, parameter}` is
 * the emulator's choice, with `message` as docs/api.md 10.1 shows for 401.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    /** A stable machine-readable code, such as `invalid_parameter`. */
    readonly code: string,
    message: string,
    /** The query parameter or body path at fault, when there is one. */
    readonly parameter?: string,
    /** Extra headers, such as `Retry-After`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "HttpError";
  }

  /** The JSON body of this error. */
  toBody(): ErrorBody {
    return {
      status: this.status,
      error: this.code,
      message: this.message,
      ...(this.parameter === undefined ? {} : { parameter: this.parameter }),
    };
  }
}

/** The emulator's error body (emulator/README.md "Errors"). */
export interface ErrorBody {
  status: number;
  error: string;
  message: string;
  parameter?: string;
}

/** True for a JSON object (not null, not an array): what a body or a rule node must be. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** 400 for an invalid parameter (spec 7: bulk filters, and the emulator's choice where 7 is silent). */
export function badRequest(message: string, parameter?: string, code = "invalid_parameter"): HttpError {
  return new HttpError(400, code, message, parameter);
}

/** 422 for a time range beyond the limits of spec 8 or a date not in ISO 8601 form (spec 7). */
export function unprocessable(message: string, parameter?: string): HttpError {
  return new HttpError(422, "invalid_time_range", message, parameter);
}

/** 404 for an unknown object or path. */
export function notFound(message: string, parameter?: string): HttpError {
  return new HttpError(404, "not_found", message, parameter);
}

/** 403 for a feature the account does not have (spec 1: bulk filters are not enabled by default). */
export function featureDisabled(feature: string, message: string): HttpError {
  return new HttpError(403, "feature_not_enabled", message, feature);
}

/** What a route handler answers: a status (200 unless said) and a JSON body. */
export interface RouteResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}
