import type * as pulumi from "@pulumi/pulumi";
import { and, field, getFilterFieldValues, SavedFilter, SavedFilterSet, type SavedFilterSetMemberArgs } from "pulumi-insights";

/** The stack outputs of {@link generatedFilters}. */
export interface GeneratedFilterOutputs {
  /** The id of each continent's saved filter, by continent. */
  continentFilterIds: Record<string, pulumi.Output<string>>;
  /** The id of each city's saved filter, by member key. */
  cityFilterIds: pulumi.Output<Record<string, string>>;
}

/** A stable, readable resource name or member key: `San Francisco` -> `san-francisco`. */
export function slug(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

/**
 * Filters generated from the account's own lookups (spec 4.8), so they always use the spelling the
 * API accepts: one SavedFilter per continent, and one SavedFilterSet for the cities whose name starts
 * with "San". A set is one resource for many filters: it is diffed member by member and applied with
 * bulk calls of up to 100 filters, which keeps large generated collections fast (a city list of a
 * real account can hold hundreds).
 */
export async function generatedFilters(): Promise<GeneratedFilterOutputs> {
  const { values: continents } = await getFilterFieldValues({ field: "continents" });
  const continentFilterIds = Object.fromEntries(
    continents.map((continent) => {
      const filter = new SavedFilter(`continent-${slug(continent)}`, {
        name: `Continent: ${continent}`,
        category: "GEO",
        subcategory: "Region",
        rules: and(field("Continent").equals(continent)),
      });
      return [continent, filter.filterId];
    }),
  );

  // `pattern` is a case-insensitive substring: keep only the names that start with it.
  const { values: cities } = await getFilterFieldValues({ field: "cities", pattern: "San " });
  const members: Record<string, SavedFilterSetMemberArgs> = Object.fromEntries(
    cities
      .filter((city) => city.startsWith("San "))
      .map((city) => [slug(city), { name: `City: ${city}`, category: "GEO", subcategory: "Region", rules: and(field("City").equals(city)) }]),
  );
  const cityFilters = new SavedFilterSet("san-cities", { filters: members });

  return { continentFilterIds, cityFilterIds: cityFilters.ids };
}
