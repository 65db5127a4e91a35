import type { AD_ALERT_METRICS, CONTENT_ALERT_METRICS } from "../../provider/schema/names";
import type { SessionRecord } from "../world";

/** An AI-alert metric code of spec 4.9 (content or ad). */
export type AlertMetricName = (typeof CONTENT_ALERT_METRICS)[number] | (typeof AD_ALERT_METRICS)[number];

/**
 * What the emulator measures for one alert metric over the sessions of an alert's root-cause
 * group (spec 2.8 detail timeline). The spec names the metrics only by code (4.9); descriptions,
 * units and what makes a session "impacted" are the emulator's choice, kept close to the
 * service's metric dictionary.
 */
export interface AlertMetricDefinition {
  /** `alert_metric.description` (spec 2.8). */
  description: string;
  /** Whether one session suffers the alert's condition: counted in `impacted_uniques`. */
  impacted(session: SessionRecord): boolean;
  /** `metric_value` over the sessions that started before `atMs`, as the point in time `atMs`. */
  value(sessions: readonly SessionRecord[], atMs: number): number;
}

/** A session with a high rebuffering ratio, in percent of its viewing time. */
const HIGH_REBUFFERING_PERCENT = 2;
/** A slow start, in milliseconds. */
const HIGH_START_TIME_MS = 5_000;
/** A low average bitrate, in bits per second. */
const LOW_BITRATE_BPS = 1_500_000;

const startedVideo = (session: SessionRecord) =>
  !session.exitBeforeVideoStart && session.videoStartFailure === undefined;
const startFailed = (session: SessionRecord) => session.videoStartFailure !== undefined;
const exitedBeforeStart = (session: SessionRecord) => session.exitBeforeVideoStart;
const playbackFailed = (session: SessionRecord) => session.videoPlaybackFailure !== undefined;
const rebufferingPercent = (session: SessionRecord) => {
  const viewing = session.playingTimeMs + session.rebufferingTimeMs;
  return viewing > 0 ? (session.rebufferingTimeMs / viewing) * 100 : 0;
};

/** Every alert metric of spec 4.9. */
export const ALERT_METRIC_DEFINITIONS: Readonly<Record<AlertMetricName, AlertMetricDefinition>> = {
  VSF: {
    description: "Video Start Failures: percentage of attempts that failed before the video started",
    impacted: startFailed,
    value: (sessions) => percentage(sessions, startFailed),
  },
  EBVS: {
    description: "Exits Before Video Start: percentage of attempts abandoned before the video started",
    impacted: exitedBeforeStart,
    value: (sessions) => percentage(sessions, exitedBeforeStart),
  },
  VPF: {
    description: "Video Playback Failures: percentage of started plays that failed during playback",
    impacted: playbackFailed,
    value: (sessions) => percentage(sessions.filter(startedVideo), playbackFailed),
  },
  VST: {
    description: "Video Start Time: average seconds from attempt to first frame",
    impacted: (session) => startedVideo(session) && session.videoStartTimeMs > HIGH_START_TIME_MS,
    value: (sessions) => average(sessions.filter(startedVideo), (session) => session.videoStartTimeMs / 1000),
  },
  BUFFERINGRATIO: {
    description: "Rebuffering Ratio: percentage of viewing time spent rebuffering",
    impacted: (session) => rebufferingPercent(session) > HIGH_REBUFFERING_PERCENT,
    value: (sessions) => {
      const rebuffering = sum(sessions, (session) => session.rebufferingTimeMs);
      const viewing = sum(sessions, (session) => session.playingTimeMs + session.rebufferingTimeMs);
      return viewing > 0 ? round((rebuffering / viewing) * 100) : 0;
    },
  },
  PCP: {
    description: "Concurrent Plays: plays in progress at the time of the point",
    impacted: (session) => startFailed(session) || exitedBeforeStart(session) || playbackFailed(session),
    value: (sessions, atMs) => sessions.filter((session) => session.startMs <= atMs && atMs < session.endMs).length,
  },
  BITRATE: {
    description: "Average Bitrate: average kilobits per second of the started plays",
    impacted: (session) => startedVideo(session) && session.averageBitrateBps < LOW_BITRATE_BPS,
    value: (sessions) => average(sessions.filter(startedVideo), (session) => session.averageBitrateBps / 1000),
  },
};

/** The definition of an alert metric; a code the emulator does not know measures like VSF. */
export function alertMetricDefinition(name: string): AlertMetricDefinition {
  return ALERT_METRIC_DEFINITIONS[name as AlertMetricName] ?? ALERT_METRIC_DEFINITIONS.VSF;
}

function percentage(sessions: readonly SessionRecord[], predicate: (session: SessionRecord) => boolean): number {
  return sessions.length === 0 ? 0 : round((sessions.filter(predicate).length / sessions.length) * 100);
}

function average(sessions: readonly SessionRecord[], value: (session: SessionRecord) => number): number {
  return sessions.length === 0 ? 0 : round(sum(sessions, value) / sessions.length);
}

function sum(sessions: readonly SessionRecord[], value: (session: SessionRecord) => number): number {
  return sessions.reduce((total, session) => total + value(session), 0);
}

/** Two decimals: alert values are read by people. */
function round(value: number): number {
  return Math.round(value * 100) / 100;
}
