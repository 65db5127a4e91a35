import { z } from "zod";
import { describeRulesDiff, isUnknown, ruleTreeChanges, type RuleTreeChange } from "../../rules";
import type { RuleGroup, SavedFilter, SavedFilterInput } from "../../schema";
import type * as records from "../../schema/resource-records";
import { BOOLEAN_DEFAULTS, DeclaredFilter, isBelow, MANAGED_PROPERTIES, propertyPath, type ManagedProperty } from "./declared";

/**
 * The state of saved filters: what the account should hold (the desired state of a declaration),
 * what it holds (the state of an answer, as the resources record it), and what changes between the
 * two, compared on canonical forms so that a reordering never shows as a change. Pure.
 */

/**
 * @internal
 * A saved filter as the account holds it, as the resources record it: its id, its properties
 * (./declared.ts `DeclaredFilter`, the API's defaults filled in) and what the account adds.
 */
export const FilterState = z
  .object({
    filterId: z.string().describe("The filter's id in the account (also a SavedFilter's resource id)."),
    ...DeclaredFilter.shape,
    created: z.string().optional().describe("When the filter was created (ISO 8601 with offset)."),
    edited: z.string().optional().describe("When the filter was last edited (ISO 8601 with offset)."),
    creator: z.string().optional().describe("Who created the filter (the API account's user name)."),
    editor: z.string().optional().describe("Who edited the filter last."),
  })
  .describe("A saved filter as the account holds it, as the resources record it.");
/** A {@link FilterState} (provider/schema/resource-records.ts, written from it). */
export type FilterState = records.FilterState;

/** The declared state with the API's defaults filled in: what the account should hold. */
export function desiredState(declared: DeclaredFilter): SavedFilterInput {
  return {
    name: declared.name,
    rules: declared.rules,
    ...(declared.category === undefined ? {} : { category: declared.category }),
    ...(declared.subcategory === undefined ? {} : { subcategory: declared.subcategory }),
    advanced: declared.advanced ?? BOOLEAN_DEFAULTS.advanced,
    content: declared.content ?? BOOLEAN_DEFAULTS.content,
    enabled: declared.enabled ?? BOOLEAN_DEFAULTS.enabled,
  };
}

/** The state of a filter as read from the account, the API's defaults filled in. */
export function stateOf(filter: SavedFilter): FilterState {
  return {
    filterId: filter.id,
    name: filter.name,
    rules: filter.rules,
    ...(filter.category === undefined || filter.category === "" ? {} : { category: filter.category }),
    ...(filter.subcategory === undefined || filter.subcategory === "" ? {} : { subcategory: filter.subcategory }),
    advanced: filter.advanced ?? BOOLEAN_DEFAULTS.advanced,
    content: filter.content ?? BOOLEAN_DEFAULTS.content,
    enabled: filter.enabled ?? BOOLEAN_DEFAULTS.enabled,
    ...(filter.created === undefined ? {} : { created: filter.created }),
    ...(filter.edited === undefined ? {} : { edited: filter.edited }),
    ...(filter.creator === undefined ? {} : { creator: filter.creator }),
    ...(filter.editor === undefined ? {} : { editor: filter.editor }),
  };
}

/**
 * The filter's state as outputs record it (a SavedFilter's outputs hold it beside the account and the
 * adopted id): the {@link FilterState} members only.
 */
export function recordedState(outputs: FilterState): FilterState {
  const { filterId, name, rules, category, subcategory, advanced, content, enabled, created, edited, creator, editor } = outputs;
  return {
    filterId,
    name,
    rules,
    ...(category === undefined ? {} : { category }),
    ...(subcategory === undefined ? {} : { subcategory }),
    advanced,
    content,
    enabled,
    ...(created === undefined ? {} : { created }),
    ...(edited === undefined ? {} : { edited }),
    ...(creator === undefined ? {} : { creator }),
    ...(editor === undefined ? {} : { editor }),
  };
}

/** A change of one property of a filter at its path (`rules.rules[1].value`, `filters.austin.name`). */
export type FilterChange = RuleTreeChange;

/** The API's value of a managed property a declaration leaves out, if it has one. */
function apiDefault(property: ManagedProperty): unknown {
  return property in BOOLEAN_DEFAULTS ? BOOLEAN_DEFAULTS[property as keyof typeof BOOLEAN_DEFAULTS] : undefined;
}

/**
 * The changes of the managed properties from `current` (a recorded state) to `news` (inputs as a
 * preview sees them, or a {@link desiredState}), each at its path below `base`: the API's defaults
 * filled in, rule trees compared on their canonical forms (reordering never diffs, nor the server's
 * own ordering) and placed at the path of the tree as it is (rules/diff.ts `ruleTreeChanges`), a
 * value not known yet counted as a change.
 */
export function filterChanges(current: object, news: object, base = ""): FilterChange[] {
  return MANAGED_PROPERTIES.flatMap((property): FilterChange[] => {
    const path = propertyPath(base, property);
    const old = (current as Record<string, unknown>)[property];
    const next = (news as Record<string, unknown>)[property] ?? apiDefault(property);
    if (old === undefined && next === undefined) return [];
    if (old === undefined || next === undefined) return [{ path, kind: old === undefined ? "add" : "delete" }];
    if (property === "rules") return ruleTreeChanges(old, next, path);
    return old === next ? [] : [{ path, kind: "update" }];
  });
}

/** The managed properties that the changed `paths` (of {@link filterChanges} at `base`) lie in, in display order. */
export function changedProperties(paths: readonly string[], base = ""): ManagedProperty[] {
  return MANAGED_PROPERTIES.filter((property) => {
    const at = propertyPath(base, property);
    return paths.some((path) => isBelow(path, at));
  });
}

/** The managed properties that change from `current` to `news`, as {@link filterChanges} finds them. */
export function plannedChanges(current: object, news: object): ManagedProperty[] {
  return changedProperties(filterChanges(current, news).map((change) => change.path));
}

/**
 * A filter's managed properties as a program declares them: what the account holds, with the
 * API's defaults, empty categories and missing values left out, as a program leaves them out. What
 * `pulumi import` of the plugin answers as inputs, and what `pulumi-insights import` writes.
 */
export function declaredProperties(filter: Readonly<Record<string, unknown>>): Partial<Record<ManagedProperty, unknown>> {
  return Object.fromEntries(MANAGED_PROPERTIES.flatMap((property) => {
    const value = filter[property];
    return value === undefined || value === null || value === "" || value === apiDefault(property) ? [] : [[property, value]];
  }));
}

/**
 * Whether `filter`, as the account lists it, is the filter `input` declares: exact name and every
 * declared property equal, the API's defaults filled in. How a lost create's filter is recognised
 * (the gateway is given this judgement: saved-filters/gateway/lost-creates.ts).
 */
export function isDeclaredFilter(filter: SavedFilter, input: SavedFilterInput): boolean {
  return filter.name === input.name && plannedChanges(stateOf(filter), input).length === 0;
}

/**
 * What the signs of a rule-tree diff stand for, said beside it. The diff goes from the state (the
 * account as last read) to the program, and a refresh shows it too: since CLI 3.120 it asks `diff`
 * of the account's filter against the declaration (docs/dynamic-providers.md rule 7), where a bare
 * `- Canada + Mexico` would read backwards.
 */
export const RULES_DIFF_LEGEND = "(- in the account, + declared)";

/** The rule-tree diff of a planned rules change, "" when there is none to show. */
export function describeRulesChange(current: Partial<SavedFilterInput>, news: Record<string, unknown>, changed: readonly string[]): string {
  if (!changed.includes("rules") || isUnknown(news.rules) || current.rules === undefined || news.rules === undefined) return "";
  return describeRulesDiff(current.rules, news.rules as RuleGroup);
}
