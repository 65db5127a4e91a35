/**
 * Every saved filter a selection names, also past the service's cap on one listing. The client's
 * listing is complete or fails (provider/client/core/listing.ts, docs/api.md 11.6): an answer at the
 * cap of 500 is asked again in parts, and a part still at the cap however narrowed fails with an
 * `IncompleteListingError`, which the command reports with how to import the account in slices.
 * A selection by id is never cut: the client asks 100 ids per call (docs/api.md 4.8).
 */
import type { InsightsClient } from "../client";
import { InsightsError } from "../client/core/errors";
import type { SavedFilter } from "../schema";

/** Which filters to read: all of them by default; given criteria must all hold. */
export interface FilterSelection {
  /** Only filters whose name contains this text (the API's substring match). */
  name?: string;
  /** Only filters of this category. */
  category?: string;
  /** Only filters made by this user (docs/api.md 4.8 `creator`). */
  creator?: string;
  /** Only filters made on this day, YYYY-MM-DD (docs/api.md 4.8 `created`). */
  created?: string;
  /** Only these ids. */
  ids?: readonly string[];
}

/**
 * Lists every selected filter; throws an `IncompleteListingError` when a part of the selection stays
 * at the service's cap however it is narrowed, rather than answering part of it.
 */
export async function listFilters(client: InsightsClient, selection: FilterSelection = {}): Promise<SavedFilter[]> {
  const filters = await client.filters.list({
    ...(selection.name === undefined ? {} : { name: selection.name }),
    ...(selection.category === undefined ? {} : { category: selection.category }),
    ...(selection.creator === undefined ? {} : { creator: selection.creator }),
    ...(selection.created === undefined ? {} : { created: selection.created }),
    ...(selection.ids === undefined ? {} : { ids: [...selection.ids] }),
  });
  refuseRepeatedIds(filters);
  return filters;
}

/**
 * Fails when the listing names one id twice: each filter becomes one resource that adopts its id,
 * and two resources adopting one filter would each manage it. Ids are read exactly, also beyond 2^53
 * (provider/client/core/json.ts), so two filters never share an id by rounding.
 */
function refuseRepeatedIds(filters: readonly SavedFilter[]): void {
  const seen = new Set<string>();
  for (const { id } of filters) {
    if (seen.has(id)) throw new InsightsError(`the account lists the saved filter id ${JSON.stringify(id)} more than once: importing it would make two resources adopt one filter, so nothing was written`);
    seen.add(id);
  }
}
