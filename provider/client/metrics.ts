import { z } from "zod";
import {
  ACCEPTED_METRIC_PATH_NAMES,
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
import { checked, typeScriptType } from "../schema/meta";
import { PayloadTooLargeError } from "./core/errors";
import { GROUP_BY_SHAPE, type Merged, mergeByMembers, mergeByTime, PLAIN_SHAPE, single } from "./metric-merge";
import { type GroupByResult, groupByResult, type MetricResult, metricResult } from "./metric-results";
import { QueryFamily } from "./core/family";
import type { QueryParams, Requester } from "./core/request";
import { chunk, chunkWithPinned, fetchHalving, granularityGrid, splitIntoWindows } from "./core/split";
import {
  type CheckedRange,
  DAY_MS,
  describeDuration,
  HOUR_MS,
  type Interval,
  MINUTE_MS,
  type RangePolicy,
  rangeQuery,
  timeRangeAt,
} from "./core/time-range";
import type { CallOptions } from "./core/transport";
import {
  type AcceptedMetricName,
  filterMembers,
  filterQuery,
  type Granularity,
  Granularity as GranularitySchema,
  NoParams,
  notAChoice,
  parseParams,
  zText,
  QueryIdentifier,
  refineGroupByDimension,
  zChoice,
  zChoiceList,
  zFilters,
  zGroupByName,
  zInteger,
} from "./core/validation";
import type * as params from "./params";

/** Spec 8: metrics per custom-selection request. */
export const METRICS_PER_SELECTION = 12;
/** Spec 8: longest historical range of one request; longer ranges are split into windows. */
export const HISTORICAL_WINDOW_MS = 90 * DAY_MS;
/** Spec 4.6, 8: the group-by `limit` range, and the longest range when it is above 50. */
export const GROUP_BY_LIMITS = {
  /** The largest `limit` of a group-by: 500 (spec 4.6). */
  max: 500,
  /** The largest `limit` over a range longer than `longRangeMs`: 50, the default (spec 4.6). */
  longRangeMax: 50,
  /** 24 hours, in milliseconds: the longest range a `limit` above 50 may ask for (spec 4.6). */
  longRangeMs: 24 * HOUR_MS,
} as const;

export type { HistoricalRange, MetricRange, RealTimeRange } from "./core/time-range";

/** Arguments shared by every metric time-series query (spec 4.6). */
export type SeriesParams<RealTime extends boolean> = params.SeriesParams<RealTime>;
/** One metric (spec 4.6 `{base}/{metric_name}`). */
export type MetricParams<Metric extends AcceptedMetricName, RealTime extends boolean> = params.MetricParams<Metric, RealTime>;
/** Several metrics (spec 4.6 `{base}/custom-selection`); any number, 12 per request. */
export type SelectionParams<Metric extends AcceptedMetricName, RealTime extends boolean> = params.SelectionParams<Metric, RealTime>;
/** Arguments of the group-by queries (spec 4.6). */
export type GroupByOptions = params.GroupByOptions;
/** One metric grouped by a predefined or error-code dimension (spec 4.6, 4.7). */
export type GroupByParams<Metric extends AcceptedMetricName, RealTime extends boolean> = params.GroupByParams<Metric, RealTime>;
/** Several metrics grouped by a dimension (spec 4.6 `custom-selection/group-by/{dimension}`). */
export type SelectionGroupByParams<Metric extends AcceptedMetricName, RealTime extends boolean> = params.SelectionGroupByParams<Metric, RealTime>;
/** One metric grouped by a custom tag (spec 4.6 `group-by/dimension-tag/{custom_tag}`). */
export type TagGroupByParams<Metric extends AcceptedMetricName, RealTime extends boolean> = params.TagGroupByParams<Metric, RealTime>;
/** The metric of a per-metric listing (spec 4.6 `{base}/{metric_name}/group-by`). */
export type MetricListingParams = params.MetricListingParams;

/** Options of a {@link MetricsApi}. */
export interface MetricsApiOptions<RealTime extends boolean> {
  /** Real-time base path and rules (spec 4.6: minutes instead of days, 15-minute limits). */
  realTime: RealTime;
  /** The client's clock, epoch ms; used for the recency limits of spec 8 and to split relative ranges. */
  now?: () => number;
}

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
  /** The range as given, sent as such when no split is needed; undefined: none given, `interval` is sent. */
  range: CheckedRange | undefined;
  /** The absolute interval the query covers, by the client's clock. */
  interval: Interval;
  granularity: Granularity;
}

/** The metric names accepted in a path, typed. */
const METRIC_NAMES = ACCEPTED_METRIC_PATH_NAMES as readonly AcceptedMetricName[];

/**
 * @internal
 * The zod schemas of the params of a metrics family (spec 4.1, 4.6, 4.7, 8): the arguments each
 * method takes, and what it checks before any request, by the family's clock `now` (the recency
 * limits, a relative range resolved once). Each answers what its method sends: the query of the
 * series (range, granularity, filters, group-by options) and the interval it covers.
 */
export function metricParamSchemas(realTime: boolean, now: () => number) {
  const flavour = realTime ? FLAVOURS.realTime : FLAVOURS.historical;
  const series = {
    range: typeScriptType(timeRangeAt(flavour.policy, now), "MetricRange<RealTime>")
      .optional()
      .describe(
        "Default: the last 24 hours (historical) or 5 minutes (real time) ending now by the client's clock, sent as that explicit range: where the service's own default ends is not shown (provider/schema/assumptions.ts METRIC_ANSWER_RULE, docs/api.md 11.9).",
      ),
    granularity: GranularitySchema.optional().describe('ISO 8601 duration, PT1M to P10W, or "ALL" (docs/api.md 10.4). Default PT1H historical, PT1M real time.'),
    kpiId: QueryIdentifier.optional().describe("KPI set of KPI-based metrics (spec 4.6); default 1."),
    ...filterMembers(zFilters(METRIC_FILTER_NAMES, "MetricFilters")),
  };
  const groupBy = {
    limit: zInteger(0, GROUP_BY_LIMITS.max)
      .optional()
      .describe("Entities per interval, 0 to 500 (0: the most, 500, sent as 500), default 50; above 50 the range is at most 24 hours (spec 8)."),
    // Checked against the metrics requested, once they are known.
    sortBy: typeScriptType(checked<AcceptedMetricName, unknown>(zChoice(METRIC_NAMES, "metric names"), (name) => name), "AcceptedMetricName")
      .optional()
      .describe("The metric to rank entities by: one of the requested metrics. Default the first."),
    order: zChoice(["asc", "desc"], "orders").optional().describe("Ranking order: `desc` for the highest first."),
  };
  const metric = typeScriptType(zChoice(METRIC_NAMES, "metric names"), "Metric").describe("The metric's name (spec 4.6, kebab-case: `plays`, `rebuffering-ratio`).");
  const metrics = typeScriptType(zChoiceList(METRIC_NAMES, "metric names"), "readonly Metric[]").describe("The metrics' names (spec 4.6, kebab-case).");

  /** The series a query covers: the checked range (or the default), the granularity and the query. */
  const seriesOf = (parsed: z.output<z.ZodObject<typeof series>>, context: z.RefinementCtx): CheckedSeries => {
    const nowMs = now();
    const interval = parsed.range?.interval ?? { startMs: nowMs - flavour.defaultRangeMs, endMs: nowMs };
    const granularity = parsed.granularity ?? (GranularitySchema.parse(flavour.defaultGranularity) as Granularity);
    const { windowMs } = flavour;
    if (granularity.stepMs === undefined && windowMs !== undefined && interval.endMs - interval.startMs > windowMs) {
      context.addIssue({
        code: "custom",
        path: ["granularity"],
        message: `"ALL" gives one interval for the whole range, which cannot be assembled from the ${describeDuration(windowMs)} windows a longer range needs (spec 8); shorten the range to ${describeDuration(windowMs)} or use a granularity such as P1W`,
      });
    }
    const query: QueryParams = {
      ...filterQuery(parsed, context),
      ...(parsed.granularity === undefined ? {} : { granularity: granularity.text }),
      ...(parsed.kpiId === undefined ? {} : { kpi_id: parsed.kpiId }),
    };
    return { query, range: parsed.range?.range, interval, granularity };
  };

  /**
   * {@link seriesOf} plus the group-by options (spec 4.6, 8). `sortBy` must be one of the requested
   * metrics (the members, for quality-summary): entities are ranked by a metric answered.
   */
  const groupByOf = (
    parsed: z.output<z.ZodObject<typeof series & typeof groupBy>>,
    requested: readonly AcceptedMetricName[],
    context: z.RefinementCtx,
  ): CheckedSeries => {
    const checkedSeries = seriesOf(parsed, context);
    const { limit } = parsed;
    const length = checkedSeries.interval.endMs - checkedSeries.interval.startMs;
    // limit=0 asks for the most allowed, 500, and is sent as 500: what the service reads in 0 is not
    // shown (provider/schema/assumptions.ts METRIC_ANSWER_RULE, docs/api.md 11.9).
    const effectiveLimit = limit === 0 ? GROUP_BY_LIMITS.max : limit;
    if (effectiveLimit !== undefined && effectiveLimit > GROUP_BY_LIMITS.longRangeMax && length > GROUP_BY_LIMITS.longRangeMs) {
      context.addIssue({
        code: "custom",
        path: ["limit"],
        message: `${limit === 0 ? "0 (the maximum, 500) is" : "is"} above ${GROUP_BY_LIMITS.longRangeMax}, which needs a range of at most ${GROUP_BY_LIMITS.longRangeMs / HOUR_MS} hours (spec 8); this range is ${describeDuration(length)}: lower the limit or shorten the range`,
      });
    }
    const ranked = requested.flatMap((name) => answeredMetrics(name));
    if (parsed.sortBy !== undefined && !ranked.includes(parsed.sortBy as string)) {
      context.addIssue({ code: "custom", path: ["sortBy"], message: notAChoice(parsed.sortBy, ranked, "requested metrics") });
    }
    const groupByQuery: QueryParams = {
      ...(effectiveLimit === undefined ? {} : { limit: effectiveLimit }),
      ...(parsed.sortBy === undefined ? {} : { sort_by: parsed.sortBy as string }),
      ...(parsed.order === undefined ? {} : { order: parsed.order }),
    };
    return { ...checkedSeries, query: { ...checkedSeries.query, ...groupByQuery } };
  };

  const metricGroupBy = { metric, dimension: zGroupByName("The dimension to group by (spec 4.7, kebab-case: `isp`, `geo-country-code`), or an error-code dimension."), ...series, ...groupBy };
  const selectionGroupBy = { metrics, dimension: zGroupByName("The dimension to group by (spec 4.7, kebab-case)."), ...series, ...groupBy };
  const tagGroupBy = { metric, tag: zText(() => "must be the name of one of the account's custom tags (see dimensionTags)").describe("The account's custom tag name, as `dimensionTags` lists it."), ...series, ...groupBy };
  return {
    SeriesParams: z.strictObject(series).describe("Arguments shared by every metric time-series query (spec 4.6)."),
    GroupByOptions: z.strictObject(groupBy).describe("Arguments of the group-by queries (spec 4.6)."),
    MetricParams: z
      .strictObject({ metric, ...series })
      .transform((parsed, context) => ({ metric: parsed.metric, series: seriesOf(parsed, context) }))
      .describe("One metric (spec 4.6 `{base}/{metric_name}`)."),
    SelectionParams: z
      .strictObject({ metrics, ...series })
      .transform((parsed, context) => ({ metrics: parsed.metrics, series: seriesOf(parsed, context) }))
      .describe("Several metrics (spec 4.6 `{base}/custom-selection`); any number, 12 per request."),
    GroupByParams: z
      .strictObject(metricGroupBy)
      .transform((parsed, context) => {
        refineGroupByDimension(parsed.dimension, [parsed.metric], context);
        return { metric: parsed.metric, dimension: parsed.dimension, series: groupByOf(parsed, [parsed.metric], context) };
      })
      .describe("One metric grouped by a predefined or error-code dimension (spec 4.6, 4.7)."),
    SelectionGroupByParams: z
      .strictObject(selectionGroupBy)
      .transform((parsed, context) => {
        refineGroupByDimension(parsed.dimension, parsed.metrics, context);
        return { metrics: parsed.metrics, dimension: parsed.dimension, series: groupByOf(parsed, parsed.metrics, context) };
      })
      .describe("Several metrics grouped by a dimension (spec 4.6 `custom-selection/group-by/{dimension}`)."),
    TagGroupByParams: z
      .strictObject(tagGroupBy)
      .transform((parsed, context) => ({ metric: parsed.metric, tag: parsed.tag, series: groupByOf(parsed, [parsed.metric], context) }))
      .describe("One metric grouped by a custom tag (spec 4.6 `group-by/dimension-tag/{custom_tag}`)."),
    MetricListingParams: z
      .strictObject({ metric: typeScriptType(zChoice(METRIC_NAMES, "metric names"), "AcceptedMetricName").describe("The metric's name (spec 4.6).") })
      .describe("The metric of a per-metric listing (spec 4.6 `{base}/{metric_name}/group-by`)."),
  };
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
  private readonly params: ReturnType<typeof metricParamSchemas>;

  /** Built by {@link InsightsClient} on its transport and clock: `client.metrics` historical, `client.realTimeMetrics` real-time. */
  constructor(requester: Requester, options: MetricsApiOptions<RealTime>) {
    super(requester);
    this.flavour = options.realTime ? FLAVOURS.realTime : FLAVOURS.historical;
    this.params = metricParamSchemas(options.realTime, options.now ?? Date.now);
  }

  /** One metric as a time series (spec 4.6 `GET {base}/{metric_name}`). */
  async metric<Metric extends AcceptedMetricName>(params: MetricParams<Metric, RealTime>, requestOptions?: CallOptions): Promise<MetricResult<Metric>> {
    const { metric, series } = parseParams(this.params.MetricParams, params);
    const merged = await this.fetchSplit(`${this.flavour.base}/${metric}`, series, MetricResponse, requestOptions);
    return metricResult(merged, [params.metric]);
  }

  /**
   * Several metrics as one time series (spec 4.6 `GET {base}/custom-selection`). More than 12
   * metrics (spec 8) are requested in chunks of 12 and merged by timestamp and member.
   */
  async customSelection<Metric extends AcceptedMetricName>(params: SelectionParams<Metric, RealTime>, requestOptions?: CallOptions): Promise<MetricResult<Metric>> {
    const { metrics, series } = parseParams(this.params.SelectionParams, params);
    const parts = await Promise.all(
      chunk(metrics, METRICS_PER_SELECTION).map((metricChunk) =>
        this.fetchSplit(`${this.flavour.base}/custom-selection`, { ...series, query: { ...series.query, metric: metricChunk } }, MetricResponse, requestOptions),
      ),
    );
    return metricResult(mergeByMembers(parts, PLAIN_SHAPE), params.metrics);
  }

  /** One metric grouped by a dimension (spec 4.6 `GET {base}/{metric_name}/group-by/{dimension}`). */
  async groupBy<Metric extends AcceptedMetricName>(params: GroupByParams<Metric, RealTime>, requestOptions?: CallOptions): Promise<GroupByResult<Metric>> {
    const { metric, dimension, series } = parseParams(this.params.GroupByParams, params);
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
    const { metrics, dimension, series } = parseParams(this.params.SelectionGroupByParams, params);
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
    const { metric, tag, series } = parseParams(this.params.TagGroupByParams, params);
    const path = `${this.flavour.base}/${metric}/group-by/dimension-tag/${encodeURIComponent(tag)}`;
    return groupByResult(await this.fetchSplit(path, series, GroupByResponse, requestOptions), [params.metric]);
  }

  /** The dimensions `metric` can be grouped by (spec 4.6 `GET {base}/{metric_name}/group-by`). */
  async groupByDimensions(params: MetricListingParams, requestOptions?: CallOptions): Promise<GroupByDimensionList> {
    const { metric } = parseParams(this.params.MetricListingParams, params);
    return this.get(`${this.flavour.base}/${metric}/group-by`, {}, GroupByDimensionList, requestOptions);
  }

  /** The account's custom tags `metric` can be grouped by (spec 4.6 `GET {base}/{metric_name}/group-by/dimension-tag`). */
  async dimensionTags(params: MetricListingParams, requestOptions?: CallOptions): Promise<DimensionTagList> {
    const { metric } = parseParams(this.params.MetricListingParams, params);
    return this.get(`${this.flavour.base}/${metric}/group-by/dimension-tag`, {}, DimensionTagList, requestOptions);
  }

  /** Filtering and group-by dimensions (spec 4.6 `GET /3.0/metrics/_meta/references/dimensions`). */
  async dimensionReferences(params: Record<string, never> = {}, requestOptions?: CallOptions): Promise<MetricDimensionReferenceList> {
    parseParams(NoParams, params);
    return this.get("/3.0/metrics/_meta/references/dimensions", {}, MetricDimensionReferenceList, requestOptions);
  }

  /** Basic data about the saved filters (spec 4.6 `GET /3.0/metrics/_meta/references/filters`). */
  async filterReferences(params: Record<string, never> = {}, requestOptions?: CallOptions): Promise<FilterReferenceList> {
    parseParams(NoParams, params);
    return this.get("/3.0/metrics/_meta/references/filters", {}, FilterReferenceList, requestOptions);
  }

  /** The KPI sets (spec 4.6 `GET /kpis`, 2.6). */
  async kpis(params: Record<string, never> = {}, requestOptions?: CallOptions): Promise<KpiList> {
    parseParams(NoParams, params);
    return this.get("/kpis", {}, KpiList, requestOptions);
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
    // Sent as given (`days` or `minutes`), or the default as the explicit interval, unless it must be halved.
    return fetchHalving(interval, plan, () => fetchRange(rangeQuery(series.range ?? interval), interval));
  }
}
