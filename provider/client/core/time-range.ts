import { isoDate } from "../../schema";
import { ArgumentError, describeValue } from "./errors";
import type { QueryParams } from "./request";

/**
 * Typed time ranges of sessions, metrics and alerts (spec 4.1). A range is ONE of three shapes, so
 * mixing formats in one request (which the service refuses) cannot be written: an explicit
 * `{ start, end }`, `{ lastDays }` or `{ lastMinutes }`. Explicit ranges are always sent as
 * start_epoch_ms/end_epoch_ms: exact, zone-free, and splittable into windows.
 */

/** A point in time: a `Date`, an ISO 8601 string, or epoch milliseconds. */
export type DateInput = Date | string | number;

/** `[start, end)`: start inclusive, end exclusive (spec 4.1). */
export interface ExplicitRange {
  /** The start, included. */
  start: DateInput;
  /** The end, excluded. */
  end: DateInput;
  lastDays?: never;
  lastMinutes?: never;
}

/** The last N days: historical metrics and viewer endpoints only (spec 4.1). */
export interface LastDaysRange {
  /** How many days back from now. */
  lastDays: number;
  start?: never;
  end?: never;
  lastMinutes?: never;
}

/** The last N minutes: real-time metrics only (spec 4.1). */
export interface LastMinutesRange {
  /** How many minutes back from now. */
  lastMinutes: number;
  start?: never;
  end?: never;
  lastDays?: never;
}

/** Any time range. Each endpoint's parameter type narrows it to the formats the endpoint takes. */
export type TimeRange = ExplicitRange | LastDaysRange | LastMinutesRange;

/** The formats of {@link TimeRange}. */
type RangeFormat = "explicit" | "lastDays" | "lastMinutes";

/**
 * A time range after validation, narrowed to the formats a policy accepts: an explicit range is an
 * {@link Interval} already, so an explicit-only family needs no clock to resolve it.
 */
export type CheckedRange<Format extends RangeFormat = RangeFormat> = Extract<
  | { format: "explicit"; startMs: number; endMs: number }
  | { format: "lastDays"; days: number }
  | { format: "lastMinutes"; minutes: number },
  { format: Format }
>;

/** An absolute range `[startMs, endMs)` in epoch milliseconds. */
export interface Interval {
  startMs: number;
  endMs: number;
}

/** Milliseconds per unit, for the limits of spec 8. */
export const MINUTE_MS = 60_000;
/** One hour in milliseconds. */
export const HOUR_MS = 60 * MINUTE_MS;
/** One day in milliseconds (UTC days have no daylight-saving change). */
export const DAY_MS = 24 * HOUR_MS;
/** One week in milliseconds. */
export const WEEK_MS = 7 * DAY_MS;

/**
 * What an endpoint family accepts (docs/api.md 4.1, 8, 10.4, 10.5). `maxDurationMs` is enforced only by
 * families that cannot split a longer range themselves.
 */
export interface RangePolicy<Format extends RangeFormat = RangeFormat> {
  /** How the family is named in errors, for example "historical metrics". */
  family: string;
  formats: readonly Format[];
  /** Oldest allowed start, as a distance back from now. */
  maxAgeMs?: number;
  /** Longest allowed range. */
  maxDurationMs?: number;
  /**
   * Where `lastDays` counts back from: the most recent clock hour for historical metrics
   * (docs/api.md 10.4: called at 04:20 with days=5 gives 5 days ending at 04:00Z), else (the default) now.
   * Only policies that accept `lastDays` need it.
   */
  daysAnchor?: "hour" | "now";
}

const FORMAT_USERS: Record<Exclude<RangeFormat, "explicit">, string> = {
  lastDays: "historical metrics and the viewer endpoints",
  lastMinutes: "real-time metrics",
};

/**
 * Validates a time range against a family's formats (spec 4.1). The shape is checked at run time
 * too, because JavaScript callers can pass anything.
 */
export function checkTimeRange<Format extends RangeFormat>(range: unknown, policy: RangePolicy<Format>, path = "range"): CheckedRange<Format> {
  if (typeof range !== "object" || range === null) {
    throw new ArgumentError(path, `must be an object: ${describeFormats(policy.formats)}`);
  }
  const given = range as Record<string, unknown>;
  const present = (["start", "end", "lastDays", "lastMinutes"] as const).filter((key) => given[key] !== undefined);
  const formats = new Set(present.map((key) => (key === "start" || key === "end" ? "explicit" : key)));
  if (formats.size !== 1) {
    const problem = formats.size === 0 ? "gives no time" : `mixes ${[...formats].join(" and ")}`;
    throw new ArgumentError(path, `${problem}; use exactly one format (spec 4.1): ${describeFormats(policy.formats)}`);
  }
  const format = [...formats][0] as RangeFormat;
  if (!(policy.formats as readonly RangeFormat[]).includes(format)) {
    const where = format === "explicit" ? "" : ` is accepted only by ${FORMAT_USERS[format]} (spec 4.1)`;
    throw new ArgumentError(`${path}.${format}`, `${format}${where}; ${policy.family} take ${describeFormats(policy.formats)}`);
  }
  if (format === "lastDays" || format === "lastMinutes") {
    const count = given[format];
    if (typeof count !== "number" || !Number.isInteger(count) || count < 1) {
      throw new ArgumentError(`${path}.${format}`, `must be a positive whole number, got ${describeValue(count)}`);
    }
    return (format === "lastDays" ? { format, days: count } : { format, minutes: count }) as CheckedRange<Format>;
  }
  for (const key of ["start", "end"] as const) {
    if (given[key] === undefined) throw new ArgumentError(`${path}.${key}`, `is required with "${key === "start" ? "end" : "start"}"`);
  }
  const startMs = toEpochMs(given.start, `${path}.start`);
  const endMs = toEpochMs(given.end, `${path}.end`);
  if (startMs >= endMs) {
    throw new ArgumentError(`${path}.start`, `must be before end (start inclusive, end exclusive, spec 4.1); got ${isoDate(startMs)} to ${isoDate(endMs)}`);
  }
  return { format, startMs, endMs } as CheckedRange<Format>;
}

function describeFormats(formats: readonly RangeFormat[]): string {
  const shapes: Record<RangeFormat, string> = {
    explicit: "{ start, end }",
    lastDays: "{ lastDays }",
    lastMinutes: "{ lastMinutes }",
  };
  return formats.map((format) => shapes[format]).join(" or ");
}

/**
 * Epoch milliseconds of a {@link DateInput}. ISO strings without a zone are read as UTC, as the
 * service reads them (spec 4.1 lists `YYYY-MM-DDTHH:mm:ss` and `YYYY-MM-DD`), never in the local zone.
 */
export function toEpochMs(value: unknown, path: string): number {
  let epochMs = Number.NaN;
  if (value instanceof Date) epochMs = value.getTime();
  else if (typeof value === "number" && Number.isInteger(value)) epochMs = value;
  else if (typeof value === "string") {
    const match = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(value);
    if (match) epochMs = Date.parse(match[1] === undefined || match[4] !== undefined ? value : `${value}Z`);
  }
  if (!Number.isFinite(epochMs)) {
    throw new ArgumentError(path, `must be a Date, epoch milliseconds or an ISO 8601 date-time such as 2026-11-20T12:00:00Z; got ${describeValue(value)}`);
  }
  return epochMs;
}

/** The absolute interval a checked range covers at `nowMs`, as the service resolves it (spec 4.1). */
export function resolveRange(range: CheckedRange, nowMs: number, daysAnchor?: RangePolicy["daysAnchor"]): Interval {
  switch (range.format) {
    case "explicit":
      return { startMs: range.startMs, endMs: range.endMs };
    case "lastDays": {
      const endMs = daysAnchor === "hour" ? Math.floor(nowMs / HOUR_MS) * HOUR_MS : nowMs;
      return { startMs: endMs - range.days * DAY_MS, endMs };
    }
    case "lastMinutes":
      return { startMs: nowMs - range.minutes * MINUTE_MS, endMs: nowMs };
  }
}

/** The query parameters of a checked range or an interval (spec 4.1). */
export function rangeQuery(range: CheckedRange | Interval): QueryParams {
  if ("days" in range) return { days: range.days };
  if ("minutes" in range) return { minutes: range.minutes };
  return { start_epoch_ms: range.startMs, end_epoch_ms: range.endMs };
}

/**
 * Checks the limits of spec 8 that do not depend on splitting: the oldest allowed start and, for
 * families that cannot split, the longest range. `nowMs` is the client's clock.
 */
export function checkRangeLimits(interval: Interval, nowMs: number, policy: RangePolicy, path = "range"): void {
  const length = interval.endMs - interval.startMs;
  if (policy.maxDurationMs !== undefined && length > policy.maxDurationMs) {
    throw new ArgumentError(path, `${policy.family} cover at most ${describeDuration(policy.maxDurationMs)} per request (spec 8); this range is ${describeDuration(length)}: shorten it`);
  }
  if (policy.maxAgeMs !== undefined && interval.startMs < nowMs - policy.maxAgeMs) {
    throw new ArgumentError(`${path}.start`, `${policy.family} must start within the last ${describeDuration(policy.maxAgeMs)} (spec 8); ${isoDate(interval.startMs)} is older: move the start to ${isoDate(nowMs - policy.maxAgeMs)} or later`);
  }
}

/** A duration in the largest whole unit that fits, for error messages. */
export function describeDuration(ms: number): string {
  const units: Array<[number, string]> = [[DAY_MS, "day"], [HOUR_MS, "hour"], [MINUTE_MS, "minute"], [1000, "second"]];
  for (const [size, name] of units) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${name}${ms / size === 1 ? "" : "s"}`;
  }
  return `${Math.round(ms / 1000)} seconds`;
}
