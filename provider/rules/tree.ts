/**
 * The rule tree of a saved filter (spec 2.7): groups `{op, rules}` and leaves `{field, op, value}`
 * (plus `key` for field Tag). The types and zod schemas are those of provider/schema/filters.ts,
 * re-exported here so that rule code has one import; this module adds the walking helpers.
 */
import type { RuleGroup, RuleLeaf, RuleNode } from "../schema/filters";

export { RuleGroup, RuleLeaf, RuleNode } from "../schema/filters";

/**
 * The field whose leaves carry a `key` (the tag name), spec 2.7. Every other field ignores `key`.
 */
export const TAG_FIELD = "Tag";

/**
 * The string that stands for a value not known yet during a Pulumi preview (the SDK's
 * `runtime.unknownValue`, which the dynamic-provider host passes to `check` unchanged). Rule checks
 * skip such values instead of reporting them: they are checked again once known.
 */
export const PREVIEW_UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/**
 * True for a value not known yet in a preview: {@link PREVIEW_UNKNOWN} itself, or a list that holds
 * it (a list with one item not known yet is not known as a whole: a list of identifiers, say).
 */
export function isUnknown(value: unknown): boolean {
  return value === PREVIEW_UNKNOWN || (Array.isArray(value) && value.includes(PREVIEW_UNKNOWN));
}

/** True when `node` is a group (it has `rules`), false for a leaf. */
export function isRuleGroup(node: RuleNode): node is RuleGroup {
  return "rules" in node;
}

/** The path of a group's child, in the `rules.rules[2]` notation of check failures. */
export function childPath(groupPath: string, index: number): string {
  return `${groupPath}.rules[${index}]`;
}

/**
 * Calls `visit` for every leaf of `tree` with its path (depth first, in document order), so that
 * failures name the position in the tree as the user wrote it.
 */
export function forEachLeaf(
  tree: RuleGroup,
  visit: (leaf: RuleLeaf, path: string) => void,
  basePath = "rules",
): void {
  tree.rules.forEach((child, index) => {
    const path = childPath(basePath, index);
    if (isRuleGroup(child)) forEachLeaf(child, visit, path);
    else visit(child, path);
  });
}
