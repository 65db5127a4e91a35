import { badRequest, unprocessable } from "./http";
import { MINUTE_MS, HOUR_MS, DAY_MS } from "./time";

/**
 * Time-range parameters of sessions, metrics and alerts (spec 4.1): exactly one format per request,
 * start inclusive and end exclusive. Each endpoint family states which formats it takes and its
 * default; the limits of spec 8 are enforced afterwards with {@link enforceRangeLimits}.
 */

/** The format a request used. */
export type TimeRangeFormat = "date" | "epoch" | "epoch_ms" | "days" | "minutes" | "default";

/** A parsed range: [fromMs, toMs). */
export interface TimeRange {
  fromMs: number;
  toMs: number;
  format: TimeRangeFormat;
}

/** What an endpoint family accepts. */
export interface TimeRangeRules {
  /** `days` is accepted (historical metrics and viewer endpoints only, spec 4.1). */
  allowDays?: boolean;
  /** `minutes` is accepted (real-time metrics only, spec 4.1). */
  allowMinutes?: boolean;
  /** Length of the default range when no time parameter is given; it ends now unless the caller says. */
  defaultDurationMs: number;
  /**
   * Where `days` counts back from: the most recent clock hour for historical metrics (docs/api.md 10.4:
   * called at 04:20 with days=5 gives 5 days ending at 04:00Z), else now.
   */
  daysAnchor?: "hour" | "now";
}

const PAIRS = [
  { format: "date", start: "start_date", end: "end_date" },
  { format: "epoch", start: "start_epoch", end: "end_epoch" },
  { format: "epoch_ms", start: "start_epoch_ms", end: "end_epoch_ms" },
] as const;

/** Every query parameter that belongs to a time range, so filter parsers can skip them. */
export const TIME_RANGE_PARAMETERS: ReadonlySet<string> = new Set([
  ...PAIRS.flatMap((pair) => [pair.start, pair.end]),
  "days",
  "minutes",
]);

/**
 * Parses the time range of a request. 400 for mixed formats, a missing half of a pair, a format the
 * endpoint does not take, or a malformed number; 422 for a date not in ISO 8601 form (spec 7) or a
 * start not before its end. Without a time parameter, the default range ends at `defaultEndMs`
 * (now unless the caller says: emulator/dialect.ts `defaultRangeEnd`).
 */
export function parseTimeRange(query: URLSearchParams, nowMs: number, rules: TimeRangeRules, defaultEndMs: number = nowMs): TimeRange {
  const present = [
    ...PAIRS.filter((pair) => query.has(pair.start) || query.has(pair.end)).map((pair) => pair.format),
    ...(["days", "minutes"] as const).filter((name) => query.has(name)),
  ];
  if (present.length > 1) {
    throw badRequest(
      `exactly one time-range format per request (spec 4.1); this request mixes ${present.join(" and ")}`,
      "time_range",
      "mixed_time_range_formats",
    );
  }
  const format = present[0];
  if (format === undefined) {
    return { fromMs: defaultEndMs - rules.defaultDurationMs, toMs: defaultEndMs, format: "default" };
  }
  if (format === "days" || format === "minutes") {
    const allowed = format === "days" ? rules.allowDays : rules.allowMinutes;
    if (!allowed) {
      const where = format === "days" ? "historical metrics and the viewer endpoints" : "real-time metrics";
      throw badRequest(`"${format}" is accepted only by ${where} (spec 4.1); give a start and end instead`, format);
    }
    const count = positiveInteger(query.get(format)!, format);
    if (format === "minutes") {
      // docs/api.md 10.4: counts back from the most recent whole minute, as days does from the hour.
      const anchor = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;
      return { fromMs: anchor - count * MINUTE_MS, toMs: anchor, format };
    }
    const anchor = rules.daysAnchor === "hour" ? Math.floor(nowMs / HOUR_MS) * HOUR_MS : nowMs;
    return { fromMs: anchor - count * DAY_MS, toMs: anchor, format };
  }
  const pair = PAIRS.find((candidate) => candidate.format === format)!;
  for (const name of [pair.start, pair.end]) {
    if (!query.has(name)) throw badRequest(`"${name}" is required with "${name === pair.start ? pair.end : pair.start}"`, name);
  }
  const read = (name: string) => {
    const text = query.get(name)!;
    if (format === "date") return parseIsoDateTime(text, name);
    const value = integer(text, name);
    return format === "epoch" ? value * 1000 : value;
  };
  const fromMs = read(pair.start);
  const toMs = read(pair.end);
  if (fromMs >= toMs) {
    throw unprocessable(`"${pair.start}" must be before "${pair.end}" (start inclusive, end exclusive, spec 4.1)`, pair.start);
  }
  return { fromMs, toMs, format };
}

/** Limits of spec 8 for one family: the longest range and the oldest start. */
export interface RangeLimits {
  /** Longest allowed range. */
  maxDurationMs?: number;
  /** Oldest allowed start, as a distance back from now. */
  maxAgeMs?: number;
  /** How the limit is named in the error, for example "historical metrics". */
  label: string;
}

/**
 * Answers 422 when a range exceeds the family's limits (spec 7, 8). The age of a `minutes` range is
 * measured from the whole minute it counts back from, so `minutes=15` stays within 15 minutes.
 */
export function enforceRangeLimits(range: TimeRange, nowMs: number, limits: RangeLimits): void {
  const reference = range.format === "minutes" ? Math.floor(nowMs / MINUTE_MS) * MINUTE_MS : nowMs;
  if (limits.maxDurationMs !== undefined && range.toMs - range.fromMs > limits.maxDurationMs) {
    throw unprocessable(
      `the range of ${limits.label} is at most ${describeDuration(limits.maxDurationMs)} (spec 8); ` +
        `this one is ${describeDuration(range.toMs - range.fromMs)}: split it into several requests`,
      "time_range",
    );
  }
  if (limits.maxAgeMs !== undefined && range.fromMs < reference - limits.maxAgeMs) {
    throw unprocessable(
      `the start of ${limits.label} must be within the last ${describeDuration(limits.maxAgeMs)} (spec 8)`,
      "time_range",
    );
  }
}

/** A duration in the largest whole unit that fits, for error messages. */
export function describeDuration(ms: number): string {
  const units: Array<[number, string]> = [[DAY_MS, "day"], [HOUR_MS, "hour"], [MINUTE_MS, "minute"], [1000, "second"]];
  for (const [size, name] of units) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${name}${ms / size === 1 ? "" : "s"}`;
  }
  return `${ms} ms`;
}

/**
 * The epoch ms of a calendar day `YYYY-MM-DD` at 00:00Z, or undefined when the text is not in that
 * form or names a day that does not exist: Date.parse rolls 2026-02-30 over to March 2, so a day
 * that does not round-trip is refused. Every endpoint that takes a date reads it through here.
 */
export function epochOfDay(text: string): number | undefined {
  const epochMs = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(epochMs) || new Date(epochMs).toISOString().slice(0, 10) !== text) return undefined;
  return epochMs;
}

/**
 * ISO 8601 forms (spec 4.1): YYYY-MM-DDTHH:mm:ss with Z, an offset or no zone (taken as UTC),
 * optional fractional seconds, or YYYY-MM-DD. Anything else, or a day that does not exist
 * (2026-02-30), is 422.
 */
export function parseIsoDateTime(text: string, parameter: string): number {
  const match = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(Z|[+-]\d{2}:\d{2})?)?$/.exec(text);
  const dayMs = match ? epochOfDay(match[1]!) : undefined;
  let parsed = Number.NaN;
  if (match && dayMs !== undefined) {
    const [, , time, zone] = match;
    parsed = time === undefined ? dayMs : Date.parse(zone ? text : `${text}Z`);
  }
  if (Number.isNaN(parsed)) {
    throw unprocessable(
      `"${parameter}" must be an ISO 8601 date-time such as 2026-11-20T12:00:00Z (spec 4.1), got "${text}"`,
      parameter,
    );
  }
  return parsed;
}

function integer(text: string, parameter: string): number {
  if (!/^-?\d+$/.test(text)) throw badRequest(`"${parameter}" must be an integer, got "${text}"`, parameter);
  return Number(text);
}

function positiveInteger(text: string, parameter: string): number {
  const value = integer(text, parameter);
  if (value < 1) throw badRequest(`"${parameter}" must be a positive integer, got "${text}"`, parameter);
  return value;
}
