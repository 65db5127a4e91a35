import { wireFilter } from "../filters/store";
import { MAX_LIST_LIMIT, parseListQuery, projectFilter } from "../filters/list-query";
import { lookupValues, matchPattern, subcategoryValues } from "../filters/lookups";
import { readFilterIds } from "../filters/ids";
import { QueryReader } from "../query";
import { parseCreateBody, parseUpdateBody, unknownIdError } from "../filters/validation";
import { identifier, identifierStyle, truncationMarker } from "../dialect";
import { badRequest, featureDisabled, type RouteResult } from "../http";
import type { RequestContext, RouteHandler, Router } from "../router";

/** The origin the alternate dialect writes into `location`: a host of the service, not the emulator's. */
const ALTERNATE_ORIGIN = "https://api.insights.invalid";

/** The base path of the saved-filter management API (spec 4.8, 9: no version segment). */
const BASE = "/bulk_filters";

/**
 * Routes of the saved-filter management API (spec 4.8). The server strips a trailing slash, so
 * `/bulk_filters/` and `/bulk_filters` are one route. Every endpoint is behind the account's
 * `bulkFilters` feature (spec 1: not enabled by default).
 */
export function register(router: Router): void {
  router.get(BASE, requireFeature(listFilters));
  router.on("POST", BASE, requireFeature(createFilters));
  router.on("PUT", BASE, requireFeature(updateFilters));
  router.on("DELETE", BASE, requireFeature(deleteFilters));
  router.get(`${BASE}/subcategories`, requireFeature(listSubcategories));
  router.get(`${BASE}/:lookup`, requireFeature(listLookup));
}

/** Refuses every bulk-filter call of an account without the feature with 403 (spec 1). */
function requireFeature(handler: RouteHandler): RouteHandler {
  return (context) => {
    if (!context.account.config.features.bulkFilters) {
      throw featureDisabled(
        "bulkFilters",
        "the saved-filter management API (/bulk_filters) is not enabled for this account; it is not enabled by default " +
          "(spec 1). Ask the account representative to enable it. In the emulator, use an account with " +
          "features.bulkFilters = true, such as the dev account, or add one with POST /_emulator/accounts.",
      );
    }
    return handler(context);
  };
}

/**
 * `GET /bulk_filters/`: `{status, filters}` with string ids (numbers in the alternate dialect), or
 * with `fields` a bare array; `truncated: true` when the listing was cut at its limit (standard
 * dialect only). In id order; newest first in the alternate dialect, whose cut keeps the newest
 * (emulator/README.md "Dialects").
 */
function listFilters({ query, account }: RequestContext): RouteResult {
  const list = parseListQuery(query, account.dialect);
  const found = account.filters.select((filters) => list.select(account.dialect === "standard" ? filters : [...filters].reverse()));
  const filters = found.slice(0, list.limit);
  const idStyle = identifierStyle(account.dialect, "string");
  const fields = list.fields;
  if (fields) return { body: filters.map((filter) => projectFilter(filter, fields, idStyle, account.dialect)) };
  const marker = truncationMarker(account.dialect, filters.length, found.length);
  return { body: { status: 200, filters: filters.map((filter) => wireFilter(filter, idStyle, account.dialect)), ...marker } };
}

/** `POST /bulk_filters/`: creates 1 to 100 filters, all or none; 201 with the created filters, ids as numbers (strings in the alternate dialect). */
function createFilters({ query, body, account, nowMs }: RequestContext): RouteResult {
  new QueryReader(query, [], "POST /bulk_filters/");
  const inputs = parseCreateBody(body, account.world);
  const created = account.filters.create(inputs, { userName: account.config.userName, nowMs });
  return { status: 201, body: created.map((filter) => wireFilter(filter, identifierStyle(account.dialect, "number"), account.dialect)) };
}

/** `PUT /bulk_filters/`: merges 1 to 100 changes, all or none; `{location, status}`. */
function updateFilters({ query, body, account, nowMs }: RequestContext): RouteResult {
  new QueryReader(query, [], "PUT /bulk_filters/");
  const changes = parseUpdateBody(body, account.world, account.filters, account.dialect);
  const updated = account.filters.update(changes, { userName: account.config.userName, nowMs });
  // A path-absolute URL, which GET answers; the alternate dialect gives an absolute URL on the
  // service's own host name (emulator/README.md "Dialects").
  const path = `${BASE}/?id=${updated.map((filter) => filter.id).join(",")}`;
  const location = account.dialect === "standard" ? path : `${ALTERNATE_ORIGIN}${path}`;
  return { body: { location, status: 200 } };
}

/** `DELETE /bulk_filters/?id=`: deletes 1 to 100 filters, all or none; `{deleted: [{id, name}], status}`. */
function deleteFilters({ query, account }: RequestContext): RouteResult {
  const ids = readFilterIds(new QueryReader(query, ["id"], "DELETE /bulk_filters/"), "id", true);
  if (ids === undefined) throw badRequest(`"id" is required: the comma-separated ids of the filters to delete`, "id");
  const unknown = ids.filter((id) => !account.filters.has(id));
  if (unknown.length > 0) throw unknownIdError(unknown, "id");
  const deleted = account.filters.delete(ids);
  return { body: { deleted: deleted.map((filter) => ({ id: identifier(account.dialect, filter.id, "number"), name: filter.name })), status: 200 } };
}

/**
 * `GET /bulk_filters/{lookup}/?pattern=`: the lookup's values that `pattern` finds, the first 500
 * of them (docs/api.md 10.1: result sets are capped at 500, with no pagination; `pattern` narrows).
 */
function listLookup({ query, params, account }: RequestContext): RouteResult {
  const values = lookupValues(params.lookup ?? "", account.world);
  const pattern = new QueryReader(query, ["pattern"], `GET /bulk_filters/${params.lookup}/`).string("pattern");
  return { body: { status: 200, values: matchPattern(values, pattern, account.dialect).slice(0, MAX_LIST_LIMIT) } };
}

/** `GET /bulk_filters/subcategories/?category=&pattern=`. */
function listSubcategories({ query, account }: RequestContext): RouteResult {
  const reader = new QueryReader(query, ["category", "pattern"], "GET /bulk_filters/subcategories/");
  return { body: { status: 200, values: matchPattern(subcategoryValues(reader.string("category")), reader.string("pattern"), account.dialect) } };
}
