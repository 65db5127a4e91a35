import type * as pulumi from "@pulumi/pulumi";
import type { AdAlertMetric, AlertDetailParams, AlertListParams, ContentAlertMetric } from "../client";
import type { AlertDetail, AlertList } from "../schema";
import { dataSource, type DataSourceArgs, type DataSourceOptions, type DataSourceOutputArgs, type DataSourceOutputOptions, type KnownFields } from "./define";

/**
 * Data sources of the AI alerts API (spec 4.9, 2.8): lists with every filter (any range: the client
 * fetches 30-day windows and merges them) and single alerts with their timelines.
 */

/** Arguments of {@link getContentAlerts}: a range, `severity`, `status` and `alertMetric`. */
export type GetContentAlertsArgs = DataSourceArgs<AlertListParams<ContentAlertMetric>>;
/** Arguments of {@link getContentAlertsOutput}: those of {@link getContentAlerts}, each an `Input`. */
export type GetContentAlertsOutputArgs = DataSourceOutputArgs<AlertListParams<ContentAlertMetric>>;
/** The answer of {@link getContentAlerts}: the alerts (spec 2.8). */
export interface GetContentAlertsResult extends KnownFields<AlertList> {}

const contentAlerts = dataSource("getContentAlerts", (client, params: AlertListParams<ContentAlertMetric>, options) => client.alerts.listContent(params, options));

/**
 * Alerts on content metrics (spec 4.9) whose status changed in the range, filtered by `severity`,
 * `status` and `alertMetric` (BUFFERINGRATIO, EBVS, PCP, VPF, VSF, VST).
 *
 * @example
 * // What a pipeline reports: the critical alerts that are still active.
 * export const activeCritical = getContentAlertsOutput({ severity: ["critical"], status: ["active"] })
 *   .apply(({ alerts }) => alerts.map((alert) => `${alert.alert_metric.name}: ${alert.root_causes.map((cause) => cause.entity).join(", ")}`));
 */
export function getContentAlerts(args?: GetContentAlertsArgs, opts?: DataSourceOptions): Promise<GetContentAlertsResult> {
  return contentAlerts.invoke(args, opts);
}

/** The Output form of {@link getContentAlerts}: `Input`s in, an `Output` out. */
export function getContentAlertsOutput(args?: GetContentAlertsOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetContentAlertsResult> {
  return contentAlerts.output(args, opts);
}

/** Arguments of {@link getAdAlerts}: those of {@link getContentAlerts}, with the ad metrics. */
export type GetAdAlertsArgs = DataSourceArgs<AlertListParams<AdAlertMetric>>;
/** Arguments of {@link getAdAlertsOutput}: those of {@link getAdAlerts}, each an `Input`. */
export type GetAdAlertsOutputArgs = DataSourceOutputArgs<AlertListParams<AdAlertMetric>>;
/** The answer of {@link getAdAlerts}: the alerts (spec 2.8). */
export interface GetAdAlertsResult extends KnownFields<AlertList> {}

const adAlerts = dataSource("getAdAlerts", (client, params: AlertListParams<AdAlertMetric>, options) => client.alerts.listAd(params, options));

/** Alerts on ad metrics (spec 4.9), with the filters of {@link getContentAlerts} (`alertMetric`: BITRATE, BUFFERINGRATIO, VSF). */
export function getAdAlerts(args?: GetAdAlertsArgs, opts?: DataSourceOptions): Promise<GetAdAlertsResult> {
  return adAlerts.invoke(args, opts);
}

/** The Output form of {@link getAdAlerts}: `Input`s in, an `Output` out. */
export function getAdAlertsOutput(args?: GetAdAlertsOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetAdAlertsResult> {
  return adAlerts.output(args, opts);
}

/** Arguments of {@link getContentAlert}: the alert's `alertId`. */
export type GetContentAlertArgs = DataSourceArgs<AlertDetailParams>;
/** Arguments of {@link getContentAlertOutput}: those of {@link getContentAlert}, each an `Input`. */
export type GetContentAlertOutputArgs = DataSourceOutputArgs<AlertDetailParams>;
/** The answer of {@link getContentAlert}: the alert with its timeline (spec 2.8). */
export interface GetContentAlertResult extends KnownFields<AlertDetail> {}

const contentAlert = dataSource("getContentAlert", (client, params: AlertDetailParams, options) => client.alerts.getContent(params, options));

/**
 * One content alert with its timeline (spec 2.8: start, and info, warning, critical and end as
 * reached, each with the metric value and the impacted uniques). An unknown id is a `NotFoundError`.
 *
 * @example
 * const alert = await getContentAlert({ alertId: "a1b2c3" });
 * const peak = alert.timeline.critical?.metric_value;
 */
export function getContentAlert(args: GetContentAlertArgs, opts?: DataSourceOptions): Promise<GetContentAlertResult> {
  return contentAlert.invoke(args, opts);
}

/** The Output form of {@link getContentAlert}: `Input`s in, an `Output` out. */
export function getContentAlertOutput(args: GetContentAlertOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetContentAlertResult> {
  return contentAlert.output(args, opts);
}

/** Arguments of {@link getAdAlert}: the alert's `alertId`. */
export type GetAdAlertArgs = DataSourceArgs<AlertDetailParams>;
/** Arguments of {@link getAdAlertOutput}: those of {@link getAdAlert}, each an `Input`. */
export type GetAdAlertOutputArgs = DataSourceOutputArgs<AlertDetailParams>;
/** The answer of {@link getAdAlert}: the alert with its timeline (spec 2.8). */
export interface GetAdAlertResult extends KnownFields<AlertDetail> {}

const adAlert = dataSource("getAdAlert", (client, params: AlertDetailParams, options) => client.alerts.getAd(params, options));

/** One ad alert with its timeline (spec 4.9, 2.8). An unknown id is a `NotFoundError`. */
export function getAdAlert(args: GetAdAlertArgs, opts?: DataSourceOptions): Promise<GetAdAlertResult> {
  return adAlert.invoke(args, opts);
}

/** The Output form of {@link getAdAlert}: `Input`s in, an `Output` out. */
export function getAdAlertOutput(args: GetAdAlertOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetAdAlertResult> {
  return adAlert.output(args, opts);
}
