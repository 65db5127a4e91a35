import {
  type DimensionalDatum,
  type GroupByResponse,
  type GroupByTotal,
  METRIC_VALUE_FIELDS,
  metricMemberName,
  type MetricMembers,
  type MetricResponse,
  type MetricValue,
  type QUALITY_SUMMARY_MEMBERS,
  type ValueField,
} from "../schema";
import { ArgumentError } from "./core/errors";
import type { GroupByMerged, PlainMerged, WindowTotal } from "./metric-merge";

/**
 * Typed results of the metric queries (spec 2.4) with accessors for what callers want most: one
 * metric's value field as a time series of `{time, value}`, and totals. The merged wire response
 * stays available as `response`.
 */

/** One point of a series: the start of the interval and the value. */
export interface SeriesPoint {
  /** The start of the interval. */
  time: Date;
  /** The value over the interval. */
  value: number;
}

/** The metrics a result answers for: `quality-summary` answers for its members (docs/api.md 10.4). */
export type AnsweredMetric<Requested extends string> = Requested extends "quality-summary"
  ? (typeof QUALITY_SUMMARY_MEMBERS)[number]
  : Requested;

/** Throws unless `field` is a value field of `metric` (docs/api.md 10.4). */
function checkField(metric: string, field: string): void {
  const fields: readonly string[] | undefined = (METRIC_VALUE_FIELDS as Record<string, readonly ValueField[]>)[metric];
  if (fields !== undefined && !fields.includes(field)) {
    throw new ArgumentError("field", `"${metric}" has the value fields ${fields.map((name) => `"${name}"`).join(", ")}, not "${field}"`);
  }
}

function valueOf(members: MetricMembers | undefined, metric: string, field: ValueField): number | undefined {
  const value: MetricValue | undefined = members?.[metricMemberName(metric)];
  return value?.[field];
}

function toSeries<Point extends { timestamp: { epoch_ms: number } }>(
  points: readonly Point[],
  read: (point: Point) => number | undefined,
): SeriesPoint[] {
  return points.flatMap((point) => {
    const value = read(point);
    return value === undefined ? [] : [{ time: new Date(point.timestamp.epoch_ms), value }];
  });
}

/** A metric time series: one metric or a custom selection (spec 2.4). */
export class MetricResult<Metric extends string = string> {
  /** The merged response as on the wire (one or several requests). */
  readonly response: MetricResponse;
  /**
   * The windows the range was fetched in, each with its own exact total. More than one when the
   * client split the range (over 90 days, or after a 413).
   */
  readonly windows: readonly WindowTotal<MetricMembers>[];

  constructor(merged: PlainMerged) {
    this.response = merged.response;
    this.windows = merged.windows;
  }

  /** Totals over the whole range; undefined when the range was split into windows (see `windows`). */
  get total(): MetricMembers | undefined {
    return this.response.total;
  }

  /** `metric`'s `field` per interval, in time order; intervals without the value are left out. */
  series(metric: AnsweredMetric<Metric>, field: ValueField): SeriesPoint[] {
    checkField(metric, field);
    return toSeries(this.response.time_series, (point) => valueOf(point as MetricMembers, metric, field));
  }

  /** `metric`'s `field` over the whole range, if the response has a total. */
  totalValue(metric: AnsweredMetric<Metric>, field: ValueField): number | undefined {
    checkField(metric, field);
    return valueOf(this.response.total, metric, field);
  }
}

/** A group-by time series (spec 2.4): per interval, the top entities of the dimension. */
export class GroupByResult<Metric extends string = string> {
  /** The merged response as on the wire. */
  readonly response: GroupByResponse;
  /** As {@link MetricResult.windows}; each total is the window's list of entities. */
  readonly windows: readonly WindowTotal<GroupByTotal>[];

  constructor(merged: GroupByMerged) {
    this.response = merged.response;
    this.windows = merged.windows;
  }

  /** Totals per entity over the whole range; undefined when the range was split into windows. */
  get total(): DimensionalDatum[] | undefined {
    return this.response.total?.dimensional_data;
  }

  /**
   * The dimension values answered: in the order of the total (the top entities, sorted as asked),
   * else in order of first appearance in the series.
   */
  entities(): string[] {
    const data = this.response.total?.dimensional_data ?? this.response.time_series.flatMap((point) => point.dimensional_data);
    return [...new Set(data.map((datum) => datum.dimension.value))];
  }

  /** `metric`'s `field` for one entity per interval, in time order; intervals without it are left out. */
  series(metric: AnsweredMetric<Metric>, field: ValueField, entity: string): SeriesPoint[] {
    checkField(metric, field);
    return toSeries(this.response.time_series, (point) =>
      valueOf(point.dimensional_data.find((datum) => datum.dimension.value === entity)?.metrics, metric, field),
    );
  }

  /** `metric`'s `field` for one entity over the whole range, if the response has a total. */
  totalValue(metric: AnsweredMetric<Metric>, field: ValueField, entity: string): number | undefined {
    checkField(metric, field);
    return valueOf(this.response.total?.dimensional_data.find((datum) => datum.dimension.value === entity)?.metrics, metric, field);
  }
}
