import { AD_ALERT_METRICS, AlertDetail, AlertList, ALERT_SEVERITIES, ALERT_STATUSES, CONTENT_ALERT_METRICS } from "../schema";
import { ArgumentError, describeValue } from "./core/errors";
import { QueryFamily } from "./core/family";
import type { QueryParams } from "./core/request";
import { dedupeBy, splitIntoWindows } from "./core/split";
import { checkTimeRange, DAY_MS, type ExplicitRange, type RangePolicy, rangeQuery } from "./core/time-range";
import type { CallOptions } from "./core/transport";
import { checkChoiceList, checkKnownKeys } from "./core/validation";

/** Spec 4.9, 8: the longest range of one alert-list request. */
export const ALERT_WINDOW_MS = 30 * DAY_MS;

/** Spec 4.9: date, epoch-second or epoch-millisecond pairs only (no days, no minutes). */
const ALERT_POLICY: RangePolicy<"explicit"> = { family: "AI alerts", formats: ["explicit"] };

/** An alert severity (spec 2.8). */
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];
/** An alert status (spec 2.8). */
export type AlertStatus = (typeof ALERT_STATUSES)[number];
/** A content-alert metric (spec 4.9). */
export type ContentAlertMetric = (typeof CONTENT_ALERT_METRICS)[number];
/** An ad-alert metric (spec 4.9). */
export type AdAlertMetric = (typeof AD_ALERT_METRICS)[number];

/** Arguments of the alert lists (spec 4.9). */
export interface AlertListParams<Metric extends string> {
  /** Alerts with a status change inside the range; any length (split into 30-day windows). */
  range?: ExplicitRange;
  /** Default all three. */
  severity?: readonly AlertSeverity[];
  /** Default both. */
  status?: readonly AlertStatus[];
  /** Default all of the kind. */
  alertMetric?: readonly Metric[];
}

/** Arguments of an alert detail. */
export interface AlertDetailParams {
  /** The alert's id, as the lists answer it. */
  alertId: string;
}

const LIST_KEYS = ["range", "severity", "status", "alertMetric"];

const KINDS = {
  content: { path: "/insights/2.6/ai-alerts/content-metrics", metrics: CONTENT_ALERT_METRICS },
  ad: { path: "/insights/2.6/ai-alerts/ad-metrics", metrics: AD_ALERT_METRICS },
} as const;

/**
 * The AI alerts API family (spec 4.9): lists of content and ad alerts with every filter, and the
 * detail of one alert. A range over 30 days (spec 8) is fetched as 30-day windows in parallel and
 * merged; an alert whose status changed in several windows is listed once, as the latest window
 * reports it, and the merged list is ordered as one answer is: newest start first (then by id).
 */
export class AlertsApi extends QueryFamily {
  /** Alerts on content metrics (spec 4.9 `GET /insights/2.6/ai-alerts/content-metrics`). */
  async listContent(params: AlertListParams<ContentAlertMetric> = {}, requestOptions?: CallOptions): Promise<AlertList> {
    return this.list("content", params, requestOptions);
  }

  /** Alerts on ad metrics (spec 4.9 `GET /insights/2.6/ai-alerts/ad-metrics`). */
  async listAd(params: AlertListParams<AdAlertMetric> = {}, requestOptions?: CallOptions): Promise<AlertList> {
    return this.list("ad", params, requestOptions);
  }

  /** One content alert with its timeline (spec 4.9, 2.8). */
  async getContent(params: AlertDetailParams, requestOptions?: CallOptions): Promise<AlertDetail> {
    return this.detail("content", params, requestOptions);
  }

  /** One ad alert with its timeline (spec 4.9, 2.8). */
  async getAd(params: AlertDetailParams, requestOptions?: CallOptions): Promise<AlertDetail> {
    return this.detail("ad", params, requestOptions);
  }

  private async list(kind: keyof typeof KINDS, params: AlertListParams<string>, requestOptions: CallOptions | undefined): Promise<AlertList> {
    checkKnownKeys(params, LIST_KEYS);
    const { path, metrics } = KINDS[kind];
    // Spec 4.9: the filters are comma-separated lists.
    const list = <Choice extends string>(values: unknown, choices: readonly Choice[], name: string, noun: string) =>
      values === undefined ? undefined : checkChoiceList(values, choices, name, noun).join(",");
    const query: QueryParams = {
      severity: list(params.severity, ALERT_SEVERITIES, "severity", "severities"),
      status: list(params.status, ALERT_STATUSES, "status", "statuses"),
      alert_metric: list(params.alertMetric, metrics, "alertMetric", `${kind} alert metrics`),
    };
    if (params.range === undefined) return this.get(path, query, AlertList, requestOptions);
    const windows = splitIntoWindows(checkTimeRange(params.range, ALERT_POLICY), ALERT_WINDOW_MS);
    this.logSplit(path, "range longer than 30 days (spec 8)", windows.length, requestOptions);
    const parts = await Promise.all(windows.map((window) => this.get(path, { ...query, ...rangeQuery(window) }, AlertList, requestOptions)));
    const alerts = dedupeBy(parts.flatMap((part) => part.alerts), (alert) => alert.id);
    // One answer lists the newest start first; the merged list keeps that order across windows.
    return { alerts: alerts.sort((left, right) => right.timeline.start.timestamp.epoch_sec - left.timeline.start.timestamp.epoch_sec || left.id.localeCompare(right.id)) };
  }

  private async detail(kind: keyof typeof KINDS, params: AlertDetailParams, requestOptions: CallOptions | undefined): Promise<AlertDetail> {
    checkKnownKeys(params, ["alertId"]);
    if (typeof params.alertId !== "string" || params.alertId.length === 0) {
      throw new ArgumentError("alertId", `must be an alert id as listed, got ${describeValue(params.alertId)}`);
    }
    return this.get(`${KINDS[kind].path}/${encodeURIComponent(params.alertId)}`, {}, AlertDetail, requestOptions);
  }
}
