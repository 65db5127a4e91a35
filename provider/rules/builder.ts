/**
 * A small builder for rule trees (spec 2.7) that reads well in a review:
 *
 * ```ts
 * and(
 *   field("Country").contains("United States"),
 *   or(field("CDN").equals("Akamai"), field("CDN").equals("Fastly")),
 *   tag("deviceId").notContains("test-"),
 * )
 * ```
 *
 * It produces plain JSON objects (no classes), so trees built with it can be mixed with literal JSON
 * and serialize as they are into Pulumi inputs and state.
 */
import type { FilterField } from "../schema/names";
import { TAG_FIELD, type RuleGroup, type RuleLeaf, type RuleNode } from "./tree";

/** The leaf operators, one method each (spec 2.7 names contains and not_contains; equals: docs/api.md 10.2). */
export interface RuleLeafBuilder {
  /**
   * A leaf that matches when the field contains `value`.
   *
   * @param value - The text to compare, case-sensitive (docs/api.md 10.5); on a field of pre-set values (Country, ASN, ...) one of its lookup's values, exactly.
   */
  contains(value: string): RuleLeaf;
  /**
   * A leaf that matches when the field does not contain `value`.
   *
   * @param value - The text to compare, case-sensitive (docs/api.md 10.5); on a field of pre-set values (Country, ASN, ...) one of its lookup's values, exactly.
   */
  notContains(value: string): RuleLeaf;
  /**
   * A leaf that matches when the field equals `value`.
   *
   * @param value - The text to compare, case-sensitive (docs/api.md 10.5); on a field of pre-set values (Country, ASN, ...) one of its lookup's values, exactly.
   */
  equals(value: string): RuleLeaf;
}

/** A field that takes no `key`: every filter field but Tag, which {@link tag} builds. */
export type KeylessFilterField = Exclude<FilterField, typeof TAG_FIELD>;

function leafBuilder(head: Pick<RuleLeaf, "field" | "key">): RuleLeafBuilder {
  // Key order follows the service's own JSON (docs/api.md 10.2: field, key, op, value).
  const leaf = (op: RuleLeaf["op"], value: string): RuleLeaf => ({ ...head, op, value });
  return {
    contains: (value) => leaf("contains", value),
    notContains: (value) => leaf("not_contains", value),
    equals: (value) => leaf("equals", value),
  };
}

/**
 * Starts a leaf on a filter field. The name is typed as a filter field name (spec 2.7), so a typo
 * fails to compile; use {@link tag} for custom tags.
 */
export function field(name: KeylessFilterField): RuleLeafBuilder {
  return leafBuilder({ field: name });
}

/**
 * Starts a leaf on the custom tag `key` (field Tag, spec 2.7).
 *
 * @param key - The tag's key, as the account's `tags` lookup lists it (a preview checks it there).
 */
export function tag(key: string): RuleLeafBuilder {
  return leafBuilder({ field: TAG_FIELD, key });
}

/**
 * A group that matches when every rule matches. At least one rule: an empty group is invalid.
 *
 * @param first - The first rule, a leaf or a group.
 * @param rest - The other rules, leaves or groups, in order.
 */
export function and(first: RuleNode, ...rest: RuleNode[]): RuleGroup {
  return { op: "and", rules: [first, ...rest] };
}

/**
 * A group that matches when any rule matches. At least one rule: an empty group is invalid.
 *
 * @param first - The first rule, a leaf or a group.
 * @param rest - The other rules, leaves or groups, in order.
 */
export function or(first: RuleNode, ...rest: RuleNode[]): RuleGroup {
  return { op: "or", rules: [first, ...rest] };
}
