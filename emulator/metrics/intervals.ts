import { badRequest } from "../http";
import type { TimeRange } from "../time-range";
import { MINUTE_MS, HOUR_MS, DAY_MS, WEEK_MS } from "../time";

/**
 * The intervals of a metric response (spec 2.4, 4.6). Granularity is an ISO 8601 duration from a
 * supported set (the spec shows PT1M, PT1H and PT6H; docs/api.md 10.4: PT1M up to P10W, and ALL); the
 * emulator supports the list below. Intervals are aligned to UTC boundaries of the granularity (days
 * at 00:00Z, weeks on Mondays, ten-week blocks counted from Monday 1970-01-05). Data never comes
 * from outside the requested range: when the range is not aligned, its first and last intervals are
 * partial (they keep their aligned timestamps and hold only the data inside the range) and
 * `_meta.annotations` says so. ALL is one interval covering exactly the requested range.
 */

/** 1970-01-05T00:00Z, the first Monday of the epoch: weeks start on Mondays (ISO 8601). */
const FIRST_MONDAY_MS = 4 * DAY_MS;

/** The supported granularities and their lengths (ALL has none: it is the range). */
export const GRANULARITIES: Readonly<Record<string, number | "range">> = {
  PT1M: MINUTE_MS, PT5M: 5 * MINUTE_MS, PT10M: 10 * MINUTE_MS, PT15M: 15 * MINUTE_MS, PT30M: 30 * MINUTE_MS,
  PT1H: HOUR_MS, PT2H: 2 * HOUR_MS, PT3H: 3 * HOUR_MS, PT6H: 6 * HOUR_MS, PT12H: 12 * HOUR_MS,
  P1D: DAY_MS, P1W: WEEK_MS, P10W: 10 * WEEK_MS, ALL: "range",
};

/** The intervals of one response: `count` intervals of `stepMs` from `startMs`, holding data of [fromMs, toMs). */
export interface IntervalLayout {
  granularity: string;
  /** Aligned start of the first interval (at or before `fromMs`). */
  startMs: number;
  stepMs: number;
  count: number;
  /** The requested range: only data inside it counts. */
  fromMs: number;
  toMs: number;
  /** Whether the first or last interval is partial (the range is not aligned to the granularity). */
  partial: boolean;
}

/** Reads `granularity` (default per family, spec 4.6); 400 for a value outside the supported set. */
export function parseGranularity(query: URLSearchParams, fallback: string): string {
  const text = query.get("granularity") ?? fallback;
  if (!(text in GRANULARITIES)) {
    throw badRequest(
      `"granularity" must be one of ${Object.keys(GRANULARITIES).join(", ")} (ISO 8601 durations, or ALL for one interval), got "${text}"`,
      "granularity",
    );
  }
  return text;
}

/** The aligned intervals that cover `range` at `granularity`. */
export function layoutIntervals(range: TimeRange, granularity: string): IntervalLayout {
  const length = GRANULARITIES[granularity]!;
  const { fromMs, toMs } = range;
  if (length === "range") return { granularity, startMs: fromMs, stepMs: toMs - fromMs, count: 1, fromMs, toMs, partial: false };
  const origin = length >= WEEK_MS ? FIRST_MONDAY_MS : 0;
  const startMs = origin + Math.floor((fromMs - origin) / length) * length;
  const endMs = origin + Math.ceil((toMs - origin) / length) * length;
  return { granularity, startMs, stepMs: length, count: (endMs - startMs) / length, fromMs, toMs, partial: startMs !== fromMs || endMs !== toMs };
}

/** The index of the interval holding `epochMs` (callers keep `epochMs` inside the layout). */
export function intervalIndex(layout: IntervalLayout, epochMs: number): number {
  return Math.floor((epochMs - layout.startMs) / layout.stepMs);
}
