/**
 * A problem found in a rule tree, shaped for a Pulumi `check()` failure: `path` names the exact
 * property (`rules.rules[2].field`) and `reason` says what is wrong and what would be valid.
 */
export interface RuleFailure {
  /** Where the problem is, from the base path given to the check (`rules.rules[2].field`). */
  path: string;
  /** What is wrong and what would be valid, with a "did you mean" for a near miss. */
  reason: string;
  /** The suggested replacement for a near miss, when there is one. */
  suggestion?: string;
}
