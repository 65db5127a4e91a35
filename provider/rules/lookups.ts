/**
 * The lookup-value check of a rule tree (spec 2.7, 4.8): fields such as ASN and Country accept only
 * the values their lookup endpoint lists, and Tag keys are the names of the `tags` lookup. Pure: the
 * resource fetches the lookups it needs ({@link lookupsForRules}) with the client and passes them in.
 */
import { PRESET_VALUE_FIELDS, type FilterLookup } from "../schema/names";
import { closestMatch, describeChoices } from "../schema/suggest";
import type { RuleFailure } from "./failure";
import { forEachLeaf, PREVIEW_UNKNOWN, TAG_FIELD, type RuleGroup, type RuleLeaf } from "./tree";

/** The values of each fetched lookup, by lookup name (`countries`, `asn`, `tags`, ...). */
export type LookupValueSets = ReadonlyMap<string, ReadonlySet<string>>;

/** The lookup that holds the valid `key` values of Tag leaves (spec 4.8). */
const TAG_LOOKUP: FilterLookup = "tags";

/** What a leaf is checked against: its value against a preset lookup, or its Tag key against `tags`. */
function lookupChecks(leaf: RuleLeaf): { property: "value" | "key"; candidate: string; lookup: FilterLookup }[] {
  if (leaf.field === TAG_FIELD) {
    return leaf.key === undefined ? [] : [{ property: "key", candidate: leaf.key, lookup: TAG_LOOKUP }];
  }
  const lookup = (PRESET_VALUE_FIELDS as Partial<Record<string, FilterLookup>>)[leaf.field];
  return lookup === undefined ? [] : [{ property: "value", candidate: leaf.value, lookup }];
}

/** The lookups whose values {@link validateRuleValues} needs for `tree`, distinct and sorted. */
export function lookupsForRules(tree: RuleGroup): FilterLookup[] {
  const lookups = new Set<FilterLookup>();
  forEachLeaf(tree, (leaf) => {
    for (const check of lookupChecks(leaf)) lookups.add(check.lookup);
  });
  return [...lookups].sort();
}

/**
 * The values and Tag keys of `tree` that {@link validateRuleValues} looks for, distinct, by lookup;
 * values not known yet in a preview are left out.
 */
export function lookupCandidates(tree: RuleGroup): Map<FilterLookup, Set<string>> {
  const candidates = new Map<FilterLookup, Set<string>>();
  forEachLeaf(tree, (leaf) => {
    for (const { candidate, lookup } of lookupChecks(leaf)) {
      if (candidate === PREVIEW_UNKNOWN) continue;
      const ofLookup = candidates.get(lookup) ?? new Set<string>();
      ofLookup.add(candidate);
      candidates.set(lookup, ofLookup);
    }
  });
  return candidates;
}

/**
 * Checks the values of preset-value fields (PRESET_VALUE_FIELDS: ASN, City, Country, ...) and the
 * keys of Tag leaves against the given lookup values. Values must be listed exactly, whatever the
 * leaf op: the spec says these fields accept only pre-set values, and values are case-sensitive
 * (docs/api.md 10.5), so `united states` gets a "did you mean". A lookup missing from `lookups` is not
 * checked (the caller did not fetch it); values not known yet in a preview are skipped. Paths are
 * those of the tree as given, from `basePath`.
 *
 * @param basePath - The path of the tree's root group in the failures. Default `rules`.
 */
export function validateRuleValues(tree: RuleGroup, lookups: LookupValueSets, basePath = "rules"): RuleFailure[] {
  const failures: RuleFailure[] = [];
  forEachLeaf(tree, (leaf, path) => {
    for (const { property, candidate, lookup } of lookupChecks(leaf)) {
      const values = lookups.get(lookup);
      if (values === undefined || candidate === PREVIEW_UNKNOWN || values.has(candidate)) continue;
      const choices = [...values];
      const what = property === "key" ? "tag" : `${leaf.field} value`;
      const reason = `${what} ${JSON.stringify(candidate)} is not in the ${lookup} lookup; ${describeChoices(candidate, choices, "values")}`;
      const suggestion = closestMatch(candidate, choices);
      failures.push({ path: `${path}.${property}`, reason, ...(suggestion === undefined ? {} : { suggestion }) });
    }
  }, basePath);
  return failures;
}
