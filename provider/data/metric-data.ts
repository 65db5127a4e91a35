import type { AcceptedMetricName, GroupByResult, MetricResult } from "../client";

/**
 * The metric answers of the data sources: the client's one plain layout
 * (provider/client/metric-results.ts), under the names the data sources have always used. Plain
 * data, so Pulumi carries it in an Output unchanged.
 */
export type { FieldsOf, GroupByEntity, MetricPoint, PerMetric } from "../client/metric-results";

/** A metric time series: one metric or a custom selection (`series[metric][field]`, `total[metric][field]`). */
export type MetricData<Metric extends string = AcceptedMetricName> = MetricResult<Metric>;

/** A group-by time series: the top entities of a dimension or a custom tag, each with its series and total. */
export type GroupByData<Metric extends string = AcceptedMetricName> = GroupByResult<Metric>;
