import type { InsightsClient } from "../client";
import { isUnknown, PREVIEW_UNKNOWN, validateRules, type RuleGroup } from "../rules";
import { report, sharedClient } from "../accounts/runtime";
import { configKeyOf, SETTINGS } from "../accounts/settings";
import { describeEstimate, estimateFromSample, estimateWarning } from "./estimate";
import { takeSessionSample, type SessionSample } from "./sample";

/**
 * The match-rate line of a preview (docs/resources.md "Match-rate estimates in previews"): when a filter is
 * created or its rules change, the message says what share of sampled sessions the new rules match,
 * and the old rules, from ONE sample per host process and account: every SavedFilter and SavedFilterSet member
 * of the stack is evaluated locally against it (provider/match-estimate/), so a preview
 * makes a bounded number of sample requests (6 windows) however many filters change.
 */

/** The setting that turns the estimate off (`false`, `off`, `no` or `0`): its stack-config key and environment variable (accounts/settings.ts). */
const MATCH_ESTIMATE_SETTING = { configKey: configKeyOf("matchEstimate"), env: SETTINGS.matchEstimate.env };

let enabled = true;
/** The sample of this host process for each client it was taken with (a new client, a new account: a new sample). */
const samples = new WeakMap<InsightsClient, Promise<SessionSample>>();
let failureReported = false;

/** Reads the setting from the stack config (else the environment); on unless set to false, off, no or 0. */
export function configureMatchEstimate(config: { get(key: string): string | undefined }): void {
  const value = config.get(MATCH_ESTIMATE_SETTING.configKey) ?? process.env[MATCH_ESTIMATE_SETTING.env];
  enabled = value === undefined || !/^(false|off|no|0)$/i.test(value.trim());
}

/**
 * The host's one sample of `account` (undefined: the stack's default settings), taken on first use;
 * a failed sample is not retried within the process.
 */
function sharedSample(account: string | undefined): Promise<SessionSample> {
  const client = sharedClient(account);
  let sample = samples.get(client);
  if (sample === undefined) {
    sample = takeSessionSample(client.sessions, Date.now());
    samples.set(client, sample);
  }
  return sample;
}

/** `rules` as a tree that can be evaluated, or undefined (unknown in a preview, or not valid). */
function evaluable(rules: unknown): RuleGroup | undefined {
  if (rules === undefined || isUnknown(rules) || JSON.stringify(rules).includes(PREVIEW_UNKNOWN)) return undefined;
  return validateRules(rules, "rules").length === 0 ? (rules as RuleGroup) : undefined;
}

/**
 * The lines to add to a preview message for `rules` (and the rules before, for a change): the
 * estimate, and a warning when they match no sampled session or all of them. None when the setting
 * is off, the rules are not known yet, or sampling failed (then one line, once per process, says why).
 * The sample is of `account` (a name of `insights:accounts`; undefined: the stack's default settings).
 */
export async function matchEstimateLines(rules: unknown, previousRules?: unknown, account?: string): Promise<string[]> {
  const tree = evaluable(rules);
  if (!enabled || tree === undefined) return [];
  let sample: SessionSample;
  try {
    sample = await sharedSample(account);
  } catch (error) {
    if (!failureReported) {
      failureReported = true;
      report(`match estimate unavailable: sampling sessions failed (${error instanceof Error ? error.message : String(error)}); previews go on without it (${MATCH_ESTIMATE_SETTING.configKey}: false turns it off)`);
    }
    return [];
  }
  const estimate = estimateFromSample(sample, tree);
  const previous = evaluable(previousRules);
  const lines = [describeEstimate(estimate, previous === undefined ? undefined : estimateFromSample(sample, previous))];
  const warning = estimateWarning(estimate);
  if (warning !== undefined) lines.push(warning);
  return lines;
}
