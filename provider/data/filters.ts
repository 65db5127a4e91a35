import {
  ArgumentError,
  type CallOptions,
  type FilterGetParams,
  type FilterListQuery,
  type FilterLookupName,
  type InsightsClient,
  InsightsError,
  NotFoundError,
  type SubcategoryQuery,
} from "../client";
import { mayBeCut } from "../schema/assumptions";
import { describeChoices, type SavedFilter } from "../schema";
import { dataSource, type NoArguments } from "./define";

/**
 * Data sources of the saved-filter management API (spec 4.8): saved filters by query, by id and by
 * exact name, and the values filter rules may use. The account needs bulk filters (spec 1).
 */

/** Arguments of {@link getSavedFilters}: every query parameter of `GET /bulk_filters/` but `fields`. */
export type GetSavedFiltersArgs = Omit<FilterListQuery, "fields">;

/**
 * Arguments of {@link getFilterFieldValues}: a lookup of spec 4.8 (`countries`, `asn`, `cities`,
 * `continents`, `dma`, `isp`, `states`, `tags`, `categories`, `fields`) or `subcategories` (of one
 * `category`), and an optional substring `pattern`.
 */
export type GetFilterFieldValuesArgs =
  | { field: FilterLookupName; pattern?: string; category?: never }
  | ({ field: "subcategories" } & SubcategoryQuery);

export const {
  /**
   * The saved filters matching the query (spec 4.8): `creator`, `ids`, `advanced`, `name` (substring),
   * `category`, `subcategory`, `enabled`, `created` (YYYY-MM-DD), `limit`; more than 100 ids are
   * fetched in several calls.
   *
   * @example
   * const { filters } = await getSavedFilters({ category: "CONTENT", enabled: true });
   *
   * @function
   */
  getSavedFilters,
  /**
   * The Output form of {@link getSavedFilters}: `Input`s in, an `Output` out.
   *
   * @function
   */
  getSavedFiltersOutput,
} = dataSource("SavedFilters", async (client, params: GetSavedFiltersArgs, options) => ({ filters: await client.filters.list(params, options) }));

export const {
  /**
   * The saved filter with this id, given as a string or a number (spec 2.7); none is a `NotFoundError`.
   *
   * @function
   */
  getSavedFilter,
  /**
   * The Output form of {@link getSavedFilter}: `Input`s in, an `Output` out.
   *
   * @function
   */
  getSavedFilterOutput,
} = dataSource("SavedFilter", (client, params: FilterGetParams, options) => client.filters.get(params, options));

export const {
  /**
   * The saved filter named exactly `name` (the API's `name` query matches substrings). None is a
   * `NotFoundError` with the nearest names; several of that name are an `InsightsError` listing their ids.
   *
   * @example
   * const sports = await getSavedFilterByName({ name: "Sports live" });
   * const failures = await getMetric({ metric: "video-start-failures", filterId: sports.id });
   *
   * @function
   */
  getSavedFilterByName,
  /**
   * The Output form of {@link getSavedFilterByName}: `Input`s in, an `Output` out.
   *
   * @function
   */
  getSavedFilterByNameOutput,
} = dataSource("SavedFilterByName", readByExactName);

export const {
  /**
   * The values a filter rule may use for one field (spec 4.8 lookups), optionally only those that
   * contain `pattern`: fields such as ASN and Country accept only these values (spec 2.7). One answer
   * holds at most 500 values: `complete` is false when it may have been cut (narrow with `pattern`).
   *
   * @example
   * const { values } = await getFilterFieldValues({ field: "countries", pattern: "United" });
   *
   * @function
   */
  getFilterFieldValues,
  /**
   * The Output form of {@link getFilterFieldValues}: `Input`s in, an `Output` out.
   *
   * @function
   */
  getFilterFieldValuesOutput,
} = dataSource("FilterFieldValues", readFieldValues);

export const {
  /**
   * The filter field names rules may use (spec 4.8 `GET /bulk_filters/fields`, 2.7).
   *
   * @function
   */
  getFilterFields,
  /**
   * The Output form of {@link getFilterFields}: `Input`s in, an `Output` out.
   *
   * @function
   */
  getFilterFieldsOutput,
} = dataSource("FilterFields", async (client, params: NoArguments, options) => ({ fields: await client.filters.fields(params, options) }));

/** Exactly one filter of that name, else an error that says what there is instead. */
async function readByExactName(client: InsightsClient, { name }: { name: string }, options: CallOptions): Promise<SavedFilter> {
  const found = await client.filters.findByName({ name }, options);
  if (found.length === 1) return found[0]!;
  if (found.length > 1) {
    // Ids in ascending order, whatever order the listing came in (its order is not shown, docs/api.md 4.8).
    const ids = found.map((filter) => filter.id).sort((left, right) => left.localeCompare(right, "en", { numeric: true }));
    throw new InsightsError(`${found.length} saved filters are named exactly ${JSON.stringify(name)} (ids ${ids.join(", ")}): read one by id with getSavedFilter`);
  }
  // Only on failure: every name, for a "did you mean".
  const names = [...new Set((await client.filters.list({ fields: ["name"] }, options)).map((filter) => filter.name))];
  const hint = names.length === 0 ? "the account has no saved filters" : describeChoices(name, names, "filter names");
  throw new NotFoundError({
    method: "GET",
    path: "/bulk_filters/",
    status: 404,
    body: { status: 404, error: "not_found", message: `no saved filter is named exactly ${JSON.stringify(name)}; ${hint}`, parameter: "name" },
  });
}

/** The answer of {@link getFilterFieldValues}. */
export interface FilterFieldValues {
  values: string[];
  /**
   * False when the answer holds as many values as one answer can (500, docs/api.md 10.1): the
   * account may have more, which a `pattern` narrows to (docs/api.md 11.6).
   */
  complete: boolean;
}

/** A lookup (spec 4.8 `/bulk_filters/{lookup}/`) or the subcategories of a category. */
async function readFieldValues(client: InsightsClient, { field, ...query }: GetFilterFieldValuesArgs, options: CallOptions): Promise<FilterFieldValues> {
  if (query.category !== undefined && field !== "subcategories") {
    throw new ArgumentError("category", `selects the subcategories of a category: give it with field "subcategories", not "${field}"`);
  }
  const values = field === "subcategories"
    ? await client.filters.subcategories(query, options)
    : await client.filters.lookup({ lookup: field, pattern: query.pattern }, options).catch((error: unknown) => {
      // The client names its own parameter; the caller wrote `field` (a plugin's failure names the argument).
      throw error instanceof ArgumentError && error.path === "lookup" ? new ArgumentError("field", error.reason) : error;
    });
  return { values, complete: !mayBeCut(values.length) };
}
