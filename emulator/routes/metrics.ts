import { METRIC_PATH_NAMES } from "../contract/metrics";
import { closestMatch, describeChoices } from "../text/suggest";
import { badRequest, notFound } from "../http";
import { answerMetricRequest, HISTORICAL, REAL_TIME, type MetricFamily } from "../metrics/answer";
import { ALL_GROUP_BY_NAMES, resolveDimension, resolveMetric, type RequestedMetric, type ResolvedDimension } from "../metrics/catalog";
import { dimensionReferenceList, dimensionTagList, filterReferenceList, groupByDimensionList, kpiList, metricEndpointList } from "../metrics/listings";
import type { RequestContext, Router } from "../router";

/**
 * Routes of the metrics API family (spec 4.6): the historical and real-time bases with the same
 * sub-paths, the dimension and filter references (with and without the /insights prefix), and /kpis.
 * Unknown names in the path are 404 (no such resource) with a did-you-mean; unknown names in the
 * query (custom-selection `metric`) are 400.
 */
export function register(router: Router): void {
  const families: Array<[string, MetricFamily]> = [
    ["/insights/3.0/metrics", HISTORICAL],
    ["/insights/3.0/real-time-metrics", REAL_TIME],
  ];
  for (const [base, family] of families) {
    router.get(`${base}/custom-selection`, (context) => answerMetricRequest(context, family, selection(context)));
    router.get(`${base}/custom-selection/group-by`, (context) => ({ body: groupByDimensionList(selection(context), context.account.dialect) }));
    router.get(`${base}/custom-selection/group-by/dimension-tag`, (context) => ({ body: dimensionTagList(context.account) }));
    router.get(`${base}/custom-selection/group-by/:dimension`, (context) =>
      answerMetricRequest(context, family, selection(context), { dimension: dimension(context) }));
    router.get(`${base}/custom-selection/group-by/dimension-tag/:tag`, (context) =>
      answerMetricRequest(context, family, selection(context), { tag: context.params["tag"]! }));
    router.get(`${base}/:metric`, (context) => answerMetricRequest(context, family, pathMetric(context)));
    router.get(`${base}/:metric/group-by`, (context) => ({ body: groupByDimensionList(pathMetric(context), context.account.dialect) }));
    router.get(`${base}/:metric/group-by/dimension-tag`, (context) => {
      pathMetric(context);
      return { body: dimensionTagList(context.account) };
    });
    router.get(`${base}/:metric/group-by/:dimension`, (context) =>
      answerMetricRequest(context, family, pathMetric(context), { dimension: dimension(context) }));
    router.get(`${base}/:metric/group-by/dimension-tag/:tag`, (context) =>
      answerMetricRequest(context, family, pathMetric(context), { tag: context.params["tag"]! }));
  }
  for (const prefix of ["", "/insights"]) {
    router.get(`${prefix}/3.0/metrics/_meta/references/dimensions`, (context) => ({ body: dimensionReferenceList(context.account) }));
    router.get(`${prefix}/3.0/metrics/_meta/references/filters`, (context) => ({ body: filterReferenceList(context.account) }));
  }
  // docs/api.md 10.4: integrations also call /insights/3.0/kpis (the same answer as /kpis) and
  // GET /insights/3.0/metrics (the metric endpoints of the account).
  router.get("/kpis", (context) => ({ body: kpiList(context.account.dialect) }));
  router.get("/insights/3.0/kpis", (context) => ({ body: kpiList(context.account.dialect) }));
  router.get("/insights/3.0/metrics", (context) => ({ body: metricEndpointList(context.account) }));
}

/** Metrics of custom selections (spec 4.6, 8). */
export const MAX_SELECTION = 12;

/** The metric named in the path; 404 with a did-you-mean when there is none of that name. */
function pathMetric(context: RequestContext): RequestedMetric[] {
  const name = context.params["metric"]!;
  const metrics = resolveMetric(name);
  if (metrics) return metrics;
  const suggestion = closestMatch(name, METRIC_PATH_NAMES);
  throw notFound(
    `no metric "${name}"${suggestion ? `; did you mean "${suggestion}"?` : " (spec 4.6 lists the metric names)"}`,
    "metric",
  );
}

/**
 * The `metric` parameters of a custom selection: 1 to 12, one name each (spec 4.6: a comma string
 * is one name), each known; 400 otherwise. A repeated name is answered once.
 */
function selection(context: RequestContext): RequestedMetric[] {
  const names = context.query.getAll("metric");
  if (names.length === 0) {
    throw badRequest('a custom selection needs at least one "metric" parameter, repeated once per metric (spec 4.6)', "metric");
  }
  if (names.length > MAX_SELECTION) {
    throw badRequest(`a custom selection has at most ${MAX_SELECTION} metrics (spec 8), got ${names.length}`, "metric", "too_many_metrics");
  }
  const members = new Map<string, RequestedMetric>();
  for (const name of names) {
    const resolved = resolveMetric(name);
    if (!resolved) {
      const hint = name.includes(",")
        ? 'repeat "metric" once per metric instead of a comma list (spec 4.6)'
        : describeChoices(name, METRIC_PATH_NAMES, "metric names");
      throw badRequest(`unknown metric "${name}"; ${hint}`, "metric");
    }
    for (const metric of resolved) if (!members.has(metric.member)) members.set(metric.member, metric);
  }
  return [...members.values()];
}

/** The predefined or error-code dimension named in the path; 404 with a did-you-mean otherwise. */
function dimension(context: RequestContext): ResolvedDimension {
  const name = context.params["dimension"]!;
  const resolved = resolveDimension(name);
  if (resolved) return resolved;
  throw notFound(`no group-by dimension "${name}"; ${describeChoices(name, ALL_GROUP_BY_NAMES, "dimensions")} (spec 4.7)`, "dimension");
}
