import type { SessionsApi } from "../client";
import { ArgumentError } from "../client/core/errors";
import { DAY_MS, HOUR_MS, type ExplicitRange } from "../client/core/time-range";
import type { CallOptions } from "../client/core/transport";
import { checkInteger, checkKnownKeys } from "../client/core/validation";
import type { Session } from "../schema";

/**
 * The sample a match estimate is made from: sample sessions (docs/api.md 4.2) of a few windows spread
 * over recent days at different hours, so that no single hour's audience dominates. Sample sessions
 * are ended sessions only and a window is at most 3 hours within the last 31 days (docs/api.md 10.5);
 * a window holding more than the sample limit gives its newest sessions, so the estimate is of the
 * sampled windows' traffic.
 */

/** The longest sample window the service allows (docs/api.md 10.5). */
const WINDOW_MS = 3 * HOUR_MS;
/** Our choice: consecutive windows are a day and 5 hours apart, so six of them cover six days and every hour-of-day band. */
const WINDOW_SPACING_MS = DAY_MS + 5 * HOUR_MS;
/** The sample-session limit (docs/api.md 4.2, 8). */
const SESSIONS_PER_WINDOW_MAX = 500;

/** Defaults of {@link SessionSampleParams}. */
export const DEFAULT_SESSION_SAMPLE = { windows: 6, sessionsPerWindow: SESSIONS_PER_WINDOW_MAX } as const;

/** Which sessions to sample. */
export interface SessionSampleParams {
  /**
   * The number of windows (1 to 12) spread back from the last whole hour, or the windows themselves
   * (each at most 3 hours within the last 31 days). Default 6 windows.
   */
  windows?: number | readonly ExplicitRange[];
  /** Sessions asked for per window, 1 to 500 (default 500). */
  sessionsPerWindow?: number;
}

/** Sample sessions of an account, taken once and evaluated against any number of rule trees. */
export interface SessionSample {
  /** The windows sampled, ISO 8601. */
  readonly windows: ReadonlyArray<{ start: string; end: string }>;
  /** The sessions of every window. */
  readonly sessions: readonly Session[];
}

/** The parameters of {@link SessionSampleParams}, for the checks of unknown keys. */
export const SAMPLE_KEYS = ["windows", "sessionsPerWindow"] as const;

/** The default windows: `count` windows of 3 hours, the newest ending at the last whole hour before `nowMs`. */
function defaultWindows(count: number, nowMs: number): ExplicitRange[] {
  const lastHour = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
  return Array.from({ length: count }, (_, index) => {
    const end = lastHour - index * WINDOW_SPACING_MS;
    return { start: new Date(end - WINDOW_MS).toISOString(), end: new Date(end).toISOString() };
  });
}

/**
 * Takes a sample: one sample-sessions request per window, in parallel (the client's concurrency
 * bound and rate budget apply). Sessions appearing in two windows are kept once. `nowMs` places the
 * default windows.
 */
export async function takeSessionSample(
  sessions: SessionsApi,
  nowMs: number,
  params: SessionSampleParams = {},
  requestOptions?: CallOptions,
): Promise<SessionSample> {
  checkKnownKeys(params, SAMPLE_KEYS);
  const perWindow = params.sessionsPerWindow ?? DEFAULT_SESSION_SAMPLE.sessionsPerWindow;
  checkInteger(perWindow, 1, SESSIONS_PER_WINDOW_MAX, "params.sessionsPerWindow");
  const requested = params.windows ?? DEFAULT_SESSION_SAMPLE.windows;
  if (typeof requested === "number") checkInteger(requested, 1, 12, "params.windows");
  else if (!Array.isArray(requested) || requested.length === 0) {
    throw new ArgumentError("params.windows", "must be a number of windows (1 to 12) or a non-empty list of {start, end} ranges");
  }
  const windows = typeof requested === "number" ? defaultWindows(requested, nowMs) : requested;
  const answers = await Promise.all(windows.map((range) => sessions.listContent({ range, limit: perWindow }, requestOptions)));
  const seen = new Set<string>();
  const sampled: Session[] = [];
  for (const answer of answers) {
    for (const session of answer.sessions) {
      const key = session.svc_session_id ?? `${session.client_id ?? ""}${session.session_id ?? ""}`;
      if (seen.has(key)) continue;
      seen.add(key);
      sampled.push(session);
    }
  }
  const iso = (value: ExplicitRange["start"]) => new Date(value).toISOString();
  return { windows: windows.map((range) => ({ start: iso(range.start), end: iso(range.end) })), sessions: sampled };
}
