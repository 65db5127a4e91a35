import type { MetricName, ValueField } from "../contract/metrics";
import type { SessionKind } from "../world/types";
import {
  both, COMPLETED_CREATIVE_PERCENT, connectionInducedRebufferingRatioPercent, EARLY_EXIT_PERCENT, hasPreRoll,
  isAbandonment, isBadSession, isEndedPlay, isExitBeforeVideoStart, isGoodSession, isHighRebuffering,
  isHighStartupTime, isLowBitrate, isPlay, isSlate, isSpiStream, isVideoPlaybackFailure, isVideoPlaybackFailureOf,
  isVideoStartFailure, isVideoStartFailureOf, not, playingTimeMs, progress, type SessionTest,
} from "./classify";
import {
  countOf, devicesOf, overlapOf, peakOf, sumOf, viewersOf, type CellValues, type SessionQuantity, type Term,
} from "./terms";
import { MINUTE_MS } from "../time";

/**
 * What every metric of spec 4.6 means: which sessions it reads (content or ad), its accumulators and
 * how its value fields (docs/api.md 10.4, emulator/contract/metrics.ts) come out of them. The spec shows the
 * names only; these definitions are the emulator's choice and emulator/README.md lists them.
 *
 * Attribution: a session counts in the interval in which it started (so the attempts of an hour are
 * the sessions that started in it, as the sessions endpoints show them), except interval-minutes-played
 * and the concurrent plays, which measure what happened inside each interval.
 */

/**
 * A member's value object: some of the value fields of docs/api.md 10.4. `null` is a ratio, a
 * percentage or a mean whose denominator is empty (no attempts, no plays): the answer writes it as
 * its dialect does (emulator/dialect.ts `emptyRatio`).
 */
export type MemberValue = Partial<Record<ValueField, number | null>>;

/** One metric's computation. */
export interface MetricDefinition {
  /** Content sessions, or ad sessions (ad metrics need ad insights). */
  source: SessionKind;
  terms: readonly Term[];
  /**
   * The member's value. `base` is the cell that rate denominators come from: the same cell, except
   * for error-code groups, which hold only failed sessions and take denominators from all traffic.
   */
  finalize(cell: CellValues, base: CellValues): MemberValue;
}

const everySession: SessionTest = () => true;

/** A count of sessions, under `count` unless told otherwise. */
function counted(source: SessionKind, test: SessionTest, field: "count" | "value" = "count"): MetricDefinition {
  const count = countOf(source, test);
  return { source, terms: [count], finalize: (cell) => ({ [field]: integer(cell.sum(count)) }) };
}

/** A count and its percentage of a population: count / population × 100. */
function rated(source: SessionKind, test: SessionTest, population: SessionTest): MetricDefinition {
  const count = countOf(source, test);
  const of = countOf(source, population);
  return {
    source,
    terms: [count, of],
    finalize: (cell, base) => ({ count: integer(cell.sum(count)), percentage: percent(cell.sum(count), base.sum(of)) }),
  };
}

/** Distinct devices (client ids) or viewers of sessions passing `test`. */
function uniques(source: SessionKind, test: SessionTest, of: "devices" | "viewers"): MetricDefinition {
  const term = of === "devices" ? devicesOf(source, test) : viewersOf(source, test);
  return { source, terms: [term], finalize: (cell) => ({ count: integer(cell.distinct(term)) }) };
}

/** Distinct devices or viewers passing `test`, and their percentage of those of `population`. */
function ratedUniques(source: SessionKind, test: SessionTest, population: SessionTest, of: "devices" | "viewers"): MetricDefinition {
  const read = of === "devices" ? devicesOf : viewersOf;
  const term = read(source, test);
  const whole = read(source, population);
  return {
    source,
    terms: [term, whole],
    finalize: (cell, base) => ({ count: integer(cell.distinct(term)), percentage: percent(cell.distinct(term), base.distinct(whole)) }),
  };
}

/** A weighted mean of a per-session quantity over the sessions passing `test`, under `field`. */
function averaged(
  source: SessionKind,
  field: "value" | "bps" | "fps" | "percentage",
  test: SessionTest,
  quantity: SessionQuantity,
  weight?: SessionQuantity,
): MetricDefinition {
  const weighted = weight ? sumOf(source, test, (session, context) => quantity(session, context) * weight(session, context)) : sumOf(source, test, quantity);
  const total = weight ? sumOf(source, test, weight) : countOf(source, test);
  return { source, terms: [weighted, total], finalize: (cell) => ({ [field]: quotient(cell.sum(weighted), cell.sum(total)) }) };
}

/** A ratio in percent of two per-session quantities summed over plays. */
function ratio(source: SessionKind, part: SessionQuantity, whole: SessionQuantity): MetricDefinition {
  const numerator = sumOf(source, isPlay, part);
  const denominator = sumOf(source, isPlay, whole);
  return { source, terms: [numerator, denominator], finalize: (cell) => ({ ratio: percent(cell.sum(numerator), cell.sum(denominator)) }) };
}

/** Ended plays and ended plays per device. */
function endedPlays(source: SessionKind, test: SessionTest): MetricDefinition {
  const ended = both(isEndedPlay, test);
  const count = countOf(source, ended);
  const devices = devicesOf(source, ended);
  return {
    source,
    terms: [count, devices],
    finalize: (cell) => ({ count: integer(cell.sum(count)), per_unique_device: quotient(cell.sum(count), cell.distinct(devices)) }),
  };
}

/** Minutes played (lifetime, by now), per device and per ended play. */
function minutesPlayed(source: SessionKind): MetricDefinition {
  const minutes = sumOf(source, isPlay, playingMinutes);
  const devices = devicesOf(source, isPlay);
  const endedMinutes = sumOf(source, isEndedPlay, playingMinutes);
  const ended = countOf(source, isEndedPlay);
  return {
    source,
    terms: [minutes, devices, endedMinutes, ended],
    finalize: (cell) => ({
      count: integer(cell.sum(minutes)),
      per_unique_device: quotient(cell.sum(minutes), cell.distinct(devices)),
      per_ended_play: quotient(cell.sum(endedMinutes), cell.sum(ended)),
    }),
  };
}

/** Peak concurrent plays in the interval. */
function concurrent(source: SessionKind): MetricDefinition {
  const peak = peakOf(source, isPlay);
  return { source, terms: [peak], finalize: (cell) => ({ count: integer(cell.peak(peak)) }) };
}

/** Minutes played inside each interval, whenever the play started. */
function intervalMinutes(source: SessionKind): MetricDefinition {
  // Playing time is spread evenly over the session's wall-clock life.
  const overlap = overlapOf(source, isPlay, (session) => {
    const length = session.endMs - session.startMs;
    return length > 0 ? session.playingTimeMs / length / MINUTE_MS : 0;
  });
  return { source, terms: [overlap], finalize: (cell) => ({ count: integer(cell.sum(overlap)) }) };
}

/** The streaming performance index: good sessions as a percentage of SPI streams. */
function performanceIndex(source: SessionKind): MetricDefinition {
  const good = countOf(source, isGoodSession);
  const streams = countOf(source, isSpiStream);
  return { source, terms: [good, streams], finalize: (cell) => ({ value: percent(cell.sum(good), cell.sum(streams)) }) };
}

// Per-session quantities, scaled to the part of the session's life that has happened by now.
const scaled = (milliseconds: (session: Parameters<SessionQuantity>[0]) => number): SessionQuantity =>
  (session, context) => milliseconds(session) * progress(session, context.nowMs);
const playing = scaled((session) => session.playingTimeMs);
const rebuffering = scaled((session) => session.rebufferingTimeMs);
const playingAndRebuffering = scaled((session) => session.playingTimeMs + session.rebufferingTimeMs);
const connectionInducedRebuffering = scaled((session) => session.connectionInducedRebufferingTimeMs);
const paused = scaled((session) => session.pausedTimeMs);
const playingAndPaused = scaled((session) => session.playingTimeMs + session.pausedTimeMs);
const playingMinutes: SessionQuantity = (session, context) => playingTimeMs(session, context.nowMs) / MINUTE_MS;
const videoStartTime: SessionQuantity = (session) => session.videoStartTimeMs;
const videoRestartTime: SessionQuantity = (session) => session.videoRestartTimeMs;
const bitrate: SessionQuantity = (session) => session.averageBitrateBps;
const framerate: SessionQuantity = (session) => session.averageFramerateFps;
const percentageComplete: SessionQuantity = (session) => session.percentageComplete;

// Tests shared by several metrics (one object each, so their accumulators are shared too).
const withoutPreRoll = not(hasPreRoll);
const playWithPreRoll = both(isPlay, hasPreRoll);
const playWithoutPreRoll = both(isPlay, withoutPreRoll);
const startFailureBusiness = isVideoStartFailureOf("business");
const startFailureTech = isVideoStartFailureOf("tech");
const playbackFailureBusiness = isVideoPlaybackFailureOf("business");
const playbackFailureTech = isVideoPlaybackFailureOf("tech");
const hadRestart = both(isPlay, (session) => session.videoRestartTimeMs > 0);
const slatePlay = both(isPlay, isSlate);
const completedCreative = both(isEndedPlay, (session) => session.percentageComplete >= COMPLETED_CREATIVE_PERCENT);
const hasConnectionInducedRebuffering: SessionTest = (session) => session.connectionInducedRebufferingTimeMs > 0;
const cirRelatedExit = both(isEndedPlay, (session, context) =>
  connectionInducedRebufferingRatioPercent(session) > context.kpi.rebufferingRatioPercent &&
  session.percentageComplete < EARLY_EXIT_PERCENT);

/** The definition of every metric of spec 4.6, and of `ad-plays` (docs/api.md 10.4). */
export const METRIC_DEFINITIONS: Record<MetricName, MetricDefinition> = {
  "abandonment": rated("content", isAbandonment, everySession),
  "abandonment-with-pre-roll": rated("content", both(isAbandonment, hasPreRoll), hasPreRoll),
  "abandonment-without-pre-roll": rated("content", both(isAbandonment, withoutPreRoll), withoutPreRoll),
  "ad-actual-duration": averaged("ad", "value", isPlay, playing),
  "ad-attempts": counted("ad", everySession),
  "ad-bitrate": averaged("ad", "bps", isPlay, bitrate, playing),
  // `value` (docs/api.md 10.4): the number of creatives played to completion (our choice of meaning).
  "ad-completed-creative-plays": counted("ad", completedCreative, "value"),
  "ad-concurrent-plays": concurrent("ad"),
  "ad-connection-induced-rebuffering-ratio": ratio("ad", connectionInducedRebuffering, playingAndRebuffering),
  "ad-ended-plays": endedPlays("ad", everySession),
  "ad-framerate": averaged("ad", "fps", isPlay, framerate, playing),
  "ad-impressions": counted("ad", isPlay),
  "ad-minutes-played": minutesPlayed("ad"),
  "ad-plays": rated("ad", isPlay, everySession),
  "ad-percentage-complete": averaged("ad", "percentage", isEndedPlay, percentageComplete),
  "ad-rebuffering-ratio": ratio("ad", rebuffering, playingAndRebuffering),
  "ad-slate-duration": averaged("ad", "value", slatePlay, playing),
  "ad-slate-plays": rated("ad", slatePlay, isPlay),
  "ad-unique-devices": uniques("ad", isPlay, "devices"),
  "ad-video-playback-failures": rated("ad", isVideoPlaybackFailure, isPlay),
  "ad-video-restart-time": averaged("ad", "value", hadRestart, videoRestartTime),
  "ad-video-start-failures": rated("ad", isVideoStartFailure, everySession),
  "ad-video-start-time": averaged("ad", "value", isPlay, videoStartTime),
  "ads-not-started": rated("ad", not(isPlay), everySession),
  "attempts": counted("content", everySession),
  "attempts-with-pre-roll": rated("content", hasPreRoll, everySession),
  "attempts-without-pre-roll": rated("content", withoutPreRoll, everySession),
  "bad-session": rated("content", isBadSession, everySession),
  "bad-session-average-life-playing-time-mins": averaged("content", "value", isBadSession, playingMinutes),
  "bad-unique-devices": ratedUniques("content", isBadSession, everySession, "devices"),
  "bad-unique-viewers": ratedUniques("content", isBadSession, everySession, "viewers"),
  "bitrate": averaged("content", "bps", isPlay, bitrate, playing),
  "cir-related-exits": rated("content", cirRelatedExit, isPlay),
  "concurrent-plays": concurrent("content"),
  "connection-induced-rebuffering-ratio": ratio("content", connectionInducedRebuffering, playingAndRebuffering),
  "ended-plays": endedPlays("content", everySession),
  "ended-plays-with-ads": rated("content", both(isEndedPlay, hasPreRoll), isEndedPlay),
  "ended-plays-without-ads": rated("content", both(isEndedPlay, withoutPreRoll), isEndedPlay),
  "exits-before-ad-start": rated("ad", isExitBeforeVideoStart, everySession),
  "exits-before-video-start": rated("content", isExitBeforeVideoStart, everySession),
  "exits-during-pre-roll": rated("content", both(isExitBeforeVideoStart, hasPreRoll), hasPreRoll),
  "framerate": averaged("content", "fps", isPlay, framerate, playing),
  "good-session": counted("content", isGoodSession),
  "good-session-average-life-playing-time-mins": averaged("content", "value", isGoodSession, playingMinutes),
  "good-unique-devices": uniques("content", isGoodSession, "devices"),
  "good-unique-viewers": uniques("content", isGoodSession, "viewers"),
  "high-rebuffering": rated("content", isHighRebuffering, isPlay),
  "high-rebuffering-with-ads": rated("content", both(isHighRebuffering, hasPreRoll), playWithPreRoll),
  "high-rebuffering-without-ads": rated("content", both(isHighRebuffering, withoutPreRoll), playWithoutPreRoll),
  "high-startup-time": rated("content", isHighStartupTime, isPlay),
  "high-startup-time-with-pre-roll": rated("content", both(isHighStartupTime, hasPreRoll), playWithPreRoll),
  "high-startup-time-without-pre-roll": rated("content", both(isHighStartupTime, withoutPreRoll), playWithoutPreRoll),
  "interval-minutes-played": intervalMinutes("content"),
  "low-bitrate": rated("content", isLowBitrate, isPlay),
  "low-bitrate-with-ads": rated("content", both(isLowBitrate, hasPreRoll), playWithPreRoll),
  "low-bitrate-without-ads": rated("content", both(isLowBitrate, withoutPreRoll), playWithoutPreRoll),
  "minutes-played": minutesPlayed("content"),
  "non-zero-cirr-ended-plays": rated("content", both(isEndedPlay, hasConnectionInducedRebuffering), isEndedPlay),
  "pause-ratio": ratio("content", paused, playingAndPaused),
  "paused-time": averaged("content", "value", isPlay, paused),
  "percentage-complete": averaged("content", "percentage", isEndedPlay, percentageComplete),
  "plays": rated("content", isPlay, everySession),
  "rebuffering-ratio": ratio("content", rebuffering, playingAndRebuffering),
  "spi-streams": counted("content", isSpiStream),
  "spi-unique-devices": uniques("content", isSpiStream, "devices"),
  "spi-unique-viewers": uniques("content", isSpiStream, "viewers"),
  "streaming-performance-index": performanceIndex("content"),
  "unique-devices": uniques("content", isPlay, "devices"),
  "unique-devices-with-attempts": uniques("content", everySession, "devices"),
  "video-playback-failures": rated("content", isVideoPlaybackFailure, isPlay),
  "video-playback-failures-business": rated("content", playbackFailureBusiness, isPlay),
  "video-playback-failures-tech": rated("content", playbackFailureTech, isPlay),
  "video-playback-failures-tech-with-ads": rated("content", both(playbackFailureTech, hasPreRoll), playWithPreRoll),
  "video-playback-failures-tech-without-ads": rated("content", both(playbackFailureTech, withoutPreRoll), playWithoutPreRoll),
  "video-restart-time": averaged("content", "value", hadRestart, videoRestartTime),
  "video-start-failures": rated("content", isVideoStartFailure, everySession),
  "video-start-failures-business": rated("content", startFailureBusiness, everySession),
  "video-start-failures-tech": rated("content", startFailureTech, everySession),
  "video-start-failures-tech-with-pre-roll": rated("content", both(startFailureTech, hasPreRoll), hasPreRoll),
  "video-start-failures-tech-without-pre-roll": rated("content", both(startFailureTech, withoutPreRoll), withoutPreRoll),
  "video-start-time": averaged("content", "value", isPlay, videoStartTime),
  "zero-cirr-ended-plays": rated("content", both(isEndedPlay, not(hasConnectionInducedRebuffering)), isEndedPlay),
};

/** A count field: a JSON integer on the wire (docs/api.md 10.4: never 12.0). */
function integer(value: number): number {
  return Math.round(value);
}

/** A non-count field, rounded to 4 decimal places (keeps bodies small and stable). */
export function decimal(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** part / whole × 100, rounded; `null` when there is no whole (see {@link MemberValue}). */
function percent(part: number, whole: number): number | null {
  return quotient(part * 100, whole);
}

/** numerator / denominator, rounded; `null` when there is no denominator (see {@link MemberValue}). */
function quotient(numerator: number, denominator: number): number | null {
  return denominator > 0 ? decimal(numerator / denominator) : null;
}

/** numerator / denominator, 0 when there is no denominator (viewer summaries and alerts read it so). */
export function divide(numerator: number, denominator: number): number {
  return denominator > 0 ? numerator / denominator : 0;
}
