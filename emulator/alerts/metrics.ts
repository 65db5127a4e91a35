import type { AD_ALERT_METRICS, CONTENT_ALERT_METRICS } from "../contract/alerts";
import {
  isExitBeforeVideoStart, isHighRebuffering, isHighStartupTime, isLowBitrate, isPlay, isVideoPlaybackFailure,
  isVideoStartFailure, progress, type MetricContext, type SessionTest,
} from "../metrics/classify";
import { divide } from "../metrics/definitions";
import type { SessionRecord } from "../world";

/** An AI-alert metric code of spec 4.9 (content or ad). */
export type AlertMetricName = (typeof CONTENT_ALERT_METRICS)[number] | (typeof AD_ALERT_METRICS)[number];

/**
 * What the emulator measures for one alert metric over the sessions of an alert's root-cause
 * group (spec 2.8 detail timeline). The spec names the metrics only by code (4.9); descriptions,
 * units and what makes a session "impacted" are the emulator's choice. Sessions are judged by the
 * metrics' own tests (metrics/classify.ts) with the request's now and the default KPI set, so an
 * alert's numbers agree with the metrics of its root-cause group.
 */
export interface AlertMetricDefinition {
  /** `alert_metric.description` (spec 2.8). */
  description: string;
  /** Whether one session suffers the alert's condition: counted in `impacted_uniques`. */
  impacted: SessionTest;
  /** `metric_value` over the sessions that started before `atMs`, as the point in time `atMs`. */
  value(sessions: readonly SessionRecord[], atMs: number, context: MetricContext): number;
}

const anyFailureOrExit: SessionTest = (session, context) =>
  isVideoStartFailure(session, context) || isExitBeforeVideoStart(session, context) || isVideoPlaybackFailure(session, context);

/** Every alert metric of spec 4.9. */
export const ALERT_METRIC_DEFINITIONS: Readonly<Record<AlertMetricName, AlertMetricDefinition>> = {
  VSF: {
    description: "Video Start Failures: percentage of attempts that failed before the video started",
    impacted: isVideoStartFailure,
    value: (sessions, _atMs, context) => percentage(sessions, isVideoStartFailure, context),
  },
  EBVS: {
    description: "Exits Before Video Start: percentage of attempts abandoned before the video started",
    impacted: isExitBeforeVideoStart,
    value: (sessions, _atMs, context) => percentage(sessions, isExitBeforeVideoStart, context),
  },
  VPF: {
    description: "Video Playback Failures: percentage of started plays that failed during playback",
    impacted: isVideoPlaybackFailure,
    value: (sessions, _atMs, context) => percentage(plays(sessions, context), isVideoPlaybackFailure, context),
  },
  VST: {
    description: "Video Start Time: average seconds from attempt to first frame",
    impacted: isHighStartupTime,
    value: (sessions, _atMs, context) => average(plays(sessions, context), (session) => session.videoStartTimeMs / 1000),
  },
  BUFFERINGRATIO: {
    description: "Rebuffering Ratio: percentage of viewing time spent rebuffering",
    impacted: isHighRebuffering,
    value: (sessions, _atMs, context) => {
      // Like the rebuffering-ratio metric: an ongoing play counts with its share of the times so far.
      const started = plays(sessions, context);
      const share = (session: SessionRecord) => progress(session, context.nowMs);
      const rebuffering = sum(started, (session) => session.rebufferingTimeMs * share(session));
      const viewing = sum(started, (session) => (session.playingTimeMs + session.rebufferingTimeMs) * share(session));
      return round(divide(rebuffering * 100, viewing));
    },
  },
  PCP: {
    description: "Concurrent Plays: plays in progress at the time of the point",
    impacted: anyFailureOrExit,
    value: (sessions, atMs) => sessions.filter((session) => session.startMs <= atMs && atMs < session.endMs).length,
  },
  BITRATE: {
    description: "Average Bitrate: average kilobits per second of the started plays",
    impacted: isLowBitrate,
    value: (sessions, _atMs, context) => average(plays(sessions, context), (session) => session.averageBitrateBps / 1000),
  },
};

/** The definition of an alert metric; a code the emulator does not know measures like VSF. */
export function alertMetricDefinition(name: string): AlertMetricDefinition {
  return ALERT_METRIC_DEFINITIONS[name as AlertMetricName] ?? ALERT_METRIC_DEFINITIONS.VSF;
}

function plays(sessions: readonly SessionRecord[], context: MetricContext): SessionRecord[] {
  return sessions.filter((session) => isPlay(session, context));
}

function percentage(sessions: readonly SessionRecord[], test: SessionTest, context: MetricContext): number {
  return round(divide(sessions.filter((session) => test(session, context)).length * 100, sessions.length));
}

function average(sessions: readonly SessionRecord[], value: (session: SessionRecord) => number): number {
  return round(divide(sum(sessions, value), sessions.length));
}

function sum(sessions: readonly SessionRecord[], value: (session: SessionRecord) => number): number {
  return sessions.reduce((total, session) => total + value(session), 0);
}

/** Two decimals: alert values are read by people. */
function round(value: number): number {
  return Math.round(value * 100) / 100;
}
