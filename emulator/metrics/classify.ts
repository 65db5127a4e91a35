import type { SessionRecord } from "../world/types";
import type { KpiSet } from "./kpis";

/**
 * How a session counts in the metrics (spec 4.6; the definitions are the emulator's choice where the
 * spec does not show them, written down in emulator/README.md). Exported so that every endpoint that
 * summarises sessions (metrics, the viewer summary) classifies them the same way.
 */

/** What a classification depends on besides the session: the request's "now" and KPI set. */
export interface MetricContext {
  nowMs: number;
  kpi: KpiSet;
}

/** A yes/no question about a session. */
export type SessionTest = (session: SessionRecord, context: MetricContext) => boolean;

/**
 * The part of a {@link MetricContext} that the failure tests need: only "now". Filters and error
 * codes have no KPI set, yet must count failures exactly as the metrics do.
 */
export type ClockContext = Pick<MetricContext, "nowMs">;

/** A question about a session that depends on "now" alone; usable wherever a {@link SessionTest} is. */
export type ClockTest = (session: SessionRecord, context: ClockContext) => boolean;

/** The cause of a start or playback failure (world/types.ts). */
export type FailureKind = NonNullable<SessionRecord["videoStartFailure"]>;

/** A session that started playing video: neither an exit before video start nor a start failure. */
export const isPlay: SessionTest = (session) => !session.exitBeforeVideoStart && session.videoStartFailure === undefined;

/** A session that has ended by now; a session ending later is still ongoing. */
export const isEnded: ClockTest = (session, context) => session.endMs <= context.nowMs;

/** A play that has ended by now. */
export const isEndedPlay: SessionTest = (session, context) => isPlay(session, context) && isEnded(session, context);

/** An exit before video start (the viewer left before the first frame). */
export const isExitBeforeVideoStart: SessionTest = (session) => session.exitBeforeVideoStart;

/** A video start failure of any cause. */
export const isVideoStartFailure: ClockTest = (session) => session.videoStartFailure !== undefined;

/** A video start failure of one cause (business or tech). */
export function isVideoStartFailureOf(kind: FailureKind): ClockTest {
  return (session) => session.videoStartFailure === kind;
}

/**
 * A video playback failure. The failure ends the session, so it counts only once the session has
 * ended by now: an ongoing session has not failed yet.
 */
export const isVideoPlaybackFailure: ClockTest = (session, context) =>
  session.videoPlaybackFailure !== undefined && isEnded(session, context);

/** A video playback failure of one cause (business or tech), once ended like {@link isVideoPlaybackFailure}. */
export function isVideoPlaybackFailureOf(kind: FailureKind): ClockTest {
  return (session, context) => session.videoPlaybackFailure === kind && isEnded(session, context);
}

/**
 * How much of a session's life has happened by now, from 0 to 1. Lifetime values of a session are
 * its values at its end (world/types.ts), so an ongoing session contributes this share of them.
 */
export function progress(session: SessionRecord, nowMs: number): number {
  if (session.endMs <= nowMs) return 1;
  const length = session.endMs - session.startMs;
  return length <= 0 ? 1 : Math.min(1, Math.max(0, (nowMs - session.startMs) / length));
}

/** Playing time by now, in milliseconds. */
export function playingTimeMs(session: SessionRecord, nowMs: number): number {
  return session.playingTimeMs * progress(session, nowMs);
}

/** The session's rebuffering ratio in percent: rebuffering / (playing + rebuffering) × 100. */
export function rebufferingRatioPercent(session: SessionRecord): number {
  const denominator = session.playingTimeMs + session.rebufferingTimeMs;
  return denominator > 0 ? (session.rebufferingTimeMs / denominator) * 100 : 0;
}

/** A play whose rebuffering ratio is above the KPI set's threshold. */
export const isHighRebuffering: SessionTest = (session, context) =>
  isPlay(session, context) && rebufferingRatioPercent(session) > context.kpi.rebufferingRatioPercent;

/** A play whose video start time is above the KPI set's threshold. */
export const isHighStartupTime: SessionTest = (session, context) =>
  isPlay(session, context) && session.videoStartTimeMs > context.kpi.startupTimeMs;

/** A play whose average bitrate is below the KPI set's threshold. */
export const isLowBitrate: SessionTest = (session, context) =>
  isPlay(session, context) && session.averageBitrateBps < context.kpi.bitrateBps;

/**
 * A bad session: a start failure, a playback failure, or a play that misses a KPI (high
 * rebuffering, high startup time, low bitrate). Exits before video start are the viewer's choice
 * and neither good nor bad.
 */
export const isBadSession: SessionTest = (session, context) =>
  isVideoStartFailure(session, context) ||
  isVideoPlaybackFailure(session, context) ||
  isHighRebuffering(session, context) ||
  isHighStartupTime(session, context) ||
  isLowBitrate(session, context);

/** A good session: a play that is not bad. */
export const isGoodSession: SessionTest = (session, context) => isPlay(session, context) && !isBadSession(session, context);

/** A stream the streaming performance index counts: every attempt except exits before video start. */
export const isSpiStream: SessionTest = (session) => !session.exitBeforeVideoStart;

/**
 * Abandonment: an exit before video start after the viewer waited longer than the KPI set's
 * startup-time threshold (a quick click-away is an exit, not an abandonment).
 */
export const isAbandonment: SessionTest = (session, context) =>
  session.exitBeforeVideoStart && session.endMs - session.startMs > context.kpi.startupTimeMs;

/** An ad that is a slate (filler) rather than a creative: its `ad_is_slate` dimension is "true". */
export const isSlate: SessionTest = (session) => session.dimensions["ad_is_slate"] === "true";

/** Percentage complete at or above which an ad creative counts as completed. */
export const COMPLETED_CREATIVE_PERCENT = 99;

/** Percentage complete below which an ended play ended early (for CIR-related exits). */
export const EARLY_EXIT_PERCENT = 95;

/** The session's connection-induced rebuffering ratio in percent, as {@link rebufferingRatioPercent}. */
export function connectionInducedRebufferingRatioPercent(session: SessionRecord): number {
  const denominator = session.playingTimeMs + session.rebufferingTimeMs;
  return denominator > 0 ? (session.connectionInducedRebufferingTimeMs / denominator) * 100 : 0;
}

/** Both tests at once. */
export function both(first: SessionTest, second: SessionTest): SessionTest {
  return (session, context) => first(session, context) && second(session, context);
}

/** The opposite of a test. */
export function not(test: SessionTest): SessionTest {
  return (session, context) => !test(session, context);
}

/** Sessions with a pre-roll ad; the world models ads of content sessions as a pre-roll. */
export const hasPreRoll: SessionTest = (session) => session.hasPreRoll;

