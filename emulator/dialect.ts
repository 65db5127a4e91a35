import type { HttpError, RouteResult } from "./http";

/**
 * Dialects of the emulator (emulator/README.md "Dialects"). Where the contract (docs/api.md) and
 * the facts beyond it (docs/api.md 10) are silent, the real service may answer in more than one
 * plausible way. The `standard` dialect answers our choice; the `alternate` dialect answers the
 * other plausible shape at every such place, so that a client tested against both depends on none
 * of the choices. Each place reads the account's dialect through the helpers of this module, so
 * the list in the README and the code stay one list.
 */

/** The dialects, the default first. */
export const DIALECTS = ["standard", "alternate"] as const;

/** A dialect of the emulator. */
export type Dialect = (typeof DIALECTS)[number];

/** Whether `value` names a dialect. */
export function isDialect(value: unknown): value is Dialect {
  return (DIALECTS as readonly unknown[]).includes(value);
}

/**
 * Statuses the alternate dialect answers instead of the standard one, by the standard error code:
 * the places where docs/api.md 7 names no status (filter_id with dimension filters, mixed time-range
 * formats, more than 12 metrics: 422 instead of 400), unknown saved-filter ids in PUT or DELETE (404
 * instead of 400), and a PII POST whose identifiers were all submitted before (409 instead of 400).
 */
const ALTERNATE_STATUS: Readonly<Record<string, number>> = {
  conflicting_filters: 422,
  mixed_time_range_formats: 422,
  too_many_metrics: 422,
  unknown_id: 404,
  all_identifiers_previously_submitted: 409,
};

/** Path prefixes whose alternate error bodies are `{"message": ...}`; the others answer plain text. */
const MESSAGE_ONLY_PREFIXES = ["/bulk_filters", "/pii-opt-out"];

/**
 * The answer of an error in a dialect. Standard: `{status, error, message, parameter}` with the
 * error's status. Alternate: the status of {@link ALTERNATE_STATUS} where it names one, and the body
 * `{"message": ...}` alone on the saved-filter and PII endpoints, plain text elsewhere.
 */
export function errorAnswer(error: HttpError, dialect: Dialect, path: string): RouteResult {
  if (dialect === "standard") return { status: error.status, body: error.toBody(), headers: error.headers };
  const status = ALTERNATE_STATUS[error.code] ?? error.status;
  if (MESSAGE_ONLY_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) {
    return { status, body: { message: error.message }, headers: error.headers };
  }
  return { status, body: error.message, headers: { ...error.headers, "content-type": PLAIN_TEXT } };
}

/** The content type of plain-text answers; the server writes a string body with it as it is. */
export const PLAIN_TEXT = "text/plain; charset=utf-8";

/**
 * A listing whose wrapper the contract does not show: `{[member]: items, ...extra}` in the standard
 * dialect, the bare array in the alternate one (which has no room for the extra members).
 */
export function listing(dialect: Dialect, member: string, items: unknown[], extra: Record<string, unknown> = {}): unknown {
  return dialect === "standard" ? { ...extra, [member]: items } : items;
}

/**
 * An identifier whose JSON type the contract leaves open (a saved filter's id, a KPI set's id):
 * `standard` is the type the standard dialect uses at that place; the alternate dialect uses the
 * other one.
 */
export function identifier(dialect: Dialect, id: number | string, standard: "number" | "string"): number | string {
  return identifierStyle(dialect, standard) === "number" ? Number(id) : String(id);
}

/** The JSON type of an identifier at a place where the standard dialect uses `standard` (see {@link identifier}). */
export function identifierStyle(dialect: Dialect, standard: "number" | "string"): "number" | "string" {
  return dialect === "standard" ? standard : standard === "number" ? "string" : "number";
}

/**
 * The marker of a listing cut at its limit (docs/api.md 10.1: no pagination, results capped at 500):
 * `{truncated: true}` in the standard dialect when more items matched than were listed, nothing in
 * the alternate one (a client must then treat a listing of exactly the cap as possibly incomplete).
 */
export function truncationMarker(dialect: Dialect, listed: number, matched: number): { truncated?: true } {
  return dialect === "standard" && matched > listed ? { truncated: true } : {};
}

/**
 * How a text search of the saved-filter API matches: `name` of `GET /bulk_filters/` (docs/api.md 4.8:
 * a substring; whether case counts is not shown) and `pattern` of the lookups (docs/api.md 4.8: how it
 * matches is not shown). The standard dialect matches a substring ignoring case, our choice; the
 * alternate one matches the case as given, and `pattern` only at the beginning of a value: the
 * narrowest reading the contract leaves open at each place (it names `name` a substring), so its
 * answers are a subset of what any other plausible reading finds.
 */
export function textMatch(dialect: Dialect, parameter: "name" | "pattern"): (value: string, searched: string) => boolean {
  if (dialect === "standard") return (value, searched) => value.toLowerCase().includes(searched.toLowerCase());
  return parameter === "name" ? (value, searched) => value.includes(searched) : (value, searched) => value.startsWith(searched);
}

/** The offset of the local zone the alternate dialect writes times in (docs/api.md 2.9: "UTC or a local zone"). */
const ALTERNATE_OFFSET_MINUTES = -5 * 60;

/**
 * An instant as the alternate dialect writes the times of PII requests and saved filters: ISO 8601
 * with milliseconds in a local zone at a fixed offset of -05:00 (`2026-11-20T07:30:00.000-05:00`
 * for 12:30Z), the same instant as the standard dialect's UTC form.
 */
export function alternateLocalTime(epochMs: number): string {
  const local = new Date(epochMs + ALTERNATE_OFFSET_MINUTES * 60_000).toISOString().slice(0, -1);
  const sign = ALTERNATE_OFFSET_MINUTES < 0 ? "-" : "+";
  const minutes = Math.abs(ALTERNATE_OFFSET_MINUTES);
  return `${local}${sign}${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/**
 * The order of a listing by time whose order the contract does not show (sample and viewer sessions,
 * AI alerts): newest first in the standard dialect, our choice, oldest first in the alternate one,
 * so that a cut at the listing's limit keeps the other end. Compares two times; ties are the caller's.
 */
export function byTime(dialect: Dialect): (leftMs: number, rightMs: number) => number {
  return dialect === "standard" ? (leftMs, rightMs) => rightMs - leftMs : (leftMs, rightMs) => leftMs - rightMs;
}

/**
 * Where a metric request without a time range ends (docs/api.md 4.6: 24 hours, or 5 minutes in
 * real time; where they end is not shown): now in the standard dialect, our choice; the last
 * whole `unitMs` in the alternate one (the hour for historical metrics, the minute in real time), as
 * `days` and `minutes` count back (docs/api.md 10.4).
 */
export function defaultRangeEnd(dialect: Dialect, nowMs: number, unitMs: number): number {
  return dialect === "standard" ? nowMs : Math.floor(nowMs / unitMs) * unitMs;
}

/**
 * Whether a metric answer lists an interval without data (docs/api.md 2.4: not shown): the standard
 * dialect lists it with neutral values (zeros, or a group-by interval without entities), our choice;
 * the alternate one leaves it out of `time_series`.
 */
export function listsIntervalsWithoutData(dialect: Dialect): boolean {
  return dialect === "standard";
}

/**
 * A value of a metric answer whose denominator is empty (a percentage of no attempts, a mean over no
 * plays; docs/api.md 10.4 names the fields, not this case): 0 in the standard dialect, our choice,
 * `null` in the alternate one.
 */
export function emptyRatio(dialect: Dialect): 0 | null {
  return dialect === "standard" ? 0 : null;
}

/**
 * What a group-by `limit=0` asks for (docs/api.md 4.6: 0 to 500, default 50; what 0 means is not
 * shown): the most, `max`, in the standard dialect, our choice; the default, `fallback`, in the
 * alternate one, so there it is never a limit above 50 and is accepted over any range.
 */
export function groupByLimitZero(dialect: Dialect, max: number, fallback: number): number {
  return dialect === "standard" ? max : fallback;
}
