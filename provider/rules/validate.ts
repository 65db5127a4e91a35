/**
 * Structural validation of a rule tree (spec 2.7) for the provider's `check()`: pure, no network.
 * It walks the input as plain JSON (not through zod) so that every failure names the exact path and
 * what would be valid there, and it reports every problem at once rather than the first.
 */
import { FILTER_FIELDS, RULE_GROUP_OPS, RULE_LEAF_OPS } from "../schema/names";
import { closestMatch, describeChoices, listChoices } from "../schema/suggest";
import type { RuleFailure } from "./failure";
import { isJsonObject } from "../schema/common";
import { childPath, isUnknown, TAG_FIELD } from "./tree";

const GROUP_PROPERTIES = ["op", "rules"] as const;

/**
 * The deepest nesting of rule groups, the root group counting 1: our choice, since spec 2.7 sets
 * none (docs/api.md 11.2; the emulator refuses deeper trees with the same number, emulator/README.md).
 * Console filters nest two or three deep; the bound keeps a preview from accepting what `up` is refused.
 */
export const MAX_RULE_GROUP_DEPTH = 16;
const LEAF_PROPERTIES = ["field", "op", "value", "key"] as const;

type JsonObject = Record<string, unknown>;

/** A short description of a wrong value for a message (never its content beyond a short string). */
function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value);
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}

/** Collects failures with the did-you-mean of suggest.ts. */
class FailureList {
  readonly failures: RuleFailure[] = [];

  add(path: string, reason: string, suggestion?: string): void {
    this.failures.push(suggestion === undefined ? { path, reason } : { path, reason, suggestion });
  }

  /** A failure for `value` outside `choices`, with a suggestion for a near miss. */
  addChoice(path: string, what: string, value: unknown, choices: readonly string[], noun: string): void {
    if (typeof value !== "string") {
      this.add(path, `${what} must be a string, got ${describeValue(value)}; valid ${noun} are ${listChoices(choices)}`);
      return;
    }
    this.add(path, `${what} ${JSON.stringify(value)} is not valid; ${describeChoices(value, choices, noun)}`,
      closestMatch(value, choices));
  }

  /** Failures for properties a node does not have, e.g. `feild` or `vale`. */
  addUnknownProperties(node: JsonObject, path: string, known: readonly string[], kind: string): void {
    for (const property of Object.keys(node)) {
      if (known.includes(property)) continue;
      this.addChoice(`${path}.${property}`, `property`, property, known, `properties of a ${kind}`);
    }
  }
}

/** True when `value` is one of `choices` (a closed vocabulary of names.ts). */
function isOneOf(value: unknown, choices: readonly string[]): boolean {
  return typeof value === "string" && choices.includes(value);
}

/** A node is a group when it has `rules`, or no leaf property and a group op (e.g. a `rule` typo). */
function looksLikeGroup(node: JsonObject): boolean {
  if ("rules" in node) return true;
  if ("field" in node || "value" in node || "key" in node) return false;
  return isOneOf(node.op, RULE_GROUP_OPS);
}

function checkNode(node: unknown, path: string, failures: FailureList, depth: number): void {
  if (isUnknown(node)) return;
  if (!isJsonObject(node)) {
    failures.add(path, `expected a group {op, rules} or a leaf {field, op, value}, got ${describeValue(node)}`);
    return;
  }
  if (looksLikeGroup(node)) checkGroup(node, path, failures, depth);
  else checkLeaf(node, path, failures);
}

function checkGroup(group: JsonObject, path: string, failures: FailureList, depth: number): void {
  if (depth > MAX_RULE_GROUP_DEPTH) {
    failures.add(path, `rule groups nest at most ${MAX_RULE_GROUP_DEPTH} deep (docs/api.md 11.2); merge nested groups of the same op, or split the filter`);
    return;
  }
  failures.addUnknownProperties(group, path, GROUP_PROPERTIES, "group");
  if (!isUnknown(group.op)) {
    if (group.op === undefined) failures.add(`${path}.op`, `a group needs op: "and" or "or"`);
    else if (!isOneOf(group.op, RULE_GROUP_OPS)) {
      failures.addChoice(`${path}.op`, "group op", group.op, RULE_GROUP_OPS, "group ops");
    }
  }
  const rules = group.rules;
  // A list holding an unknown child is still walked: its known children are checked now.
  if (!Array.isArray(rules)) {
    if (!isUnknown(rules)) failures.add(`${path}.rules`, `a group needs rules: an array of groups and leaves, got ${describeValue(rules)}`);
  } else if (rules.length === 0) {
    // and() would match every session and or() none: almost certainly a mistake, so refused.
    failures.add(`${path}.rules`, "a group needs at least one rule; add a rule or remove the group");
  } else {
    rules.forEach((child, index) => checkNode(child, childPath(path, index), failures, depth + 1));
  }
}

function checkLeaf(leaf: JsonObject, path: string, failures: FailureList): void {
  failures.addUnknownProperties(leaf, path, LEAF_PROPERTIES, "leaf");
  const { field, op, value, key } = leaf;
  if (field === undefined) {
    failures.add(`${path}.field`, `a leaf needs field, one of ${listChoices(FILTER_FIELDS)}`);
  } else if (!isUnknown(field) && !isOneOf(field, FILTER_FIELDS)) {
    failures.addChoice(`${path}.field`, "field", field, FILTER_FIELDS, "fields");
  }
  if (op === undefined) {
    failures.add(`${path}.op`, `a leaf needs op, one of ${listChoices(RULE_LEAF_OPS)}`);
  } else if (isOneOf(op, RULE_GROUP_OPS)) {
    failures.add(`${path}.op`, `"${String(op)}" is a group op and a group needs rules; a leaf's op is one of ${listChoices(RULE_LEAF_OPS)}`);
  } else if (!isUnknown(op) && !isOneOf(op, RULE_LEAF_OPS)) {
    failures.addChoice(`${path}.op`, "leaf op", op, RULE_LEAF_OPS, "leaf ops");
  }
  if (value === undefined) failures.add(`${path}.value`, "a leaf needs value, a string");
  else if (typeof value !== "string") {
    const hint = typeof value === "number" || typeof value === "boolean" ? ` (write "${String(value)}")` : "";
    failures.add(`${path}.value`, `value must be a string${hint}, got ${describeValue(value)}`);
  }
  if (field === TAG_FIELD) {
    if (key === undefined || key === "") {
      failures.add(`${path}.key`, `a Tag leaf needs key, the tag name (for example tag("deviceId").equals(...))`);
    } else if (typeof key !== "string") {
      failures.add(`${path}.key`, `key must be a string (the tag name), got ${describeValue(key)}`);
    }
  } else if (key !== undefined && typeof field === "string" && !isUnknown(field)) {
    // The service ignores it (canonicalRules drops it too): probably meant as field Tag.
    failures.add(`${path}.key`, `key applies only to field "Tag"; remove it or use field "Tag" for a custom tag`);
  }
}

/**
 * Checks a rule tree given as plain JSON (spec 2.7). Returns every failure with its exact path from
 * `basePath` (the root group), for example `rules.rules[2].field`, and what would be valid there: a
 * did-you-mean for a near miss of a field name or op, Tag leaves without `key`, empty groups, wrong
 * types and unknown properties. Values not known yet in a preview are skipped. Empty means valid,
 * and then the input is a RuleGroup (the schema of provider/schema/filters.ts accepts it).
 *
 * @param input - The tree as a program or a file gives it, of any type: nothing is assumed of it.
 * @param basePath - The path of the tree's root group in the failures. Default `rules`.
 */
export function validateRules(input: unknown, basePath = "rules"): RuleFailure[] {
  const failures = new FailureList();
  if (isUnknown(input)) return [];
  if (!isJsonObject(input)) {
    failures.add(basePath, `rules must be a group {op: "and" | "or", rules: [...]}, got ${describeValue(input)}`);
  } else if (!looksLikeGroup(input)) {
    failures.add(basePath, `the top of a rule tree is a group, not a leaf: wrap it, e.g. {op: "and", rules: [<leaf>]} or and(<leaf>)`);
  } else {
    checkGroup(input, basePath, failures, 1);
  }
  return failures.failures;
}
