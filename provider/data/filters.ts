import type * as pulumi from "@pulumi/pulumi";
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
import type { SavedFilter } from "../schema";
import { describeChoices } from "../schema/suggest";
import { dataSource, type DataSourceArgs, type DataSourceOptions, type DataSourceOutputArgs, type DataSourceOutputOptions, type KnownFields, type NoArguments } from "./define";

/**
 * Data sources of the saved-filter management API (spec 4.8): saved filters by query, by id and by
 * exact name, and the values filter rules may use. The account needs bulk filters (spec 1).
 */

/** What {@link getSavedFilters} selects: every query parameter of `GET /bulk_filters/` but `fields`. */
export type SavedFilterQuery = Omit<FilterListQuery, "fields">;
/** Arguments of {@link getSavedFilters}: the query, and the account. */
export type GetSavedFiltersArgs = DataSourceArgs<SavedFilterQuery>;
/** Arguments of {@link getSavedFiltersOutput}: those of {@link getSavedFilters}, each an `Input`. */
export type GetSavedFiltersOutputArgs = DataSourceOutputArgs<SavedFilterQuery>;
/** The answer of {@link getSavedFilters}. */
export interface GetSavedFiltersResult {
  /** The saved filters matching the query (spec 2.7). */
  filters: Array<KnownFields<Partial<SavedFilter>>>;
}

const savedFilters = dataSource("getSavedFilters", async (client, params: SavedFilterQuery, options) => ({ filters: await client.filters.list(params, options) }));

/**
 * The saved filters matching the query (spec 4.8): `creator`, `ids`, `advanced`, `name` (substring),
 * `category`, `subcategory`, `enabled`, `created` (YYYY-MM-DD), `limit`; more than 100 ids are
 * fetched in several calls.
 *
 * @example
 * const { filters } = await getSavedFilters({ category: "CONTENT", enabled: true });
 */
export function getSavedFilters(args?: GetSavedFiltersArgs, opts?: DataSourceOptions): Promise<GetSavedFiltersResult> {
  return savedFilters.invoke(args, opts);
}

/** The Output form of {@link getSavedFilters}: `Input`s in, an `Output` out. */
export function getSavedFiltersOutput(args?: GetSavedFiltersOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetSavedFiltersResult> {
  return savedFilters.output(args, opts);
}

/** Arguments of {@link getSavedFilter}: the filter's `id`. */
export type GetSavedFilterArgs = DataSourceArgs<FilterGetParams>;
/** Arguments of {@link getSavedFilterOutput}: those of {@link getSavedFilter}, each an `Input`. */
export type GetSavedFilterOutputArgs = DataSourceOutputArgs<FilterGetParams>;
/** The answer of {@link getSavedFilter}: the saved filter (spec 2.7). */
export interface GetSavedFilterResult extends KnownFields<SavedFilter> {}

const savedFilter = dataSource("getSavedFilter", (client, params: FilterGetParams, options) => client.filters.get(params, options));

/** The saved filter with this id, given as a string or a number (spec 2.7); none is a `NotFoundError`. */
export function getSavedFilter(args: GetSavedFilterArgs, opts?: DataSourceOptions): Promise<GetSavedFilterResult> {
  return savedFilter.invoke(args, opts);
}

/** The Output form of {@link getSavedFilter}: `Input`s in, an `Output` out. */
export function getSavedFilterOutput(args: GetSavedFilterOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetSavedFilterResult> {
  return savedFilter.output(args, opts);
}

/** What {@link getSavedFilterByName} looks for. */
export interface SavedFilterName {
  /** The filter's exact name. */
  name: string;
}
/** Arguments of {@link getSavedFilterByName}: the exact `name`. */
export type GetSavedFilterByNameArgs = DataSourceArgs<SavedFilterName>;
/** Arguments of {@link getSavedFilterByNameOutput}: those of {@link getSavedFilterByName}, each an `Input`. */
export type GetSavedFilterByNameOutputArgs = DataSourceOutputArgs<SavedFilterName>;
/** The answer of {@link getSavedFilterByName}: the saved filter (spec 2.7). */
export interface GetSavedFilterByNameResult extends KnownFields<SavedFilter> {}

const savedFilterByName = dataSource("getSavedFilterByName", readByExactName);

/**
 * The saved filter named exactly `name` (the API's `name` query matches substrings). None is a
 * `NotFoundError` with the nearest names; several of that name are an `InsightsError` listing their ids.
 *
 * @example
 * const sports = await getSavedFilterByName({ name: "Sports live" });
 * const failures = await getMetric({ metric: "video-start-failures", filterId: sports.id });
 */
export function getSavedFilterByName(args: GetSavedFilterByNameArgs, opts?: DataSourceOptions): Promise<GetSavedFilterByNameResult> {
  return savedFilterByName.invoke(args, opts);
}

/** The Output form of {@link getSavedFilterByName}: `Input`s in, an `Output` out. */
export function getSavedFilterByNameOutput(args: GetSavedFilterByNameOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetSavedFilterByNameResult> {
  return savedFilterByName.output(args, opts);
}

/**
 * A lookup of spec 4.8 (`countries`, `asn`, `cities`, `continents`, `dma`, `isp`, `states`, `tags`,
 * `categories`, `fields`) or `subcategories` (of one `category`), and an optional substring `pattern`.
 */
export type FieldValuesQuery =
  | {
      /** The lookup whose values are listed, for example `countries` (spec 4.8). */
      field: FilterLookupName;
      /**
       * Only the values that match this text (the lookup's `pattern`, spec 4.8); whether inside a value
       * or only at its beginning, and in which case, the contract does not show (docs/api.md 11.2).
       */
      pattern?: string;
      /** Only with `field: "subcategories"`. */
      category?: never;
    }
  | ({
      /** The subcategories of saved filters, of every category or of `category` alone (spec 4.8). */
      field: "subcategories";
    } & SubcategoryQuery);
/** Arguments of {@link getFilterFieldValues}: the lookup, and the account. */
export type GetFilterFieldValuesArgs = DataSourceArgs<FieldValuesQuery>;
/** Arguments of {@link getFilterFieldValuesOutput}: those of {@link getFilterFieldValues}, each an `Input`. */
export type GetFilterFieldValuesOutputArgs = DataSourceOutputArgs<FieldValuesQuery>;
/** The answer of {@link getFilterFieldValues}. */
export interface GetFilterFieldValuesResult {
  /** The values, as the lookup answers them. */
  values: string[];
  /**
   * False when the answer holds as many values as one answer can (500, docs/api.md 10.1): the
   * account may have more, which a `pattern` narrows to (docs/api.md 11.6).
   */
  complete: boolean;
}

const filterFieldValues = dataSource("getFilterFieldValues", readFieldValues);

/**
 * The values a filter rule may use for one field (spec 4.8 lookups), optionally only those that
 * contain `pattern`: fields such as ASN and Country accept only these values (spec 2.7). One answer
 * holds at most 500 values: `complete` is false when it may have been cut (narrow with `pattern`).
 *
 * @example
 * const { values } = await getFilterFieldValues({ field: "countries", pattern: "United" });
 */
export function getFilterFieldValues(args: GetFilterFieldValuesArgs, opts?: DataSourceOptions): Promise<GetFilterFieldValuesResult> {
  return filterFieldValues.invoke(args, opts);
}

/** The Output form of {@link getFilterFieldValues}: `Input`s in, an `Output` out. */
export function getFilterFieldValuesOutput(args: GetFilterFieldValuesOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetFilterFieldValuesResult> {
  return filterFieldValues.output(args, opts);
}

/** Arguments of {@link getFilterFields}: none but the account. */
export type GetFilterFieldsArgs = DataSourceArgs<NoArguments>;
/** Arguments of {@link getFilterFieldsOutput}: those of {@link getFilterFields}, each an `Input`. */
export type GetFilterFieldsOutputArgs = DataSourceOutputArgs<NoArguments>;
/** The answer of {@link getFilterFields}. */
export interface GetFilterFieldsResult {
  /** The field names rules may use (spec 2.7). */
  fields: string[];
}

const filterFields = dataSource("getFilterFields", async (client, params: NoArguments, options) => ({ fields: await client.filters.fields(params, options) }));

/** The filter field names rules may use (spec 4.8 `GET /bulk_filters/fields`, 2.7). */
export function getFilterFields(args?: GetFilterFieldsArgs, opts?: DataSourceOptions): Promise<GetFilterFieldsResult> {
  return filterFields.invoke(args, opts);
}

/** The Output form of {@link getFilterFields}: `Input`s in, an `Output` out. */
export function getFilterFieldsOutput(args?: GetFilterFieldsOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetFilterFieldsResult> {
  return filterFields.output(args, opts);
}

/** Exactly one filter of that name, else an error that says what there is instead. */
async function readByExactName(client: InsightsClient, { name }: SavedFilterName, options: CallOptions): Promise<SavedFilter> {
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

/** A lookup (spec 4.8 `/bulk_filters/{lookup}/`) or the subcategories of a category. */
async function readFieldValues(client: InsightsClient, { field, ...query }: FieldValuesQuery, options: CallOptions): Promise<GetFilterFieldValuesResult> {
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

/** @deprecated The answer of {@link getFilterFieldValues} is {@link GetFilterFieldValuesResult}; this name goes in the next release. */
export type FilterFieldValues = GetFilterFieldValuesResult;
