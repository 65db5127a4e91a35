import type { ViewerSummaryTotal } from "../contract/sessions";
import { MINUTE_MS } from "../time";
import type { SessionRecord } from "../world/types";
import {
  connectionInducedRebufferingRatioPercent, isBadSession, isEnded, isEndedPlay, isExitBeforeVideoStart, isGoodSession,
  isPlay, isSpiStream, isVideoPlaybackFailure, isVideoPlaybackFailureOf, isVideoStartFailure, isVideoStartFailureOf,
  playingTimeMs, progress, rebufferingRatioPercent, type MetricContext, type SessionTest,
} from "./classify";
import { decimal, divide } from "./definitions";

/**
 * The totals of a viewer summary (spec 2.3) over one viewer's sessions. Sessions are classified by
 * the metrics' own tests (emulator/metrics/classify.ts) and each member is computed like the metric
 * of the same name, so a summary agrees with the metrics filtered to that viewer's sessions. Counts
 * are integers; times are in milliseconds like the metrics' values, play times in minutes.
 */
export function summarizeViewer(sessions: readonly SessionRecord[], context: MetricContext): ViewerSummaryTotal {
  const count = (test: SessionTest) => sessions.reduce((total, session) => total + (test(session, context) ? 1 : 0), 0);
  const sum = (test: SessionTest, quantity: (session: SessionRecord) => number) =>
    sessions.reduce((total, session) => total + (test(session, context) ? quantity(session) : 0), 0);
  const share = (session: SessionRecord) => progress(session, context.nowMs);
  const minutes = (session: SessionRecord) => playingTimeMs(session, context.nowMs) / MINUTE_MS;
  const averageMinutes = (test: SessionTest) => decimal(divide(sum(test, minutes), count(test)));

  const attempts = sessions.length;
  const plays = count(isPlay);
  const countAndPercentage = (test: SessionTest, population: number) => {
    const counted = count(test);
    return { count: counted, percentage: decimal(divide(counted * 100, population)) };
  };

  const playing = sum(isPlay, (session) => session.playingTimeMs * share(session));
  const viewing = sum(isPlay, (session) => (session.playingTimeMs + session.rebufferingTimeMs) * share(session));
  const rebuffering = sum(isPlay, (session) => session.rebufferingTimeMs * share(session));
  const connectionInduced = sum(isPlay, (session) => session.connectionInducedRebufferingTimeMs * share(session));
  const endedPlays = count(isEndedPlay);
  const endedMinutes = sum(isEndedPlay, minutes);
  const endedDevices = new Set(sessions.filter((session) => isEndedPlay(session, context)).map((session) => session.clientId));
  const restarts: SessionTest = (session, ctx) => isPlay(session, ctx) && session.videoRestartTimeMs > 0;
  const good = count(isGoodSession);
  const spiStreams = count(isSpiStream);

  return {
    bitrate: { bps: Math.round(divide(sum(isPlay, (session) => session.averageBitrateBps * session.playingTimeMs * share(session)), playing)) },
    connection_induced_rebuffering_ratio: { ratio: decimal(divide(connectionInduced * 100, viewing)) },
    ended_plays_duration: {
      mins: decimal(endedMinutes),
      per_ended_play: decimal(divide(endedMinutes, endedPlays)),
      per_unique_device: decimal(divide(endedMinutes, endedDevices.size)),
    },
    exit_before_video_starts: countAndPercentage(isExitBeforeVideoStart, attempts),
    good_streams: { count: good },
    good_streams_average_play_time: { mins: averageMinutes(isGoodSession) },
    impacted_streams: { count: count(isBadSession) },
    impacted_streams_average_play_time: { mins: averageMinutes(isBadSession) },
    plays: { count: plays },
    rebuffering_ratio: { ratio: decimal(divide(rebuffering * 100, viewing)) },
    spi_streams: { count: spiStreams },
    streaming_performance_index: { value: decimal(divide(good * 100, spiStreams)) },
    unique_devices: { count: new Set(sessions.filter((session) => isPlay(session, context)).map((session) => session.clientId)).size },
    video_playback_failures: countAndPercentage(isVideoPlaybackFailure, plays),
    video_playback_failures_business: countAndPercentage(isVideoPlaybackFailureOf("business"), plays),
    video_playback_failures_tech: countAndPercentage(isVideoPlaybackFailureOf("tech"), plays),
    video_restart_time: { value: decimal(divide(sum(restarts, (session) => session.videoRestartTimeMs), count(restarts))) },
    video_start_failures: countAndPercentage(isVideoStartFailure, attempts),
    video_start_failures_business: countAndPercentage(isVideoStartFailureOf("business"), attempts),
    video_start_failures_tech: countAndPercentage(isVideoStartFailureOf("tech"), attempts),
    video_start_time: { value: decimal(divide(sum(isPlay, (session) => session.videoStartTimeMs), plays)) },
  };
}

/**
 * The largest per-session rebuffering ratios of the viewer (spec 2.3 `_meta.ratio_info`), in percent.
 */
export function ratioMaxima(sessions: readonly SessionRecord[]): { rebuffering: number; connectionInduced: number } {
  const maximum = (ratio: (session: SessionRecord) => number) =>
    decimal(sessions.reduce((largest, session) => Math.max(largest, ratio(session)), 0));
  return { rebuffering: maximum(rebufferingRatioPercent), connectionInduced: maximum(connectionInducedRebufferingRatioPercent) };
}

/** Sessions still playing at now (they count with their values so far). */
export function ongoingCount(sessions: readonly SessionRecord[], context: MetricContext): number {
  return sessions.filter((session) => !isEnded(session, context)).length;
}
