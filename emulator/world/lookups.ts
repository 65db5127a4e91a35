import {
  asnLookupValue, CITIES, CONTINENTS, COUNTRIES, CUSTOM_TAG_NAMES, DMAS, ISPS, STATES,
} from "./catalog";
import type { WorldLookup } from "./types";

/**
 * The pre-set values of each lookup of spec 4.8, spelled as saved-filter rules must spell them:
 * country, state, city, continent, DMA and ISP names ("United States", "California", "New York",
 * "North America", "San Francisco-Oakland-San Jose", "Comcast Cable"), ASNs as "AS7922", and the
 * custom tag names for `tags` (a Tag leaf's `key`). Sorted, without repeats.
 */
const LOOKUP_VALUES: Readonly<Record<WorldLookup, readonly string[]>> = {
  asn: sortedUnique(ISPS.map((isp) => asnLookupValue(isp.asn))),
  cities: sortedUnique(CITIES.map((city) => city.name)),
  continents: sortedUnique(CONTINENTS),
  countries: sortedUnique(COUNTRIES.map((country) => country.name)),
  dma: sortedUnique(DMAS),
  isp: sortedUnique(ISPS.map((isp) => isp.name)),
  states: sortedUnique(STATES.map((state) => state.name)),
  tags: sortedUnique(CUSTOM_TAG_NAMES),
};

function sortedUnique(values: readonly string[]): readonly string[] {
  return [...new Set(values)].sort((a, b) => a.localeCompare(b));
}

/**
 * The values of each lookup: the catalog's and `added` (an account's own, WorldOptions
 * `lookupValues`), sorted, without repeats; each lookup merged once, on first use.
 */
export function lookupValuesWith(added: Partial<Record<WorldLookup, readonly string[]>> = {}): (lookup: WorldLookup) => readonly string[] {
  const merged = new Map<WorldLookup, readonly string[]>();
  return (lookup) => {
    const extra = added[lookup];
    if (extra === undefined || extra.length === 0) return LOOKUP_VALUES[lookup];
    let values = merged.get(lookup);
    if (values === undefined) merged.set(lookup, (values = sortedUnique([...LOOKUP_VALUES[lookup], ...extra])));
    return values;
  };
}
