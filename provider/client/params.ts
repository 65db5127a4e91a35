import type { SavedFilterInput, SavedFilterUpdate } from "../schema/records";

// Written by scripts/generate-types.ts from the zod schemas (`npm run types`): edit the schemas, not this file.

/**
 * The parameters of the client's methods as plain TypeScript interfaces: the public types of those
 * methods. The zod schemas they are written from check them before sending and stay an
 * implementation detail.
 */

/** A field of a saved filter (spec 2.7), as `fields` of {@link FiltersApi.list} selects them. */
export type SavedFilterField = "id" | "name" | "rules" | "category" | "subcategory" | "advanced" | "content" | "enabled" | "created" | "edited" | "creator" | "editor";

/** The lookups of `GET /bulk_filters/{lookup}/` (spec 4.8). */
export type FilterLookupName = "asn" | "categories" | "cities" | "continents" | "countries" | "dma" | "fields" | "isp" | "states" | "tags";

/**
 * Every query parameter of `GET /bulk_filters/` (spec 4.8), typed: the query of
 * {@link FiltersApi.list}.
 */
export interface FilterListQuery {
  /** Only filters of this creator (user name). */
  creator?: string;
  /** Only these ids (sent as the comma-separated `id`). */
  ids?: (string | number)[];
  /** Only filters with this `advanced` flag. */
  advanced?: boolean;
  /** Only filters whose name contains this text (substring match). */
  name?: string;
  /** Only filters of this category. */
  category?: string;
  /** Only filters of this subcategory. */
  subcategory?: string;
  /** Only enabled (or only disabled) filters. */
  enabled?: boolean;
  /** Only filters created on this day (YYYY-MM-DD). */
  created?: string;
  /** Return only these fields of each filter (the answer is then a bare array). */
  fields?: SavedFilterField[];
  /** At most this many filters. */
  limit?: number;
}

/** The params of {@link FiltersApi.get}. */
export interface FilterGetParams {
  /** The id of the filter, as a string or a number (spec 2.7). */
  id: string | number;
}

/** The params of {@link FiltersApi.findByName}. */
export interface FilterFindByNameParams {
  /** The whole name, matched exactly (the API's `name` query matches substrings). */
  name: string;
}

/** The writable fields of a saved filter to create (spec 4.8, POST body item). */
export type FilterToCreate = SavedFilterInput;

/** The params of {@link FiltersApi.create}. */
export interface FilterCreateParams {
  /** The filters to create (any number: more than 100 are sent as several POSTs). */
  filters: readonly SavedFilterInput[];
}

/**
 * A change of one filter (spec 4.8, PUT body item): its id and the fields to merge into it; `null`
 * clears `category` and `subcategory`.
 */
export type FilterChange = SavedFilterUpdate;

/** The params of {@link FiltersApi.update}. */
export interface FilterUpdateParams {
  /**
   * Each change: the id of a filter and the fields to change (spec 4.8: merged into the filter).
   */
  changes: readonly SavedFilterUpdate[];
}

/** The params of {@link FiltersApi.delete}. */
export interface FilterDeleteParams {
  /** The ids of the filters to delete (100 per DELETE). */
  ids: readonly (string | number)[];
}

/**
 * The params of {@link FiltersApi.fields}: none (spec 4.8 `GET /bulk_filters/fields` takes no
 * query).
 */
export interface FilterFieldsParams {
  [key: string]: never;
}

/** The params of {@link FiltersApi.lookup}. */
export interface FilterLookupParams {
  /** Which lookup, for example `countries` (spec 4.8). */
  lookup: FilterLookupName;
  /** Only the values containing this text (substring search). */
  pattern?: string;
}

/** The params of {@link FiltersApi.subcategories}. */
export interface SubcategoryQuery {
  /**
   * The category whose subcategories are listed, for example CONTENT (every category without it).
   */
  category?: string;
  /** Substring search. */
  pattern?: string;
}

/** What {@link PiiApi.submit} takes (spec 4.10), in the client's camelCase. */
export interface PiiSubmitArguments {
  /** Viewer ids or user ids, all of one kind (spec 4.10); sent as `viewer_id`. */
  identifiers: string[];
  /** Addresses to notify when the request is FINISHED (spec 6); sent as `@notification_email`. */
  notificationEmails?: string[];
}

/** The query of {@link PiiApi.list} (spec 4.10). */
export interface PiiListQuery {
  /** At most this many requests. */
  limit?: number;
  /** Created on or after this day (YYYY-MM-DD). */
  start?: string;
  /** Created on or before this day (YYYY-MM-DD). */
  end?: string;
  /** Only requests in these states (sent comma-separated). */
  status?: ("ENQUEUED" | "STARTED" | "FINISHED")[];
}

/** The params of {@link PiiApi.get}. */
export interface PiiGetParams {
  /** The id of the opt-out request, as {@link PiiApi.submit} answered it. */
  id: string;
}
