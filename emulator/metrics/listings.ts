import { ERROR_CODE_DIMENSIONS, ERROR_FILTER_NAMES, GROUP_BY_DIMENSIONS } from "../contract/dimensions";
import { identifier, listing, type Dialect } from "../dialect";
import type { AccountState } from "../accounts";
import { describeDimension, readsAdSessions, resolveMetric, snakeCase, type RequestedMetric } from "./catalog";
import { EMULATOR_METRIC_NAMES, QUALITY_SUMMARY } from "../contract/metrics";
import { KPI_SETS } from "./kpis";

/**
 * The lookup payloads of the metrics API (spec 4.6; "payloads of the listing endpoints: not shown"):
 * the shapes are the emulator's choice, declared once in provider/schema/metrics.ts.
 */

/** `{base}/{metric}/group-by`: every predefined dimension, plus the error-code dimensions of the metric. */
export function groupByDimensionList(metrics: readonly RequestedMetric[], dialect: Dialect): unknown {
  const errorCode = Object.entries(ERROR_CODE_DIMENSIONS)
    .filter(([, metric]) => metrics.length === 1 && metrics[0]!.metric === metric)
    .map(([name]) => name);
  return listing(dialect, "dimensions", [...GROUP_BY_DIMENSIONS, ...errorCode].map((name) => ({ name, description: describeDimension(name) })));
}

/** `{base}/{metric}/group-by/dimension-tag`: the account's custom tags. */
export function dimensionTagList(account: AccountState): unknown {
  return listing(account.dialect, "dimension_tags", account.world.customTagNames().map((name) => ({ name, description: `Custom tag ${name}` })));
}

/**
 * `/3.0/metrics/_meta/references/dimensions`: each dimension with its display name, the query
 * filter and the group-by path segment it is used with (spec 4.7), custom tags included.
 */
export function dimensionReferenceList(account: AccountState): unknown {
  const filters: ReadonlySet<string> = new Set(ERROR_FILTER_NAMES);
  const predefined = GROUP_BY_DIMENSIONS.map((name) => ({
    name: describeDimension(name),
    filter: snakeCase(name),
    group_by: name,
    description: `filter with ?${snakeCase(name)}=<value>; group by {base}/{metric}/group-by/${name}`,
  }));
  const errorCode = Object.entries(ERROR_CODE_DIMENSIONS).map(([name, metric]) => ({
    name: describeDimension(name),
    ...(filters.has(snakeCase(name)) ? { filter: snakeCase(name) } : {}),
    group_by: name,
    description: `error codes of ${metric}; group by it only with the metric ${metric}`,
  }));
  const tags = account.world.customTagNames().map((tag) => ({
    name: tag,
    filter: `tag_${tag}`,
    group_by: `dimension-tag/${tag}`,
    description: `custom tag ${tag}: filter with ?tag_${tag}=<value>; group by {base}/{metric}/group-by/dimension-tag/${tag}`,
  }));
  return listing(account.dialect, "dimensions", [...predefined, ...errorCode, ...tags]);
}

/**
 * `/3.0/metrics/_meta/references/filters`: id (a string; a number in the alternate dialect), name
 * and whether each saved filter is enabled.
 */
export function filterReferenceList(account: AccountState): unknown {
  const filters = account.filters.all().map((filter) => ({
    id: identifier(account.dialect, filter.id, "string"),
    name: filter.name,
    ...(filter.enabled === undefined ? {} : { enabled: filter.enabled }),
  }));
  return listing(account.dialect, "filters", filters);
}

/**
 * `/kpis`: the KPI sets (spec 2.6), `kpi_id` a JSON number as the `kpi_id` parameter spells it (a
 * string and no wrapper in the alternate dialect).
 */
export function kpiList(dialect: Dialect): unknown {
  return listing(dialect, "kpis", KPI_SETS.map(({ kpi_id, kpi_name }) => ({ kpi_id: identifier(dialect, kpi_id, "number"), kpi_name })));
}

/** One entry of `GET /insights/3.0/metrics`. */
export interface MetricEndpoint {
  /** The metric name as the paths spell it. */
  name: string;
  /** The historical endpoint of the metric. */
  path: string;
  /** The real-time endpoint of the metric. */
  real_time_path: string;
  /** The members the answer carries and their value fields. */
  members: Array<{ member: string; value_fields: readonly string[] }>;
}

/**
 * `GET /insights/3.0/metrics` (docs/api.md 10.4: "a listing of the metric endpoints available to
 * the account"; the payload is our choice): every metric and `quality-summary`, without the ad
 * metrics for an account without ad insights, in name order.
 */
export function metricEndpointList(account: AccountState): unknown {
  const metrics: MetricEndpoint[] = [];
  for (const name of [...EMULATOR_METRIC_NAMES, QUALITY_SUMMARY].sort()) {
    const members = resolveMetric(name)!;
    if (readsAdSessions(members) && !account.config.features.adInsights) continue;
    metrics.push({
      name,
      path: `/insights/3.0/metrics/${name}`,
      real_time_path: `/insights/3.0/real-time-metrics/${name}`,
      members: members.map((metric) => ({ member: metric.member, value_fields: metric.fields })),
    });
  }
  return listing(account.dialect, "metrics", metrics);
}
