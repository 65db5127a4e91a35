import { answeredMetrics, type DimensionalDatum, type GroupByResponse, type GroupByTotal, METRIC_VALUE_FIELDS, metricMemberName } from "../provider/schema";
import { type MetricMembers, type MetricResponse, MetricValue, type MetricValueFields, type QUALITY_SUMMARY_MEMBERS, type ValueField } from "../provider/schema";
import { ArgumentError } from "../provider/client";
import type { GroupByMerged, PlainMerged, WindowTotal } from "../provider/client/metric-merge";

/**
 * The metric-answer layout as it was before it was flattened, kept only as the baseline of the
 * "Data sources: 30-day group-by layout" benchmark: the merged wire answer wrapped in a class with
 * `Date`s and scanning accessors (then provider/client/metric-results.ts), laid out a second time as
 * plain data (then provider/data/metric-data.ts), each group-by value found by a scan of every
 * interval's entities.
 */

type AcceptedMetricName = string;

/**
 * Typed results of the metric queries (spec 2.4) with accessors for what callers want most: one
 * metric's value field as a time series of `{time, value}`, and totals. The merged wire response
 * stays available as `response`.
 */

/** One point of a series: the start of the interval and the value. */
interface SeriesPoint {
  /** The start of the interval. */
  time: Date;
  /** The value over the interval. */
  value: number;
}

/** The metrics a result answers for: `quality-summary` answers for its members (docs/api.md 10.4). */
type AnsweredMetric<Requested extends string> = Requested extends "quality-summary"
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
class MetricResult<Metric extends string = string> {
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
class GroupByResult<Metric extends string = string> {
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


/**
 * The metric answers of the data sources as plain data (spec 2.4), typed per metric by its value
 * fields (docs/api.md 10.4). The client's `MetricResult` has accessor methods, but Pulumi copies the values
 * an Output carries property by property, which drops methods and turns a `Date` into `{}`; so the
 * series a program wants are laid out in advance, keyed by metric and value field, with ISO times.
 */

/** One interval of a series: its start (ISO 8601 UTC and epoch milliseconds) and the value. */
interface MetricPoint {
  /** The start of the interval, ISO 8601 UTC. */
  time: string;
  /** The start of the interval, epoch milliseconds. */
  epochMs: number;
  /** The value over the interval. */
  value: number;
}

/** The value fields of a metric: those of docs/api.md 10.4 for the contract's names, any for an alias. */
type FieldsOf<Metric extends string> = Metric extends keyof MetricValueFields ? MetricValueFields[Metric][number] : ValueField;

/** Per answered metric (path name, as requested), per value field, a `Value`. */
type PerMetric<Metric extends string, Value> = {
  [Answered in AnsweredMetric<Metric>]: { [Field in FieldsOf<Answered>]: Value };
};

/** A metric time series: one metric or a custom selection. */
interface MetricData<Metric extends string = AcceptedMetricName> {
  /** `series[metric][field]`: the values per interval, in time order (intervals without one left out). */
  series: PerMetric<Metric, MetricPoint[]>;
  /**
   * `total[metric][field]` over the whole range; undefined when the client had to split the range
   * (over 90 days, or after a 413): totals do not add up across windows, see `windows`.
   */
  total: PerMetric<Metric, number | undefined> | undefined;
  /** The windows the range was fetched in, each with its exact total (members keyed as on the wire). */
  windows: MetricResult["windows"];
  /** The merged answer as on the wire. */
  response: MetricResult["response"];
}

/** One entity of a group-by answer: a value of the dimension (a country code, an ISP, a show). */
interface GroupByEntity<Metric extends string = AcceptedMetricName> {
  /** The dimension value, as a filter would take it. */
  value: string;
  description?: string;
  /** `series[metric][field]` of this entity. */
  series: PerMetric<Metric, MetricPoint[]>;
  /** `total[metric][field]` of this entity; undefined when the range was split. */
  total: PerMetric<Metric, number | undefined> | undefined;
}

/** A group-by time series: the top entities of a dimension or a custom tag. */
interface GroupByData<Metric extends string = AcceptedMetricName> {
  /** The entities answered: ordered as the total ranks them (the top ones, sorted as asked), else by first appearance. */
  entities: Array<GroupByEntity<Metric>>;
  /** The windows the range was fetched in, each with its entities' totals. */
  windows: GroupByResult["windows"];
  /** The merged answer as on the wire. */
  response: GroupByResult["response"];
}

const ALL_VALUE_FIELDS = Object.keys(MetricValue.shape) as ValueField[];

/** Lays out a {@link MetricResult} as {@link MetricData}. */
function metricData<Metric extends AcceptedMetricName>(result: MetricResult<Metric>, requested: readonly Metric[]): MetricData<Metric> {
  const members = [result.response.total ?? {}, ...result.response.time_series];
  return {
    series: perMetric(requested, members, (metric, field) => points(result.series(metric, field))),
    total: result.total && perMetric(requested, members, (metric, field) => result.totalValue(metric, field)),
    windows: result.windows,
    response: result.response,
  };
}

/** Lays out a {@link GroupByResult} as {@link GroupByData}. */
function groupByData<Metric extends AcceptedMetricName>(result: GroupByResult<Metric>, requested: readonly Metric[]): GroupByData<Metric> {
  const data = [...(result.response.total?.dimensional_data ?? []), ...result.response.time_series.flatMap((point) => point.dimensional_data)];
  const members = data.map((datum) => datum.metrics);
  return {
    entities: result.entities().map((value) => {
      const description = data.find((datum) => datum.dimension.value === value)?.dimension.description;
      return {
        value,
        ...(description === undefined ? {} : { description }),
        series: perMetric(requested, members, (metric, field) => points(result.series(metric, field, value))),
        total: result.total && perMetric(requested, members, (metric, field) => result.totalValue(metric, field, value)),
      };
    }),
    windows: result.windows,
    response: result.response,
  };
}

/**
 * `read(metric, field)` for every answered metric and value field. The fields of a metric of the
 * spec are those of docs/api.md 10.4 (present even when empty); an alias gets the fields its answer has.
 */
function perMetric<Metric extends AcceptedMetricName, Value>(
  requested: readonly Metric[],
  members: readonly Record<string, unknown>[],
  read: (metric: AnsweredMetric<Metric>, field: ValueField) => Value,
): PerMetric<Metric, Value> {
  const answered = requested.flatMap((metric) => answeredMetrics(metric)) as AnsweredMetric<Metric>[];
  const entries = answered.map((metric) => {
    const known: readonly ValueField[] | undefined = (METRIC_VALUE_FIELDS as Record<string, readonly ValueField[]>)[metric];
    const member = metricMemberName(metric);
    const fields = known ?? ALL_VALUE_FIELDS.filter((field) => members.some((values) => (values[member] as MetricValue | undefined)?.[field] !== undefined));
    return [metric, Object.fromEntries(fields.map((field) => [field, read(metric, field)]))];
  });
  return Object.fromEntries(entries) as PerMetric<Metric, Value>;
}

function points(series: readonly SeriesPoint[]): MetricPoint[] {
  return series.map(({ time, value }) => ({ time: time.toISOString(), epochMs: time.getTime(), value }));
}

/** The old two-step layout of a plain answer: class, then plain data. */
export function layoutBefore(merged: PlainMerged, requested: readonly string[]): MetricData<string> {
  return metricData(new MetricResult(merged), requested);
}

/** The old two-step layout of a group-by answer: class, then plain data with scans per entity. */
export function groupByLayoutBefore(merged: GroupByMerged, requested: readonly string[]): GroupByData<string> {
  return groupByData(new GroupByResult(merged), requested);
}
