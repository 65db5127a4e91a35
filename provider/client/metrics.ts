import type { z } from "zod";
import {
  DimensionTagList,
  FilterReferenceList,
  GroupByDimensionList,
  GroupByResponse,
  KpiList,
  METRIC_FILTER_NAMES,
  MetricDimensionReferenceList,
  MetricResponse,
  answeredMetrics,
} from "../schema";
import { ArgumentError, PayloadTooLargeError } from "./core/errors";
import { GROUP_BY_SHAPE, type Merged, mergeByMembers, mergeByTime, PLAIN_SHAPE, single } from "./metric-merge";
import { type GroupByResult, groupByResult, type MetricResult, metricResult } from "./metric-results";
import { QueryFamily } from "./core/family";
import type { QueryParams, Requester } from "./core/request";
import { chunk, chunkWithPinned, fetchHalving, granularityGrid, splitIntoWindows } from "./core/split";
import {
  type CheckedRange,
  checkRangeLimits,
  checkTimeRange,
  DAY_MS,
  describeDuration,
  type ExplicitRange,
  HOUR_MS,
  type Interval,
  type LastDaysRange,
  type LastMinutesRange,
  MINUTE_MS,
  type RangePolicy,
  rangeQuery,
  resolveRange,
} from "./core/time-range";
import type { CallOptions } from "./core/transport";
import {
  type AcceptedMetricName,
  checkChoice,
  checkFilterArguments,
  checkGranularity,
  checkGroupByDimension,
  checkIdentifier,
  checkInteger,
  checkKnownKeys,
  checkMetricName,
  checkMetricNames,
  type FilterArguments,
  type Granularity,
  type GroupByName,
  type MetricFilters,
} from "./core/validation";

/** Spec 8: metrics per custom-selection request. */
export const METRICS_PER_SELECTION = 12;
/** Spec 8: longest historical range of one request; longer ranges are split into windows. */
export const HISTORICAL_WINDOW_MS = 90 * DAY_MS;
/** Spec 4.6, 8: the group-by `limit` range, and the longest range when it is above 50. */
export const GROUP_BY_LIMITS = { max: 500, longRangeMax: 50, longRangeMs: 24 * HOUR_MS } as const;

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

/** Arguments shared by every metric time-series query (spec 4.6). */
export interface SeriesParams<RealTime extends boolean> extends FilterArguments<MetricFilters> {
  /** Default: the service's (last 24 hours historical, last 5 minutes real time). */
  range?: MetricRange<RealTime>;
  /** ISO 8601 duration, PT1M to P10W, or "ALL" (docs/api.md 10.4). Default PT1H historical, PT1M real time. */
  granularity?: string;
  /** KPI set of KPI-based metrics (spec 4.6); default 1. */
  kpiId?: string | number;
}

/** One metric (spec 4.6 `{base}/{metric_name}`). */
export interface MetricParams<Metric extends AcceptedMetricName, RealTime extends boolean> extends SeriesParams<RealTime> {
  /** The metric's name (spec 4.6, kebab-case: `plays`, `rebuffering-ratio`). */
  metric: Metric;
}

/** Several metrics (spec 4.6 `{base}/custom-selection`); any number, 12 per request. */
export interface SelectionParams<Metric extends AcceptedMetricName, RealTime extends boolean> extends SeriesParams<RealTime> {
  /** The metrics' names (spec 4.6, kebab-case). */
  metrics: readonly Metric[];
}

/** Arguments of the group-by queries (spec 4.6). */
export interface GroupByOptions {
  /** Entities per interval, 0 to 500 (0: the most, 500), default 50; above 50 the range is at most 24 hours (spec 8). */
  limit?: number;
  /** The metric to rank entities by: one of the requested metrics. Default the first. */
  sortBy?: AcceptedMetricName;
  /** Ranking order: `desc` for the highest first. */
  order?: "asc" | "desc";
}

/** One metric grouped by a predefined or error-code dimension (spec 4.6, 4.7). */
export interface GroupByParams<Metric extends AcceptedMetricName, RealTime extends boolean>
  extends MetricParams<Metric, RealTime>, GroupByOptions {
  /** The dimension to group by (spec 4.7, kebab-case: `isp`, `geo-country-code`), or an error-code dimension. */
  dimension: GroupByName;
}

/** Several metrics grouped by a dimension (spec 4.6 `custom-selection/group-by/{dimension}`). */
export interface SelectionGroupByParams<Metric extends AcceptedMetricName, RealTime extends boolean>
  extends SelectionParams<Metric, RealTime>, GroupByOptions {
  /** The dimension to group by (spec 4.7, kebab-case). */
  dimension: GroupByName;
}

/** One metric grouped by a custom tag (spec 4.6 `group-by/dimension-tag/{custom_tag}`). */
export interface TagGroupByParams<Metric extends AcceptedMetricName, RealTime extends boolean>
  extends MetricParams<Metric, RealTime>, GroupByOptions {
  /** The account's custom tag name, as `dimensionTags` lists it. */
  tag: string;
}

/** Options of a {@link MetricsApi}. */
export interface MetricsApiOptions<RealTime extends boolean> {
  /** Real-time base path and rules (spec 4.6: minutes instead of days, 15-minute limits). */
  realTime: RealTime;
  /** The client's clock, epoch ms; used for the recency limits of spec 8 and to split relative ranges. */
  now?: () => number;
}

const SERIES_KEYS = ["range", "granularity", "kpiId", "filters", "tags", "filterId"] as const;
const GROUP_BY_KEYS = ["limit", "sortBy", "order"] as const;

/** What differs between historical and real-time metrics (spec 4.1, 4.6, 8). */
interface Flavour {
  base: string;
  policy: RangePolicy;
  defaultRangeMs: number;
  defaultGranularity: string;
  /** Ranges longer than this are split into windows; undefined: never (the policy caps the length). */
  windowMs: number | undefined;
}

const FLAVOURS: Record<"historical" | "realTime", Flavour> = {
  historical: {
    base: "/insights/3.0/metrics",
    policy: { family: "historical metrics", formats: ["explicit", "lastDays"], maxAgeMs: 396 * DAY_MS, daysAnchor: "hour" },
    defaultRangeMs: DAY_MS,
    defaultGranularity: "PT1H",
    windowMs: HISTORICAL_WINDOW_MS,
  },
  realTime: {
    base: "/insights/3.0/real-time-metrics",
    policy: {
      family: "real-time metrics",
      formats: ["explicit", "lastMinutes"],
      maxAgeMs: 15 * MINUTE_MS,
      maxDurationMs: 15 * MINUTE_MS,
    },
    defaultRangeMs: 5 * MINUTE_MS,
    defaultGranularity: "PT1M",
    windowMs: undefined,
  },
};

/** A series query after checking: everything needed to send it, split it and merge it. */
interface CheckedSeries {
  /** The query without the time range and without `metric`. */
  query: QueryParams;
  /** The range as given, sent as such when no split is needed; undefined: the service's default. */
  range: CheckedRange | undefined;
  /** The absolute interval the query covers, by the client's clock. */
  interval: Interval;
  granularity: Granularity;
}

/**
 * The metrics API family (spec 4.6), historical or real time. Arguments are checked before any
 * request (spec 4.1, 4.7, 8), and the limits are made invisible: a custom selection of more than 12
 * metrics becomes several requests, a historical range over 90 days becomes windows, and a 413
 * (response over 5,700,000 bytes) is fetched again as two halves; the parts run in parallel (the
 * transport bounds them) and are merged into one result. `RealTime` narrows the accepted time
 * ranges.
 */
export class MetricsApi<RealTime extends boolean = boolean> extends QueryFamily {
  private readonly flavour: Flavour;
  private readonly now: () => number;

  constructor(requester: Requester, options: MetricsApiOptions<RealTime>) {
    super(requester);
    this.flavour = options.realTime ? FLAVOURS.realTime : FLAVOURS.historical;
    this.now = options.now ?? Date.now;
  }

  /** One metric as a time series (spec 4.6 `GET {base}/{metric_name}`). */
  async metric<Metric extends AcceptedMetricName>(params: MetricParams<Metric, RealTime>, requestOptions?: CallOptions): Promise<MetricResult<Metric>> {
    checkKnownKeys(params, ["metric", ...SERIES_KEYS]);
    const metric = checkMetricName(params.metric, "metric");
    const series = this.checkSeries(params);
    const merged = await this.fetchSplit(`${this.flavour.base}/${metric}`, series, MetricResponse, requestOptions);
    return metricResult(merged, [params.metric]);
  }

  /**
   * Several metrics as one time series (spec 4.6 `GET {base}/custom-selection`). More than 12
   * metrics (spec 8) are requested in chunks of 12 and merged by timestamp and member.
   */
  async customSelection<Metric extends AcceptedMetricName>(params: SelectionParams<Metric, RealTime>, requestOptions?: CallOptions): Promise<MetricResult<Metric>> {
    checkKnownKeys(params, ["metrics", ...SERIES_KEYS]);
    const metrics = checkMetricNames(params.metrics, "metrics");
    const series = this.checkSeries(params);
    const parts = await Promise.all(
      chunk(metrics, METRICS_PER_SELECTION).map((metricChunk) =>
        this.fetchSplit(`${this.flavour.base}/custom-selection`, { ...series, query: { ...series.query, metric: metricChunk } }, MetricResponse, requestOptions),
      ),
    );
    return metricResult(mergeByMembers(parts, PLAIN_SHAPE), params.metrics);
  }

  /** One metric grouped by a dimension (spec 4.6 `GET {base}/{metric_name}/group-by/{dimension}`). */
  async groupBy<Metric extends AcceptedMetricName>(params: GroupByParams<Metric, RealTime>, requestOptions?: CallOptions): Promise<GroupByResult<Metric>> {
    checkKnownKeys(params, ["metric", "dimension", ...SERIES_KEYS, ...GROUP_BY_KEYS]);
    const metric = checkMetricName(params.metric, "metric");
    const dimension = checkGroupByDimension(params.dimension, [metric]);
    const series = this.checkGroupBy(params, [metric]);
    const merged = await this.fetchSplit(`${this.flavour.base}/${metric}/group-by/${dimension}`, series, GroupByResponse, requestOptions);
    return groupByResult(merged, [params.metric]);
  }

  /**
   * Several metrics grouped by a dimension (spec 4.6 `GET {base}/custom-selection/group-by/{dimension}`).
   * Over 12 metrics, every chunk is sorted by the same metric (`sortBy`, else the first), so every
   * chunk answers for the same top entities and the chunks merge entity by entity.
   */
  async customSelectionGroupBy<Metric extends AcceptedMetricName>(
    params: SelectionGroupByParams<Metric, RealTime>,
    requestOptions?: CallOptions,
  ): Promise<GroupByResult<Metric>> {
    checkKnownKeys(params, ["metrics", "dimension", ...SERIES_KEYS, ...GROUP_BY_KEYS]);
    const metrics = checkMetricNames(params.metrics, "metrics");
    const dimension = checkGroupByDimension(params.dimension, metrics);
    const series = this.checkGroupBy(params, metrics);
    const path = `${this.flavour.base}/custom-selection/group-by/${dimension}`;
    if (metrics.length <= METRICS_PER_SELECTION) {
      return groupByResult(await this.fetchSplit(path, { ...series, query: { ...series.query, metric: metrics } }, GroupByResponse, requestOptions), params.metrics);
    }
    const sortBy = (series.query.sort_by as AcceptedMetricName | undefined) ?? metrics[0]!;
    const parts = await Promise.all(
      chunkWithPinned(metrics, METRICS_PER_SELECTION, sortBy).map((metricChunk) =>
        this.fetchSplit(path, { ...series, query: { ...series.query, metric: metricChunk, sort_by: sortBy } }, GroupByResponse, requestOptions),
      ),
    );
    return groupByResult(mergeByMembers(parts, GROUP_BY_SHAPE), params.metrics);
  }

  /** One metric grouped by a custom tag (spec 4.6 `GET {base}/{metric_name}/group-by/dimension-tag/{custom_tag}`). */
  async groupByTag<Metric extends AcceptedMetricName>(params: TagGroupByParams<Metric, RealTime>, requestOptions?: CallOptions): Promise<GroupByResult<Metric>> {
    checkKnownKeys(params, ["metric", "tag", ...SERIES_KEYS, ...GROUP_BY_KEYS]);
    const metric = checkMetricName(params.metric, "metric");
    if (typeof params.tag !== "string" || params.tag.length === 0) {
      throw new ArgumentError("tag", "must be the name of one of the account's custom tags (see dimensionTags)");
    }
    const series = this.checkGroupBy(params, [metric]);
    const path = `${this.flavour.base}/${metric}/group-by/dimension-tag/${encodeURIComponent(params.tag)}`;
    return groupByResult(await this.fetchSplit(path, series, GroupByResponse, requestOptions), [params.metric]);
  }

  /** The dimensions `metric` can be grouped by (spec 4.6 `GET {base}/{metric_name}/group-by`). */
  async groupByDimensions(params: { metric: AcceptedMetricName }, requestOptions?: CallOptions): Promise<GroupByDimensionList> {
    checkKnownKeys(params, ["metric"]);
    return this.get(`${this.flavour.base}/${checkMetricName(params.metric, "metric")}/group-by`, {}, GroupByDimensionList, requestOptions);
  }

  /** The account's custom tags `metric` can be grouped by (spec 4.6 `GET {base}/{metric_name}/group-by/dimension-tag`). */
  async dimensionTags(params: { metric: AcceptedMetricName }, requestOptions?: CallOptions): Promise<DimensionTagList> {
    checkKnownKeys(params, ["metric"]);
    return this.get(`${this.flavour.base}/${checkMetricName(params.metric, "metric")}/group-by/dimension-tag`, {}, DimensionTagList, requestOptions);
  }

  /** Filtering and group-by dimensions (spec 4.6 `GET /3.0/metrics/_meta/references/dimensions`). */
  async dimensionReferences(params: Record<string, never> = {}, requestOptions?: CallOptions): Promise<MetricDimensionReferenceList> {
    checkKnownKeys(params, []);
    return this.get("/3.0/metrics/_meta/references/dimensions", {}, MetricDimensionReferenceList, requestOptions);
  }

  /** Basic data about the saved filters (spec 4.6 `GET /3.0/metrics/_meta/references/filters`). */
  async filterReferences(params: Record<string, never> = {}, requestOptions?: CallOptions): Promise<FilterReferenceList> {
    checkKnownKeys(params, []);
    return this.get("/3.0/metrics/_meta/references/filters", {}, FilterReferenceList, requestOptions);
  }

  /** The KPI sets (spec 4.6 `GET /kpis`, 2.6). */
  async kpis(params: Record<string, never> = {}, requestOptions?: CallOptions): Promise<KpiList> {
    checkKnownKeys(params, []);
    return this.get("/kpis", {}, KpiList, requestOptions);
  }

  /** Checks the arguments shared by every series query (spec 4.1, 4.6, 4.7, 8). */
  private checkSeries(params: SeriesParams<RealTime>): CheckedSeries {
    const { policy, defaultRangeMs, defaultGranularity, windowMs } = this.flavour;
    const nowMs = this.now();
    const range = params.range === undefined ? undefined : checkTimeRange(params.range, policy);
    const interval = range ? resolveRange(range, nowMs, policy.daysAnchor) : { startMs: nowMs - defaultRangeMs, endMs: nowMs };
    checkRangeLimits(interval, nowMs, policy);
    const granularity = checkGranularity(params.granularity ?? defaultGranularity);
    if (granularity.stepMs === undefined && windowMs !== undefined && interval.endMs - interval.startMs > windowMs) {
      throw new ArgumentError("granularity", `"ALL" gives one interval for the whole range, which cannot be assembled from the ${describeDuration(windowMs)} windows a longer range needs (spec 8); shorten the range to ${describeDuration(windowMs)} or use a granularity such as P1W`);
    }
    const query: QueryParams = {
      ...checkFilterArguments(params, METRIC_FILTER_NAMES),
      ...(params.granularity === undefined ? {} : { granularity: granularity.text }),
      ...(params.kpiId === undefined ? {} : { kpi_id: checkIdentifier(params.kpiId, "kpiId") }),
    };
    return { query, range, interval, granularity };
  }

  /**
   * {@link checkSeries} plus the group-by options (spec 4.6, 8). `sortBy` must be one of the
   * requested metrics (the members, for quality-summary): entities are ranked by a metric answered.
   */
  private checkGroupBy(params: SeriesParams<RealTime> & GroupByOptions, metrics: readonly AcceptedMetricName[]): CheckedSeries {
    const series = this.checkSeries(params);
    const limit = params.limit === undefined ? undefined : checkInteger(params.limit, 0, GROUP_BY_LIMITS.max, "limit");
    const length = series.interval.endMs - series.interval.startMs;
    // limit=0 asks for the most allowed, 500 (the emulator's reading; the spec only says "non-negative").
    const effectiveLimit = limit === 0 ? GROUP_BY_LIMITS.max : limit;
    if (effectiveLimit !== undefined && effectiveLimit > GROUP_BY_LIMITS.longRangeMax && length > GROUP_BY_LIMITS.longRangeMs) {
      throw new ArgumentError("limit", `${limit === 0 ? "0 (the maximum, 500) is" : "is"} above ${GROUP_BY_LIMITS.longRangeMax}, which needs a range of at most ${GROUP_BY_LIMITS.longRangeMs / HOUR_MS} hours (spec 8); this range is ${describeDuration(length)}: lower the limit or shorten the range`);
    }
    const ranked = metrics.flatMap((metric) => answeredMetrics(metric));
    const groupByQuery: QueryParams = {
      ...(limit === undefined ? {} : { limit }),
      ...(params.sortBy === undefined ? {} : { sort_by: checkChoice(params.sortBy, ranked, "sortBy", "requested metrics") }),
      ...(params.order === undefined ? {} : { order: checkChoice(params.order, ["asc", "desc"] as const, "order", "orders") }),
    };
    return { ...series, query: { ...series.query, ...groupByQuery } };
  }

  /**
   * Fetches one series query: in windows when the range is longer than one request may be (spec 8),
   * each window (or the whole range) halved again on 413, all in parallel, merged in time order.
   */
  private async fetchSplit<Schema extends typeof MetricResponse | typeof GroupByResponse>(
    path: string,
    series: CheckedSeries,
    schema: Schema,
    requestOptions: CallOptions | undefined,
  ): Promise<Merged<z.infer<Schema>>> {
    type Response = z.infer<Schema>;
    // The two shapes differ only in how points and totals combine; the type of each call is fixed by `schema`.
    const shape = (schema === GroupByResponse ? GROUP_BY_SHAPE : PLAIN_SHAPE) as unknown as typeof PLAIN_SHAPE;
    const merge = (parts: Merged<Response>[]) => mergeByTime(parts as Merged<MetricResponse>[], shape) as Merged<Response>;
    const fetchRange = async (rangeParams: QueryParams, interval: Interval) =>
      single((await this.get(path, { ...series.query, ...rangeParams }, schema, requestOptions)) as Response, interval) as Merged<Response>;
    const plan = {
      // "ALL" is one interval: it cannot be halved.
      grid: granularityGrid(series.granularity.stepMs ?? Number.POSITIVE_INFINITY),
      fetch: (interval: Interval) => fetchRange(rangeQuery(interval), interval),
      merge,
      halveOnError: (error: unknown) => {
        const tooLarge = error instanceof PayloadTooLargeError;
        if (tooLarge) this.logSplit(path, "answer over 5,700,000 bytes (HTTP 413, spec 8): fetched again as two halves", 2, requestOptions);
        return tooLarge;
      },
    };
    const { interval } = series;
    const windowMs = this.flavour.windowMs;
    if (windowMs !== undefined && interval.endMs - interval.startMs > windowMs) {
      const windows = splitIntoWindows(interval, windowMs, plan.grid);
      this.logSplit(path, `range longer than ${Math.round(windowMs / 86_400_000)} days (spec 8)`, windows.length, requestOptions);
      return merge(await Promise.all(windows.map((window) => fetchHalving(window, plan))));
    }
    // Sent as given (`days`, or no range for the service's default) unless it must be halved.
    return fetchHalving(interval, plan, () => fetchRange(series.range ? rangeQuery(series.range) : {}, interval));
  }
}
