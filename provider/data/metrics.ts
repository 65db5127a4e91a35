import type * as pulumi from "@pulumi/pulumi";
import {
  type AcceptedMetricName,
  ArgumentError,
  type CallOptions,
  type GroupByParams,
  type InsightsClient,
  type MetricParams,
  type MetricsApi,
  type SelectionGroupByParams,
  type SelectionParams,
  type TagGroupByParams,
} from "../client";
import type { DimensionTagList, FilterReferenceList, GroupByDimensionList, KpiList, MetricDimensionReferenceList } from "../schema";
import {
  dataSource,
  type DataSourceArgs,
  type DataSourceForms,
  type DataSourceOptions,
  type DataSourceOutputArgs,
  type DataSourceOutputOptions,
  type KnownFields,
  type NoArguments,
} from "./define";
import type { GroupByData, MetricData } from "./metric-data";

/**
 * Data sources of the metrics API (spec 4.6), historical by default and real time with
 * `realTime: true` (spec 4.1: `lastMinutes` instead of `lastDays`; spec 8: at most 15 minutes, not
 * older than 15 minutes). The client splits what the limits forbid in one request (more than 12
 * metrics, over 90 days, a 413) and merges the parts.
 */

/** Historical arguments, or real-time ones with `realTime: true`. */
type Flavoured<Historical, RealTime> = (Historical & { realTime?: false }) | (RealTime & { realTime: true });

/**
 * A metric query over the historical or the real-time family, its answer typed for every metric.
 * TypeScript cannot carry the metric type parameter through the forms, so each exported function
 * restates it and narrows the answer to the metrics asked for (a cast through `unknown`: the
 * answer's shape is the same, only its keys are narrower).
 */
function metricQuery<Params, Answer>(functionName: string, read: (api: MetricsApi, params: Params, options: CallOptions) => Promise<Answer>): DataSourceForms<Params & { realTime?: boolean }, Answer> {
  return dataSource(functionName, (client, { realTime, ...params }: Params & { realTime?: boolean }, options) => read(metricsApi(client, realTime), params as Params, options));
}

/** The historical or the real-time family (spec 4.6). */
function metricsApi(client: InsightsClient, realTime: unknown): MetricsApi {
  if (realTime !== undefined && typeof realTime !== "boolean") {
    throw new ArgumentError("realTime", `must be true (real-time metrics) or false (historical, the default), got ${JSON.stringify(realTime)}`);
  }
  return realTime === true ? client.realTimeMetrics : client.metrics;
}

/** The parameters of {@link getMetric}: one metric (spec 4.6 `{base}/{metric_name}`), historical or real time. */
export type MetricQuery<Metric extends AcceptedMetricName = AcceptedMetricName> = Flavoured<MetricParams<Metric, false>, MetricParams<Metric, true>>;
/** Arguments of {@link getMetric}: one metric (spec 4.6 `{base}/{metric_name}`). */
export type GetMetricArgs<Metric extends AcceptedMetricName = AcceptedMetricName> = DataSourceArgs<MetricQuery<Metric>>;
/** Arguments of {@link getMetricOutput}: those of {@link getMetric}, each an `Input`. */
export type GetMetricOutputArgs<Metric extends AcceptedMetricName = AcceptedMetricName> = DataSourceOutputArgs<MetricQuery<Metric>>;
/** The answer of {@link getMetric}: the time series, `series[metric][field]` and `total[metric][field]`. */
export interface GetMetricResult<Metric extends AcceptedMetricName = AcceptedMetricName> extends KnownFields<MetricData<Metric>> {}

const metric = metricQuery("getMetric", (api, params: MetricQuery, options) => api.metric(params, options));

/**
 * One metric as a time series (spec 4.6 `{base}/{metric_name}`): a range (historical default the
 * last 24 hours ending now, split past 90 days), a granularity (PT1H by default, `ALL` for one interval),
 * dimension filters, custom tags or a saved filter, a KPI set; `realTime: true` for the real-time
 * family. The answer has `series[metric][field]` and `total[metric][field]` for the metric's value
 * fields (docs/api.md 10.4).
 *
 * @example
 * const failures = await getMetric({ metric: "video-start-failures", filters: { geo_country_code: "US" } });
 * const hourly = failures.series["video-start-failures"].percentage; // [{ time, epochMs, value }]
 * export const playsLastDay = getMetricOutput({ metric: "plays", range: { lastDays: 1 }, granularity: "ALL" }).total.apply((total) => total?.plays.count);
 */
export function getMetric<Metric extends AcceptedMetricName>(args: GetMetricArgs<Metric>, opts?: DataSourceOptions): Promise<GetMetricResult<Metric>> {
  return metric.invoke(args as GetMetricArgs, opts) as Promise<unknown> as Promise<GetMetricResult<Metric>>;
}

/** The Output form of {@link getMetric}: `Input`s in, an `Output` out. */
export function getMetricOutput<Metric extends AcceptedMetricName>(args: GetMetricOutputArgs<Metric>, opts?: DataSourceOutputOptions): pulumi.Output<GetMetricResult<Metric>> {
  return metric.output(args as GetMetricOutputArgs, opts) as pulumi.Output<unknown> as pulumi.Output<GetMetricResult<Metric>>;
}

/** The parameters of {@link getMetrics}: a custom selection of any number of metrics (spec 4.6, 12 per request), historical or real time. */
export type MetricsQuery<Metric extends AcceptedMetricName = AcceptedMetricName> = Flavoured<SelectionParams<Metric, false>, SelectionParams<Metric, true>>;
/** Arguments of {@link getMetrics}: a custom selection of any number of metrics (spec 4.6, 12 per request). */
export type GetMetricsArgs<Metric extends AcceptedMetricName = AcceptedMetricName> = DataSourceArgs<MetricsQuery<Metric>>;
/** Arguments of {@link getMetricsOutput}: those of {@link getMetrics}, each an `Input`. */
export type GetMetricsOutputArgs<Metric extends AcceptedMetricName = AcceptedMetricName> = DataSourceOutputArgs<MetricsQuery<Metric>>;
/** The answer of {@link getMetrics}: the time series, `series[metric][field]` and `total[metric][field]`. */
export interface GetMetricsResult<Metric extends AcceptedMetricName = AcceptedMetricName> extends KnownFields<MetricData<Metric>> {}

const metrics = metricQuery("getMetrics", (api, params: MetricsQuery, options) => api.customSelection(params, options));

/**
 * Several metrics as one time series (spec 4.6 `{base}/custom-selection`); more than 12 are fetched
 * in chunks of 12 and merged.
 *
 * @example
 * const quality = await getMetrics({ metrics: ["plays", "video-start-failures", "rebuffering-ratio"], range: { lastDays: 1 }, granularity: "ALL" });
 * const rebuffering = quality.total?.["rebuffering-ratio"].ratio;
 */
export function getMetrics<Metric extends AcceptedMetricName>(args: GetMetricsArgs<Metric>, opts?: DataSourceOptions): Promise<GetMetricsResult<Metric>> {
  return metrics.invoke(args as GetMetricsArgs, opts) as Promise<unknown> as Promise<GetMetricsResult<Metric>>;
}

/** The Output form of {@link getMetrics}: `Input`s in, an `Output` out. */
export function getMetricsOutput<Metric extends AcceptedMetricName>(args: GetMetricsOutputArgs<Metric>, opts?: DataSourceOutputOptions): pulumi.Output<GetMetricsResult<Metric>> {
  return metrics.output(args as GetMetricsOutputArgs, opts) as pulumi.Output<unknown> as pulumi.Output<GetMetricsResult<Metric>>;
}

/** The parameters of {@link getMetricGroupBy}: one metric grouped by a dimension (spec 4.6, 4.7), historical or real time. */
export type MetricGroupByQuery<Metric extends AcceptedMetricName = AcceptedMetricName> = Flavoured<GroupByParams<Metric, false>, GroupByParams<Metric, true>>;
/** Arguments of {@link getMetricGroupBy}: one metric grouped by a dimension (spec 4.6, 4.7). */
export type GetMetricGroupByArgs<Metric extends AcceptedMetricName = AcceptedMetricName> = DataSourceArgs<MetricGroupByQuery<Metric>>;
/** Arguments of {@link getMetricGroupByOutput}: those of {@link getMetricGroupBy}, each an `Input`. */
export type GetMetricGroupByOutputArgs<Metric extends AcceptedMetricName = AcceptedMetricName> = DataSourceOutputArgs<MetricGroupByQuery<Metric>>;
/** The answer of {@link getMetricGroupBy}: the top entities, each with its series and total. */
export interface GetMetricGroupByResult<Metric extends AcceptedMetricName = AcceptedMetricName> extends KnownFields<GroupByData<Metric>> {}

const metricGroupBy = metricQuery("getMetricGroupBy", (api, params: MetricGroupByQuery, options) => api.groupBy(params, options));

/**
 * One metric grouped by a dimension (spec 4.6 `{base}/{metric_name}/group-by/{dimension}`): the top
 * `limit` entities (default 50, at most 500; above 50 the range is at most 24 hours), ranked by
 * `sortBy` in `order`.
 *
 * @example
 * // One saved filter per top-10 ISP by plays over the last day.
 * const isps = await getMetricGroupBy({ metric: "plays", dimension: "isp", limit: 10, sortBy: "plays", order: "desc", range: { lastDays: 1 }, granularity: "ALL" });
 * for (const isp of isps.entities) {
 *   new SavedFilter(`isp-${isp.value}`, { name: `ISP ${isp.value}`, rules: and(or(field("ISP").equals(isp.value))) });
 * }
 */
export function getMetricGroupBy<Metric extends AcceptedMetricName>(args: GetMetricGroupByArgs<Metric>, opts?: DataSourceOptions): Promise<GetMetricGroupByResult<Metric>> {
  return metricGroupBy.invoke(args as GetMetricGroupByArgs, opts) as Promise<unknown> as Promise<GetMetricGroupByResult<Metric>>;
}

/** The Output form of {@link getMetricGroupBy}: `Input`s in, an `Output` out. */
export function getMetricGroupByOutput<Metric extends AcceptedMetricName>(args: GetMetricGroupByOutputArgs<Metric>, opts?: DataSourceOutputOptions): pulumi.Output<GetMetricGroupByResult<Metric>> {
  return metricGroupBy.output(args as GetMetricGroupByOutputArgs, opts) as pulumi.Output<unknown> as pulumi.Output<GetMetricGroupByResult<Metric>>;
}

/** The parameters of {@link getMetricsGroupBy}: several metrics grouped by a dimension, historical or real time. */
export type MetricsGroupByQuery<Metric extends AcceptedMetricName = AcceptedMetricName> = Flavoured<SelectionGroupByParams<Metric, false>, SelectionGroupByParams<Metric, true>>;
/** Arguments of {@link getMetricsGroupBy}: several metrics grouped by a dimension. */
export type GetMetricsGroupByArgs<Metric extends AcceptedMetricName = AcceptedMetricName> = DataSourceArgs<MetricsGroupByQuery<Metric>>;
/** Arguments of {@link getMetricsGroupByOutput}: those of {@link getMetricsGroupBy}, each an `Input`. */
export type GetMetricsGroupByOutputArgs<Metric extends AcceptedMetricName = AcceptedMetricName> = DataSourceOutputArgs<MetricsGroupByQuery<Metric>>;
/** The answer of {@link getMetricsGroupBy}: the top entities, each with its series and total. */
export interface GetMetricsGroupByResult<Metric extends AcceptedMetricName = AcceptedMetricName> extends KnownFields<GroupByData<Metric>> {}

const metricsGroupBy = metricQuery("getMetricsGroupBy", (api, params: MetricsGroupByQuery, options) => api.customSelectionGroupBy(params, options));

/**
 * Several metrics grouped by a dimension (spec 4.6 `{base}/custom-selection/group-by/{dimension}`);
 * over 12 metrics, every chunk is ranked by the same metric so the chunks answer for the same entities.
 */
export function getMetricsGroupBy<Metric extends AcceptedMetricName>(args: GetMetricsGroupByArgs<Metric>, opts?: DataSourceOptions): Promise<GetMetricsGroupByResult<Metric>> {
  return metricsGroupBy.invoke(args as GetMetricsGroupByArgs, opts) as Promise<unknown> as Promise<GetMetricsGroupByResult<Metric>>;
}

/** The Output form of {@link getMetricsGroupBy}: `Input`s in, an `Output` out. */
export function getMetricsGroupByOutput<Metric extends AcceptedMetricName>(args: GetMetricsGroupByOutputArgs<Metric>, opts?: DataSourceOutputOptions): pulumi.Output<GetMetricsGroupByResult<Metric>> {
  return metricsGroupBy.output(args as GetMetricsGroupByOutputArgs, opts) as pulumi.Output<unknown> as pulumi.Output<GetMetricsGroupByResult<Metric>>;
}

/** The parameters of {@link getMetricGroupByTag}: one metric grouped by a custom tag, historical or real time. */
export type MetricGroupByTagQuery<Metric extends AcceptedMetricName = AcceptedMetricName> = Flavoured<TagGroupByParams<Metric, false>, TagGroupByParams<Metric, true>>;
/** Arguments of {@link getMetricGroupByTag}: one metric grouped by a custom tag. */
export type GetMetricGroupByTagArgs<Metric extends AcceptedMetricName = AcceptedMetricName> = DataSourceArgs<MetricGroupByTagQuery<Metric>>;
/** Arguments of {@link getMetricGroupByTagOutput}: those of {@link getMetricGroupByTag}, each an `Input`. */
export type GetMetricGroupByTagOutputArgs<Metric extends AcceptedMetricName = AcceptedMetricName> = DataSourceOutputArgs<MetricGroupByTagQuery<Metric>>;
/** The answer of {@link getMetricGroupByTag}: the top values of the tag, each with its series and total. */
export interface GetMetricGroupByTagResult<Metric extends AcceptedMetricName = AcceptedMetricName> extends KnownFields<GroupByData<Metric>> {}

const metricGroupByTag = metricQuery("getMetricGroupByTag", (api, params: MetricGroupByTagQuery, options) => api.groupByTag(params, options));

/**
 * One metric grouped by a custom tag of the account (spec 4.6
 * `{base}/{metric_name}/group-by/dimension-tag/{custom_tag}`), with the options of {@link getMetricGroupBy}.
 */
export function getMetricGroupByTag<Metric extends AcceptedMetricName>(args: GetMetricGroupByTagArgs<Metric>, opts?: DataSourceOptions): Promise<GetMetricGroupByTagResult<Metric>> {
  return metricGroupByTag.invoke(args as GetMetricGroupByTagArgs, opts) as Promise<unknown> as Promise<GetMetricGroupByTagResult<Metric>>;
}

/** The Output form of {@link getMetricGroupByTag}: `Input`s in, an `Output` out. */
export function getMetricGroupByTagOutput<Metric extends AcceptedMetricName>(args: GetMetricGroupByTagOutputArgs<Metric>, opts?: DataSourceOutputOptions): pulumi.Output<GetMetricGroupByTagResult<Metric>> {
  return metricGroupByTag.output(args as GetMetricGroupByTagOutputArgs, opts) as pulumi.Output<unknown> as pulumi.Output<GetMetricGroupByTagResult<Metric>>;
}

/** The parameters of the per-metric listings ({@link getGroupByDimensions}, {@link getDimensionTags}). */
export interface MetricListing {
  /** The metric's name (spec 4.6). */
  metric: AcceptedMetricName;
  /** The real-time base path (spec 4.6); default historical. */
  realTime?: boolean;
}

/** Arguments of {@link getGroupByDimensions}: the metric and its family. */
export type GetGroupByDimensionsArgs = DataSourceArgs<MetricListing>;
/** Arguments of {@link getGroupByDimensionsOutput}: those of {@link getGroupByDimensions}, each an `Input`. */
export type GetGroupByDimensionsOutputArgs = DataSourceOutputArgs<MetricListing>;
/** The answer of {@link getGroupByDimensions}: the dimensions. */
export interface GetGroupByDimensionsResult extends KnownFields<GroupByDimensionList> {}

const groupByDimensions = dataSource("getGroupByDimensions", (client, { realTime, ...params }: MetricListing, options) => metricsApi(client, realTime).groupByDimensions(params, options));

/**
 * The dimensions a metric can be grouped by (spec 4.6 `{base}/{metric_name}/group-by`).
 */
export function getGroupByDimensions(args: GetGroupByDimensionsArgs, opts?: DataSourceOptions): Promise<GetGroupByDimensionsResult> {
  return groupByDimensions.invoke(args, opts);
}

/** The Output form of {@link getGroupByDimensions}: `Input`s in, an `Output` out. */
export function getGroupByDimensionsOutput(args: GetGroupByDimensionsOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetGroupByDimensionsResult> {
  return groupByDimensions.output(args, opts);
}

/** Arguments of {@link getDimensionTags}: the metric and its family. */
export type GetDimensionTagsArgs = DataSourceArgs<MetricListing>;
/** Arguments of {@link getDimensionTagsOutput}: those of {@link getDimensionTags}, each an `Input`. */
export type GetDimensionTagsOutputArgs = DataSourceOutputArgs<MetricListing>;
/** The answer of {@link getDimensionTags}: the custom tags. */
export interface GetDimensionTagsResult extends KnownFields<DimensionTagList> {}

const dimensionTags = dataSource("getDimensionTags", (client, { realTime, ...params }: MetricListing, options) => metricsApi(client, realTime).dimensionTags(params, options));

/**
 * The account's custom tags a metric can be grouped by (spec 4.6 `{base}/{metric_name}/group-by/dimension-tag`).
 */
export function getDimensionTags(args: GetDimensionTagsArgs, opts?: DataSourceOptions): Promise<GetDimensionTagsResult> {
  return dimensionTags.invoke(args, opts);
}

/** The Output form of {@link getDimensionTags}: `Input`s in, an `Output` out. */
export function getDimensionTagsOutput(args: GetDimensionTagsOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetDimensionTagsResult> {
  return dimensionTags.output(args, opts);
}

/** Arguments of {@link getMetricDimensions}: none but the account. */
export type GetMetricDimensionsArgs = DataSourceArgs<NoArguments>;
/** Arguments of {@link getMetricDimensionsOutput}: those of {@link getMetricDimensions}, each an `Input`. */
export type GetMetricDimensionsOutputArgs = DataSourceOutputArgs<NoArguments>;
/** The answer of {@link getMetricDimensions}: the dimensions. */
export interface GetMetricDimensionsResult extends KnownFields<MetricDimensionReferenceList> {}

const metricDimensions = dataSource("getMetricDimensions", (client, params: NoArguments, options) => client.metrics.dimensionReferences(params, options));

/**
 * The filtering and group-by dimensions of the metrics API (spec 4.6 `/3.0/metrics/_meta/references/dimensions`).
 */
export function getMetricDimensions(args?: GetMetricDimensionsArgs, opts?: DataSourceOptions): Promise<GetMetricDimensionsResult> {
  return metricDimensions.invoke(args, opts);
}

/** The Output form of {@link getMetricDimensions}: `Input`s in, an `Output` out. */
export function getMetricDimensionsOutput(args?: GetMetricDimensionsOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetMetricDimensionsResult> {
  return metricDimensions.output(args, opts);
}

/** Arguments of {@link getSavedFilterReferences}: none but the account. */
export type GetSavedFilterReferencesArgs = DataSourceArgs<NoArguments>;
/** Arguments of {@link getSavedFilterReferencesOutput}: those of {@link getSavedFilterReferences}, each an `Input`. */
export type GetSavedFilterReferencesOutputArgs = DataSourceOutputArgs<NoArguments>;
/** The answer of {@link getSavedFilterReferences}: the saved filters' ids and names. */
export interface GetSavedFilterReferencesResult extends KnownFields<FilterReferenceList> {}

const savedFilterReferences = dataSource("getSavedFilterReferences", (client, params: NoArguments, options) => client.metrics.filterReferences(params, options));

/**
 * Basic data (id, name) about the saved filters, as the metrics API knows them (spec 4.6 `/3.0/metrics/_meta/references/filters`).
 */
export function getSavedFilterReferences(args?: GetSavedFilterReferencesArgs, opts?: DataSourceOptions): Promise<GetSavedFilterReferencesResult> {
  return savedFilterReferences.invoke(args, opts);
}

/** The Output form of {@link getSavedFilterReferences}: `Input`s in, an `Output` out. */
export function getSavedFilterReferencesOutput(args?: GetSavedFilterReferencesOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetSavedFilterReferencesResult> {
  return savedFilterReferences.output(args, opts);
}

/** Arguments of {@link getKpis}: none but the account. */
export type GetKpisArgs = DataSourceArgs<NoArguments>;
/** Arguments of {@link getKpisOutput}: those of {@link getKpis}, each an `Input`. */
export type GetKpisOutputArgs = DataSourceOutputArgs<NoArguments>;
/** The answer of {@link getKpis}: the KPI sets. */
export interface GetKpisResult extends KnownFields<KpiList> {}

const kpis = dataSource("getKpis", (client, params: NoArguments, options) => client.metrics.kpis(params, options));

/**
 * The KPI sets (spec 4.6 `/kpis`, 2.6): `kpi_id` (1 is the default set) and `kpi_name`.
 */
export function getKpis(args?: GetKpisArgs, opts?: DataSourceOptions): Promise<GetKpisResult> {
  return kpis.invoke(args, opts);
}

/** The Output form of {@link getKpis}: `Input`s in, an `Output` out. */
export function getKpisOutput(args?: GetKpisOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetKpisResult> {
  return kpis.output(args, opts);
}

/** @deprecated The arguments of {@link getGroupByDimensions} and {@link getDimensionTags} are {@link GetGroupByDimensionsArgs} and {@link GetDimensionTagsArgs}; this name goes in the next release. */
export type GetMetricListingArgs = MetricListing;
