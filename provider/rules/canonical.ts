/**
 * The canonical form of a rule tree (spec 2.7): one representative for all trees that differ only
 * in the order of a group's children, duplicated children, nesting of groups with the same op and
 * one-child groups, so that a tree read back from the service and the tree in a program compare
 * equal however their children are ordered or grouped. Deeper laws (absorption, distribution) are
 * not applied: they would rewrite what the user wrote. Values are never rewritten (filter values
 * are case-sensitive, docs/api.md 10.5).
 */
import { isRuleGroup, TAG_FIELD, type RuleGroup, type RuleLeaf, type RuleNode } from "./tree";

/**
 * A leaf with a fixed key order and no stray properties. `key` is kept only for Tag: on any other
 * field the service has no use for it, so it must not make two trees differ.
 */
function canonicalLeaf(leaf: RuleLeaf): RuleLeaf {
  if (leaf.field === TAG_FIELD && leaf.key !== undefined) {
    return { field: leaf.field, key: leaf.key, op: leaf.op, value: leaf.value };
  }
  return { field: leaf.field, op: leaf.op, value: leaf.value };
}

/** The sort key of a canonical node: its JSON, which is stable because key order is fixed above. */
function sortKey(node: RuleNode): string {
  return JSON.stringify(node);
}

/**
 * The canonical form of a nested group, which may collapse to a single node:
 * - a child group with the group's own op is flattened into it (associativity);
 * - duplicate children are dropped (idempotence) and the rest sorted by {@link sortKey}
 *   (commutativity; plain code-unit order, independent of locale);
 * - a group left with one child is that child (`and(x)` and `or(x)` both mean `x`).
 * An empty group stays as it is: `and()` and `or()` mean different things, and flattening one into
 * a parent of the same op is exactly right (it is that op's identity).
 */
function canonicalNode(node: RuleNode): RuleNode {
  if (!isRuleGroup(node)) return canonicalLeaf(node);
  const children = new Map<string, RuleNode>();
  for (const child of node.rules) {
    const canonical = canonicalNode(child);
    const flattened = isRuleGroup(canonical) && canonical.op === node.op ? canonical.rules : [canonical];
    for (const member of flattened) children.set(sortKey(member), member);
  }
  const rules = [...children.keys()].sort().map((key) => children.get(key)!);
  if (rules.length === 1) return rules[0]!;
  return { op: node.op, rules };
}

/**
 * The canonical form of a rule tree. The root stays a group (the service's `rules` is always a
 * group): a root that collapses to a group is that group, and a root that collapses to a single leaf
 * is `{op: "and", rules: [leaf]}` — the op of a one-leaf group does not matter, so it is fixed.
 * Idempotent: `canonicalRules(canonicalRules(t))` equals `canonicalRules(t)`.
 */
export function canonicalRules(tree: RuleGroup): RuleGroup {
  const canonical = canonicalNode(tree);
  return isRuleGroup(canonical) ? canonical : { op: "and", rules: [canonical] };
}

/** True when two rule trees have the same canonical form (see {@link canonicalRules}). */
export function rulesEqual(a: RuleGroup, b: RuleGroup): boolean {
  return sortKey(canonicalRules(a)) === sortKey(canonicalRules(b));
}
