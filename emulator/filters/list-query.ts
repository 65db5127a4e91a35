import { SAVED_FILTER_FIELDS } from "../contract/filters";
import { describeChoices } from "../text/suggest";
import { badRequest } from "../http";
import { requireCategory, subcategoryValues } from "./lookups";
import { epochOfDay } from "../time-range";
import { QueryReader } from "../query";
import { readFilterIds } from "./ids";
import { wireFilter, type StoredFilter, type WireFilter } from "./store";
import { textMatch, type Dialect } from "../dialect";

/** The query parameters of `GET /bulk_filters/` (spec 4.8). */
const LIST_PARAMETERS = ["creator", "id", "advanced", "name", "category", "subcategory", "enabled", "created", "fields", "limit"];

/**
 * The most filters one list answers, and the default `limit`; also the most values one lookup answers
 * (docs/api.md 10.1: result sets are capped at 500).
 */
export const MAX_LIST_LIMIT = 500;

/** The field names `fields=` may select: the fields of a saved filter (spec 2.7). */
const SELECTABLE_FIELDS: readonly string[] = SAVED_FILTER_FIELDS;

/** A parsed `GET /bulk_filters/` query: which filters, and which of their fields. */
export interface ListQuery {
  /**
   * The matching filters, in the order given, at most `limit + 1`: the one past the limit tells a listing
   * cut at its limit from one that is complete.
   */
  select(filters: readonly StoredFilter[]): StoredFilter[];
  /** The most filters the answer lists. */
  limit: number;
  /** The fields to return as a bare array (spec 4.8 `fields`), or undefined for `{status, filters}`. */
  fields: string[] | undefined;
}

/**
 * Reads the list query (spec 4.8). Every condition given must hold (AND). Emulator's choices
 * where the spec is silent: `name` is a case-insensitive substring match (case-sensitive in the
 * alternate dialect, emulator/dialect.ts `textMatch`); `creator`, `category`
 * and `subcategory` match exactly (category and subcategory must be values of their lookups);
 * `created` is the UTC date of `created`; `id` lists at most 100 ids; `limit` is 1 to 500,
 * default 500.
 */
export function parseListQuery(query: URLSearchParams, dialect: Dialect = "standard"): ListQuery {
  const reader = new QueryReader(query, LIST_PARAMETERS, "GET /bulk_filters/");
  const creator = reader.string("creator");
  const ids = readFilterIds(reader, "id", false);
  const advanced = reader.boolean("advanced");
  const enabled = reader.boolean("enabled");
  const name = reader.string("name");
  const nameMatches = textMatch(dialect, "name");
  const category = optional(reader.string("category"), (value) => requireCategory(value, "category"));
  const subcategory = optional(reader.string("subcategory"), requireSubcategory);
  const created = optional(reader.string("created"), requireDate);
  const fields = optional(reader.choices("fields", SELECTABLE_FIELDS, "fields"), (selected) => [...selected]);
  const limit = reader.integer("limit", 1, MAX_LIST_LIMIT) ?? MAX_LIST_LIMIT;
  const matches = (filter: StoredFilter): boolean =>
    (creator === undefined || filter.creator === creator) &&
    (ids === undefined || ids.includes(filter.id)) &&
    (advanced === undefined || filter.advanced === advanced) &&
    (enabled === undefined || filter.enabled === enabled) &&
    (name === undefined || nameMatches(filter.name, name)) &&
    (category === undefined || filter.category === category) &&
    (subcategory === undefined || filter.subcategory === subcategory) &&
    (created === undefined || filter.created.slice(0, 10) === created);
  return {
    select: (filters) => filters.filter(matches).slice(0, limit + 1),
    limit,
    fields,
  };
}

/**
 * The `fields=` form of a filter (spec 4.8: "the body is a bare array of the selected fields"):
 * only the selected fields, in the order asked; a field the filter does not have is left out (the
 * alternate dialect writes an unset category or subcategory as `null`, as in its whole filters).
 */
export function projectFilter(filter: StoredFilter, fields: readonly string[], idStyle: "number" | "string", dialect: Dialect = "standard"): Partial<WireFilter> {
  const wire: Record<string, unknown> = wireFilter(filter, idStyle, dialect);
  return Object.fromEntries(fields.filter((field) => wire[field] !== undefined).map((field) => [field, wire[field]]));
}

function optional<Input, Output>(value: Input | undefined, check: (value: Input) => Output): Output | undefined {
  return value === undefined ? undefined : check(value);
}

function requireSubcategory(subcategory: string): string {
  const known = subcategoryValues(undefined);
  if (known.includes(subcategory)) return subcategory;
  throw badRequest(`unknown subcategory "${subcategory}"; ${describeChoices(subcategory, known, "subcategories")}`, "subcategory");
}

function requireDate(created: string): string {
  if (epochOfDay(created) === undefined) throw badRequest(`"created" must be a date YYYY-MM-DD, got "${created}"`, "created");
  return created;
}
