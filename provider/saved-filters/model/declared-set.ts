import { isUnknown } from "../../rules";
import { isJsonObject } from "../../schema";
import { describeChoices, unknownProperties } from "../../schema/suggest";
import { checkDeclaredFilterOffline, MANAGED_PROPERTIES, type PathFailure } from "./declared";

/**
 * A SavedFilterSet as a program declares it: where each member is in the inputs, its name
 * defaulting to its member key, and the checks of the set's own inputs (the map of members, the
 * adoption map, unknown properties) with exact paths. Each member is checked as a SavedFilter is
 * (./declared.ts), by whoever calls: the core with the account's lookups
 * (saved-filters/saved-filter-set.ts), the resource class offline on the values a program gives
 * (provider/resources/known-inputs.ts).
 */

/** A failure of the set's inputs at a property: the reason starts with the exact path (accounts/calls.ts `PropertyFailure`). */
export interface SetFailure {
  /** `filters`, `adopt`, or an unknown property. */
  property: string;
  /** What is wrong, starting with the exact path (`filters["paris"].rules.rules[0].field: ...`). */
  reason: string;
}

/** A member's shape for messages: a SavedFilter's properties, `name` defaulting to the member key. */
const MEMBER_SHAPE = `{${MANAGED_PROPERTIES.map((property) => (property === "rules" ? property : `${property}?`)).join(", ")}}`;

/** A saved filter's id, as a program names one to take over (`adopt`, and SavedFilter's `adoptId`). */
export const NUMERIC_ID = /^\d+$/;

/** Where a member is in the inputs, as check failures and messages name it: `filters["paris"]`. */
export function memberPath(key: string): string {
  return `filters[${JSON.stringify(key)}]`;
}

/** A member's inputs with the name defaulted to its key. */
export function withDefaultName(key: string, member: Record<string, unknown>): Record<string, unknown> {
  return member.name === undefined ? { ...member, name: key } : member;
}

/** The failures of a member's filter checks, on `filters`. */
export function memberFailures(failures: readonly PathFailure[]): SetFailure[] {
  return failures.map(({ path, reason }) => ({ property: "filters", reason: `${path}: ${reason}` }));
}

/**
 * What a member is to be checked as: a SavedFilter's declaration (its name defaulted to the key) at
 * its path, or the failures that stop it being one (an empty key, not an object); nothing for a
 * member not known yet. Unknown properties of a member are refused by the filter's check, as for a
 * SavedFilter.
 */
export function memberToCheck(key: string, member: unknown): { declared: Record<string, unknown>; path: string } | { failures: SetFailure[] } {
  const path = memberPath(key);
  if (isUnknown(member)) return { failures: [] };
  if (key.trim() === "") return { failures: memberFailures([{ path, reason: "member keys must be non-empty" }]) };
  if (!isJsonObject(member)) return { failures: memberFailures([{ path, reason: `must be a saved-filter spec ${MEMBER_SHAPE}` }]) };
  return { declared: withDefaultName(key, member), path };
}

/** The failures of `filters` itself: required, a map. */
function filtersFailures(filters: unknown): SetFailure[] {
  if (filters === undefined) return [{ property: "filters", reason: "filters: required, a map from member keys to saved-filter specs {name?, rules, ...}" }];
  if (!isUnknown(filters) && !isJsonObject(filters)) return [{ property: "filters", reason: "filters: must be a map from member keys to saved-filter specs {name?, rules, ...}" }];
  return [];
}

/** The failures of `adopt`: numeric ids, keys that are members, no id adopted twice. */
function adoptFailures(adopt: unknown, filters: unknown): SetFailure[] {
  if (adopt === undefined || isUnknown(adopt)) return [];
  const failure = (where: string, reason: string) => ({ property: "adopt", reason: `${where}: ${reason}` });
  if (!isJsonObject(adopt)) return [failure("adopt", "must be a map from member keys to ids of existing saved filters")];
  const failures: SetFailure[] = [];
  const keys = isJsonObject(filters) ? Object.keys(filters) : undefined;
  const adoptedBy = new Map<string, string>();
  for (const [key, id] of Object.entries(adopt)) {
    const path = `adopt[${JSON.stringify(key)}]`;
    if (keys !== undefined && !keys.includes(key)) failures.push(failure(path, `no member of filters has this key; ${describeChoices(key, keys, "member keys")}`));
    if (isUnknown(id)) continue;
    if (typeof id !== "string" || !NUMERIC_ID.test(id)) {
      failures.push(failure(path, `must be the numeric id of an existing saved filter, got ${JSON.stringify(id)}`));
      continue;
    }
    const earlier = adoptedBy.get(id);
    if (earlier !== undefined) failures.push(failure(path, `filter ${id} is already adopted by member ${JSON.stringify(earlier)}; a filter can belong to one member`));
    adoptedBy.set(id, key);
  }
  return failures;
}

/**
 * The failures of a SavedFilterSet's inputs `news`, in the order a preview shows them: `filters`
 * itself, the members' (`members`, as the caller checked them: with lookups or offline), `adopt`,
 * unknown properties.
 */
export function checkDeclaredSet(news: Record<string, unknown>, members: readonly SetFailure[]): SetFailure[] {
  const unknown = unknownProperties(news, ["filters", "adopt", "account"], ["__provider"]).map(({ property, reason }) => ({ property, reason: `${property}: ${reason}` }));
  return [...filtersFailures(news.filters), ...members, ...adoptFailures(news.adopt, news.filters), ...unknown];
}

/** The failures of a SavedFilterSet's inputs found offline: {@link checkDeclaredSet} with each member checked offline. */
export function checkDeclaredSetOffline(news: Record<string, unknown>): SetFailure[] {
  const filters = news.filters;
  const members = isJsonObject(filters)
    ? Object.entries(filters).flatMap(([key, member]) => {
        const toCheck = memberToCheck(key, member);
        return "failures" in toCheck ? toCheck.failures : memberFailures(checkDeclaredFilterOffline(toCheck.declared, toCheck.path));
      })
    : [];
  return checkDeclaredSet(news, members);
}
