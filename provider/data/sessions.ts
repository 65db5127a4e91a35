import type * as pulumi from "@pulumi/pulumi";
import type { SampleSessionParams, ViewerSessionParams, ViewerSummaryParams } from "../client";
import type { SessionDimensionList, SessionList, ViewerSummary } from "../schema";
import { dataSource, type DataSourceArgs, type DataSourceOptions, type DataSourceOutputArgs, type DataSourceOutputOptions, type KnownFields, type NoArguments, personalDataSource } from "./define";

/**
 * Data sources of the sessions API (spec 4.2 to 4.5). Sessions carry viewer ids and IP addresses
 * (spec 2.2) and the viewer summary names its viewer (spec 2.3): their Output forms answer secrets.
 */

/** Arguments of {@link getContentSessions}: dimension filters, custom tags or a saved filter, a range of at most 3 hours, a `limit`. */
export type GetContentSessionsArgs = DataSourceArgs<SampleSessionParams>;
/** Arguments of {@link getContentSessionsOutput}: those of {@link getContentSessions}, each an `Input`. */
export type GetContentSessionsOutputArgs = DataSourceOutputArgs<SampleSessionParams>;
/** The answer of {@link getContentSessions}: the sampled sessions (spec 2.2), newest start first. */
export interface GetContentSessionsResult extends KnownFields<SessionList> {}

const contentSessions = personalDataSource("getContentSessions", (client, params: SampleSessionParams, options) => client.sessions.listContent(params, options));

/**
 * Samples of ended content sessions (spec 4.2): every dimension filter of spec 4.7, custom tags or
 * one saved filter (`filterId`), a range of at most 3 hours (default the latest 3 hours), `limit`
 * 1 to 500 (default 50; when more sessions match, which ones the sample holds is the service's
 * choice). `getContentSessionsOutput` answers a secret (viewer ids, IP addresses).
 *
 * @example
 * const { sessions } = await getContentSessions({ filters: { geo_country_code: "US", is_video_start_failure: true }, limit: 100 });
 * const failingAssets = [...new Set(sessions.map((session) => session.content_info.asset))];
 * export const sampled = getContentSessionsOutput({ filters: { asset: show.name } }).apply((list) => list.sessions.length);
 */
export function getContentSessions(args?: GetContentSessionsArgs, opts?: DataSourceOptions): Promise<GetContentSessionsResult> {
  return contentSessions.invoke(args, opts);
}

/** The Output form of {@link getContentSessions}: `Input`s in, an `Output` out (a secret: personal data). */
export function getContentSessionsOutput(args?: GetContentSessionsOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetContentSessionsResult> {
  return contentSessions.output(args, opts);
}

/** Arguments of {@link getAdSessions}: those of {@link getContentSessions}. */
export type GetAdSessionsArgs = DataSourceArgs<SampleSessionParams>;
/** Arguments of {@link getAdSessionsOutput}: those of {@link getAdSessions}, each an `Input`. */
export type GetAdSessionsOutputArgs = DataSourceOutputArgs<SampleSessionParams>;
/** The answer of {@link getAdSessions}: the sampled ad sessions (spec 2.2). */
export interface GetAdSessionsResult extends KnownFields<SessionList> {}

const adSessions = personalDataSource("getAdSessions", (client, params: SampleSessionParams, options) => client.sessions.listAd(params, options));

/**
 * Samples of ended ad sessions (spec 4.2; the account needs ad insights), with the arguments of
 * {@link getContentSessions}. `getAdSessionsOutput` answers a secret.
 */
export function getAdSessions(args?: GetAdSessionsArgs, opts?: DataSourceOptions): Promise<GetAdSessionsResult> {
  return adSessions.invoke(args, opts);
}

/** The Output form of {@link getAdSessions}: `Input`s in, an `Output` out (a secret: personal data). */
export function getAdSessionsOutput(args?: GetAdSessionsOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetAdSessionsResult> {
  return adSessions.output(args, opts);
}

/** Arguments of {@link getViewerSessions}: a `viewerId` or a `viewerIp`, a range or the last N days, a `limit`. */
export type GetViewerSessionsArgs = DataSourceArgs<ViewerSessionParams>;
/** Arguments of {@link getViewerSessionsOutput}: those of {@link getViewerSessions}, each an `Input`. */
export type GetViewerSessionsOutputArgs = DataSourceOutputArgs<ViewerSessionParams>;
/** The answer of {@link getViewerSessions}: the viewer's sessions, newest start first (spec 2.2). */
export interface GetViewerSessionsResult extends KnownFields<SessionList> {}

const viewerSessions = personalDataSource("getViewerSessions", (client, params: ViewerSessionParams, options) => client.sessions.listViewer(params, options));

/**
 * The content sessions of one viewer, ended and ongoing (spec 4.3; the account needs the viewer
 * module): by `viewerId` or `viewerIp`, a range or the last N days (default the last day). Without a
 * `limit` every session of the range is answered: the client splits the range past 500 per answer;
 * with one, the newest `limit` sessions, whatever order the service lists them in.
 * `getViewerSessionsOutput` answers a secret.
 *
 * @example
 * const { sessions } = await getViewerSessions({ viewerId: "viewer-42", range: { lastDays: 7 } });
 */
export function getViewerSessions(args: GetViewerSessionsArgs, opts?: DataSourceOptions): Promise<GetViewerSessionsResult> {
  return viewerSessions.invoke(args, opts);
}

/** The Output form of {@link getViewerSessions}: `Input`s in, an `Output` out (a secret: personal data). */
export function getViewerSessionsOutput(args: GetViewerSessionsOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetViewerSessionsResult> {
  return viewerSessions.output(args, opts);
}

/** Arguments of {@link getViewerSummary}: a `viewerId` or a `viewerIp`, and a range. */
export type GetViewerSummaryArgs = DataSourceArgs<ViewerSummaryParams>;
/** Arguments of {@link getViewerSummaryOutput}: those of {@link getViewerSummary}, each an `Input`. */
export type GetViewerSummaryOutputArgs = DataSourceOutputArgs<ViewerSummaryParams>;
/** The answer of {@link getViewerSummary}: the viewer's summary metrics (spec 2.3). */
export interface GetViewerSummaryResult extends KnownFields<ViewerSummary> {}

const viewerSummary = personalDataSource("getViewerSummary", (client, params: ViewerSummaryParams, options) => client.sessions.viewerSummary(params, options));

/** Summary metrics of one viewer (spec 4.4, 2.3), by `viewerId` or `viewerIp`. `getViewerSummaryOutput` answers a secret. */
export function getViewerSummary(args: GetViewerSummaryArgs, opts?: DataSourceOptions): Promise<GetViewerSummaryResult> {
  return viewerSummary.invoke(args, opts);
}

/** The Output form of {@link getViewerSummary}: `Input`s in, an `Output` out (a secret: personal data). */
export function getViewerSummaryOutput(args: GetViewerSummaryOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetViewerSummaryResult> {
  return viewerSummary.output(args, opts);
}

/** Arguments of {@link getSessionDimensions}: none but the account. */
export type GetSessionDimensionsArgs = DataSourceArgs<NoArguments>;
/** Arguments of {@link getSessionDimensionsOutput}: those of {@link getSessionDimensions}, each an `Input`. */
export type GetSessionDimensionsOutputArgs = DataSourceOutputArgs<NoArguments>;
/** The answer of {@link getSessionDimensions}: the dimensions (spec 2.5). */
export interface GetSessionDimensionsResult extends KnownFields<SessionDimensionList> {}

const sessionDimensions = dataSource("getSessionDimensions", (client, params: NoArguments, options) => client.sessions.dimensions(params, options));

/**
 * The sessions dimension lookup (spec 4.5, 2.5): the filters the account can use on sample
 * sessions, custom tags included (`is_custom`).
 */
export function getSessionDimensions(args?: GetSessionDimensionsArgs, opts?: DataSourceOptions): Promise<GetSessionDimensionsResult> {
  return sessionDimensions.invoke(args, opts);
}

/** The Output form of {@link getSessionDimensions}: `Input`s in, an `Output` out. */
export function getSessionDimensionsOutput(args?: GetSessionDimensionsOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetSessionDimensionsResult> {
  return sessionDimensions.output(args, opts);
}
