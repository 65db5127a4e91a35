import { AD_ALERT_METRICS, ALERT_SEVERITIES, ALERT_STATUSES, CONTENT_ALERT_METRICS, type AlertBody } from "../contract/alerts";
import { wireAlertTimestamp as alertTimestampOf } from "../text/wire";
import { measureCheckpoints } from "../alerts/measure";
import { alertMetricDefinition } from "../alerts/metrics";
import { alertAt, alertIdOf, startOfAlertId, type AlertState } from "../alerts/timeline";
import { QueryReader } from "../query";
import { featureDisabled, notFound } from "../http";
import type { RequestContext, Router } from "../router";
import { enforceRangeLimits, parseTimeRange, TIME_RANGE_PARAMETERS } from "../time-range";
import { byTime } from "../dialect";
import type { SessionKind } from "../world";

/** Longest range of an alert list (spec 4.9, 8): 30 days. */
export const MAX_ALERT_RANGE_MS = 30 * 86_400_000;
/**
 * Range of an alert list without time parameters (spec 4.9: not shown): the last 30 days, the
 * longest range allowed and the window the service's alert totals cover.
 */
export const DEFAULT_ALERT_RANGE_MS = MAX_ALERT_RANGE_MS;

/** The two alert families of spec 4.9: their path segment and alert metrics. */
const FAMILIES = [
  { kind: "content", segment: "content-metrics", metrics: CONTENT_ALERT_METRICS },
  { kind: "ad", segment: "ad-metrics", metrics: AD_ALERT_METRICS },
] as const satisfies ReadonlyArray<{ kind: SessionKind; segment: string; metrics: readonly string[] }>;

type Family = (typeof FAMILIES)[number];

const BASE = "/insights/2.6/ai-alerts";

/** Routes of the AI alerts API (spec 4.9): a list and a detail per family. */
export function register(router: Router): void {
  for (const family of FAMILIES) {
    router.get(`${BASE}/${family.segment}`, (context) => ({ body: { alerts: listAlerts(family, context) } }));
    router.get(`${BASE}/${family.segment}/:alert_id`, (context) => ({ body: alertDetail(family, context) }));
  }
}

/**
 * The alerts of a family with a status change (start or end) inside the range, newest start first
 * (emulator's choice; oldest first in the alternate dialect, emulator/dialect.ts `byTime`), then by
 * id, filtered by severity, status and alert metric (spec 4.9).
 */
function listAlerts(family: Family, context: RequestContext): AlertBody[] {
  requireFamily(family, context);
  const endpoint = `GET ${BASE}/${family.segment}`;
  const reader = new QueryReader(context.query, [...TIME_RANGE_PARAMETERS, "severity", "status", "alert_metric"], endpoint);
  const range = parseTimeRange(context.query, context.nowMs, { defaultDurationMs: DEFAULT_ALERT_RANGE_MS });
  enforceRangeLimits(range, context.nowMs, { maxDurationMs: MAX_ALERT_RANGE_MS, label: "an AI alert list" });
  const severities = reader.choices("severity", ALERT_SEVERITIES, "severities");
  const statuses = reader.choices("status", ALERT_STATUSES, "statuses");
  const metrics = reader.choices<string>("alert_metric", family.metrics, `${family.kind} alert metrics`);
  const inRange = (ms: number | undefined) => ms !== undefined && range.fromMs <= ms && ms < range.toMs;
  const byStart = byTime(context.account.dialect);
  // One millisecond earlier: an anomaly that ends exactly at the range's start does not overlap
  // the range, yet its end (a status change) lies inside it.
  return context.account.world
    .anomaliesBetween(range.fromMs - 1, range.toMs)
    .filter((anomaly) => anomaly.kind === family.kind)
    .map((anomaly) => alertAt(anomaly, context.nowMs))
    .filter((alert): alert is AlertState => alert !== undefined)
    .filter((alert) => inRange(alert.startMs) || inRange(alert.endMs))
    .filter((alert) => !severities || severities.has(alert.severity))
    .filter((alert) => !statuses || statuses.has(alert.status))
    .filter((alert) => !metrics || metrics.has(alert.anomaly.alertMetric))
    .sort((left, right) => byStart(left.startMs, right.startMs) || left.id.localeCompare(right.id))
    .map((alert) => ({
      ...describeAlert(family, alert),
      timeline: {
        start: { timestamp: alertTimestampOf(alert.startMs) },
        ...(alert.endMs === undefined ? {} : { end: { timestamp: alertTimestampOf(alert.endMs) } }),
      },
    }));
}

/** One alert with its detail timeline (spec 2.8); 404 for an id that names no alert of the family yet. */
function alertDetail(family: Family, context: RequestContext): AlertBody {
  requireFamily(family, context);
  new QueryReader(context.query, [], `GET ${BASE}/${family.segment}/{alert_id}`);
  const id = context.params.alert_id!;
  const startMs = startOfAlertId(id);
  const anomaly =
    startMs === undefined
      ? undefined
      : context.account.world
          .anomaliesBetween(startMs, startMs + 1000)
          .find((candidate) => candidate.kind === family.kind && alertIdOf(candidate) === id);
  const alert = anomaly && alertAt(anomaly, context.nowMs);
  if (!alert) throw notFound(`no ${family.kind} alert with id "${id}" in this account`, "alert_id");
  const lastMs = alert.checkpoints.at(-1)!.atMs;
  const sessions = context.account.sessions(family.kind, alert.startMs, lastMs, context.nowMs);
  return {
    ...describeAlert(family, alert),
    timeline: { start: { timestamp: alertTimestampOf(alert.startMs) }, ...measureCheckpoints(alert, sessions, context.nowMs) },
  };
}

/** The members shared by list items and the detail (spec 2.8), in the spec's order. */
function describeAlert(family: Family, alert: AlertState) {
  const { anomaly } = alert;
  return {
    id: alert.id,
    alert_type: family.kind,
    severity: alert.severity,
    alert_metric: { name: anomaly.alertMetric, description: alertMetricDefinition(anomaly.alertMetric).description },
    // The dimension is the snake_case filter name (spec 4.7), so it can be passed straight to a
    // metrics or sessions filter to drill down: `?cdn=<entity>`.
    root_causes: [{ entity: anomaly.entity, dimension: anomaly.dimension }],
    status: alert.status,
  };
}

/** Ad alerts need ad insights (spec 1: ad data needs the feature): 403 otherwise (emulator's choice). */
function requireFamily(family: Family, context: RequestContext): void {
  if (family.kind === "ad" && !context.account.config.features.adInsights) {
    throw featureDisabled("adInsights", "ad-metric AI alerts need ad insights, which this account does not have enabled");
  }
}
