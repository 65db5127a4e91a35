/**
 * A readable diff of two rule trees for previews, on their canonical forms (so reordering or
 * regrouping shows nothing), rendered by the `json-diff` package without colour.
 */
import { canonicalRules } from "./canonical";
import type { RuleGroup } from "./tree";

/** The part of json-diff's API used here (the package ships no types). */
interface JsonDiff {
  diffString(before: unknown, after: unknown, options: { color: boolean; outputKeys: string[] }): string;
}

// A typed require keeps json-diff's untyped CommonJS module out of the type system without a new
// @types dependency for one function.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const jsonDiff = require("json-diff") as JsonDiff;

/**
 * A diff of the canonical forms of two rule trees, "" when they are equal. Changed leaves always
 * show their `field`, `key` and `op`, so a changed value reads as "Country contains: - x + y".
 */
export function describeRulesDiff(oldTree: RuleGroup, newTree: RuleGroup): string {
  return jsonDiff.diffString(canonicalRules(oldTree), canonicalRules(newTree), {
    color: false,
    outputKeys: ["field", "key", "op"],
  });
}
