import { z } from "zod";
import { isoDate } from "../../schema";
import { checked, declareShape } from "../../schema/meta";
import { describeValue } from "./errors";
import type * as params from "./params";
import type { QueryParams } from "./request";

/**
 * Typed time ranges of sessions, metrics and alerts (spec 4.1). A range is ONE of three shapes, so
 * mixing formats in one request (which the service refuses) cannot be written: an explicit
 * `{ start, end }`, `{ lastDays }` or `{ lastMinutes }`. Explicit ranges are always sent as
 * start_epoch_ms/end_epoch_ms: exact, zone-free, and splittable into windows.
 */

/** A point in time: a `Date`, an ISO 8601 string, or epoch milliseconds. */
export type DateInput = params.DateInput;
/** @internal The schema of {@link DateInput}, for the generated interfaces ({@link timeRange} reads a date). */
export const DateInput = declareShape(z.union([z.date(), z.string(), z.number()]).describe("A point in time: a `Date`, an ISO 8601 string, or epoch milliseconds."), {
  // A `Date` is TypeScript's own: a program in another language gives the text or the number.
  portable: z.union([z.string(), z.number()]).describe("A point in time: an ISO 8601 string, or epoch milliseconds."),
});

/** The member of a range in another format, which a range of this one leaves out. */
const notWith = (format: string) => z.never().optional().describe(`Not with ${format}: one format per request (spec 4.1).`);

/** `[start, end)`: start inclusive, end exclusive (spec 4.1). */
export type ExplicitRange = params.ExplicitRange;
/** @internal The schema of {@link ExplicitRange}, for the generated interfaces. */
export const ExplicitRange = z
  .object({
    start: DateInput.describe("The start, included."),
    end: DateInput.describe("The end, excluded."),
    lastDays: notWith("`start` and `end`"),
    lastMinutes: notWith("`start` and `end`"),
  })
  .describe("`[start, end)`: start inclusive, end exclusive (spec 4.1).");

/**
 * The range of the last N `unit`: the count under `key`, and the members of the other formats,
 * `other` among them, left out.
 */
function countRange<Key extends string, Other extends string>(key: Key, other: Other, unit: string) {
  const notThis = notWith(`\`${key}\``);
  const members = { [key]: z.number().int().positive().describe(`How many ${unit} back from now.`), [other]: notThis } as Record<Key, z.ZodNumber> & Record<Other, typeof notThis>;
  return z.object({ ...members, start: notThis, end: notThis });
}

/** The last N days: historical metrics and viewer endpoints only (spec 4.1). */
export type LastDaysRange = params.LastDaysRange;
/** @internal The schema of {@link LastDaysRange}, for the generated interfaces. */
export const LastDaysRange = countRange("lastDays", "lastMinutes", "days").describe("The last N days: historical metrics and viewer endpoints only (spec 4.1).");

/** The last N minutes: real-time metrics only (spec 4.1). */
export type LastMinutesRange = params.LastMinutesRange;
/** @internal The schema of {@link LastMinutesRange}, for the generated interfaces. */
export const LastMinutesRange = countRange("lastMinutes", "lastDays", "minutes").describe("The last N minutes: real-time metrics only (spec 4.1).");

/** Any time range. Each endpoint's parameter type narrows it to the formats the endpoint takes. */
export type TimeRange = params.TimeRange;
/** @internal The schema of {@link TimeRange}, for the generated interfaces. */
export const TimeRange = z
  .union([ExplicitRange, LastDaysRange, LastMinutesRange])
  .describe("Any time range. Each endpoint's parameter type narrows it to the formats the endpoint takes.");

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
  /** The start, included, in epoch milliseconds. */
  startMs: number;
  /** The end, excluded, in epoch milliseconds. */
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

/** The shape of each format, and the range type a policy of those formats takes. */
const FORMAT_SHAPES = { explicit: ExplicitRange, lastDays: LastDaysRange, lastMinutes: LastMinutesRange } as const;
type RangeOf<Format extends RangeFormat> = { explicit: ExplicitRange; lastDays: LastDaysRange; lastMinutes: LastMinutesRange }[Format];

/**
 * @internal
 * A time range of a family's formats (spec 4.1), answered checked. The shape is checked at run
 * time too, because JavaScript callers can pass anything: one format, accepted by the family, a
 * positive count, a start before the end.
 */
export function timeRange<Format extends RangeFormat>(policy: RangePolicy<Format>) {
  const shapes = policy.formats.map((format) => FORMAT_SHAPES[format]);
  const shape = shapes.length === 1 ? shapes[0]! : z.union(shapes);
  return checked<RangeOf<Format>, CheckedRange<Format>>(shape, (range, context) => {
    const refuse = (message: string, path: PropertyKey[] = []) => {
      context.addIssue({ code: "custom", message, path });
      return z.NEVER;
    };
    if (typeof range !== "object" || range === null) return refuse(`must be an object: ${describeFormats(policy.formats)}`);
    const given = range as Record<string, unknown>;
    const present = (["start", "end", "lastDays", "lastMinutes"] as const).filter((key) => given[key] !== undefined);
    const formats = new Set(present.map((key) => (key === "start" || key === "end" ? "explicit" : key)));
    if (formats.size !== 1) {
      const problem = formats.size === 0 ? "gives no time" : `mixes ${[...formats].join(" and ")}`;
      return refuse(`${problem}; use exactly one format (spec 4.1): ${describeFormats(policy.formats)}`);
    }
    const format = [...formats][0] as RangeFormat;
    if (!(policy.formats as readonly RangeFormat[]).includes(format)) {
      const where = format === "explicit" ? "" : ` is accepted only by ${FORMAT_USERS[format]} (spec 4.1)`;
      return refuse(`${format}${where}; ${policy.family} take ${describeFormats(policy.formats)}`, [format]);
    }
    if (format === "lastDays" || format === "lastMinutes") {
      const count = given[format];
      if (typeof count !== "number" || !Number.isInteger(count) || count < 1) return refuse(`must be a positive whole number, got ${describeValue(count)}`, [format]);
      return (format === "lastDays" ? { format, days: count } : { format, minutes: count }) as CheckedRange<Format>;
    }
    for (const key of ["start", "end"] as const) {
      if (given[key] === undefined) return refuse(`is required with "${key === "start" ? "end" : "start"}"`, [key]);
    }
    const startMs = epochMsOf(given.start);
    if (startMs === undefined) return refuse(notADate(given.start), ["start"]);
    const endMs = epochMsOf(given.end);
    if (endMs === undefined) return refuse(notADate(given.end), ["end"]);
    if (startMs >= endMs) return refuse(`must be before end (start inclusive, end exclusive, spec 4.1); got ${isoDate(startMs)} to ${isoDate(endMs)}`, ["start"]);
    return { format, startMs, endMs } as CheckedRange<Format>;
  });
}

/**
 * @internal
 * A time range of `policy` ({@link timeRange}), resolved by the clock `now` and held to the limits
 * of spec 8 that do not depend on splitting: the oldest allowed start and, for families that cannot
 * split, the longest range. Answers the range as given and the interval it covers.
 */
export function timeRangeAt<Format extends RangeFormat>(policy: RangePolicy<Format>, now: () => number) {
  return timeRange(policy).transform((range, context) => {
    const nowMs = now();
    const interval = resolveRange(range, nowMs, policy.daysAnchor);
    const length = interval.endMs - interval.startMs;
    if (policy.maxDurationMs !== undefined && length > policy.maxDurationMs) {
      context.addIssue({ code: "custom", message: `${policy.family} cover at most ${describeDuration(policy.maxDurationMs)} per request (spec 8); this range is ${describeDuration(length)}: shorten it` });
    } else if (policy.maxAgeMs !== undefined && interval.startMs < nowMs - policy.maxAgeMs) {
      context.addIssue({
        code: "custom",
        path: ["start"],
        message: `${policy.family} must start within the last ${describeDuration(policy.maxAgeMs)} (spec 8); ${isoDate(interval.startMs)} is older: move the start to ${isoDate(nowMs - policy.maxAgeMs)} or later`,
      });
    }
    return { range, interval };
  });
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
 * Epoch milliseconds of a {@link DateInput}, undefined when it is none. ISO strings without a zone
 * are read as UTC, as the service reads them (spec 4.1 lists `YYYY-MM-DDTHH:mm:ss` and
 * `YYYY-MM-DD`), never in the local zone.
 */
function epochMsOf(value: unknown): number | undefined {
  let epochMs = Number.NaN;
  if (value instanceof Date) epochMs = value.getTime();
  else if (typeof value === "number" && Number.isInteger(value)) epochMs = value;
  else if (typeof value === "string") {
    const match = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(value);
    if (match) epochMs = Date.parse(match[1] === undefined || match[4] !== undefined ? value : `${value}Z`);
  }
  return Number.isFinite(epochMs) ? epochMs : undefined;
}

/** Why `value` is not a {@link DateInput}. */
function notADate(value: unknown): string {
  return `must be a Date, epoch milliseconds or an ISO 8601 date-time such as 2026-11-20T12:00:00Z; got ${describeValue(value)}`;
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

/** A duration in the largest whole unit that fits, for error messages. */
export function describeDuration(ms: number): string {
  const units: Array<[number, string]> = [[DAY_MS, "day"], [HOUR_MS, "hour"], [MINUTE_MS, "minute"], [1000, "second"]];
  for (const [size, name] of units) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${name}${ms / size === 1 ? "" : "s"}`;
  }
  return `${Math.round(ms / 1000)} seconds`;
}

/** A time range of historical metrics (spec 4.1): explicit, or the last N days. */
export type HistoricalRange = ExplicitRange | LastDaysRange;
/** A time range of real-time metrics (spec 4.1): explicit, or the last N minutes. */
export type RealTimeRange = ExplicitRange | LastMinutesRange;
/** The range type of a metrics API instance. */
export type MetricRange<RealTime extends boolean> = [RealTime] extends [true]
  ? RealTimeRange
  : [RealTime] extends [false]
    ? HistoricalRange
    : HistoricalRange | RealTimeRange;
