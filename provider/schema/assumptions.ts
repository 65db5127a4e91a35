import { z } from "zod";
import { declareShape } from "./meta";

/**
 * Every choice the client makes where the contract (docs/api.md 1 to 9) is silent, in one place,
 * each with its evidence (a section of docs/api.md) or the words "our choice". The rest of the client
 * reads these and decides nothing on a detail it invented:
 *
 * - parsing is lenient: unknown members never fail a call, members the client does not need may be
 *   missing or `null`, ids may be JSON numbers or strings;
 * - no decision hinges on an error code or an error-body shape: an error is told apart by its status
 *   and, where it matters (a PII POST refused because every identifier was sent before, a PUT or
 *   DELETE of a filter deleted elsewhere), by reading the account back;
 * - a listing that comes back with as many items as the service's cap may have been cut without a
 *   marker, so it is narrowed until complete or reported as incomplete (core/listing.ts).
 *
 * This module imports nothing of ours but zod and provider/schema/meta.ts (where its transforms
 * declare what they give, for the generated interfaces), so the schemas of provider/schema can
 * build on it.
 */

// ---------------------------------------------------------------------------------------------
// Result sets

/**
 * The most items one answer holds: docs/api.md 10.1 ("result sets are capped at 500", no pagination)
 * for saved-filter and PII listings, and docs/api.md 4.6 and 8 for group-by entities.
 */
export const RESULT_CAP = 500;

/**
 * True when a listing of `count` items may have been cut by the cap. docs/api.md 10.1 shows no marker
 * of a cut answer, so a listing with exactly the cap is taken as possibly incomplete (our choice; more
 * than the cap is read the same way, should a service ever send it).
 */
export function mayBeCut(count: number, cap: number = RESULT_CAP): boolean {
  return count >= cap;
}

/**
 * A listing the caller did not limit is sent with `limit` set to {@link RESULT_CAP}: the default
 * `limit` of `GET /bulk_filters/` and `GET /pii-opt-out` is not shown (docs/api.md 4.8, 4.10), and
 * only an explicit limit makes an answer below it certainly complete (our choice).
 */
export const LISTING_LIMIT = RESULT_CAP;

/**
 * The earliest creation day a complete PII listing asks for when the caller gave no `start`
 * (docs/api.md 4.10 lists by days of creation; our choice: no request of this API predates 2016).
 */
export const PII_EARLIEST_DAY = "2016-01-01";

/**
 * Days added to the client's today for the end of a complete PII listing: `created_at` may be in a
 * local zone (docs/api.md 2.9), so the service's day may be ahead of the client's UTC day (our choice).
 */
export const PII_DAYS_AHEAD = 2;

// ---------------------------------------------------------------------------------------------
// Members and ids

/**
 * An identifier, sent as a JSON number in some answers and as a string in others (docs/api.md 2.7,
 * 10.2): either is accepted and the client always holds a string.
 * @internal
 */
export const Identifier = declareShape(
  z.union([z.string().min(1), z.number().finite()]).transform((id) => String(id)),
  { output: z.string(), portable: z.string() },
);

/**
 * A member the client can do without: missing, `null` or the schema's type, always `undefined` when
 * not given (our choice: the contract marks few members optional, but an answer without one of them
 * must not fail a call that does not need it).
 * @internal
 */
export function optionalMember<Schema extends z.ZodType>(schema: Schema) {
  const read = schema.nullish().transform((value): z.output<Schema> | undefined => value ?? undefined);
  return declareShape(read, { output: schema.optional() }).optional();
}

/**
 * The `status` member that docs/api.md 4.8 shows inside saved-filter answers (`{status, filters}`,
 * `{status, values}`): read when present, never needed (our choice: the HTTP status says the same).
 * @internal
 */
export const StatusMember = optionalMember(z.number());

/**
 * A listing answer: `{<member>: [items]}` as docs/api.md shows it (or as the emulator chose where the
 * contract does not show the wrapper), a bare array of items, or an object with exactly one array
 * member under another name (our choice, for wrappers the contract does not show). Answers
 * `{<member>: items}` whatever came; `description` says what the items are.
 * @internal
 */
export function listingOf<Item extends z.ZodType, Member extends string>(item: Item, member: Member, description: string) {
  const items = z.array(item);
  const listing = z.unknown().transform((body, context): { [Key in Member]: Array<z.output<Item>> } => {
    const list = Array.isArray(body) ? body : wrappedArray(body, member);
    if (list === undefined) {
      context.addIssue({ code: "custom", message: `expected an array of items, or an object with the array "${member}"` });
      return z.NEVER;
    }
    const parsed = items.safeParse(list);
    if (parsed.success) return { [member]: parsed.data } as { [Key in Member]: Array<z.output<Item>> };
    for (const issue of parsed.error.issues) {
      context.addIssue({ code: "custom", message: issue.message, path: Array.isArray(body) ? issue.path : [member, ...issue.path] });
    }
    return z.NEVER;
  });
  return declareShape(listing, { output: z.object({ [member]: items.describe(description) }) });
}

function wrappedArray(body: unknown, member: string): unknown[] | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const record = body as Record<string, unknown>;
  if (Array.isArray(record[member])) return record[member] as unknown[];
  const arrays = Object.values(record).filter(Array.isArray);
  return arrays.length === 1 ? arrays[0] : undefined;
}

/*
 * SESSION_AND_ALERT_ORDER_RULE: newest start first, then by id; a limited viewer listing keeps the newest itself.
 *
 * The order of sample sessions, viewer sessions and AI alerts (docs/api.md 4.2, 4.3, 4.9: not shown).
 * The client answers every such list newest start first, then by id, whatever order the service
 * answered in. Where a listing is cut at a limit, which items it keeps follows from the service's
 * order, so the client never lets the service choose for it: a viewer listing asks for the cap and
 * keeps the newest `limit` itself, splitting a full answer's range newer half first
 * (client/sessions.ts). A sample is a sample: when more sessions match than its `limit`, which of
 * them it holds is the service's (our choice).
 */

// ---------------------------------------------------------------------------------------------
// Errors

/** What the client reads from an error body (every member may be missing). */
export interface ErrorBodyReading {
  /** The service's explanation, when the body has one. */
  message?: string;
  /** A machine-readable code, when the body has one (shown to people, never decided on). */
  code?: string;
  /** The query parameter or body path the body names as the cause, when it names one. */
  parameter?: string;
}

/** What is read from an error body is cut to this length (it ends up in error messages and logs). */
const MAX_ERROR_TEXT = 500;

/**
 * Reads an error body of any shape. docs/api.md 7: the shape is not shown; 10.1: a 401 is
 * `{"message":"Unauthorized"}`; 11.1: the emulator's standard dialect adds `status`, `error` (a code)
 * and `parameter`. Accepted (our choice): a JSON object with `message` (or `detail`, or a sentence in
 * `error`), a code in `error` or `code`, the cause in `parameter`; a JSON string; plain text.
 */
export function readErrorBody(body: unknown): ErrorBodyReading {
  if (typeof body === "string") {
    const text = body.trim();
    return text === "" ? {} : { message: text.slice(0, MAX_ERROR_TEXT) };
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return {};
  const record = body as Record<string, unknown>;
  const text = (key: string) => (typeof record[key] === "string" && record[key] !== "" ? (record[key] as string).slice(0, MAX_ERROR_TEXT) : undefined);
  const looksLikeCode = (value: string | undefined) => value !== undefined && /^[A-Za-z0-9_.:-]+$/.test(value);
  const errorMember = text("error");
  const message = text("message") ?? text("detail") ?? text("error_description") ?? (looksLikeCode(errorMember) ? undefined : errorMember);
  const code = looksLikeCode(errorMember) ? errorMember : looksLikeCode(text("code")) ? text("code") : undefined;
  const parameter = text("parameter") ?? text("param") ?? text("field");
  return {
    ...(message === undefined ? {} : { message }),
    ...(code === undefined ? {} : { code }),
    ...(parameter === undefined ? {} : { parameter }),
  };
}

/** The HTTP status an error carries, if it is an answer of the service (read structurally). */
function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
}

/**
 * True for a refusal of what a request carried: a 4xx other than 401, 403 and 429 (docs/api.md 7:
 * 400 for bad bulk-filter parameters; the status of most refusals is not shown, so any of them
 * counts; our choice). Nothing was applied: docs/api.md 3.1 and 4.8 make each call all or nothing
 * (our reading).
 */
export function isRefusalStatus(error: unknown): boolean {
  const status = statusOf(error);
  return status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 429;
}

/*
 * ALL_PREVIOUSLY_SUBMITTED_RULE: a refused PII POST whose identifiers the listing shows in earlier requests.
 *
 * A PII POST whose identifiers were all submitted before is refused (docs/api.md 3.1, 4.10) with a
 * status and body the contract does not show (docs/api.md 7). The client never reads a code for it:
 * a refusal ({@link isRefusalStatus}) of a PII POST is this case when a listing of the account's
 * requests then shows every identifier of the POST in an earlier request (docs/api.md 11.3);
 * otherwise the refusal is reported as it came.
 */

/*
 * UNKNOWN_FILTER_ID_RULE: a refused PUT or DELETE whose ids a listing by id no longer shows.
 *
 * A PUT or DELETE of saved filters naming an id the account no longer has: docs/api.md 10.2 says a
 * 400 "covers bad parameters and a wrong number of ids"; the code and body are not shown. The client
 * never reads a code for it: after a refusal ({@link isRefusalStatus}) it lists the ids it sent, and
 * the ids the listing does not show are the unknown ones (our choice).
 */

// ---------------------------------------------------------------------------------------------
// Saved filters

/**
 * The value that clears an optional field of a saved filter in a PUT. docs/api.md 4.8: a PUT merges
 * the fields given into the filter, so leaving a field out keeps it; sending `null` clears it
 * (docs/api.md 11.2, our choice, which the emulator follows).
 */
export const CLEARED_FIELD = null;

/*
 * SAVED_FILTER_READING_RULE: category or subcategory left out, null or empty is none; created and edited kept as written.
 *
 * An unset `category` or `subcategory` of a saved filter is left out, `null` or empty: docs/api.md 2.7
 * does not show which, and each reads as no category ({@link optionalMember} in schema/filters.ts
 * `SavedFilter`; an empty string in saved-filters/model/state.ts `stateOf`). `created` and `edited`
 * (docs/api.md 2.7: ISO 8601 with an offset, UTC or a local zone) are kept as the service wrote them,
 * never compared as text (our choice).
 */

/*
 * TEXT_SEARCH_RULE: the shared beginning of the names looked for, in their own case; what comes back compared exactly.
 *
 * How the client searches by text: `name` of `GET /bulk_filters/` (docs/api.md 4.8: a substring) and
 * `pattern` of the lookups (docs/api.md 4.8: how it matches is not shown); whether either ignores
 * case is not shown, and a `pattern` may match only the beginning of a value. The client depends on
 * none of it: it asks for the names or values it looks for, or for the longest beginning they share,
 * written in their own case (client/core/listing.ts `coverNames`), which every one of them contains
 * and begins with in that case, so a match that ignores case or not, of a substring or of a
 * beginning, answers them all; and it compares what comes back exactly itself, dropping what a wider
 * match adds (our choice). The emulator's alternate dialect matches the case given, and `pattern`
 * at the beginning only (emulator/README.md "Dialects"). A caller's own `name` or `pattern`
 * (getSavedFilters, getFilterFieldValues, `pulumi-insights import --name`) is sent as given and
 * matches as the service matches.
 */

// ---------------------------------------------------------------------------------------------
// PII opt-out

/**
 * The POST answer of `/pii-opt-out` (docs/api.md 2.9): the request id, `created`, and the count of
 * identifiers ignored as previously submitted, whose name is not public (docs/api.md 10.3: we call
 * it `ignored`). When `ignored` is missing, the count is what was sent and not created: every
 * identifier of a POST is either created or ignored (docs/api.md 4.10; our reading).
 * @internal
 */
export const PiiSubmitAnswer = z.looseObject({
  id: Identifier.describe("The id of the request made."),
  created: z.number().int().nonnegative().describe("How many identifiers the request holds."),
  ignored: optionalMember(z.number().int().nonnegative()).describe("How many identifiers were ignored as submitted before, when the answer says."),
});
/** @internal A {@link PiiSubmitAnswer} after parsing. */
export type PiiSubmitAnswer = z.output<typeof PiiSubmitAnswer>;

/** @internal The ignored count of a POST answer that carried `sent` identifiers (see {@link PiiSubmitAnswer}). */
export function ignoredCount(answer: PiiSubmitAnswer, sent: number): number {
  return answer.ignored ?? Math.max(0, sent - answer.created);
}

/** The wrapper member of `GET /pii-opt-out` (docs/api.md 4.10: not shown; the emulator's choice, any single array accepted). */
export const PII_LISTING_MEMBER = "requests";

// ---------------------------------------------------------------------------------------------
// Metrics

/**
 * The `total` of a group-by answer: an object, never an array (docs/api.md 10.4), with the totals per
 * entity in `total.dimensional_data`. An array of those items is accepted too and taken as
 * `dimensional_data` (our choice: it is how the contract's 2.4 could also be read), and an object
 * without `dimensional_data` holds no entities. Answers the object, `dimensional_data` always set.
 * @internal
 */
export function groupByTotalOf<Item extends z.ZodType>(item: Item) {
  const total = z
    .union([z.array(item), z.looseObject({ dimensional_data: optionalMember(z.array(item)) })])
    .transform((total): { [member: string]: unknown; dimensional_data: Array<z.output<Item>> } =>
      Array.isArray(total) ? { dimensional_data: total } : { ...total, dimensional_data: total.dimensional_data ?? [] },
    );
  const answer = z.looseObject({ dimensional_data: z.array(item).describe("The totals of each entity over the whole range.") });
  return declareShape(total, { output: answer });
}

/*
 * METRIC_ANSWER_RULE: the default range and limit 0 sent explicitly; missing intervals and null values are no value.
 *
 * How the client reads and asks for metric answers where docs/api.md 4.6 and 10.4 are silent
 * (docs/api.md 11.9; our choice each time, so that no answer depends on the service's choice):
 * - a query without a range is sent with the default range of docs/api.md 4.6 (24 hours, or 5 minutes
 *   in real time) ending now by the client's clock, as an explicit range: where the service's own
 *   default ends is not shown, and a range split or halved after a 413 must cover what the whole
 *   covers (client/metrics.ts);
 * - a group-by `limit` of 0 asks for the most, 500, and is sent as 500: what the service reads in 0
 *   is not shown;
 * - an interval may be missing from `time_series` (one without data, listed with zeros or left out):
 *   a series has the intervals the answer has, in time order, and none is invented;
 * - a value field may be `null` or missing where its denominator is empty (a percentage of no
 *   attempts, a mean over no plays): it is no value, left out of the series and undefined in the
 *   total ({@link optionalMember} in schema/metrics.ts `MetricValue`), never read as 0.
 */

/** The wrappers of the metric listings, whose payloads docs/api.md 4.6 does not show (the emulator's choice, any single array accepted). */
export const METRIC_LISTING_MEMBERS = {
  groupByDimensions: "dimensions",
  dimensionTags: "dimension_tags",
  dimensionReferences: "dimensions",
  filterReferences: "filters",
  kpis: "kpis",
} as const;
