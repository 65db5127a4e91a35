import type * as pulumi from "@pulumi/pulumi";
import {
  type AcceptedMetricName,
  type CallOptions,
  ArgumentError,
  type GroupByParams,
  type InsightsClient,
  type MetricParams,
  type MetricsApi,
  type SelectionGroupByParams,
  type SelectionParams,
  type TagGroupByParams,
} from "../client";
import {
  dataSource,
  dataSourceForms,
  type DataSourceArgs,
  type DataSourceOptions,
  type DataSourceOutputArgs,
  type DataSourceOutputOptions,
  type DataSourcePair,
  type KnownFields,
  namedPair,
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

/** Arguments of {@link getMetric}: one metric (spec 4.6 `{base}/{metric_name}`). */
export type GetMetricArgs<Metric extends AcceptedMetricName> = Flavoured<MetricParams<Metric, false>, MetricParams<Metric, true>>;
/** Arguments of {@link getMetrics}: a custom selection of any number of metrics (spec 4.6, 12 per request). */
export type GetMetricsArgs<Metric extends AcceptedMetricName> = Flavoured<SelectionParams<Metric, false>, SelectionParams<Metric, true>>;
/** Arguments of {@link getMetricGroupBy}: one metric grouped by a dimension (spec 4.6, 4.7). */
export type GetMetricGroupByArgs<Metric extends AcceptedMetricName> = Flavoured<GroupByParams<Metric, false>, GroupByParams<Metric, true>>;
/** Arguments of {@link getMetricsGroupBy}: several metrics grouped by a dimension. */
export type GetMetricsGroupByArgs<Metric extends AcceptedMetricName> = Flavoured<
  SelectionGroupByParams<Metric, false>,
  SelectionGroupByParams<Metric, true>
>;
/** Arguments of {@link getMetricGroupByTag}: one metric grouped by a custom tag. */
export type GetMetricGroupByTagArgs<Metric extends AcceptedMetricName> = Flavoured<TagGroupByParams<Metric, false>, TagGroupByParams<Metric, true>>;

/** Arguments of the per-metric listings ({@link getGroupByDimensions}, {@link getDimensionTags}). */
export interface GetMetricListingArgs {
  /** The metric's name (spec 4.6). */
  metric: AcceptedMetricName;
  /** The real-time base path (spec 4.6); default historical. */
  realTime?: boolean;
}

/** Arguments and answer of each metric query by its data-source name, per requested metric type. */
interface MetricQueries<Metric extends AcceptedMetricName> {
  Metric: [GetMetricArgs<Metric>, MetricData<Metric>];
  Metrics: [GetMetricsArgs<Metric>, MetricData<Metric>];
  MetricGroupBy: [GetMetricGroupByArgs<Metric>, GroupByData<Metric>];
  MetricsGroupBy: [GetMetricsGroupByArgs<Metric>, GroupByData<Metric>];
  MetricGroupByTag: [GetMetricGroupByTagArgs<Metric>, GroupByData<Metric>];
}
type QueryName = keyof MetricQueries<AcceptedMetricName>;
type QueryArgs<Name extends QueryName> = MetricQueries<AcceptedMetricName>[Name][0];
type QueryAnswer<Name extends QueryName> = MetricQueries<AcceptedMetricName>[Name][1];

/** The Promise form of a metric query, its answer typed by the metrics asked for. */
type MetricInvoke<Name extends QueryName> = <Metric extends AcceptedMetricName>(
  args: DataSourceArgs<MetricQueries<Metric>[Name][0]>,
  opts?: DataSourceOptions,
) => Promise<MetricQueries<Metric>[Name][1]>;
/** The Output form of a metric query, its answer typed by the metrics asked for. */
type MetricOutput<Name extends QueryName> = <Metric extends AcceptedMetricName>(
  args: DataSourceOutputArgs<MetricQueries<Metric>[Name][0]>,
  opts?: DataSourceOutputOptions,
) => pulumi.Output<KnownFields<MetricQueries<Metric>[Name][1]>>;

/**
 * A metric query over the historical or the real-time family. TypeScript cannot carry the metric
 * type parameter through {@link dataSourceForms}, so the typed signatures are restored here.
 */
function metricDataSource<Name extends QueryName>(
  name: Name,
  read: (api: MetricsApi, params: QueryArgs<Name>, options: CallOptions) => Promise<QueryAnswer<Name>>,
): DataSourcePair<Name, MetricInvoke<Name>, MetricOutput<Name>> {
  const forms = dataSourceForms<QueryArgs<Name> & { realTime?: boolean }, QueryAnswer<Name>>(
    `get${name}`,
    (client, { realTime, ...params }, options) => read(metricsApi(client, realTime), params as QueryArgs<Name>, options),
    { personalData: false },
  );
  return namedPair(name, forms as unknown as { invoke: MetricInvoke<Name>; output: MetricOutput<Name> });
}

/** The historical or the real-time family (spec 4.6). */
function metricsApi(client: InsightsClient, realTime: unknown): MetricsApi {
  if (realTime !== undefined && typeof realTime !== "boolean") {
    throw new ArgumentError("realTime", `must be true (real-time metrics) or false (historical, the default), got ${JSON.stringify(realTime)}`);
  }
  return realTime === true ? client.realTimeMetrics : client.metrics;
}

export const {
  /**
   * One metric as a time series (spec 4.6 `{base}/{metric_name}`): a range (historical default the
   * last 24 hours, split past 90 days), a granularity (PT1H by default, `ALL` for one interval),
   * dimension filters, custom tags or a saved filter, a KPI set; `realTime: true` for the real-time
   * family. The answer has `series[metric][field]` and `total[metric][field]` for the metric's value
   * fields (docs/api.md 10.4).
   *
   * @example
   * const failures = await getMetric({ metric: "video-start-failures", filters: { geo_country_code: "US" } });
   * const hourly = failures.series["video-start-failures"].percentage; // [{ time, epochMs, value }]
   * export const playsLastDay = getMetricOutput({ metric: "plays", range: { lastDays: 1 }, granularity: "ALL" }).total.apply((total) => total?.plays.count);
   *
   * @function
   */
  getMetric,
  /**
   * The Output form of {@link getMetric}: `Input`s in, an `Output` out.
   *
   * @function
   */
  getMetricOutput,
} = metricDataSource("Metric", (api, params, options) => api.metric(params, options));

export const {
  /**
   * Several metrics as one time series (spec 4.6 `{base}/custom-selection`); more than 12 are fetched
   * in chunks of 12 and merged.
   *
   * @example
   * const quality = await getMetrics({ metrics: ["plays", "video-start-failures", "rebuffering-ratio"], range: { lastDays: 1 }, granularity: "ALL" });
   * const rebuffering = quality.total?.["rebuffering-ratio"].ratio;
   *
   * @function
   */
  getMetrics,
  /**
   * The Output form of {@link getMetrics}: `Input`s in, an `Output` out.
   *
   * @function
   */
  getMetricsOutput,
} = metricDataSource("Metrics", (api, params, options) => api.customSelection(params, options));

export const {
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
   *
   * @function
   */
  getMetricGroupBy,
  /**
   * The Output form of {@link getMetricGroupBy}: `Input`s in, an `Output` out.
   *
   * @function
   */
  getMetricGroupByOutput,
} = metricDataSource("MetricGroupBy", (api, params, options) => api.groupBy(params, options));

export const {
  /**
   * Several metrics grouped by a dimension (spec 4.6 `{base}/custom-selection/group-by/{dimension}`);
   * over 12 metrics, every chunk is ranked by the same metric so the chunks answer for the same entities.
   *
   * @function
   */
  getMetricsGroupBy,
  /**
   * The Output form of {@link getMetricsGroupBy}: `Input`s in, an `Output` out.
   *
   * @function
   */
  getMetricsGroupByOutput,
} = metricDataSource("MetricsGroupBy", (api, params, options) => api.customSelectionGroupBy(params, options));

export const {
  /**
   * One metric grouped by a custom tag of the account (spec 4.6
   * `{base}/{metric_name}/group-by/dimension-tag/{custom_tag}`), with the options of {@link getMetricGroupBy}.
   *
   * @function
   */
  getMetricGroupByTag,
  /**
   * The Output form of {@link getMetricGroupByTag}: `Input`s in, an `Output` out.
   *
   * @function
   */
  getMetricGroupByTagOutput,
} = metricDataSource("MetricGroupByTag", (api, params, options) => api.groupByTag(params, options));

export const {
  /**
   * The dimensions a metric can be grouped by (spec 4.6 `{base}/{metric_name}/group-by`).
   *
   * @function
   */
  getGroupByDimensions,
  /**
   * The Output form of {@link getGroupByDimensions}: `Input`s in, an `Output` out.
   *
   * @function
   */
  getGroupByDimensionsOutput,
} = dataSource("GroupByDimensions", (client, { realTime, ...params }: GetMetricListingArgs, options) => metricsApi(client, realTime).groupByDimensions(params, options));

export const {
  /**
   * The account's custom tags a metric can be grouped by (spec 4.6 `{base}/{metric_name}/group-by/dimension-tag`).
   *
   * @function
   */
  getDimensionTags,
  /**
   * The Output form of {@link getDimensionTags}: `Input`s in, an `Output` out.
   *
   * @function
   */
  getDimensionTagsOutput,
} = dataSource("DimensionTags", (client, { realTime, ...params }: GetMetricListingArgs, options) => metricsApi(client, realTime).dimensionTags(params, options));

export const {
  /**
   * The filtering and group-by dimensions of the metrics API (spec 4.6 `/3.0/metrics/_meta/references/dimensions`).
   *
   * @function
   */
  getMetricDimensions,
  /**
   * The Output form of {@link getMetricDimensions}: `Input`s in, an `Output` out.
   *
   * @function
   */
  getMetricDimensionsOutput,
} = dataSource("MetricDimensions", (client, params: NoArguments, options) => client.metrics.dimensionReferences(params, options));

export const {
  /**
   * Basic data (id, name) about the saved filters, as the metrics API knows them (spec 4.6 `/3.0/metrics/_meta/references/filters`).
   *
   * @function
   */
  getSavedFilterReferences,
  /**
   * The Output form of {@link getSavedFilterReferences}: `Input`s in, an `Output` out.
   *
   * @function
   */
  getSavedFilterReferencesOutput,
} = dataSource("SavedFilterReferences", (client, params: NoArguments, options) => client.metrics.filterReferences(params, options));

export const {
  /**
   * The KPI sets (spec 4.6 `/kpis`, 2.6): `kpi_id` (1 is the default set) and `kpi_name`.
   *
   * @function
   */
  getKpis,
  /**
   * The Output form of {@link getKpis}: `Input`s in, an `Output` out.
   *
   * @function
   */
  getKpisOutput,
} = dataSource("Kpis", (client, params: NoArguments, options) => client.metrics.kpis(params, options));
