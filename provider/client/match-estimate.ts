import type { Session } from "../schema";
import { ruleMatcher } from "../rules/match";
import type { RuleGroup } from "../rules/tree";
import { validateRules } from "../rules/validate";
import { ArgumentError } from "./core/errors";
import { DAY_MS, HOUR_MS, type ExplicitRange } from "./core/time-range";
import type { CallOptions } from "./core/transport";
import { checkInteger, checkKnownKeys } from "./core/validation";
import type { SessionsApi } from "./sessions";

/**
 * How much of an account's traffic a rule tree matches, estimated from sample sessions
 * (docs/api.md 4.2) evaluated locally (provider/rules/match.ts). A reviewer sees from it whether new
 * rules match 1% or 90% of the sessions, or none at all, before the filter changes.
 *
 * The sample is a few windows spread over recent days at different hours, so that no single hour's
 * audience dominates. Sample sessions are ended sessions only and a window is at most 3 hours within
 * the last 31 days (docs/api.md 10.5); a window holding more than the sample limit gives its newest
 * sessions, so the estimate is of the sampled windows' traffic.
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

/** What share of a sample a rule tree matches. */
export interface MatchEstimate {
  /** The matched share of the sampled sessions, 0 to 1 (sessions whose outcome is undetermined count as not matched). */
  share: number;
  /** The 95% Wilson score interval of the share. */
  interval: { low: number; high: number };
  /** Sessions the rules match. */
  matched: number;
  /**
   * Sessions whose outcome depends on a field no session carries ({@link unevaluatedFields}); the
   * share lies between `share` and `(matched + undetermined) / sampled`.
   */
  undetermined: number;
  /** Sessions in the sample. */
  sampled: number;
  /** The windows sampled, ISO 8601. */
  windows: ReadonlyArray<{ start: string; end: string }>;
  /** Fields of the rules that no session carries (Customer, Resource): the estimate is partial when any. */
  unevaluatedFields: readonly string[];
}

/** Arguments of {@link estimateMatch}: the rule tree and the sample to take. */
export interface MatchEstimateParams extends SessionSampleParams {
  /** The rule tree of a saved filter (docs/api.md 2.7). */
  rules: RuleGroup;
}

/** The default windows: `count` windows of 3 hours, the newest ending at the last whole hour before `nowMs`. */
function defaultWindows(count: number, nowMs: number): ExplicitRange[] {
  const lastHour = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
  return Array.from({ length: count }, (_, index) => {
    const end = lastHour - index * WINDOW_SPACING_MS;
    return { start: new Date(end - WINDOW_MS).toISOString(), end: new Date(end).toISOString() };
  });
}

const SAMPLE_KEYS = ["windows", "sessionsPerWindow"];

/**
 * Takes a sample: one sample-sessions request per window, in parallel (the client's concurrency
 * bound and rate budget apply). Sessions appearing in two windows are kept once.
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

/** The 95% Wilson score interval of `successes` out of `trials` (a share near 0 or 1 keeps sensible bounds). */
export function wilsonInterval(successes: number, trials: number): { low: number; high: number } {
  if (trials === 0) return { low: 0, high: 1 };
  const z = 1.959964;
  const share = successes / trials;
  const denominator = 1 + (z * z) / trials;
  const centre = share + (z * z) / (2 * trials);
  const margin = z * Math.sqrt((share * (1 - share)) / trials + (z * z) / (4 * trials * trials));
  return { low: Math.max(0, (centre - margin) / denominator), high: Math.min(1, (centre + margin) / denominator) };
}

/** Evaluates `rules` on every session of `sample`: no request. */
export function estimateFromSample(sample: SessionSample, rules: RuleGroup): MatchEstimate {
  const matcher = ruleMatcher(rules);
  let matched = 0;
  let undetermined = 0;
  for (const session of sample.sessions) {
    const outcome = matcher.match(session);
    if (outcome === true) matched++;
    else if (outcome === undefined) undetermined++;
  }
  const sampled = sample.sessions.length;
  return {
    share: sampled === 0 ? 0 : matched / sampled,
    interval: wilsonInterval(matched, sampled),
    matched,
    undetermined,
    sampled,
    windows: sample.windows,
    unevaluatedFields: matcher.unevaluatedFields,
  };
}

/** Takes a sample and estimates the share of it that `params.rules` match. */
export async function estimateMatch(
  sessions: SessionsApi,
  nowMs: number,
  params: MatchEstimateParams,
  requestOptions?: CallOptions,
): Promise<MatchEstimate> {
  checkKnownKeys(params, ["rules", ...SAMPLE_KEYS]);
  const [failure] = validateRules(params.rules, "params.rules");
  if (failure !== undefined) throw new ArgumentError(failure.path, failure.reason);
  const { rules, ...sampleParams } = params;
  return estimateFromSample(await takeSessionSample(sessions, nowMs, sampleParams, requestOptions), rules);
}

/** A percentage for a line of text: one decimal. */
function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

/**
 * The estimate in one line, as a preview prints it, for example
 * `matches ≈ 12.4% of sampled sessions (95%: 10.9-14.0%, n = 1500), was ≈ 15.1%`.
 */
export function describeEstimate(estimate: MatchEstimate, previous?: MatchEstimate): string {
  const { low, high } = estimate.interval;
  let line = `matches ≈ ${percent(estimate.share)} of sampled sessions (95%: ${(low * 100).toFixed(1)}-${percent(high)}, n = ${estimate.sampled})`;
  if (estimate.undetermined > 0) {
    line += `; partial: ${estimate.unevaluatedFields.join(", ")} not in sessions, up to ${percent((estimate.matched + estimate.undetermined) / Math.max(1, estimate.sampled))}`;
  }
  if (previous !== undefined) line += `, was ≈ ${percent(previous.share)}`;
  return line;
}

/**
 * A warning line when the rules match no sampled session, or every one (a filter that empties or
 * does not narrow every dashboard built on it); undefined otherwise or when the sample is empty.
 */
export function estimateWarning(estimate: MatchEstimate): string | undefined {
  if (estimate.sampled === 0 || estimate.undetermined > 0) return undefined;
  if (estimate.matched === 0) return `warning: the rules match none of ${estimate.sampled} sampled sessions; dashboards built on this filter would show nothing`;
  if (estimate.matched === estimate.sampled) return `warning: the rules match all ${estimate.sampled} sampled sessions; the filter does not narrow anything`;
  return undefined;
}
