import type { AcceptedMetricName, AnsweredMetric, GroupByResult, MetricResult, SeriesPoint } from "../client";
import { answeredMetrics, METRIC_VALUE_FIELDS, metricMemberName, MetricValue, type MetricValueFields, type ValueField } from "../schema";

/**
 * The metric answers of the data sources as plain data (spec 2.4), typed per metric by its value
 * fields (docs/api.md 10.4). The client's `MetricResult` has accessor methods, but Pulumi copies the values
 * an Output carries property by property, which drops methods and turns a `Date` into `{}`; so the
 * series a program wants are laid out in advance, keyed by metric and value field, with ISO times.
 */

/** One interval of a series: its start (ISO 8601 UTC and epoch milliseconds) and the value. */
export interface MetricPoint {
  /** The start of the interval, ISO 8601 UTC. */
  time: string;
  /** The start of the interval, epoch milliseconds. */
  epochMs: number;
  /** The value over the interval. */
  value: number;
}

/** The value fields of a metric: those of docs/api.md 10.4 for the contract's names, any for an alias. */
export type FieldsOf<Metric extends string> = Metric extends keyof MetricValueFields ? MetricValueFields[Metric][number] : ValueField;

/** Per answered metric (path name, as requested), per value field, a `Value`. */
export type PerMetric<Metric extends string, Value> = {
  [Answered in AnsweredMetric<Metric>]: { [Field in FieldsOf<Answered>]: Value };
};

/** A metric time series: one metric or a custom selection. */
export interface MetricData<Metric extends string = AcceptedMetricName> {
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
export interface GroupByEntity<Metric extends string = AcceptedMetricName> {
  /** The dimension value, as a filter would take it. */
  value: string;
  description?: string;
  /** `series[metric][field]` of this entity. */
  series: PerMetric<Metric, MetricPoint[]>;
  /** `total[metric][field]` of this entity; undefined when the range was split. */
  total: PerMetric<Metric, number | undefined> | undefined;
}

/** A group-by time series: the top entities of a dimension or a custom tag. */
export interface GroupByData<Metric extends string = AcceptedMetricName> {
  /** The entities answered: ordered as the total ranks them (the top ones, sorted as asked), else by first appearance. */
  entities: Array<GroupByEntity<Metric>>;
  /** The windows the range was fetched in, each with its entities' totals. */
  windows: GroupByResult["windows"];
  /** The merged answer as on the wire. */
  response: GroupByResult["response"];
}

const ALL_VALUE_FIELDS = Object.keys(MetricValue.shape) as ValueField[];

/** Lays out a {@link MetricResult} as {@link MetricData}. */
export function metricData<Metric extends AcceptedMetricName>(result: MetricResult<Metric>, requested: readonly Metric[]): MetricData<Metric> {
  const members = [result.response.total ?? {}, ...result.response.time_series];
  return {
    series: perMetric(requested, members, (metric, field) => points(result.series(metric, field))),
    total: result.total && perMetric(requested, members, (metric, field) => result.totalValue(metric, field)),
    windows: result.windows,
    response: result.response,
  };
}

/** Lays out a {@link GroupByResult} as {@link GroupByData}. */
export function groupByData<Metric extends AcceptedMetricName>(result: GroupByResult<Metric>, requested: readonly Metric[]): GroupByData<Metric> {
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
