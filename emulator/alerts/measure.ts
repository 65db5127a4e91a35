import type { AlertTimelinePoint } from "../contract/alerts";
import { wireAlertTimestamp as alertTimestampOf } from "../text/wire";
import { DEFAULT_KPI_SET } from "../metrics/kpis";
import type { SessionRecord } from "../world";
import { alertMetricDefinition } from "./metrics";
import type { AlertCheckpointName, AlertState } from "./timeline";

/**
 * The values of a detail timeline's points (spec 2.8), computed from the real sessions of the
 * alert's root-cause group (the sessions whose root-cause dimension has the root-cause entity), so
 * they agree with the sessions and metrics endpoints:
 * - `metric_value`: the alert metric over the group's sessions since the alert began;
 * - `impacted_uniques` / `total_uniques`: distinct impacted / all viewers of the group's sessions
 *   that started since the previous point (since the start for the first point);
 * - `cumulative_impacted_uniques` / `cumulative_total_uniques` / `cumulative_sessions`: the same
 *   since the alert began.
 *
 * `sessions` are the account's sessions of the alert's kind that started in [start, last point).
 * They are judged as they stand at the request's `nowMs`, with the default KPI set (spec 2.6), like
 * a metrics request made at the same time.
 */
export function measureCheckpoints(
  alert: AlertState,
  sessions: readonly SessionRecord[],
  nowMs: number,
): Partial<Record<AlertCheckpointName, AlertTimelinePoint>> {
  const { anomaly } = alert;
  const definition = alertMetricDefinition(anomaly.alertMetric);
  const context = { nowMs, kpi: DEFAULT_KPI_SET };
  const impacted = (session: SessionRecord) => definition.impacted(session, context);
  const group = sessions
    .filter((session) => session.dimensions[anomaly.dimension] === anomaly.entity)
    .sort((left, right) => left.startMs - right.startMs);
  const points: Partial<Record<AlertCheckpointName, AlertTimelinePoint>> = {};
  let previousMs = alert.startMs;
  for (const checkpoint of alert.checkpoints) {
    const cumulative = group.slice(0, countStartedBefore(group, checkpoint.atMs));
    const interval = cumulative.filter((session) => session.startMs >= previousMs);
    points[checkpoint.name] = {
      metric_value: definition.value(cumulative, checkpoint.atMs, context),
      impacted_uniques: uniqueViewers(interval.filter(impacted)),
      cumulative_impacted_uniques: uniqueViewers(cumulative.filter(impacted)),
      cumulative_sessions: cumulative.length,
      total_uniques: uniqueViewers(interval),
      cumulative_total_uniques: uniqueViewers(cumulative),
      timestamp: alertTimestampOf(checkpoint.atMs),
    };
    previousMs = checkpoint.atMs;
  }
  return points;
}

function uniqueViewers(sessions: readonly SessionRecord[]): number {
  return new Set(sessions.map((session) => session.viewerId)).size;
}

/** How many sessions of a list sorted by start started before `atMs` (binary search). */
function countStartedBefore(sessions: readonly SessionRecord[], atMs: number): number {
  let low = 0;
  let high = sessions.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sessions[middle]!.startMs < atMs) low = middle + 1;
    else high = middle;
  }
  return low;
}
