import { z } from "zod";
import {
  ACCEPTED_METRIC_PATH_NAMES,
  describeChoices,
  ERROR_CODE_DIMENSIONS,
  ERROR_FILTER_NAMES,
  GROUP_BY_DIMENSIONS,
  Identifier,
  type ErrorCodeDimension,
  type GroupByDimension,
  type METRIC_ALIASES,
  type MetricName,
  type QUALITY_SUMMARY,
  SESSION_BOOLEAN_FILTER_NAMES,
  type SESSION_DIMENSION_FILTER_NAMES,
} from "../../schema";
import { ArgumentError, describeIssues, describeValue, issuePath } from "./errors";
import type { QueryParams } from "./request";
import { DAY_MS, HOUR_MS, MINUTE_MS, WEEK_MS } from "./time-range";

/**
 * Argument checks shared by the query families, run before any request is sent. Each throws an
 * {@link ArgumentError} naming the argument and saying what to change, with a "did you mean" for a
 * near miss of a closed vocabulary (provider/schema/names.ts, suggest.ts).
 */

/** `geo-city-name` -> `geo_city_name`, at the type level (spec 4.7: filter names are snake_case). */
type SnakeCase<Name extends string> = Name extends `${infer Head}-${infer Tail}` ? `${Head}_${SnakeCase<Tail>}` : Name;

/** An error-code filter name (spec 4.7). */
export type ErrorFilterName = (typeof ERROR_FILTER_NAMES)[number];
/** A metric filter name (spec 4.7): every group-by name in snake_case plus the error filters. */
export type MetricFilterName = SnakeCase<GroupByDimension> | ErrorFilterName;
/** A sample-session filter name (spec 4.7). */
export type SessionFilterName =
  | (typeof SESSION_DIMENSION_FILTER_NAMES)[number]
  | (typeof SESSION_BOOLEAN_FILTER_NAMES)[number]
  | ErrorFilterName;

/** One filter value, or several joined by OR (spec 4.2, 4.6: the key is repeated, never a comma list). */
export type FilterValue = string | readonly string[];
/** Dimension filters of the metric endpoints (spec 4.6, 4.7). */
export type MetricFilters = Partial<Record<MetricFilterName, FilterValue>>;
/** Dimension filters of the sample-session endpoints; boolean filters take `true`/`false` (spec 4.7). */
export type SessionFilters = Partial<Record<SessionFilterName, FilterValue | boolean>>;
/** Custom-tag filters: tag name (without the `tag_` prefix) to value(s), sent as `tag_<name>` (spec 4.2). */
export type TagFilters = Readonly<Record<string, FilterValue>>;

/** The filter arguments shared by sample sessions and metrics. */
export interface FilterArguments<Filters> {
  /** Dimension filters: different dimensions are joined by AND, the values of one by OR (spec 4.2). */
  filters?: Filters;
  /** Custom-tag filters (spec 4.2 `tag_<tag_name>`). */
  tags?: TagFilters;
  /** One saved filter; exclusive with `filters` and `tags` (spec 4.2, 4.6: one filter type per request). */
  filterId?: string | number;
}

/** Why `value` is not one of `choices` (`noun` names them in the plural), with a "did you mean". */
function notAChoice(value: unknown, choices: readonly string[], noun: string): string {
  const shown = describeChoices(typeof value === "string" ? value : "", choices, noun);
  // The singular of the plural nouns used here: severities, statuses, metric names.
  const singular = noun.replace(/ies$|(?<=s)es$|s$/, (ending) => (ending === "ies" ? "y" : ""));
  return `${describeValue(value)} is not a known ${singular}; ${shown}`;
}

/** Throws unless `value` is one of `choices`, suggesting the nearest choice. */
export function checkChoice<Choice extends string>(value: unknown, choices: readonly Choice[], path: string, noun: string): Choice {
  if (typeof value === "string" && (choices as readonly string[]).includes(value)) return value as Choice;
  throw new ArgumentError(path, notAChoice(value, choices, noun));
}

/** @internal A zod enum of `choices` whose error is the {@link checkChoice} message, "did you mean" included. */
export function zChoice<const Choices extends readonly string[]>(choices: Choices, noun: string) {
  return z.enum(choices, { error: (issue) => notAChoice(issue.input, choices, noun) });
}

/**
 * Throws unless `value` is one identifier (a string or an integer: the service sends both, spec 2.7).
 * Stricter than {@link Identifier}, which reads ids as the service sends them: an id sent in a query
 * (`filter_id`, `kpi_id`) must be one token, so a stray space or comma fails here, not at the service.
 */
export function checkIdentifier(value: unknown, path: string): string {
  const parsed = Identifier.safeParse(value);
  if (!parsed.success || !/^[A-Za-z0-9_.-]+$/.test(parsed.data)) {
    throw new ArgumentError(path, `must be one identifier (letters, digits, "-", "_", "."), got ${describeValue(value)}`);
  }
  return parsed.data;
}

/**
 * Throws when `params` has a key the method does not take, so a misspelt option is not silently
 * ignored (JavaScript callers have no type checker to catch it).
 */
export function checkKnownKeys(params: unknown, known: readonly string[], path = "params"): void {
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    throw new ArgumentError(path, `must be an object of named arguments, got ${describeValue(params)}`);
  }
  const unknown = Object.keys(params).find((key) => !known.includes(key));
  if (unknown !== undefined) {
    const hint = known.length === 0 ? "the method takes none: give {} or leave params out (per-call options go second)" : describeChoices(unknown, known, "arguments");
    throw new ArgumentError(`${path}.${unknown}`, `is not an argument of this method; ${hint}`);
  }
}

/**
 * Parses the params object of a method with its strict zod schema: a key the method does not take
 * gets a "did you mean" ({@link checkKnownKeys}), any other mismatch an {@link ArgumentError} whose
 * path starts at the params key, for example `ids[3]` or `filters[2].rules`.
 *
 * @internal
 */
export function parseParams<Schema extends z.ZodObject>(schema: Schema, params: unknown): z.output<Schema> {
  checkKnownKeys(params, Object.keys(schema.shape));
  let parsed: z.ZodSafeParseResult<z.output<Schema>>;
  try {
    parsed = schema.safeParse(params);
  } catch (error) {
    // A recursive schema (a rule tree) recurses into a cyclic or absurdly deep value until the
    // stack overflows; that is the caller's value at fault, so it gets an ArgumentError.
    throw new ArgumentError("params", `could not be read (${error instanceof Error ? error.message : describeValue(error)}); a value may contain a cycle or nest too deep`);
  }
  if (parsed.success) return parsed.data;
  // The first issue names the argument; the others are appended.
  const [first, ...rest] = parsed.error.issues;
  const more = rest.length === 0 ? "" : ` (and ${rest.length} more: ${describeIssues(rest).slice(0, 3).join("; ")})`;
  throw new ArgumentError(issuePath("", first?.path ?? []), `${first?.message ?? "invalid"}${more}`);
}

/** Throws unless `value` is a whole number in `[min, max]`. */
export function checkInteger(value: unknown, min: number, max: number, path: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new ArgumentError(path, `must be a whole number from ${min} to ${max}, got ${describeValue(value)}`);
  }
  return value;
}

/** Throws unless `values` is a non-empty list of distinct `choices`; returns the list. */
export function checkChoiceList<Choice extends string>(values: unknown, choices: readonly Choice[], path: string, noun: string): Choice[] {
  if (!Array.isArray(values) || values.length === 0) {
    throw new ArgumentError(path, `must be a non-empty array of ${noun}; leave it out for the default`);
  }
  const checked = values.map((value, index) => checkChoice(value, choices, `${path}[${index}]`, noun));
  const repeated = checked.findIndex((value, index) => checked.indexOf(value) !== index);
  if (repeated >= 0) throw new ArgumentError(`${path}[${repeated}]`, `"${checked[repeated]}" is listed twice; list each once`);
  return checked;
}

/**
 * Dimension filters, custom-tag filters and a saved filter as query parameters (spec 4.2, 4.6, 4.7).
 * `filterId` excludes the others: a request has one filter type.
 */
export function checkFilterArguments(
  input: FilterArguments<Readonly<Record<string, FilterValue | boolean | undefined>>>,
  filterNames: readonly string[],
): QueryParams {
  const query: Record<string, string | string[]> = {};
  const filters = Object.entries(input.filters ?? {}).filter(([, value]) => value !== undefined);
  const tags = Object.entries(input.tags ?? {}).filter(([, value]) => value !== undefined);
  if (input.filterId !== undefined) {
    if (filters.length > 0 || tags.length > 0) {
      throw new ArgumentError("filterId", "cannot be combined with dimension or tag filters (spec 4.2, 4.6: one filter type per request); give either filterId or filters/tags");
    }
    return { filter_id: checkIdentifier(input.filterId, "filterId") };
  }
  for (const [name, value] of filters) {
    const path = `filters.${name}`;
    if (!filterNames.includes(name)) {
      throw new ArgumentError(path, `"${name}" is not a filter of this endpoint (spec 4.7); ${describeChoices(name, filterNames, "filter names")}`);
    }
    const isBoolean = (SESSION_BOOLEAN_FILTER_NAMES as readonly string[]).includes(name);
    query[name] = filterValues(value, path, isBoolean);
  }
  for (const [name, value] of tags) {
    const path = `tags.${name}`;
    if (name.length === 0) throw new ArgumentError("tags", "a tag name must not be empty");
    if (name.startsWith("tag_")) throw new ArgumentError(path, `give the tag name without the "tag_" prefix: "${name.slice(4)}"`);
    query[`tag_${name}`] = filterValues(value, path, false);
  }
  return query;
}

function filterValues(value: unknown, path: string, isBoolean: boolean): string[] {
  const values = Array.isArray(value) ? (value as unknown[]) : [value];
  if (values.length === 0) throw new ArgumentError(path, "an empty list matches nothing; leave the filter out for all traffic");
  return values.map((item, index) => {
    const itemPath = Array.isArray(value) ? `${path}[${index}]` : path;
    if (isBoolean) {
      if (item === true || item === "true") return "true";
      if (item === false || item === "false") return "false";
      throw new ArgumentError(itemPath, `is a boolean filter: give true or false, got ${describeValue(item)}`);
    }
    if (typeof item !== "string" || item.length === 0) {
      throw new ArgumentError(itemPath, `must be a non-empty string (values are case-sensitive), got ${describeValue(item)}`);
    }
    return item;
  });
}

/** A metric granularity after checking: an interval length, or one interval for the whole range. */
export type Granularity = { text: string; stepMs: number } | { text: "ALL"; stepMs: undefined };

/** Shortest and longest granularities seen (docs/api.md 10.4): PT1M to P10W, plus ALL. */
const GRANULARITY_BOUNDS = { minMs: MINUTE_MS, maxMs: 70 * DAY_MS } as const;
/** Units of an ISO 8601 duration with a fixed length, in the order they are written. */
const DURATION_UNITS_MS = [WEEK_MS, DAY_MS, HOUR_MS, MINUTE_MS, 1000] as const;

/**
 * Checks a granularity (spec 4.6: an ISO 8601 duration; docs/api.md 10.4: PT1M up to P10W, or ALL). Years
 * and months are refused because they have no fixed length, so windows could not align with them.
 */
export function checkGranularity(text: unknown, path = "granularity"): Granularity {
  if (text === "ALL") return { text, stepMs: undefined };
  const match = typeof text === "string" && !text.endsWith("T") ? /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(text) : null;
  let stepMs = 0;
  match?.slice(1).forEach((count, index) => {
    stepMs += count === undefined ? 0 : Number(count) * DURATION_UNITS_MS[index]!;
  });
  if (typeof text !== "string" || stepMs === 0) {
    throw new ArgumentError(path, `must be an ISO 8601 duration such as PT1M, PT1H, P1D or P1W, or "ALL"; got ${describeValue(text)}`);
  }
  if (stepMs < GRANULARITY_BOUNDS.minMs || stepMs > GRANULARITY_BOUNDS.maxMs || stepMs % MINUTE_MS !== 0) {
    throw new ArgumentError(path, `must be whole minutes from PT1M to P10W (or "ALL"); got ${text}`);
  }
  return { text, stepMs };
}

/** A metric name accepted in a path: the spec's list (4.6), the older alias and the metric group (docs/api.md 10.4). */
export type AcceptedMetricName = MetricName | keyof typeof METRIC_ALIASES | typeof QUALITY_SUMMARY;
/** A dimension to group by: predefined or error-code (spec 4.7). */
export type GroupByName = GroupByDimension | ErrorCodeDimension;

/** Throws unless `name` is a metric name of spec 4.6 (or an accepted alias). */
export function checkMetricName(name: unknown, path: string): AcceptedMetricName {
  return checkChoice(name, ACCEPTED_METRIC_PATH_NAMES as readonly AcceptedMetricName[], path, "metric names");
}

/** Throws unless `names` is a non-empty list of distinct metric names. */
export function checkMetricNames(names: unknown, path: string): AcceptedMetricName[] {
  return checkChoiceList(names, ACCEPTED_METRIC_PATH_NAMES as readonly AcceptedMetricName[], path, "metric names");
}

const GROUP_BY_NAMES: readonly GroupByName[] = [...GROUP_BY_DIMENSIONS, ...(Object.keys(ERROR_CODE_DIMENSIONS) as ErrorCodeDimension[])];

/**
 * Throws unless `dimension` is a group-by dimension of spec 4.7 that fits the metrics: an error-code
 * dimension is valid only for its own metric.
 */
export function checkGroupByDimension(dimension: unknown, metrics: readonly string[], path = "dimension"): GroupByName {
  const checked = checkChoice(dimension, GROUP_BY_NAMES, path, "group-by dimensions");
  const onlyMetric: string | undefined = (ERROR_CODE_DIMENSIONS as Record<string, string>)[checked];
  const other = metrics.find((metric) => metric !== onlyMetric);
  if (onlyMetric !== undefined && other !== undefined) {
    throw new ArgumentError(path, `"${checked}" groups only the metric "${onlyMetric}" (spec 4.7), not "${other}"; request "${onlyMetric}" alone or group by another dimension`);
  }
  return checked;
}
