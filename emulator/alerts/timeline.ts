import { ALERT_SEVERITIES } from "../contract/alerts";
import { hashSeed } from "../random";
import type { Anomaly } from "../world";

/** An alert severity (spec 2.8), in rising order in {@link ALERT_SEVERITIES}. */
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/** A member of a detail timeline other than `start` (spec 2.8): a severity point or the end. */
export type AlertCheckpointName = AlertSeverity | "end";

/** A point of an alert's timeline that is reached by now. */
export interface AlertCheckpoint {
  name: AlertCheckpointName;
  atMs: number;
}

/** An alert as it stands at a given "now": only what has happened by then (never the future). */
export interface AlertState {
  id: string;
  anomaly: Anomaly;
  /** The highest severity reached so far. */
  severity: AlertSeverity;
  status: "active" | "ended";
  /** When the condition began: the timeline's `start`. */
  startMs: number;
  /** When the condition returned to normal, for ended alerts only. */
  endMs?: number;
  /** The severity points reached, in order, then `end` for an ended alert. */
  checkpoints: AlertCheckpoint[];
}

/**
 * Severity points lie in the first third of an anomaly (spec 3.2: transitions between severities
 * are not shown). Like the service's persistence setting, each further step that the condition
 * persists raises the severity one level, up to the anomaly's peak; the alert fires (becomes
 * visible) at its info point, one step after the condition began. A step is a ninth of the
 * anomaly's length, at most {@link LONGEST_SEVERITY_STEP_MS}.
 */
const SEVERITY_STEPS_PER_ANOMALY = 9;
/** The longest persistence step: a 12-hour anomaly still fires after 10 minutes. */
const LONGEST_SEVERITY_STEP_MS = 10 * 60_000;

/**
 * The alert raised from an anomaly, as it stands at `nowMs`, or undefined while it has not fired
 * yet (an anomaly that starts after now, or whose info point is still ahead, does not exist yet).
 */
export function alertAt(anomaly: Anomaly, nowMs: number): AlertState | undefined {
  const levels = ALERT_SEVERITIES.slice(0, ALERT_SEVERITIES.indexOf(anomaly.peakSeverity) + 1);
  const stepMs = Math.min((anomaly.endMs - anomaly.startMs) / SEVERITY_STEPS_PER_ANOMALY, LONGEST_SEVERITY_STEP_MS);
  const checkpoints: AlertCheckpoint[] = levels
    .map((name, index) => ({ name, atMs: anomaly.startMs + Math.floor((index + 1) * stepMs) }))
    .filter((checkpoint) => checkpoint.atMs <= nowMs);
  const reached = checkpoints.at(-1);
  if (!reached) return undefined;
  const ended = anomaly.endMs <= nowMs;
  if (ended) checkpoints.push({ name: "end", atMs: anomaly.endMs });
  return {
    id: alertIdOf(anomaly),
    anomaly,
    severity: reached.name as AlertSeverity,
    status: ended ? "ended" : "active",
    startMs: anomaly.startMs,
    ...(ended ? { endMs: anomaly.endMs } : {}),
    checkpoints,
  };
}

const ID_PART_LENGTH = 7;

/**
 * The alert id of an anomaly: its start in epoch seconds and a hash of the anomaly id, both in
 * base 36 (14 lowercase alphanumerics). Deterministic, and the start lets a detail request find
 * the anomaly without scanning the world's history.
 */
export function alertIdOf(anomaly: Anomaly): string {
  const startSec = Math.floor(anomaly.startMs / 1000);
  return (
    startSec.toString(36).padStart(ID_PART_LENGTH, "0") +
    hashSeed("ai-alert", anomaly.id).toString(36).padStart(ID_PART_LENGTH, "0")
  );
}

/** The start (epoch ms, whole second) encoded in an alert id, or undefined for a malformed id. */
export function startOfAlertId(id: string): number | undefined {
  if (!/^[0-9a-z]{14}$/.test(id)) return undefined;
  return parseInt(id.slice(0, ID_PART_LENGTH), 36) * 1000;
}
