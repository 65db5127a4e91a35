import type { SessionsApi } from "../client";
import { ArgumentError } from "../client/core/errors";
import type { CallOptions } from "../client/core/transport";
import { checkKnownKeys } from "../client/core/validation";
import { ruleMatcher } from "../rules/match";
import type { RuleGroup } from "../rules/tree";
import { validateRules } from "../rules/validate";
import { SAMPLE_KEYS, takeSessionSample, type SessionSample, type SessionSampleParams } from "./sample";

/**
 * How much of an account's traffic a rule tree matches, estimated from sample sessions
 * (docs/api.md 4.2, taken by sample.ts) evaluated locally (provider/rules/match.ts). A reviewer sees
 * from it whether new rules match 1% or 90% of the sessions, or none at all, before the filter
 * changes: the preview prints it (provider/match-estimate/preview.ts), and the data
 * source `getFilterMatchEstimate` answers it to a program.
 */

/** What share of a sample a rule tree matches. */
export interface MatchEstimate {
  /** The matched share of the sampled sessions, 0 to 1 (sessions whose outcome is undetermined count as not matched). */
  share: number;
  /** The 95% Wilson score interval of the share. */
  interval: {
    /** The lower bound, 0 to 1. */
    low: number;
    /** The upper bound, 0 to 1. */
    high: number;
  };
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
  windows: ReadonlyArray<{
    /** The window's start, included (ISO 8601). */
    start: string;
    /** The window's end, excluded (ISO 8601, spec 4.1). */
    end: string;
  }>;
  /** Fields of the rules that no session carries (Customer, Resource): the estimate is partial when any. */
  unevaluatedFields: readonly string[];
}

/** Arguments of `estimateMatch`: the rule tree and the sample to take. */
export interface MatchEstimateParams extends SessionSampleParams {
  /** The rule tree of a saved filter (docs/api.md 2.7). */
  rules: RuleGroup;
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
