/**
 * Resource names (and SavedFilterSet member keys) for imported filters: derived from the filter's
 * name so a reviewer recognises it, valid in a Pulumi URN, unique within the file and the same on
 * every run against the same account.
 */
import { compareIds } from "../client/core/listing";

/** The longest name derived from a filter name, before any id suffix. */
const MAX_BASE_LENGTH = 60;

/** A filter as far as naming goes. */
export interface NamedFilter {
  id: string;
  name: string;
}

/**
 * The readable part of a resource name: lower case ASCII letters and digits separated by single
 * hyphens. Accents are dropped (`Zürich` gives `zurich`); a name with no such character left
 * (`東京`) gives "filter", made unique by the id like any other collision.
 */
export function nameBase(filterName: string): string {
  const ascii = filterName.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  const words = ascii.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  const cut = words.slice(0, MAX_BASE_LENGTH).replace(/-+$/, "");
  return cut === "" ? "filter" : cut;
}

/**
 * An id as a name suffix: as it is when it is letters and digits (ids are numbers, docs/api.md 10.2),
 * else made readable the way {@link nameBase} makes names, so that no character of an odd id from
 * the service reaches a resource name (and with it the URNs Pulumi prints).
 */
function idSuffix(id: string): string {
  if (/^[A-Za-z0-9]+$/.test(id)) return id;
  const words = id.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return words === "" ? "id" : words;
}

/**
 * The resource name of every filter, by id. A base that one filter alone has is its name; filters
 * whose bases collide (`Roku devices`, `roku-devices`, `Roku Devices!`) are each suffixed with
 * their id, so a name never depends on the order of the listing or on which filters were selected
 * besides the colliding ones. Suffixing again settles the rare clash of a suffixed name with
 * another filter's base (or of two odd ids written alike).
 */
export function resourceNames(filters: readonly NamedFilter[]): Map<string, string> {
  const byBase = new Map<string, NamedFilter[]>();
  for (const filter of filters) {
    const base = nameBase(filter.name);
    byBase.set(base, [...(byBase.get(base) ?? []), filter]);
  }
  const names = new Map<string, string>();
  const taken = new Set<string>();
  // Unique bases first, so a suffixed name yields to a filter's own base rather than the reverse.
  const groups = [...byBase.entries()].sort(([baseA, a], [baseB, b]) => a.length - b.length || (baseA < baseB ? -1 : baseA > baseB ? 1 : 0));
  for (const [base, group] of groups) {
    for (const filter of [...group].sort((a, b) => compareIds(a.id, b.id))) {
      const suffix = idSuffix(filter.id);
      let name = group.length === 1 ? base : `${base}-${suffix}`;
      while (taken.has(name)) name = `${name}-${suffix}`;
      taken.add(name);
      names.set(filter.id, name);
    }
  }
  return names;
}
