/**
 * The AI-alert vocabulary and bodies as the emulator reads the contract (docs/api.md 2.8, 4.9).
 */

/** Alert metrics of content alerts (docs/api.md 4.9). */
export const CONTENT_ALERT_METRICS = ["BUFFERINGRATIO", "EBVS", "PCP", "VPF", "VSF", "VST"] as const;
/** Alert metrics of ad alerts (docs/api.md 4.9). */
export const AD_ALERT_METRICS = ["BITRATE", "BUFFERINGRATIO", "VSF"] as const;
/** Severities, rising (docs/api.md 2.8). */
export const ALERT_SEVERITIES = ["info", "warning", "critical"] as const;
/** Statuses (docs/api.md 2.8). */
export const ALERT_STATUSES = ["active", "ended"] as const;

/** `{epoch_sec, iso_date}` of alert timelines. */
export interface AlertTimestamp {
  epoch_sec: number;
  iso_date: string;
}

/** A point of a detail timeline other than start (docs/api.md 2.8). */
export interface AlertTimelinePoint {
  metric_value: number;
  impacted_uniques: number;
  cumulative_impacted_uniques: number;
  cumulative_sessions: number;
  total_uniques: number;
  cumulative_total_uniques: number;
  timestamp: AlertTimestamp;
}

/** The members of an alert shared by list items and the detail (docs/api.md 2.8). */
export interface AlertBody {
  id: string;
  alert_type: string;
  severity: (typeof ALERT_SEVERITIES)[number];
  alert_metric: { name: string; description: string };
  root_causes: Array<{ entity: string; dimension: string }>;
  status: (typeof ALERT_STATUSES)[number];
  timeline: Record<string, { timestamp: AlertTimestamp } | AlertTimelinePoint>;
}
