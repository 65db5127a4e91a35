import type { DimensionalDatum, GroupByPoint, GroupByResponse, GroupByTotal, MetricMembers, MetricResponse, TimeSeriesPoint } from "../schema";
import type { Interval } from "./core/time-range";

/**
 * Merging the answers of a metric query that was split (spec 8 limits made invisible): metric
 * chunks of a custom selection are merged member by member, time windows and 413 halves are joined
 * in time. Totals over several time windows cannot be computed from the windows' totals (unique
 * counts and ratios do not add up), so a time-split answer has no `total`; the totals of its
 * windows are kept instead, each exact for its window.
 */

/** The total of one window of a split query. */
export interface WindowTotal<Total> extends Interval {
  /** Undefined when the window itself had to be split (or the service sent none). */
  total: Total | undefined;
}

/** A metric answer with the totals of the windows it was fetched in. */
export interface Merged<Response extends { total?: unknown }> {
  response: Response;
  windows: WindowTotal<NonNullable<Response["total"]>>[];
}

/** How the points and totals of one response shape combine. */
interface Shape<Point extends { timestamp: { epoch_ms: number } }, Total> {
  mergePoint(left: Point, right: Point): Point;
  mergeTotal(left: Total, right: Total): Total;
}

type SeriesResponse<Point, Total> = { time_series: Point[]; total?: Total; _meta?: MetricResponse["_meta"] };

/** A plain series: members of one interval are keyed by metric, so merging is a union. */
export const PLAIN_SHAPE: Shape<TimeSeriesPoint, MetricMembers> = {
  mergePoint: (left, right) => ({ ...left, ...right }),
  mergeTotal: (left, right) => ({ ...left, ...right }),
};

/** A group-by series: entities are matched by dimension key and value, their metrics united. */
export const GROUP_BY_SHAPE: Shape<GroupByPoint, GroupByTotal> = {
  mergePoint: (left, right) => ({ ...left, ...right, dimensional_data: mergeDimensionalData(left.dimensional_data, right.dimensional_data) }),
  mergeTotal: (left, right) => ({ ...left, ...right, dimensional_data: mergeDimensionalData(left.dimensional_data, right.dimensional_data) }),
};

function mergeDimensionalData(left: DimensionalDatum[], right: DimensionalDatum[]): DimensionalDatum[] {
  const byEntity = new Map<string, DimensionalDatum>();
  for (const datum of [...left, ...right]) {
    const key = `${datum.dimension.key}\u0000${datum.dimension.value}`;
    const known = byEntity.get(key);
    byEntity.set(key, known ? { ...known, metrics: { ...known.metrics, ...datum.metrics } } : datum);
  }
  return [...byEntity.values()];
}

/** The answer of one request for `interval`, as a merge input. */
export function single<Response extends { total?: unknown }>(response: Response, interval: Interval): Merged<Response> {
  return { response, windows: [{ ...interval, total: response.total as NonNullable<Response["total"]> | undefined }] };
}

/**
 * Joins answers for consecutive time windows (same metrics): the series in time order, no total,
 * the windows' totals kept.
 */
export function mergeByTime<Point extends { timestamp: { epoch_ms: number } }, Total>(
  parts: Merged<SeriesResponse<Point, Total>>[],
  shape: Shape<Point, Total>,
): Merged<SeriesResponse<Point, Total>> {
  if (parts.length === 1) return parts[0]!;
  const { total: _dropped, ...first } = parts[0]!.response;
  const meta = first._meta && {
    ...first._meta,
    ...(first._meta.start_epoch_ms === undefined ? {} : { start_epoch_ms: Math.min(...parts.map((part) => part.windows[0]!.startMs)) }),
    ...(first._meta.end_epoch_ms === undefined ? {} : { end_epoch_ms: Math.max(...parts.map((part) => part.windows.at(-1)!.endMs)) }),
  };
  return {
    response: { ...first, ...(meta ? { _meta: meta } : {}), time_series: mergeSeries(parts.map((part) => part.response.time_series), shape) },
    windows: parts.flatMap((part) => part.windows),
  };
}

/**
 * Joins answers for the same range with different metrics (custom-selection chunks): points merged
 * by timestamp, totals member by member (only when every part has one), window totals likewise.
 */
export function mergeByMembers<Point extends { timestamp: { epoch_ms: number } }, Total>(
  parts: Merged<SeriesResponse<Point, Total>>[],
  shape: Shape<Point, Total>,
): Merged<SeriesResponse<Point, Total>> {
  if (parts.length === 1) return parts[0]!;
  const totals = parts.map((part) => part.response.total);
  const total = totals.every((item) => item !== undefined) ? (totals as Total[]).reduce(shape.mergeTotal) : undefined;
  const { total: _dropped, ...first } = parts[0]!.response;
  const windows = new Map<string, WindowTotal<Total>>();
  for (const window of parts.flatMap((part) => part.windows)) {
    // Windows of different chunks coincide unless one chunk alone was halved after a 413.
    const key = `${window.startMs}-${window.endMs}`;
    const known = windows.get(key);
    const merged = known?.total !== undefined && window.total !== undefined ? shape.mergeTotal(known.total, window.total) : undefined;
    windows.set(key, known ? { ...known, total: merged } : window);
  }
  return {
    response: { ...first, ...(total === undefined ? {} : { total }), time_series: mergeSeries(parts.map((part) => part.response.time_series), shape) },
    windows: [...windows.values()].sort((left, right) => left.startMs - right.startMs || left.endMs - right.endMs) as WindowTotal<Total & {}>[],
  };
}

function mergeSeries<Point extends { timestamp: { epoch_ms: number } }>(series: Point[][], shape: Shape<Point, unknown>): Point[] {
  const byTime = new Map<number, Point>();
  for (const point of series.flat()) {
    const known = byTime.get(point.timestamp.epoch_ms);
    byTime.set(point.timestamp.epoch_ms, known ? shape.mergePoint(known, point) : point);
  }
  return [...byTime.values()].sort((left, right) => left.timestamp.epoch_ms - right.timestamp.epoch_ms);
}

/** A merged answer of one metric or a custom selection. */
export type PlainMerged = Merged<MetricResponse>;
/** A merged group-by answer. */
export type GroupByMerged = Merged<GroupByResponse>;
