import type { AdAlertMetric, AlertDetailParams, AlertListParams, ContentAlertMetric } from "../client";
import { dataSource } from "./define";

/**
 * Data sources of the AI alerts API (spec 4.9, 2.8): lists with every filter (any range: the client
 * fetches 30-day windows and merges them) and single alerts with their timelines.
 */

export const {
  /**
   * Alerts on content metrics (spec 4.9) whose status changed in the range, filtered by `severity`,
   * `status` and `alertMetric` (BUFFERINGRATIO, EBVS, PCP, VPF, VSF, VST).
   *
   * @example
   * // What a pipeline reports: the critical alerts that are still active.
   * export const activeCritical = getContentAlertsOutput({ severity: ["critical"], status: ["active"] })
   *   .apply(({ alerts }) => alerts.map((alert) => `${alert.alert_metric.name}: ${alert.root_causes.map((cause) => cause.entity).join(", ")}`));
   *
   * @function
   */
  getContentAlerts,
  /**
   * The Output form of {@link getContentAlerts}: `Input`s in, an `Output` out.
   *
   * @function
   */
  getContentAlertsOutput,
} = dataSource("ContentAlerts", (client, params: AlertListParams<ContentAlertMetric>, options) => client.alerts.listContent(params, options));

export const {
  /**
   * Alerts on ad metrics (spec 4.9), with the filters of {@link getContentAlerts} (`alertMetric`: BITRATE, BUFFERINGRATIO, VSF).
   *
   * @function
   */
  getAdAlerts,
  /**
   * The Output form of {@link getAdAlerts}: `Input`s in, an `Output` out.
   *
   * @function
   */
  getAdAlertsOutput,
} = dataSource("AdAlerts", (client, params: AlertListParams<AdAlertMetric>, options) => client.alerts.listAd(params, options));

export const {
  /**
   * One content alert with its timeline (spec 2.8: start, and info, warning, critical and end as
   * reached, each with the metric value and the impacted uniques). An unknown id is a `NotFoundError`.
   *
   * @example
   * const alert = await getContentAlert({ alertId: "a1b2c3" });
   * const peak = alert.timeline.critical?.metric_value;
   *
   * @function
   */
  getContentAlert,
  /**
   * The Output form of {@link getContentAlert}: `Input`s in, an `Output` out.
   *
   * @function
   */
  getContentAlertOutput,
} = dataSource("ContentAlert", (client, params: AlertDetailParams, options) => client.alerts.getContent(params, options));

export const {
  /**
   * One ad alert with its timeline (spec 4.9, 2.8). An unknown id is a `NotFoundError`.
   *
   * @function
   */
  getAdAlert,
  /**
   * The Output form of {@link getAdAlert}: `Input`s in, an `Output` out.
   *
   * @function
   */
  getAdAlertOutput,
} = dataSource("AdAlert", (client, params: AlertDetailParams, options) => client.alerts.getAd(params, options));
