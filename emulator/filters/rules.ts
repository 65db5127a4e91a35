import { FILTER_FIELDS, PRESET_VALUE_FIELDS, RULE_GROUP_OPS, type RuleGroup, type RuleLeaf, type RuleNode } from "../contract/filters";
import { badRequest, isJsonObject } from "../http";
import { describeChoices } from "../text/suggest";
import { RULE_LEAF_KEYS } from "./schema";
import type { World } from "../world";
import { formatPath, unknownKeyMessage, type BodyPath } from "./body-errors";

/**
 * The deepest nesting of rule groups the emulator accepts: the emulator's choice (spec 2.7 sets no
 * limit); console filters are an `and` of `or` groups (docs/api.md 10.2), so 16 is generous, and the
 * bound keeps a hostile body from exhausting the stack.
 */
export const MAX_RULE_DEPTH = 16;

const GROUP_KEYS = ["op", "rules"] as const;
const LEAF_KEYS = RULE_LEAF_KEYS;

/**
 * Refuses a rule tree nested deeper than {@link MAX_RULE_DEPTH}, before the recursive schema
 * walks it. Iterative on purpose: it must not recurse on the very input it guards against.
 */
export function checkRuleDepth(rules: unknown, path: BodyPath): void {
  const pending: { node: unknown; path: BodyPath; depth: number }[] = [{ node: rules, path, depth: 1 }];
  while (pending.length > 0) {
    const { node, path: nodePath, depth } = pending.pop()!;
    if (!isJsonObject(node) || !Array.isArray(node.rules)) continue;
    if (depth > MAX_RULE_DEPTH) {
      throw badRequest(`${formatPath(nodePath)}: rule groups nest at most ${MAX_RULE_DEPTH} deep`, formatPath(nodePath));
    }
    node.rules.forEach((child, index) => pending.push({ node: child, path: [...nodePath, "rules", index], depth: depth + 1 }));
  }
}

/**
 * The checks of a rule tree that the wire schema cannot make (spec 2.7), on a tree that already
 * passed it (`rules` is the raw body value, so keys the schema would strip are still visible):
 * no unknown keys in nodes, no empty groups, leaf fields from the `fields` lookup, `key` exactly
 * for field Tag and one of the account's custom tags, and pre-set values for the fields that
 * accept only those (PRESET_VALUE_FIELDS), each a 400 naming the path and a suggestion.
 */
export function checkRuleSemantics(rules: RuleGroup, path: BodyPath, world: World): void {
  checkNode(rules, path, world);
}

function isGroup(node: RuleNode): node is RuleGroup {
  return "rules" in node && Array.isArray(node.rules) && (RULE_GROUP_OPS as readonly string[]).includes(node.op);
}

function checkNode(node: RuleNode, path: BodyPath, world: World): void {
  const known: readonly string[] = isGroup(node) ? GROUP_KEYS : LEAF_KEYS;
  const unknown = Object.keys(node).find((key) => !known.includes(key));
  if (unknown !== undefined) {
    const kind = isGroup(node) ? "a rule group has op and rules" : "a rule leaf has field, op, value and (for Tag) key";
    throw badRequest(`${formatPath([...path, unknown])}: ${unknownKeyMessage(unknown, known)} (${kind})`, formatPath([...path, unknown]));
  }
  if (isGroup(node)) {
    if (node.rules.length === 0) throw badRequest(`${formatPath([...path, "rules"])}: a rule group needs at least one rule`, formatPath([...path, "rules"]));
    node.rules.forEach((child, index) => checkNode(child, [...path, "rules", index], world));
    return;
  }
  checkLeaf(node as RuleLeaf, path, world);
}

function checkLeaf(leaf: RuleLeaf, path: BodyPath, world: World): void {
  const fieldPath = formatPath([...path, "field"]);
  const keyPath = formatPath([...path, "key"]);
  const field = FILTER_FIELDS.find((candidate) => candidate === leaf.field);
  if (!field) {
    throw badRequest(
      `${fieldPath}: unknown filter field "${leaf.field}"; ${describeChoices(leaf.field, FILTER_FIELDS, "fields")} (GET /bulk_filters/fields)`,
      fieldPath,
    );
  }
  if (field === "Tag") {
    if (leaf.key === undefined) throw badRequest(`${keyPath} is required for field Tag: the name of a custom tag (GET /bulk_filters/tags)`, keyPath);
    requireListed(leaf.key, world.lookupValues("tags"), keyPath, "custom tag of this account", "tags");
    return;
  }
  if (leaf.key !== undefined) throw badRequest(`${keyPath}: only field Tag takes a key; field "${field}" does not`, keyPath);
  if (field in PRESET_VALUE_FIELDS) {
    const lookup = PRESET_VALUE_FIELDS[field as keyof typeof PRESET_VALUE_FIELDS];
    requireListed(leaf.value, world.lookupValues(lookup), formatPath([...path, "value"]), `pre-set value of field ${field}`, lookup);
  }
}

function requireListed(value: string, allowed: readonly string[], parameter: string, what: string, lookup: string): void {
  if (allowed.includes(value)) return;
  const choices = allowed.length === 0 ? "this account has none" : describeChoices(value, allowed, "values");
  throw badRequest(`${parameter}: "${value}" is not a ${what}; ${choices} (GET /bulk_filters/${lookup})`, parameter);
}
