import { z } from "zod";
import {
  CalendarDate,
  FILTER_LOOKUPS,
  FILTERS_PER_CALL,
  Identifier,
  LookupValues,
  SavedFilter,
  SavedFilterCreateResponse,
  SavedFilterDeleteResponse,
  SavedFilterInput,
  SavedFilterList,
  SavedFilterUpdate,
  SavedFilterUpdateResponse,
} from "../schema";
import { LISTING_LIMIT, listingOf, RESULT_CAP } from "../schema/assumptions";
import { compareIds, listCompletely, type Narrowing } from "./core/listing";
import { sendChunks } from "./core/split";
import { ArgumentError, NotFoundError } from "./core/errors";
import { unknownProperties } from "../schema/suggest";
import type { Requester } from "./core/request";
import type { CallOptions } from "./core/transport";
import type * as params from "./params";
import type * as records from "../schema/records";
import { parseParams, zChoice } from "./core/validation";

// Part of the client's API: its users (the saved-filter gateway, benchmarks) size batches with it.

/** The path of the saved-filter family (spec 4.8; the trailing slash is the spec's). */
const BULK_FILTERS = "/bulk_filters/";

/** A field of a saved filter (spec 2.7), as `fields` of {@link FiltersApi.list} selects them. */
export type SavedFilterField = params.SavedFilterField;
/** Every {@link SavedFilterField}. */
export const SAVED_FILTER_FIELDS = Object.keys(SavedFilter.shape) as [SavedFilterField, ...SavedFilterField[]];
/** @internal The zod schema of {@link SavedFilterField}. */
export const SavedFilterField = zChoice(SAVED_FILTER_FIELDS, "saved-filter fields").describe(
  "A field of a saved filter (spec 2.7), as `fields` of {@link FiltersApi.list} selects them.",
);

/** The lookups of `GET /bulk_filters/{lookup}/` (spec 4.8). */
export type FilterLookupName = params.FilterLookupName;
/** @internal The zod schema of {@link FilterLookupName}. */
export const FilterLookupName = zChoice(FILTER_LOOKUPS, "lookups").describe("The lookups of `GET /bulk_filters/{lookup}/` (spec 4.8).");

/** @internal The zod schema of {@link FilterListQuery}, which checks it before sending. */
export const FilterListQuery = z
  .strictObject({
    creator: z.string().min(1).optional().describe("Only filters of this creator (user name)."),
    ids: z.array(Identifier).min(1).optional().describe("Only these ids (sent as the comma-separated `id`)."),
    advanced: z.boolean().optional().describe("Only filters with this `advanced` flag."),
    name: z.string().min(1).optional().describe("Only filters whose name contains this text (substring match)."),
    category: z.string().min(1).optional().describe("Only filters of this category."),
    subcategory: z.string().min(1).optional().describe("Only filters of this subcategory."),
    enabled: z.boolean().optional().describe("Only enabled (or only disabled) filters."),
    created: CalendarDate.optional().describe("Only filters created on this day (YYYY-MM-DD)."),
    fields: z.array(SavedFilterField).min(1).optional().describe("Return only these fields of each filter (the answer is then a bare array)."),
    limit: z.number().int().positive().optional().describe("At most this many filters."),
  })
  .describe("Every query parameter of `GET /bulk_filters/` (spec 4.8), typed: the query of {@link FiltersApi.list}.");
/** The query of {@link FiltersApi.list}. */
export type FilterListQuery = params.FilterListQuery;

/** @internal The zod schema of {@link FilterGetParams}, which checks it before sending. */
export const FilterGetParams = z
  .strictObject({ id: Identifier.describe("The id of the filter, as a string or a number (spec 2.7).") })
  .describe("The params of {@link FiltersApi.get}.");
/** The params of {@link FiltersApi.get}. */
export type FilterGetParams = params.FilterGetParams;

/** @internal The zod schema of {@link FilterFindByNameParams}, which checks it before sending. */
export const FilterFindByNameParams = z
  .strictObject({ name: z.string().min(1).describe("The whole name, matched exactly (the API's `name` query matches substrings).") })
  .describe("The params of {@link FiltersApi.findByName}.");
/** The params of {@link FiltersApi.findByName}. */
export type FilterFindByNameParams = params.FilterFindByNameParams;

/** @internal The zod schema of {@link FilterCreateParams}, which checks it before sending. */
export const FilterCreateParams = z
  .strictObject({
    filters: z.array(SavedFilterInput).readonly().describe("The filters to create (any number: more than 100 are sent as several POSTs)."),
  })
  .describe("The params of {@link FiltersApi.create}.");
/** The params of {@link FiltersApi.create}. */
export type FilterCreateParams = params.FilterCreateParams;

/** @internal The zod schema of {@link FilterUpdateParams}, which checks it before sending. */
export const FilterUpdateParams = z
  .strictObject({
    changes: z.array(SavedFilterUpdate).readonly().describe("Each change: the id of a filter and the fields to change (spec 4.8: merged into the filter)."),
  })
  .describe("The params of {@link FiltersApi.update}.");
/** The params of {@link FiltersApi.update}. */
export type FilterUpdateParams = params.FilterUpdateParams;

/** @internal The zod schema of {@link FilterDeleteParams}, which checks it before sending. */
export const FilterDeleteParams = z
  .strictObject({ ids: z.array(Identifier).readonly().describe("The ids of the filters to delete (100 per DELETE).") })
  .describe("The params of {@link FiltersApi.delete}.");
/** The params of {@link FiltersApi.delete}. */
export type FilterDeleteParams = params.FilterDeleteParams;

/** @internal The zod schema of {@link FilterFieldsParams}, which checks it before sending. */
export const FilterFieldsParams = z
  .strictObject({})
  .describe("The params of {@link FiltersApi.fields}: none (spec 4.8 `GET /bulk_filters/fields` takes no query).");
/** The params of {@link FiltersApi.fields}. */
export type FilterFieldsParams = params.FilterFieldsParams;

/** @internal The zod schema of {@link FilterLookupParams}, which checks it before sending. */
export const FilterLookupParams = z
  .strictObject({
    lookup: FilterLookupName.describe("Which lookup, for example `countries` (spec 4.8)."),
    pattern: z.string().min(1).optional().describe("Only the values containing this text (substring search)."),
  })
  .describe("The params of {@link FiltersApi.lookup}.");
/** The params of {@link FiltersApi.lookup}. */
export type FilterLookupParams = params.FilterLookupParams;

/** @internal The zod schema of {@link SubcategoryQuery}, which checks it before sending. */
export const SubcategoryQuery = z
  .strictObject({
    category: z.string().min(1).optional().describe("The category whose subcategories are listed, for example CONTENT (every category without it)."),
    pattern: z.string().min(1).optional().describe("Substring search."),
  })
  .describe("The params of {@link FiltersApi.subcategories}.");
/** The params of {@link FiltersApi.subcategories}. */
export type SubcategoryQuery = params.SubcategoryQuery;

/**
 * Throws an `ArgumentError` for a property of an item that the service does not know, with a
 * did-you-mean: the schema would drop `enabeld: false` silently, and the filter be created enabled.
 */
function refuseUnknownProperties(items: readonly unknown[], schema: z.ZodObject, path: string): void {
  items.forEach((item, index) => {
    if (typeof item !== "object" || item === null) return;
    const [unknown] = unknownProperties(item as Record<string, unknown>, Object.keys(schema.shape));
    if (unknown !== undefined) throw new ArgumentError(`${path}[${index}].${unknown.property}`, unknown.reason);
  });
}


/** An entry of the DELETE answer: the id and name of a deleted filter (spec 4.8). */
export type DeletedFilter = records.DeletedFilter;

/**
 * The saved-filter management family (spec 4.8): list, read, create, update and delete saved
 * filters, and the lookups their rules use. Every method takes one params object, then the per-call
 * options, like the query families. Batches larger than 100 are split into several calls; the calls
 * of a batch run in parallel within the client's concurrency bound.
 */
export class FiltersApi {
  /** Built by {@link InsightsClient} on its transport (one pool, one rate budget); `client.filters` is this family. */
  constructor(private readonly requester: Requester) {}

  /**
   * Lists saved filters matching `query` (every filter without one). Without a `limit` (or with one
   * above the service's cap of 500, docs/api.md 10.1) the listing is complete: an answer that reaches
   * the cap is asked again per value of `enabled`, then of `advanced`, and an
   * `IncompleteListingError` is thrown when a part still reaches it.
   */
  list(query?: Omit<FilterListQuery, "fields">, options?: CallOptions): Promise<SavedFilter[]>;
  /**
   * Lists only the selected `fields` of each matching filter.
   *
   * @param query - What to list, as for the whole filters, and the `fields` to answer.
   */
  list<Field extends SavedFilterField>(
    query: FilterListQuery & {
      /** The fields each filter of the answer holds, and no other (`fields=` of spec 4.8: the body is then a bare array). */
      fields: readonly Field[];
    },
    options?: CallOptions,
  ): Promise<Array<Pick<SavedFilter, Field>>>;
  async list(query: FilterListQuery = {}, options: CallOptions = {}): Promise<Array<Partial<SavedFilter>>> {
    const checked = parseParams(FilterListQuery, query);
    type Checked = typeof checked;
    const send = async (part: Checked, ids: readonly string[] | undefined): Promise<Array<Partial<SavedFilter>>> => {
      const request = {
        method: "GET" as const,
        path: BULK_FILTERS,
        query: {
          creator: part.creator,
          id: ids?.join(","),
          advanced: part.advanced,
          name: part.name,
          category: part.category,
          subcategory: part.subcategory,
          enabled: part.enabled,
          created: part.created,
          fields: part.fields?.join(","),
          limit: part.limit ?? (ids === undefined ? LISTING_LIMIT : undefined),
        },
        ...options,
      };
      if (part.fields === undefined) return (await this.requester.request(request, SavedFilterList)).filters;
      // Docs/api.md 4.8: with `fields` the body is a bare array of the selected fields.
      const mask: Partial<Record<SavedFilterField, true>> = Object.fromEntries(part.fields.map((field) => [field, true]));
      return (await this.requester.request(request, listingOf(SavedFilter.pick(mask), "filters", "The chosen fields of each filter listed."))).filters;
    };
    if (checked.ids !== undefined) {
      // Docs/api.md 4.8: one call per 100 ids (below the cap), in parallel, `limit` applied to the whole.
      const found = await sendChunks(checked.ids, FILTERS_PER_CALL, (ids) => send(checked, ids));
      return checked.limit === undefined ? found : found.slice(0, checked.limit);
    }
    if (checked.limit !== undefined && checked.limit <= RESULT_CAP) return send(checked, undefined);
    // Parts are told apart by id, so a complete listing of chosen fields asks for the id too.
    const keepId = checked.fields === undefined || checked.fields.includes("id");
    const whole: Checked = { ...checked, limit: undefined, ...(keepId ? {} : { fields: [...checked.fields!, "id"] }) };
    const narrowing: Narrowing<Checked, Partial<SavedFilter>> = {
      what: `saved filters${checked.name === undefined ? "" : ` whose name contains ${JSON.stringify(checked.name)}`}`,
      fetch: (part) => send(part, undefined),
      split: (part) =>
        part.enabled === undefined ? [true, false].map((enabled) => ({ ...part, enabled }))
        : part.advanced === undefined ? [true, false].map((advanced) => ({ ...part, advanced }))
        : undefined,
      keyOf: (filter) => String(filter.id),
      describe: (part) => `GET ${BULK_FILTERS} ${Object.entries({ ...part, fields: undefined, limit: undefined }).filter(([, value]) => value !== undefined).map(([key, value]) => `${key}=${String(value)}`).join(" ") || "(no query)"}`,
      order: (left, right) => compareIds(String(left.id), String(right.id)),
    };
    const found = await listCompletely(whole, narrowing);
    const listed = keepId ? found : found.map(({ id: _id, ...rest }) => rest);
    return checked.limit === undefined ? listed : listed.slice(0, checked.limit);
  }

  /**
   * The saved filter with this id. The API has no single-filter endpoint, so this lists by id;
   * when no filter has the id it throws a `NotFoundError` (status 404) as a read of a missing object would.
   *
   * @example
   * const filter = await client.filters.get({ id: "1001" });
   */
  async get(params: FilterGetParams, options: CallOptions = {}): Promise<SavedFilter> {
    const { id } = parseParams(FilterGetParams, params);
    const found = (await this.list({ ids: [id] }, options)).find((filter) => filter.id === id);
    if (found) return found;
    throw new NotFoundError({
      method: "GET",
      path: BULK_FILTERS,
      query: `id=${id}`,
      status: 404,
      body: { status: 404, error: "not_found", message: `no saved filter has id ${id}`, parameter: "id" },
    });
  }

  /**
   * The saved filters whose name is exactly `name` (the API's `name` query matches substrings).
   * Names need not be unique, so this answers a list.
   */
  async findByName(params: FilterFindByNameParams, options: CallOptions = {}): Promise<SavedFilter[]> {
    const { name } = parseParams(FilterFindByNameParams, params);
    return (await this.list({ name }, options)).filter((filter) => filter.name === name);
  }

  /**
   * Creates saved filters and answers them in input order, with their ids. More than 100 are sent
   * as several POSTs. POST is retried only after a 429 (nothing was applied; no idempotency key
   * exists, docs/api.md 10.1): after another failure, list by name to learn what was created; a `PartialFailureError` carries the chunks that succeeded.
   */
  async create(params: FilterCreateParams, options: CallOptions = {}): Promise<SavedFilter[]> {
    const { filters } = parseParams(FilterCreateParams, params);
    refuseUnknownProperties((params as { filters: readonly unknown[] }).filters, SavedFilterInput, "filters");
    return sendChunks(filters, FILTERS_PER_CALL, (chunk) =>
      this.requester.request({ method: "POST", path: BULK_FILTERS, body: chunk, ...options }, SavedFilterCreateResponse),
    );
  }

  /**
   * Merges changes into existing filters (each change: the id and the fields to change). More than
   * 100 are sent as several PUTs; each answer (`{location, status}`) is returned in input order.
   */
  async update(params: FilterUpdateParams, options: CallOptions = {}): Promise<SavedFilterUpdateResponse[]> {
    const { changes } = parseParams(FilterUpdateParams, params);
    refuseUnknownProperties((params as { changes: readonly unknown[] }).changes, SavedFilterUpdate, "changes");
    return sendChunks(changes, FILTERS_PER_CALL, async (chunk) => [
      await this.requester.request({ method: "PUT", path: BULK_FILTERS, body: chunk, ...options }, SavedFilterUpdateResponse),
    ]);
  }

  /** Deletes filters by id and answers the id and name of each deleted one (100 ids per DELETE). */
  async delete(params: FilterDeleteParams, options: CallOptions = {}): Promise<DeletedFilter[]> {
    const { ids } = parseParams(FilterDeleteParams, params);
    return sendChunks(ids, FILTERS_PER_CALL, async (chunk) => {
      const answer = await this.requester.request(
        { method: "DELETE", path: BULK_FILTERS, query: { id: chunk.join(",") }, ...options },
        SavedFilterDeleteResponse,
      );
      return answer.deleted;
    });
  }

  /** The filter field names that rules may use (spec 4.8 `GET /bulk_filters/fields`). */
  async fields(params: FilterFieldsParams = {}, options: CallOptions = {}): Promise<string[]> {
    parseParams(FilterFieldsParams, params);
    return this.lookup({ lookup: "fields" }, options);
  }

  /**
   * The values of one lookup (spec 4.8), optionally only those containing `pattern`.
   *
   * @example
   * const countries = await client.filters.lookup({ lookup: "countries", pattern: "United" });
   */
  async lookup(params: FilterLookupParams, options: CallOptions = {}): Promise<string[]> {
    const { lookup, pattern } = parseParams(FilterLookupParams, params);
    const path = lookup === "fields" ? "/bulk_filters/fields" : `/bulk_filters/${lookup}/`;
    const answer = await this.requester.request({ method: "GET", path, query: { pattern }, ...options }, LookupValues);
    return answer.values;
  }

  /** The subcategories of a category, optionally only those containing `pattern` (spec 4.8). */
  async subcategories(query: SubcategoryQuery = {}, options: CallOptions = {}): Promise<string[]> {
    const checked = parseParams(SubcategoryQuery, query);
    const answer = await this.requester.request(
      { method: "GET", path: "/bulk_filters/subcategories/", query: { category: checked.category, pattern: checked.pattern }, ...options },
      LookupValues,
    );
    return answer.values;
  }
}
