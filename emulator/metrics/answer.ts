import { closestMatch } from "../text/suggest";
import type { AccountRequest, AccountState } from "../accounts";
import { QueryReader } from "../query";
import { badRequest, featureDisabled, notFound, unprocessable, type RouteResult } from "../http";
import { enforceRangeLimits, parseTimeRange, TIME_RANGE_PARAMETERS, type RangeLimits, type TimeRange, type TimeRangeRules } from "../time-range";
import type { SessionKind, SessionRecord } from "../world/types";
import { dimensionReader, parseQueryFilters } from "./filtering";
import { ERROR_CODE_READERS } from "./flags";
import { aggregate, emptyCell, type AggregationInput, type SessionSource } from "./aggregate";
import { readsAdSessions, type RequestedMetric, type ResolvedDimension } from "./catalog";
import { parseKpiId } from "./kpis";
import { emptyGroupByBounds, groupByBounds, groupByBoundsRankedPerInterval, plainBounds, rankGroups, renderGroupBy, renderPlain, type Ranking } from "./render";
import { refuseIfSurelyTooLarge, refuseIfTooLarge } from "./size";
import { layoutIntervals, parseGranularity, type IntervalLayout } from "./intervals";
import { MINUTE_MS, HOUR_MS, DAY_MS } from "../time";
import { defaultRangeEnd, groupByLimitZero, type Dialect } from "../dialect";

/** Historical and real-time metrics: same sub-paths, different time rules (spec 4.1, 4.6, 8). */
export interface MetricFamily {
  timeRange: TimeRangeRules;
  /** The whole unit the alternate dialect ends a default range at (emulator/dialect.ts `defaultRangeEnd`). */
  defaultEndUnitMs: number;
  limits: RangeLimits;
  defaultGranularity: string;
}

/** Historical metrics: last 24 hours by default, `days` from the last clock hour, 90 days within 13 months. */
export const HISTORICAL: MetricFamily = {
  timeRange: { allowDays: true, daysAnchor: "hour", defaultDurationMs: DAY_MS },
  defaultEndUnitMs: HOUR_MS,
  limits: { maxDurationMs: 90 * DAY_MS, maxAgeMs: 396 * DAY_MS, label: "historical metrics" },
  defaultGranularity: "PT1H",
};

/** Real-time metrics: last 5 minutes by default, `minutes`, at most 15 minutes starting within 15 minutes. */
export const REAL_TIME: MetricFamily = {
  timeRange: { allowMinutes: true, defaultDurationMs: 5 * MINUTE_MS },
  defaultEndUnitMs: MINUTE_MS,
  limits: { maxDurationMs: 15 * MINUTE_MS, maxAgeMs: 15 * MINUTE_MS, label: "real-time metrics" },
  defaultGranularity: "PT1M",
};

/** What a group-by request groups by. */
export type GroupBy = { dimension: ResolvedDimension; tag?: undefined } | { tag: string; dimension?: undefined };

const GROUP_BY_PARAMETERS = ["limit", "sort_by", "order"] as const;
/** The parameters of spec 4.6 given at most once each; filters (and the routes' `metric`) may repeat. */
const SINGLE_PARAMETERS: readonly string[] = [...TIME_RANGE_PARAMETERS, "granularity", "kpi_id", ...GROUP_BY_PARAMETERS];
/** The parameters that are not filters (spec 4.6): a custom selection repeats `metric`, one per metric. */
const RESERVED: ReadonlySet<string> = new Set([...SINGLE_PARAMETERS, "metric"]);

/** Group-by limit (spec 4.6, 8): default 50, at most 500; 0 asks for the most allowed, 500 (the alternate dialect: the default). */
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;

/**
 * How far before a range sessions are read so that plays still in progress at its start count in
 * concurrent plays and interval minutes: longer than any session of the data world (the longest,
 * a live stream of 4 hours with heavy rebuffering, stays well under it).
 */
export const LOOKBACK_MS = 12 * HOUR_MS;

/**
 * Answers a metric request (spec 4.6) once the route has resolved the metric and dimension names:
 * parameters, limits (spec 8), the account's sessions (the same the sessions endpoints read), one
 * aggregation pass, the body, `_meta`, and the response-size limit.
 */
export async function answerMetricRequest(
  context: AccountRequest,
  family: MetricFamily,
  metrics: readonly RequestedMetric[],
  groupBy?: GroupBy,
): Promise<RouteResult> {
  const { query, account, nowMs } = context;
  if (readsAdSessions(metrics) && !account.config.features.adInsights) {
    throw featureDisabled("adInsights", "ad metrics need ad insights, which this account does not have (spec 1, 4.2)");
  }
  if (groupBy?.dimension?.errorCodeOf) checkErrorCodeDimension(groupBy.dimension, metrics);
  if (groupBy?.tag !== undefined) checkTag(account, groupBy.tag);

  // Filters are open-ended (and may repeat): parseQueryFilters reads them.
  const reader = new QueryReader(query, SINGLE_PARAMETERS, `GET ${context.path}`, { openEnded: true });
  const range = parseTimeRange(query, nowMs, family.timeRange, defaultRangeEnd(account.dialect, nowMs, family.defaultEndUnitMs));
  enforceRangeLimits(range, nowMs, family.limits);
  const granularity = parseGranularity(query, family.defaultGranularity);
  const kpi = parseKpiId(reader);
  const ranking = groupBy ? parseRanking(reader, metrics, range, account.dialect) : refuseGroupByParameters(reader);
  const filters = parseQueryFilters(context, "metrics", RESERVED);
  const layout = layoutIntervals(range, granularity);

  const metricContext = { nowMs, kpi };
  const definitions = metrics.map((metric) => metric.definition);
  // The members docs/api.md 10.4 names (filter_info, group_by_dimension) are in every dialect; the
  // rest are our choice, left out by the alternate dialect (emulator/README.md "Dialects").
  const meta = {
    ...(account.dialect === "standard"
      ? {
          granularity,
          start_epoch_ms: range.fromMs,
          end_epoch_ms: range.toMs,
          kpi_id: kpi.kpi_id,
          query_string: query.toString(),
        }
      : {}),
    ...(filters.savedFilter === undefined ? {} : { filter_info: filters.savedFilter }),
    ...(layout.partial && account.dialect === "standard" ? { annotations: [partialNote(layout)] } : {}),
  };
  // Refuse a hopeless request before reading any session (spec 8: 413 over 5,700,000 bytes).
  const early = groupBy ? emptyGroupByBounds(layout, account.dialect) : plainBounds(metrics, layout, emptyCell(definitions), account.dialect);
  refuseIfSurelyTooLarge(early);
  // Hours not generated yet, when many, are generated on two threads before the one pass below.
  await account.prepareSessions(layout.fromMs - LOOKBACK_MS, layout.toMs, nowMs);
  const input: AggregationInput = {
    sessions: readSessions(account, metrics, layout, nowMs),
    include: filters.predicate,
    layout,
    definitions,
    context: metricContext,
  };

  if (!groupBy) {
    const body = { ...renderPlain(aggregate(input), metrics, layout, account.dialect), _meta: meta };
    refuseIfTooLarge(early, body);
    return { body };
  }

  const dimension = groupBy.dimension ?? { key: groupBy.tag, description: `Custom tag ${groupBy.tag}` };
  const aggregation = aggregate({ ...input, ...groupingOf(groupBy, metricContext) });
  const top = rankGroups(aggregation, ranking!);
  // The alternate dialect ranks each interval on its own (emulator/README.md "Dialects").
  const rankedPerInterval = account.dialect === "alternate" ? ranking : undefined;
  const bounds = rankedPerInterval
    ? groupByBoundsRankedPerInterval(aggregation, metrics, layout, dimension, account.dialect)
    : groupByBounds(top, metrics, layout, dimension, aggregation.empty, account.dialect);
  refuseIfSurelyTooLarge(bounds);
  const body = {
    ...renderGroupBy(aggregation, top, metrics, layout, dimension, account.dialect, rankedPerInterval),
    _meta: { ...meta, group_by_dimension: { key: dimension.key, description: dimension.description } },
  };
  refuseIfTooLarge(bounds, body);
  return { body };
}

/** Sessions of the kinds the metrics read; from a lookback when overlap or peak terms need it. */
function readSessions(
  account: AccountState,
  metrics: readonly RequestedMetric[],
  layout: IntervalLayout,
  nowMs: number,
): Record<SessionKind, SessionSource> {
  const read = (kind: SessionKind): SessionSource => {
    const terms = metrics.flatMap((metric) => (metric.definition.source === kind ? metric.definition.terms : []));
    if (terms.length === 0) return () => {};
    const lookback = terms.some((term) => term.type === "overlap" || term.type === "peak") ? LOOKBACK_MS : 0;
    return (visit) => account.visitSessions(kind, layout.fromMs - lookback, layout.toMs, nowMs, visit);
  };
  return { content: read("content"), ad: read("ad") };
}

/**
 * The grouping function of a group-by: a predefined dimension, an error code or a custom tag,
 * resolved once per request so the pass over the sessions only reads values.
 */
function groupingOf(groupBy: GroupBy, context: AggregationInput["context"]): Pick<AggregationInput, "groupOf" | "keepBase"> {
  if (groupBy.tag !== undefined) {
    // Sessions without the tag belong to no entity (the emulator's choice).
    const tag = groupBy.tag;
    return { groupOf: (session) => (session.customTags[tag] === undefined ? undefined : { value: session.customTags[tag] }) };
  }
  const { dimension } = groupBy;
  const errorCode = dimension.errorCodeOf && ERROR_CODE_READERS[dimension.key];
  if (errorCode) {
    // Only the sessions that failed (as the dimension's one metric counts them, metrics/flags.ts)
    // have an error code; rates keep all traffic as their denominator.
    return {
      groupOf: (session) => {
        const value = errorCode(session, context);
        return value === undefined ? undefined : { value };
      },
      keepBase: true,
    };
  }
  return { groupOf: dimensionReader(dimension.key, context.nowMs) };
}

/** 400 unless the error-code dimension is asked with the one metric it is valid for (spec 4.7). */
function checkErrorCodeDimension(dimension: ResolvedDimension, metrics: readonly RequestedMetric[]): void {
  if (metrics.length !== 1 || metrics[0]!.metric !== dimension.errorCodeOf) {
    throw badRequest(
      `the error-code dimension "${dimension.key.replace(/_/g, "-")}" is valid only with the metric "${dimension.errorCodeOf}" alone (spec 4.7)`,
      "dimension",
    );
  }
}

/** 404 for a custom tag the account does not have, with a suggestion. */
function checkTag(account: AccountState, tag: string): void {
  const tags = account.world.customTagNames();
  if (tags.includes(tag)) return;
  const suggestion = closestMatch(tag, tags);
  throw notFound(
    `"${tag}" is not a custom tag of this account; ${suggestion ? `did you mean "${suggestion}"?` : `its tags are ${tags.map((name) => `"${name}"`).join(", ") || "none"}`} ` +
      "(GET {base}/{metric}/group-by/dimension-tag lists them)",
    "custom_tag",
  );
}

/** limit, sort_by and order of a group-by request (spec 4.6, 8); what `limit=0` means is the dialect's. */
function parseRanking(reader: QueryReader, metrics: readonly RequestedMetric[], range: TimeRange, dialect: Dialect): Ranking {
  const asked = reader.integer("limit", 0, MAX_LIMIT) ?? DEFAULT_LIMIT;
  const limit = asked === 0 ? groupByLimitZero(dialect, MAX_LIMIT, DEFAULT_LIMIT) : asked;
  if (limit > DEFAULT_LIMIT && range.toMs - range.fromMs > DAY_MS) {
    throw unprocessable(
      `a group-by limit above ${DEFAULT_LIMIT} (limit=${asked}${asked === 0 ? ", which means " + limit : ""}) needs a time range of at most 24 hours (spec 8)`,
      "limit",
    );
  }
  const sortName = reader.string("sort_by");
  const sortBy = sortName === undefined ? metrics[0]! : metrics.find((metric) => metric.name === sortName || metric.member === sortName);
  if (!sortBy) {
    const names = metrics.map((metric) => metric.name);
    const suggestion = closestMatch(sortName!, names);
    throw badRequest(
      `"sort_by" must be one of the requested metrics (${names.join(", ")})${suggestion ? `; did you mean "${suggestion}"?` : ""}, got "${sortName}"`,
      "sort_by",
    );
  }
  const order = reader.string("order") ?? "desc";
  if (order !== "desc" && order !== "asc") throw badRequest(`"order" must be desc or asc, got "${order}"`, "order");
  return { sortBy, order, limit };
}

/** 400 for group-by parameters on a request without group-by (spec 4.6: "group-by only"). */
function refuseGroupByParameters(reader: QueryReader): undefined {
  const present = GROUP_BY_PARAMETERS.find((name) => reader.string(name) !== undefined);
  if (present) throw badRequest(`"${present}" applies to group-by requests only (spec 4.6)`, present);
  return undefined;
}

function partialNote(layout: IntervalLayout): { cause: string; value: string } {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    cause: "interval_adjustment",
    value: `the range ${iso(layout.fromMs)} to ${iso(layout.toMs)} is not aligned to ${layout.granularity}: ` +
      "its first or last interval is partial and holds only the data inside the range",
  };
}
