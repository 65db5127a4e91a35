import { z } from "zod";
import { AD_ALERT_METRICS, AlertDetail, AlertList, ALERT_SEVERITIES, ALERT_STATUSES, CONTENT_ALERT_METRICS } from "../schema";
import { typeScriptType } from "../schema/meta";
import { describeValue } from "./core/errors";
import { QueryFamily } from "./core/family";
import type { QueryParams } from "./core/request";
import { dedupeBy, splitIntoWindows } from "./core/split";
import { DAY_MS, type RangePolicy, rangeQuery, timeRange } from "./core/time-range";
import type { CallOptions } from "./core/transport";
import { parseParams, zChoiceList, zText } from "./core/validation";
import type * as params from "./params";

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
export type AlertListParams<Metric extends string> = params.AlertListParams<Metric>;
/** Arguments of an alert detail. */
export type AlertDetailParams = params.AlertDetailParams;

/**
 * The params of the list of `kind` alerts, whose metrics are `metrics`, answered as the query
 * (spec 4.9: comma-separated lists) and the range.
 */
function alertListParams<const Metrics extends readonly string[]>(kind: string, metrics: Metrics) {
  return z
    .strictObject({
      range: timeRange(ALERT_POLICY).optional().describe("Alerts with a status change inside the range; any length (split into 30-day windows)."),
      severity: zChoiceList(ALERT_SEVERITIES, "severities").optional().describe("Default all three."),
      status: zChoiceList(ALERT_STATUSES, "statuses").optional().describe("Default both."),
      alertMetric: typeScriptType(zChoiceList(metrics, `${kind} alert metrics`), "readonly Metric[]").optional().describe("Default all of the kind."),
    })
    .transform(({ range, severity, status, alertMetric }) => ({
      range,
      query: { severity: severity?.join(","), status: status?.join(","), alert_metric: alertMetric?.join(",") } satisfies QueryParams,
    }))
    .describe("Arguments of the alert lists (spec 4.9).");
}

/** @internal The zod schemas of the params of the AI alerts family (spec 4.9). */
export const ALERT_PARAMS = {
  content: alertListParams("content", CONTENT_ALERT_METRICS),
  ad: alertListParams("ad", AD_ALERT_METRICS),
  AlertDetailParams: z
    .strictObject({ alertId: zText((given) => `must be an alert id as listed, got ${describeValue(given)}`).describe("The alert's id, as the lists answer it.") })
    .describe("Arguments of an alert detail."),
};

/** The path of each kind of alerts (spec 4.9). */
const PATHS = {
  content: "/insights/2.6/ai-alerts/content-metrics",
  ad: "/insights/2.6/ai-alerts/ad-metrics",
} as const;

/**
 * The AI alerts API family (spec 4.9): lists of content and ad alerts with every filter, and the
 * detail of one alert. A range over 30 days (spec 8) is fetched as 30-day windows in parallel and
 * merged; an alert whose status changed in several windows is listed once, as the latest window
 * reports it. Every list is newest start first, then by id, whatever order the service answers in
 * (schema/assumptions.ts `SESSION_AND_ALERT_ORDER_RULE`).
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

  private async list(kind: keyof typeof PATHS, params: AlertListParams<string>, requestOptions: CallOptions | undefined): Promise<AlertList> {
    const { range, query } = parseParams(ALERT_PARAMS[kind], params);
    const path = PATHS[kind];
    if (range === undefined) return inNewestFirstOrder(await this.get(path, query, AlertList, requestOptions));
    const windows = splitIntoWindows(range, ALERT_WINDOW_MS);
    this.logSplit(path, "range longer than 30 days (spec 8)", windows.length, requestOptions);
    const parts = await Promise.all(windows.map((window) => this.get(path, { ...query, ...rangeQuery(window) }, AlertList, requestOptions)));
    return inNewestFirstOrder({ alerts: dedupeBy(parts.flatMap((part) => part.alerts), (alert) => alert.id) });
  }

  private async detail(kind: keyof typeof PATHS, params: AlertDetailParams, requestOptions: CallOptions | undefined): Promise<AlertDetail> {
    const { alertId } = parseParams(ALERT_PARAMS.AlertDetailParams, params);
    return this.get(`${PATHS[kind]}/${encodeURIComponent(alertId)}`, {}, AlertDetail, requestOptions);
  }
}

/** The alerts newest start first, then by id (schema/assumptions.ts `SESSION_AND_ALERT_ORDER_RULE`). */
function inNewestFirstOrder(list: AlertList): AlertList {
  const alerts = [...list.alerts].sort((left, right) => right.timeline.start.timestamp.epoch_sec - left.timeline.start.timestamp.epoch_sec || left.id.localeCompare(right.id));
  return { ...list, alerts };
}
