import { METRIC_FILTER_NAMES, SESSION_BOOLEAN_FILTER_NAMES, SESSION_FILTER_NAMES } from "../contract/dimensions";
import type { FilterField, RuleGroup, RuleNode } from "../contract/filters";
import { describeChoices } from "../text/suggest";
import type { AccountRequest } from "../accounts";
import { badRequest } from "../http";
import { TIME_RANGE_PARAMETERS } from "../time-range";
import { asnDescription, asnLookupValue, countryName, resourceName } from "../world/catalog";
import type { SessionRecord } from "../world";
import { snakeCase } from "./catalog";
import { ERROR_CODE_READERS, SESSION_FLAGS, type SessionFlag } from "./flags";

/**
 * Filtering of sessions for the sessions and metrics endpoints: dimension filters, custom-tag
 * filters and saved filters (spec 4.2, 4.6, 4.7, 2.7). Both families filter the same records with
 * the same code, so a sample session and a metric always agree on what "cdn=Akamai" means.
 */

/** A test of one session. */
export type SessionPredicate = (session: SessionRecord) => boolean;

const ALL_TRAFFIC: SessionPredicate = () => true;
const TAG_PREFIX = "tag_";
const FILTER_ID = "filter_id";
const BOOLEAN_FILTERS: ReadonlySet<string> = new Set(SESSION_BOOLEAN_FILTER_NAMES);
const METRIC_FILTERS: ReadonlySet<string> = new Set(METRIC_FILTER_NAMES);
const SESSION_FILTERS: ReadonlySet<string> = new Set(SESSION_FILTER_NAMES);

/** The value of a snake_case dimension or filter name for a session ("" when it has none). */
type Reader = (session: SessionRecord) => string;

/** Descriptions of coded dimension values (spec 2.4 `dimension.description`). */
const DESCRIPTIONS: Readonly<Record<string, (value: string) => string | undefined>> = {
  geo_country_code: countryName,
  asn: asnDescription,
};

const readers = new Map<string, Reader>();

/**
 * The reader of a snake_case dimension, filter or `tag_<name>` whose value does not change over a
 * session's life, built once per name. Error codes do change: see {@link readerAt}.
 */
function readerOf(name: string): Reader {
  let reader = readers.get(name);
  if (reader) return reader;
  const flag = SESSION_FLAGS[name as SessionFlag] as ((session: SessionRecord) => boolean) | undefined;
  if (name === "client_id") reader = (session) => session.clientId;
  else if (name === "session_id") reader = (session) => session.sessionId;
  else if (name.startsWith(TAG_PREFIX)) {
    const tag = name.slice(TAG_PREFIX.length);
    reader = (session) => session.customTags[tag] ?? "";
  } else if (flag && name !== "is_ad_requested") reader = (session) => String(flag(session));
  else reader = (session) => session.dimensions[name] ?? "";
  readers.set(name, reader);
  return reader;
}

/**
 * The reader of any snake_case name as sessions stand at `nowMs`. An error code (spec 4.7) exists
 * only once its failure counts for the metrics (metrics/flags.ts: a playback failure once the
 * session has ended), so a filter on it agrees with the failure metric and its group-by.
 */
function readerAt(name: string, nowMs: number): Reader {
  const errorCode = ERROR_CODE_READERS[name];
  if (!errorCode) return readerOf(name);
  const context = { nowMs };
  return (session) => errorCode(session, context) ?? "";
}

/** A session's value of a group-by dimension, with a description for coded values (spec 2.4). */
export type DimensionValue = { value: string; description?: string };

/**
 * How sessions read one dimension for group-by (spec 2.4 `dimension {key, value, description}`),
 * resolved once per request: the value and, for coded values, the description (a country code's
 * name, an ASN's organisation). Snake or kebab names; error-code dimensions (spec 4.7) answer ""
 * for a session without that kind of failure by `nowMs`; `tag_<name>` answers a custom tag (""
 * when the session lacks it).
 */
export function dimensionReader(dimension: string, nowMs: number): (session: SessionRecord) => DimensionValue {
  const name = snakeCase(dimension);
  const read = readerAt(name, nowMs);
  const describe = DESCRIPTIONS[name];
  if (!describe) return (session) => ({ value: read(session) });
  return (session) => {
    const value = read(session);
    const description = describe(value);
    return description === undefined ? { value } : { value, description };
  };
}

/**
 * How each saved-filter field (spec 2.7) reads a session, spelled as rule values must be spelled
 * (the lookups of spec 4.8): Country is the country name, ASN is "AS7922", Resource the CDN
 * resource ("AKAMAI-VOD"). Tag reads the leaf's `key` from the custom tags (handled apart).
 */
const FIELD_READERS: Readonly<Record<Exclude<FilterField, "Tag">, Reader>> = {
  "ASN": (session) => asnLookupValue(session.dimensions["asn"] ?? ""),
  "Asset Name": readerOf("asset"),
  "Browser Name": readerOf("browser_name"),
  "Browser Version": readerOf("browser_version"),
  "CDN": readerOf("cdn"),
  "City": readerOf("geo_city_name"),
  "Client ID": readerOf("client_id"),
  "Continent": readerOf("geo_continent_name"),
  "Country": (session) => countryName(session.dimensions["geo_country_code"] ?? "") ?? "",
  "Customer": readerOf("customer"),
  "DMA": readerOf("geo_dma"),
  "Device Hardware Type": readerOf("device_hardware_type"),
  "Device Manufacturer": readerOf("device_manufacturer"),
  "Device Marketing Name": readerOf("device_marketing_name"),
  "Device Model": readerOf("device_model"),
  "Device Name": readerOf("device_name"),
  "Device Operating System": readerOf("device_os"),
  "Device Operating System Family": readerOf("device_os_family"),
  "Device Operating System Version": readerOf("device_os_version"),
  "ISP": readerOf("isp"),
  "Content Category": readerOf("content_category"),
  "Player Framework Name": readerOf("player_framework_name"),
  "Player Framework Version": readerOf("player_framework_version"),
  "Player Name": readerOf("player_name"),
  "Postal Code": readerOf("geo_postal_code"),
  "Resource": (session) =>
    resourceName(session.dimensions["cdn"] ?? "", session.dimensions["content_meta_category_type"] === "LIVE"),
  "State": readerOf("geo_state_name"),
};

const NO_SESSION: SessionPredicate = () => false;

/**
 * A saved filter's rule tree (spec 2.7) as a predicate. Groups: `and` needs every child (true when
 * empty), `or` any child (false when empty). Leaves compare the session's value for the field,
 * case-sensitively like dimension filters (spec 4.2): `contains` and `not_contains` by substring,
 * `equals` exactly (docs/api.md 10.2). A leaf of an unknown field matches nothing (the store validates
 * fields when a filter is saved); a Tag leaf reads the custom tag named by its `key`.
 */
export function rulesPredicate(rules: RuleGroup): SessionPredicate {
  return nodePredicate(rules);
}

function nodePredicate(node: RuleNode): SessionPredicate {
  if ("rules" in node) {
    const children = node.rules.map(nodePredicate);
    return node.op === "and"
      ? (session) => children.every((child) => child(session))
      : (session) => children.some((child) => child(session));
  }
  const read: Reader | undefined =
    node.field === "Tag"
      ? readerOf(`${TAG_PREFIX}${node.key ?? ""}`)
      : (FIELD_READERS as Readonly<Record<string, Reader>>)[node.field];
  if (!read) return NO_SESSION;
  const expected = node.value;
  switch (node.op) {
    case "equals":
      return (session) => read(session) === expected;
    case "contains":
      return (session) => read(session).includes(expected);
    case "not_contains":
      return (session) => !read(session).includes(expected);
  }
}

/** The filters of a request: which sessions pass, and the saved filter applied, if any. */
export interface QueryFilters {
  predicate: SessionPredicate;
  /** The saved filter of `filter_id` (spec 2.7), its id as a string, for `_meta.filter_info`. */
  savedFilter?: { id: string; name: string };
}

/**
 * Dimension filters (spec 4.2, 4.6, 4.7): a repeated key is OR, different keys AND, values are
 * case-sensitive and a comma string is ONE value. `tag_<name>` filters a custom tag of the account.
 * `filter_id` applies one saved filter's rules and cannot be combined with dimension or tag filters
 * (400: "a request has one filter type"); an unknown id is 400 naming `filter_id` (the request is
 * invalid, the metric exists: emulator's choice). `vocabulary` picks the allowed names: "sessions"
 * is the sample-session list of 4.7 (with its boolean filters, values `true`/`false`), "metrics"
 * the metric filter names. Parameters in `reserved` and time-range parameters are skipped; any other
 * name is 400 with a did-you-mean. Error codes are read as sessions stand at the request's now.
 */
export function parseQueryFilters(
  { query, account, nowMs }: Pick<AccountRequest, "query" | "account" | "nowMs">,
  vocabulary: "sessions" | "metrics",
  reserved: ReadonlySet<string>,
): QueryFilters {
  const allowed = vocabulary === "sessions" ? SESSION_FILTERS : METRIC_FILTERS;
  const tagNames = account.world.customTagNames();
  const predicates: SessionPredicate[] = [];
  const dimensionNames: string[] = [];
  for (const name of new Set(query.keys())) {
    if (reserved.has(name) || TIME_RANGE_PARAMETERS.has(name) || name === FILTER_ID) continue;
    const values = query.getAll(name);
    for (const value of values) {
      if (value === "") throw badRequest(`filter "${name}" needs a value`, name);
    }
    if (name.startsWith(TAG_PREFIX)) {
      const tag = name.slice(TAG_PREFIX.length);
      if (!tagNames.includes(tag)) {
        throw badRequest(
          `unknown custom tag "${tag}" in "${name}"; ${describeChoices(tag, tagNames, "custom tags of this account")}`,
          name,
        );
      }
    } else if (!allowed.has(name)) {
      throw badRequest(unknownFilterMessage(name, vocabulary), name);
    } else if (vocabulary === "sessions" && BOOLEAN_FILTERS.has(name)) {
      for (const value of values) {
        if (value !== "true" && value !== "false") {
          throw badRequest(`"${name}" is a boolean filter: give true or false, got "${value}"`, name);
        }
      }
    }
    dimensionNames.push(name);
    predicates.push(oneOf(readerAt(name, nowMs), values));
  }
  const filterIds = query.getAll(FILTER_ID);
  if (filterIds.length === 0) return { predicate: allOf(predicates) };
  if (filterIds.length > 1) {
    throw badRequest(`give one "${FILTER_ID}" per request (spec 4.2, 4.6), got ${filterIds.length}`, FILTER_ID);
  }
  if (dimensionNames.length > 0) {
    throw badRequest(
      `"${FILTER_ID}" cannot be combined with dimension filters (${dimensionNames.join(", ")}): a request has one ` +
        "filter type (spec 4.2)",
      FILTER_ID,
      "conflicting_filters",
    );
  }
  const filterId = filterIds[0]!;
  const saved = account.filters.get(filterId);
  if (!saved) {
    throw badRequest(`no saved filter has id "${filterId}" in this account (list them with GET /bulk_filters/)`, FILTER_ID);
  }
  return { predicate: rulesPredicate(saved.rules), savedFilter: { id: String(saved.id), name: saved.name } };
}

function unknownFilterMessage(name: string, vocabulary: "sessions" | "metrics"): string {
  const otherFamily = vocabulary === "sessions" ? METRIC_FILTERS : SESSION_FILTERS;
  const where = vocabulary === "sessions" ? "sample sessions" : "metrics";
  if (otherFamily.has(name)) {
    return `"${name}" is not a filter of ${where} (spec 4.7 lists the filters of each family)`;
  }
  const choices = describeChoices(name, vocabulary === "sessions" ? SESSION_FILTER_NAMES : METRIC_FILTER_NAMES, "filters");
  return `unknown filter "${name}" for ${where}; ${choices} (custom tags are filtered as tag_<name>)`;
}

function oneOf(read: Reader, values: readonly string[]): SessionPredicate {
  if (values.length === 1) {
    const only = values[0]!;
    return (session) => read(session) === only;
  }
  const accepted = new Set(values);
  return (session) => accepted.has(read(session));
}

function allOf(predicates: readonly SessionPredicate[]): SessionPredicate {
  if (predicates.length === 0) return ALL_TRAFFIC;
  if (predicates.length === 1) return predicates[0]!;
  return (session) => predicates.every((predicate) => predicate(session));
}
