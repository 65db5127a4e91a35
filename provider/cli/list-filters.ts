/**
 * Every saved filter a selection names, also past the service's cap on one listing. The API has
 * no pagination and caps every result set at 500 (docs/api.md 10.1), so a listing that comes back
 * with exactly 500 filters may have been cut. Such a listing is asked again as disjoint parts (by
 * `advanced`, then by `enabled`, docs/api.md 4.8), which cover it when every filter carries both
 * flags. docs/api.md 2.7 does not promise that, so it is checked: every filter of the full answer
 * must reappear in a part. A part still full after both splits, or a split that lost a filter, is
 * reported as incomplete rather than taken as the whole. A selection by id is never cut: the client
 * asks 100 ids per call (docs/api.md 4.8).
 */
import type { InsightsClient } from "../client";
import type { FilterListQuery } from "../client/filters";
import type { SavedFilter } from "../schema";

/** The most filters one listing answers (docs/api.md 10.1). */
export const LISTING_CAP = 500;

/** Which filters to read: all of them by default; given criteria must all hold. */
export interface FilterSelection {
  /** Only filters whose name contains this text (the API's substring match). */
  name?: string;
  /** Only filters of this category. */
  category?: string;
  /** Only these ids. */
  ids?: readonly string[];
}

/** The filters read, and the parts of the account that were still cut at the cap. */
export interface FilterListing {
  filters: SavedFilter[];
  /** Each listing still full after every split, as its query (`advanced=false&enabled=true`). */
  incomplete: string[];
}

/** The boolean flags a full listing is split by, in order. */
const SPLITS = ["advanced", "enabled"] as const;

type ListQuery = Omit<FilterListQuery, "fields">;

function describeQuery(query: ListQuery): string {
  return Object.entries(query).map(([key, value]) => `${key}=${String(value)}`).join("&") || "every filter";
}

/**
 * Lists the selected filters. A listing of exactly {@link LISTING_CAP} filters may have been cut, so
 * it is asked again by `advanced`, then by `enabled`; what stays full after both splits is named in
 * `incomplete` rather than taken as the whole.
 */
export async function listFilters(client: InsightsClient, selection: FilterSelection = {}): Promise<FilterListing> {
  const base: ListQuery = {
    ...(selection.name === undefined ? {} : { name: selection.name }),
    ...(selection.category === undefined ? {} : { category: selection.category }),
  };
  if (selection.ids !== undefined) return { filters: await client.filters.list({ ...base, ids: [...selection.ids] }), incomplete: [] };
  const incomplete: string[] = [];
  const list = async (query: ListQuery, depth: number): Promise<SavedFilter[]> => {
    const filters = await client.filters.list(query);
    if (filters.length < LISTING_CAP) return filters;
    const split = SPLITS[depth];
    if (split === undefined) {
      incomplete.push(describeQuery(query));
      return filters;
    }
    const parts = (await Promise.all([false, true].map((value) => list({ ...query, [split]: value }, depth + 1)))).flat();
    const found = new Set(parts.map((filter) => filter.id));
    if (!filters.every((filter) => found.has(filter.id))) {
      incomplete.push(`${describeQuery(query)} (split by ${split}, some filters carry no ${split} flag)`);
      return [...filters, ...parts];
    }
    return parts;
  };
  const filters = await list(base, 0);
  // The parts are disjoint, but a filter edited between two calls could show in both.
  const unique = new Map(filters.map((filter) => [filter.id, filter]));
  return { filters: [...unique.values()], incomplete };
}
