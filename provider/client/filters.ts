import { z } from "zod";
import {
  FILTER_LOOKUPS,
  LookupValues,
  SavedFilter,
  SavedFilterCreateResponse,
  SavedFilterDeleteResponse,
  SavedFilterInput,
  SavedFilterList,
  SavedFilterUpdate,
  SavedFilterUpdateResponse,
} from "../schema";
import { sendChunks } from "./concurrency";
import { NotFoundError, parseArguments } from "./errors";
import type { Requester } from "./request";
import type { CallOptions } from "./transport";
import { checkChoice } from "./validation";

/** Spec 4.8 and 8: at most 100 filters per call. */
export const FILTERS_PER_CALL = 100;

/** The path of the saved-filter family (spec 4.8; the trailing slash is the spec's). */
const BULK_FILTERS = "/bulk_filters/";

/** A field of a saved filter (spec 2.7), as `fields` of {@link FiltersApi.list} selects them. */
export type SavedFilterField = keyof typeof SavedFilter.shape;
/** Every {@link SavedFilterField}. */
export const SAVED_FILTER_FIELDS = Object.keys(SavedFilter.shape) as [SavedFilterField, ...SavedFilterField[]];

/** An id of a saved filter as callers may hold it: the service sends both forms (spec 2.7). */
const FilterId = z.union([z.string().min(1), z.number().int().nonnegative()]);

/** A calendar-date query value (spec 4.8 `created`, 4.10 `start`/`end`: YYYY-MM-DD). */
export const CalendarDate = z.iso.date({ message: "expected a calendar date as YYYY-MM-DD, for example 2026-11-20" });

/** Every query parameter of `GET /bulk_filters/` (spec 4.8), typed. */
export const FilterListQuery = z.strictObject({
  /** Only filters of this creator (user name). */
  creator: z.string().min(1).optional(),
  /** Only these ids (sent as the comma-separated `id`). */
  ids: z.array(FilterId).min(1).optional(),
  /** Only filters with this `advanced` flag. */
  advanced: z.boolean().optional(),
  /** Only filters whose name contains this text (substring match). */
  name: z.string().min(1).optional(),
  category: z.string().min(1).optional(),
  subcategory: z.string().min(1).optional(),
  enabled: z.boolean().optional(),
  /** Only filters created on this day (YYYY-MM-DD). */
  created: CalendarDate.optional(),
  /** Return only these fields of each filter (the answer is then a bare array). */
  fields: z.array(z.enum(SAVED_FILTER_FIELDS)).min(1).optional(),
  /** At most this many filters. */
  limit: z.number().int().positive().optional(),
});
/** The query of {@link FiltersApi.list}. */
export type FilterListQuery = z.input<typeof FilterListQuery>;

/** The lookups of `GET /bulk_filters/{lookup}/` (spec 4.8). */
export type FilterLookupName = (typeof FILTER_LOOKUPS)[number];

/** The query of {@link FiltersApi.subcategories}. */
export const SubcategoryQuery = z.strictObject({
  /** The category whose subcategories are listed, for example CONTENT (every category without it). */
  category: z.string().min(1).optional(),
  /** Substring search. */
  pattern: z.string().min(1).optional(),
});
/** The query of {@link FiltersApi.subcategories}. */
export type SubcategoryQuery = z.input<typeof SubcategoryQuery>;

/** An entry of the DELETE answer: the id and name of a deleted filter (spec 4.8). */
export type DeletedFilter = SavedFilterDeleteResponse["deleted"][number];

/**
 * The saved-filter management family (spec 4.8): list, read, create, update and delete saved
 * filters, and the lookups their rules use. Batches larger than 100 are split into several calls;
 * the calls of a batch run in parallel within the client's concurrency bound.
 */
export class FiltersApi {
  constructor(private readonly requester: Requester) {}

  /** Lists saved filters matching `query` (every filter without one). */
  list(query?: Omit<FilterListQuery, "fields">, options?: CallOptions): Promise<SavedFilter[]>;
  /** Lists only the selected `fields` of each matching filter. */
  list<Field extends SavedFilterField>(query: FilterListQuery & { fields: readonly Field[] }, options?: CallOptions): Promise<Array<Pick<SavedFilter, Field>>>;
  async list(query: FilterListQuery = {}, options: CallOptions = {}): Promise<Array<Partial<SavedFilter>>> {
    const checked = parseArguments(FilterListQuery, query, "query");
    // Spec 4.8: with `fields` the body is a bare array of the selected fields.
    const mask: Partial<Record<SavedFilterField, true>> | undefined = checked.fields && Object.fromEntries(checked.fields.map((field) => [field, true]));
    const send = async (ids: ReadonlyArray<string | number> | undefined): Promise<Array<Partial<SavedFilter>>> => {
      const request = {
        method: "GET" as const,
        path: BULK_FILTERS,
        query: {
          creator: checked.creator,
          id: ids?.join(","),
          advanced: checked.advanced,
          name: checked.name,
          category: checked.category,
          subcategory: checked.subcategory,
          enabled: checked.enabled,
          created: checked.created,
          fields: checked.fields?.join(","),
          limit: checked.limit,
        },
        ...options,
      };
      if (mask === undefined) return (await this.requester.request(request, SavedFilterList)).filters;
      return this.requester.request(request, z.array(SavedFilter.pick(mask)));
    };
    if (checked.ids === undefined || checked.ids.length <= FILTERS_PER_CALL) return send(checked.ids);
    // More ids than one call takes (spec 4.8): one call per 100 ids, in parallel, `limit` applied to the whole.
    const found = await sendChunks(checked.ids, FILTERS_PER_CALL, send);
    return checked.limit === undefined ? found : found.slice(0, checked.limit);
  }

  /**
   * The saved filter with this id. The API has no single-filter endpoint, so this lists by id;
   * when no filter has the id it throws a `NotFoundError` (status 404) as a read of a missing object would.
   */
  async get(id: string | number, options: CallOptions = {}): Promise<SavedFilter> {
    const checkedId = String(parseArguments(FilterId, id, "id"));
    const found = (await this.list({ ids: [checkedId] }, options)).find((filter) => filter.id === checkedId);
    if (found) return found;
    throw new NotFoundError({
      method: "GET",
      path: BULK_FILTERS,
      query: `id=${checkedId}`,
      status: 404,
      body: { status: 404, error: "not_found", message: `no saved filter has id ${checkedId}`, parameter: "id" },
    });
  }

  /**
   * The saved filters whose name is exactly `exactName` (the API's `name` query matches substrings).
   * Names need not be unique, so this answers a list.
   */
  async findByName(exactName: string, options: CallOptions = {}): Promise<SavedFilter[]> {
    const name = parseArguments(z.string().min(1), exactName, "exactName");
    return (await this.list({ name }, options)).filter((filter) => filter.name === name);
  }

  /**
   * Creates saved filters and answers them in input order, with their ids. More than 100 are sent
   * as several POSTs. POST is never retried (no idempotency key, api-facts): after a failure, list
   * by name to learn what was created; a `PartialFailureError` carries the chunks that succeeded.
   */
  async create(inputs: readonly SavedFilterInput[], options: CallOptions = {}): Promise<SavedFilter[]> {
    const checked = parseArguments(z.array(SavedFilterInput), inputs, "inputs");
    return sendChunks(checked, FILTERS_PER_CALL, (chunk) =>
      this.requester.request({ method: "POST", path: BULK_FILTERS, body: chunk, ...options }, SavedFilterCreateResponse),
    );
  }

  /**
   * Merges changes into existing filters (each change: the id and the fields to change). More than
   * 100 are sent as several PUTs; each answer (`{location, status}`) is returned in input order.
   */
  async update(changes: readonly SavedFilterUpdate[], options: CallOptions = {}): Promise<SavedFilterUpdateResponse[]> {
    const checked = parseArguments(z.array(SavedFilterUpdate), changes, "changes");
    return sendChunks(checked, FILTERS_PER_CALL, async (chunk) => [
      await this.requester.request({ method: "PUT", path: BULK_FILTERS, body: chunk, ...options }, SavedFilterUpdateResponse),
    ]);
  }

  /** Deletes filters by id and answers the id and name of each deleted one (100 ids per DELETE). */
  async delete(ids: ReadonlyArray<string | number>, options: CallOptions = {}): Promise<DeletedFilter[]> {
    const checked = parseArguments(z.array(FilterId), ids, "ids");
    return sendChunks(checked, FILTERS_PER_CALL, async (chunk) => {
      const answer = await this.requester.request(
        { method: "DELETE", path: BULK_FILTERS, query: { id: chunk.join(",") }, ...options },
        SavedFilterDeleteResponse,
      );
      return answer.deleted;
    });
  }

  /** The filter field names that rules may use (spec 4.8 `GET /bulk_filters/fields`). */
  async fields(options: CallOptions = {}): Promise<string[]> {
    return this.lookup("fields", undefined, options);
  }

  /** The values of one lookup (spec 4.8), optionally only those containing `pattern`. */
  async lookup(name: FilterLookupName, pattern?: string, options: CallOptions = {}): Promise<string[]> {
    const lookup = checkChoice(name, FILTER_LOOKUPS, "name", "lookups");
    const checkedPattern = parseArguments(z.string().min(1).optional(), pattern, "pattern");
    const path = lookup === "fields" ? "/bulk_filters/fields" : `/bulk_filters/${lookup}/`;
    const answer = await this.requester.request({ method: "GET", path, query: { pattern: checkedPattern }, ...options }, LookupValues);
    return answer.values;
  }

  /** The subcategories of a category, optionally only those containing `pattern` (spec 4.8). */
  async subcategories(query: SubcategoryQuery = {}, options: CallOptions = {}): Promise<string[]> {
    const checked = parseArguments(SubcategoryQuery, query, "query");
    const answer = await this.requester.request(
      { method: "GET", path: "/bulk_filters/subcategories/", query: { category: checked.category, pattern: checked.pattern }, ...options },
      LookupValues,
    );
    return answer.values;
  }
}
