import { describeRulesDiff, isUnknown, rulesEqual } from "../../rules";
import type { RuleGroup, SavedFilter, SavedFilterInput } from "../../schema";
import { BOOLEAN_DEFAULTS, MANAGED_PROPERTIES, type DeclaredFilter, type ManagedProperty } from "./declared";

/**
 * The state of saved filters: what the account should hold (the desired state of a declaration),
 * what it holds (the state of an answer, as the resources record it), and what changes between the
 * two, compared on canonical forms so that a reordering never shows as a change. Pure.
 */

/** A saved filter as the account holds it, as recorded in the state. */
export interface FilterState {
  /** The filter's id in the account. */
  filterId: string;
  /** The filter's name. */
  name: string;
  /** The rule tree as the account holds it. */
  rules: RuleGroup;
  /** The category, when the filter has one. */
  category?: string;
  /** The subcategory, when the filter has one. */
  subcategory?: string;
  /** Offered in the metric-exploration and diagnostics dashboards. */
  advanced: boolean;
  /** The API's `content` flag. */
  content: boolean;
  /** Whether the filter is enabled. */
  enabled: boolean;
  /** When it was created (ISO 8601 with offset). */
  created?: string;
  /** When it was last edited (ISO 8601 with offset). */
  edited?: string;
  /** Who created it. */
  creator?: string;
  /** Who edited it last. */
  editor?: string;
}

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

function sameValue(property: ManagedProperty, current: unknown, desired: unknown): boolean {
  if (property === "rules") {
    return current !== undefined && desired !== undefined && rulesEqual(current as RuleGroup, desired as RuleGroup);
  }
  return current === desired;
}

/**
 * The managed properties that change from `current` to `news` (inputs as a preview sees them, or a
 * {@link desiredState}): compared on canonical forms (reordering never diffs, nor the server's own
 * ordering), defaults filled in, values not known yet counted as changes.
 */
export function plannedChanges(current: Partial<SavedFilterInput>, news: Readonly<Partial<Record<ManagedProperty, unknown>>>): ManagedProperty[] {
  return MANAGED_PROPERTIES.filter((property) => {
    const next = news[property];
    if (isUnknown(next)) return true;
    const desired = next ?? (property in BOOLEAN_DEFAULTS ? BOOLEAN_DEFAULTS[property as keyof typeof BOOLEAN_DEFAULTS] : undefined);
    return !sameValue(property, current[property], desired);
  });
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
