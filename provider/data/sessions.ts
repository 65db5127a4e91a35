import type { SampleSessionParams, ViewerSessionParams, ViewerSummaryParams } from "../client";
import { dataSource, type NoArguments, personalDataSource } from "./define";

/**
 * Data sources of the sessions API (spec 4.2 to 4.5). Sessions carry viewer ids and IP addresses
 * (spec 2.2) and the viewer summary names its viewer (spec 2.3): their Output forms answer secrets.
 */

export const {
  /**
   * Samples of ended content sessions (spec 4.2): every dimension filter of spec 4.7, custom tags or
   * one saved filter (`filterId`), a range of at most 3 hours (default the latest 3 hours), `limit`
   * 1 to 500 (default 50). `getContentSessionsOutput` answers a secret (viewer ids, IP addresses).
   *
   * @example
   * const { sessions } = await getContentSessions({ filters: { geo_country_code: "US", is_video_start_failure: true }, limit: 100 });
   * const failingAssets = [...new Set(sessions.map((session) => session.content_info.asset))];
   * export const sampled = getContentSessionsOutput({ filters: { asset: show.name } }).apply((list) => list.sessions.length);
   *
   * @function
   */
  getContentSessions,
  /**
   * The Output form of {@link getContentSessions}: `Input`s in, an `Output` out (a secret: personal data).
   *
   * @function
   */
  getContentSessionsOutput,
} = personalDataSource("ContentSessions", (client, params: SampleSessionParams, options) => client.sessions.listContent(params, options));

export const {
  /**
   * Samples of ended ad sessions (spec 4.2; the account needs ad insights), with the arguments of
   * {@link getContentSessions}. `getAdSessionsOutput` answers a secret.
   *
   * @function
   */
  getAdSessions,
  /**
   * The Output form of {@link getAdSessions}: `Input`s in, an `Output` out (a secret: personal data).
   *
   * @function
   */
  getAdSessionsOutput,
} = personalDataSource("AdSessions", (client, params: SampleSessionParams, options) => client.sessions.listAd(params, options));

export const {
  /**
   * The content sessions of one viewer, ended and ongoing (spec 4.3; the account needs the viewer
   * module): by `viewerId` or `viewerIp`, a range or the last N days (default the last day). Without a
   * `limit` every session of the range is answered: the client splits the range past 500 per answer.
   * `getViewerSessionsOutput` answers a secret.
   *
   * @example
   * const { sessions } = await getViewerSessions({ viewerId: "viewer-42", range: { lastDays: 7 } });
   *
   * @function
   */
  getViewerSessions,
  /**
   * The Output form of {@link getViewerSessions}: `Input`s in, an `Output` out (a secret: personal data).
   *
   * @function
   */
  getViewerSessionsOutput,
} = personalDataSource("ViewerSessions", (client, params: ViewerSessionParams, options) => client.sessions.listViewer(params, options));

export const {
  /**
   * Summary metrics of one viewer (spec 4.4, 2.3), by `viewerId` or `viewerIp`. `getViewerSummaryOutput` answers a secret.
   *
   * @function
   */
  getViewerSummary,
  /**
   * The Output form of {@link getViewerSummary}: `Input`s in, an `Output` out (a secret: personal data).
   *
   * @function
   */
  getViewerSummaryOutput,
} = personalDataSource("ViewerSummary", (client, params: ViewerSummaryParams, options) => client.sessions.viewerSummary(params, options));

export const {
  /**
   * The sessions dimension lookup (spec 4.5, 2.5): the filters the account can use on sample
   * sessions, custom tags included (`is_custom`).
   *
   * @function
   */
  getSessionDimensions,
  /**
   * The Output form of {@link getSessionDimensions}: `Input`s in, an `Output` out.
   *
   * @function
   */
  getSessionDimensionsOutput,
} = dataSource("SessionDimensions", (client, params: NoArguments, options) => client.sessions.dimensions(params, options));
