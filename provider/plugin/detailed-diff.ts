import { canonicalRules, isRuleGroup, PREVIEW_UNKNOWN, TAG_FIELD, type RuleGroup, type RuleNode } from "../rules";
import { OPT_OUT_DEFAULTS, PERSONAL_PROPERTIES } from "../pii/inputs";
import { BOOLEAN_DEFAULTS, MANAGED_PROPERTIES } from "../saved-filters/model/declared";
import type { PropertyChange, PropertyChangeKind } from "./resources";
import { revealed, type PropertyMap } from "./wire";

/**
 * The detailed diff of the resources (docs/provider-plugins.md rule 8): which property
 * paths changed between what the state records and what the program declares, and how (add,
 * delete, update; replace for a moved account). Pure: it compares plain values.
 *
 * Rule trees compare as their canonical form does (provider/rules/canonical.ts): children in
 * another order, repeated, or regrouped under a group of the same op are no change. Paths are those
 * of the trees as they are (`rules.rules[1].value`), so that the engine, which looks each path up in
 * the old and the new values to show them, shows the values that changed: a child that is the same
 * on both sides is matched wherever it stands; of the others, those at the same position are
 * compared property by property, and the rest are deletions at their old position and additions at
 * their new one.
 */

/** A detailed diff: property path -> change. */
export type DetailedDiff = Record<string, PropertyChange>;

/** How {@link detailedDiff} compares. */
export interface DetailedDiffOptions {
  /** The properties compared, in order; others are not the resource's to compare. */
  properties: readonly string[];
  /** A value the declaration may leave out, and what leaving it out means. */
  defaults?: Readonly<Record<string, unknown>>;
  /** Properties whose change replaces the resource (an account moved elsewhere). */
  replaceOn?: readonly string[];
  /** Compares properties whose equality is not JSON's, such as rule trees; `undefined` to compare as JSON. */
  differ?: Readonly<Record<string, (before: unknown, after: unknown, path: string) => Array<[string, PropertyChangeKind]>>>;
  /** The old values are old inputs, not the recorded state (the protocol's `inputDiff`). Default false. */
  inputDiff?: boolean;
}

/** `base.key`, or `base["key"]` for a key that is not a plain name (a member key such as `san-jose`). */
export function propertyPath(base: string, key: string): string {
  const step = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? key : `[${JSON.stringify(key)}]`;
  if (base === "" || step.startsWith("[")) return `${base}${step}`;
  return `${base}.${step}`;
}

/** The canonical identity of a node of a rule tree: equal for nodes that mean the same. */
function nodeKey(node: RuleNode): string {
  return JSON.stringify(canonicalRules({ op: "and", rules: [node] }));
}

/** True when a value not known yet (a preview's) is anywhere in `value`. */
function holdsUnknown(value: unknown): boolean {
  return JSON.stringify(value ?? null).includes(PREVIEW_UNKNOWN);
}

/** True for a plain JSON object. */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True for something shaped like a rule group (`op` and a list of `rules`). */
function isGroupShape(value: unknown): value is RuleGroup {
  return isObject(value) && typeof value.op === "string" && Array.isArray(value.rules);
}

/** The changes between two nodes at the same path. */
function nodeChanges(before: RuleNode, after: RuleNode, path: string): Array<[string, PropertyChangeKind]> {
  if (nodeKey(before) === nodeKey(after)) return [];
  if (isRuleGroup(before) && isRuleGroup(after)) return groupChanges(before, after, path);
  if (isRuleGroup(before) || isRuleGroup(after)) return [[path, "update"]];
  const changes: Array<[string, PropertyChangeKind]> = [];
  // `key` means something only on a Tag leaf (canonical.ts): elsewhere it is no change.
  const keyMatters = before.field === TAG_FIELD || after.field === TAG_FIELD;
  for (const property of ["field", "key", "op", "value"] as const) {
    if (property === "key" && !keyMatters) continue;
    const [old, current] = [before[property], after[property]];
    if (old === current) continue;
    changes.push([`${path}.${property}`, old === undefined ? "add" : current === undefined ? "delete" : "update"]);
  }
  return changes;
}

/**
 * The changes between two groups at the same path: their op, and their children. A child that
 * means the same as one on the other side (canonically) is no change wherever it stands, repeated
 * or not; of the others, those at the same position are compared, the rest deleted or added.
 */
function groupChanges(before: RuleGroup, after: RuleGroup, path: string): Array<[string, PropertyChangeKind]> {
  const changes: Array<[string, PropertyChangeKind]> = [];
  if (before.op !== after.op) changes.push([`${path}.op`, "update"]);
  const beforeKeys = before.rules.map(nodeKey);
  const afterKeys = after.rules.map(nodeKey);
  const oldLeft = beforeKeys.flatMap((key, index) => (afterKeys.includes(key) ? [] : [index]));
  const newLeft = new Set(afterKeys.flatMap((key, index) => (beforeKeys.includes(key) ? [] : [index])));
  for (const index of oldLeft) {
    const child = `${path}.rules[${index}]`;
    if (newLeft.delete(index)) changes.push(...nodeChanges(before.rules[index]!, after.rules[index]!, child));
    else changes.push([child, "delete"]);
  }
  for (const index of newLeft) changes.push([`${path}.rules[${index}]`, "add"]);
  return changes.sort(([left], [right]) => left.localeCompare(right, "en", { numeric: true }));
}

/**
 * The changes between two rule trees at `path` (`rules`): none when their canonical forms are
 * equal; a value not known yet (a preview) is an update of the whole tree.
 */
export function rulesChanges(before: unknown, after: unknown, path = "rules"): Array<[string, PropertyChangeKind]> {
  const comparable = isGroupShape(before) && isGroupShape(after) && !holdsUnknown(before) && !holdsUnknown(after);
  if (!comparable) return JSON.stringify(before) === JSON.stringify(after) ? [] : [[path, "update"]];
  if (JSON.stringify(canonicalRules(before)) === JSON.stringify(canonicalRules(after))) return [];
  return groupChanges(before, after, path);
}

/**
 * The detailed diff of `news` (the declaration) against `olds` (the recorded state, or the old
 * inputs), property by property, secrets compared by their values. `base` prefixes every path (a
 * member of a set: `filters["san-jose"]`).
 */
export function detailedDiff(olds: PropertyMap, news: PropertyMap, options: DetailedDiffOptions, base = ""): DetailedDiff {
  const [before, after] = [revealed(olds), revealed(news)];
  const diff: DetailedDiff = {};
  const add = (path: string, kind: PropertyChangeKind, property: string) => {
    diff[path] = { kind, replace: options.replaceOn?.includes(property) ?? false, inputDiff: options.inputDiff ?? false };
  };
  for (const property of options.properties) {
    const path = propertyPath(base, property);
    const old = before[property];
    const current = after[property] ?? options.defaults?.[property];
    if (old === undefined && current === undefined) continue;
    if (old === undefined || current === undefined) {
      add(path, old === undefined ? "add" : "delete", property);
      continue;
    }
    const differ = options.differ?.[property];
    if (differ !== undefined) {
      for (const [changed, kind] of differ(old, current, path)) add(changed, kind, property);
    } else if (JSON.stringify(old) !== JSON.stringify(current)) {
      add(path, "update", property);
    }
  }
  return diff;
}

/** How a saved filter compares: its managed properties, the API's defaults, rule trees canonically. */
const SAVED_FILTER: DetailedDiffOptions = {
  properties: MANAGED_PROPERTIES,
  defaults: BOOLEAN_DEFAULTS,
  differ: { rules: rulesChanges },
};

/** What the caller knows that the values do not say. */
export interface AccountContext {
  /**
   * Whether the resource's account changes so that it is replaced, as the core planned it
   * (accounts/binding.ts `accountChange`): true also when the name is the same but now set to
   * another base URL or client id (shown at `account`); false when another name is the same
   * account (a renamed entry of `insights:accounts`: an update). Left out, any change of `account`
   * replaces the resource.
   */
  accountReplaced?: boolean;
}

/** `account`: its change, or the move of the account it names, replaces the resource, unless the core says otherwise. */
function accountDiff(before: PropertyMap, after: PropertyMap, { accountReplaced }: AccountContext): DetailedDiff {
  const diff = detailedDiff(before, after, { properties: ["account"], replaceOn: accountReplaced === false ? [] : ["account"] });
  if (accountReplaced === true && diff.account === undefined) diff.account = { kind: "update", replace: true, inputDiff: false };
  return diff;
}

/**
 * The detailed diff of a SavedFilter: its managed properties against the recorded state, and
 * `account`, whose change to another account replaces the resource.
 */
export function savedFilterDiff(olds: PropertyMap, news: PropertyMap, context: AccountContext = {}): DetailedDiff {
  return { ...detailedDiff(olds, news, SAVED_FILTER), ...accountDiff(olds, news, context) };
}

/**
 * The detailed diff of a SavedFilterSet: each member by key (added, deleted, or changed property by
 * property at `filters.<key>.<property>`, its name defaulting to its key), the adoption map, and
 * `account`, whose change replaces the resource.
 */
export function savedFilterSetDiff(olds: PropertyMap, news: PropertyMap, context: AccountContext = {}): DetailedDiff {
  const before = revealed(olds);
  const after = revealed(news);
  const oldMembers = isObject(before.filters) ? before.filters : {};
  const newMembers = isObject(after.filters) ? after.filters : {};
  const diff: DetailedDiff = {};
  for (const key of [...new Set([...Object.keys(oldMembers), ...Object.keys(newMembers)])].sort()) {
    const path = propertyPath("filters", key);
    const [old, current] = [oldMembers[key], newMembers[key]];
    if (old === undefined || current === undefined) {
      diff[path] = { kind: old === undefined ? "add" : "delete", replace: false, inputDiff: false };
      continue;
    }
    if (!isObject(old) || !isObject(current)) {
      if (JSON.stringify(old) !== JSON.stringify(current)) diff[path] = { kind: "update", replace: false, inputDiff: false };
      continue;
    }
    Object.assign(diff, detailedDiff(old, { ...current, name: current.name ?? key }, SAVED_FILTER, path));
  }
  return {
    ...diff,
    ...detailedDiff(before, after, { properties: ["adopt"] }),
    ...accountDiff(before, after, context),
  };
}

/** The settings of a PiiOptOutRequest that change in place (pii/pii-opt-out-request.ts `diff`). */
const OPT_OUT_SETTINGS: DetailedDiffOptions = {
  properties: ["waitForCompletion", "waitTimeoutSeconds", "pollIntervalSeconds", "verifyDeletion", "resourceName"],
  defaults: OPT_OUT_DEFAULTS,
};

/**
 * The detailed diff of a PiiOptOutRequest: each personal property the core replaces on (the
 * identifiers and addresses are create-only, compared as sets by the core, never here, so no value
 * is compared twice), the wait settings in place, and `account`, whose change replaces the resource.
 */
export function piiOptOutRequestDiff(olds: PropertyMap, news: PropertyMap, replaces: readonly string[]): DetailedDiff {
  const [before, after] = [revealed(olds), revealed(news)];
  const diff: DetailedDiff = {};
  for (const property of PERSONAL_PROPERTIES.filter((candidate) => replaces.includes(candidate))) {
    const kind: PropertyChangeKind = before[property] === undefined ? "add" : after[property] === undefined ? "delete" : "update";
    diff[property] = { kind, replace: true, inputDiff: false };
  }
  return { ...diff, ...detailedDiff(before, after, OPT_OUT_SETTINGS), ...accountDiff(before, after, { accountReplaced: replaces.includes("account") }) };
}
