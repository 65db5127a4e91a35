import { z } from "zod";
import {
  describeChoices,
  ERROR_CODE_DIMENSIONS,
  type ERROR_FILTER_NAMES,
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
import { checked, typeScriptType } from "../../schema/meta";
import { ArgumentError, describeIssues, describeValue, issuePath } from "./errors";
import type * as params from "./params";
import type { QueryParams } from "./request";
import { DAY_MS, HOUR_MS, MINUTE_MS, WEEK_MS } from "./time-range";

/**
 * The zod building blocks of the parameters of every family, and how a parse becomes an
 * {@link ArgumentError}: each method parses its params object with {@link parseParams} before any
 * request, and a failure names the argument (`metrics[3]`, `filters.geo_cty_name`) and says what to
 * change, with a "did you mean" for a near miss of a closed vocabulary (provider/schema/names.ts,
 * suggest.ts). A check that zod cannot word as the client does (a time range, a granularity, filter
 * maps) is a transform that reports its own issues and declares the shape it takes
 * (provider/schema/meta.ts), so the generated interfaces and other readers of the schemas see it.
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
export type FilterValue = params.FilterValue;
/** Dimension filters of the metric endpoints (spec 4.6, 4.7). */
export type MetricFilters = Partial<Record<MetricFilterName, FilterValue>>;
/** Dimension filters of the sample-session endpoints; boolean filters take `true`/`false` (spec 4.7). */
export type SessionFilters = Partial<Record<SessionFilterName, FilterValue | boolean>>;
/** The dimension filters of each family, by the name of their type. */
interface FiltersOf {
  MetricFilters: MetricFilters;
  SessionFilters: SessionFilters;
}
/** Custom-tag filters: tag name (without the `tag_` prefix) to value(s), sent as `tag_<name>` (spec 4.2). */
export type TagFilters = params.TagFilters;
/** The filter arguments shared by sample sessions and metrics. */
export type FilterArguments<Filters> = params.FilterArguments<Filters>;

/** A metric name accepted in a path: the spec's list (4.6), the older alias and the metric group (docs/api.md 10.4). */
export type AcceptedMetricName = MetricName | keyof typeof METRIC_ALIASES | typeof QUALITY_SUMMARY;

/** Why `value` is not one of `choices` (`noun` names them in the plural), with a "did you mean". */
export function notAChoice(value: unknown, choices: readonly string[], noun: string): string {
  const shown = describeChoices(typeof value === "string" ? value : "", choices, noun);
  // The singular of the plural nouns used here: severities, statuses, metric names.
  const singular = noun.replace(/ies$|(?<=s)es$|s$/, (ending) => (ending === "ies" ? "y" : ""));
  return `${describeValue(value)} is not a known ${singular}; ${shown}`;
}

/** @internal One of `choices`; any other value gets a "did you mean" (`noun` names the choices in the plural). */
export function zChoice<const Choices extends readonly string[]>(choices: Choices, noun: string) {
  return z.enum(choices, { error: (issue) => notAChoice(issue.input, choices, noun) });
}

/** @internal A non-empty list of distinct `choices`, each checked as {@link zChoice} checks one. */
export function zChoiceList<const Choices extends readonly string[]>(choices: Choices, noun: string) {
  const message = `must be a non-empty array of ${noun}; leave it out for the default`;
  return z
    .array(zChoice(choices, noun), { error: message })
    .min(1, { error: message })
    .superRefine((values, context) => {
      const repeated = values.findIndex((value, index) => values.indexOf(value) !== index);
      if (repeated >= 0) context.addIssue({ code: "custom", message: `"${values[repeated]}" is listed twice; list each once`, path: [repeated] });
    })
    .readonly();
}

/** @internal A whole number in `[min, max]`. */
export function zInteger(min: number, max: number) {
  const error = (issue: { input?: unknown }) => `must be a whole number from ${min} to ${max}, got ${describeValue(issue.input)}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

/** Throws unless `value` is a whole number in `[min, max]` ({@link zInteger}, for checks outside a params schema). */
export function checkInteger(value: unknown, min: number, max: number, path: string): number {
  return parseArgument(zInteger(min, max), value, path);
}

/** @internal A non-empty string; anything else gets `message`, which may describe what was given. */
export function zText(message: (given: unknown) => string) {
  const error = (issue: { input?: unknown }) => message(issue.input);
  return z.string({ error }).min(1, { error });
}

/**
 * @internal
 * One identifier sent in a query (`filter_id`, `kpi_id`): a string or an integer, as the service
 * sends ids (spec 2.7), and one token, so a stray space or comma fails here, not at the service.
 * Stricter than `Identifier`, which reads ids as the service sends them.
 */
export const QueryIdentifier = checked<string | number, string>(z.union([z.string(), z.number()]), (value, context) => {
  const parsed = Identifier.safeParse(value);
  if (parsed.success && /^[A-Za-z0-9_.-]+$/.test(parsed.data)) return parsed.data;
  context.addIssue({ code: "custom", message: `must be one identifier (letters, digits, "-", "_", "."), got ${describeValue(value)}` });
  return z.NEVER;
});

/** @internal The schema of {@link FilterValue}, as the generated interfaces write it. */
export const FilterValue = z
  .union([z.string(), z.array(z.string()).readonly()])
  .describe("One filter value, or several joined by OR (spec 4.2, 4.6: the key is repeated, never a comma list).");

/** The values of one filter as query values; a problem is reported at `path` (the filter's name). */
function filterValues(value: unknown, path: PropertyKey[], isBoolean: boolean, context: z.RefinementCtx): string[] {
  const values = Array.isArray(value) ? (value as unknown[]) : [value];
  if (values.length === 0) context.addIssue({ code: "custom", path, message: "an empty list matches nothing; leave the filter out for all traffic" });
  return values.map((item, index) => {
    const itemPath = Array.isArray(value) ? [...path, index] : path;
    if (isBoolean) {
      if (item === true || item === "true") return "true";
      if (item === false || item === "false") return "false";
      context.addIssue({ code: "custom", path: itemPath, message: `is a boolean filter: give true or false, got ${describeValue(item)}` });
      return "";
    }
    if (typeof item !== "string" || item.length === 0) {
      context.addIssue({ code: "custom", path: itemPath, message: `must be a non-empty string (values are case-sensitive), got ${describeValue(item)}` });
    }
    return String(item);
  });
}

/**
 * The entries of a map argument that are given (a value left `undefined` is no filter); anything
 * but an object of `entries` (a string, a list) is refused, not read key by key.
 */
function givenEntries(map: unknown, entries: string, context: z.RefinementCtx): Array<[string, unknown]> {
  if (typeof map !== "object" || map === null || Array.isArray(map)) {
    context.addIssue({ code: "custom", message: `must be an object of ${entries}, got ${describeValue(map)}` });
    return [];
  }
  return Object.entries(map).filter(([, value]) => value !== undefined);
}

/**
 * @internal
 * Dimension filters of one endpoint (spec 4.2, 4.6, 4.7) as query parameters: each name one of
 * `filterNames` ("did you mean" for a near miss), each value a non-empty string or a non-empty list
 * of them, `true`/`false` for the boolean session filters. `typeName` is their TypeScript type.
 */
export function zFilters<TypeName extends keyof FiltersOf>(filterNames: readonly string[], typeName: TypeName) {
  const boolean = (SESSION_BOOLEAN_FILTER_NAMES as readonly string[]).filter((name) => filterNames.includes(name));
  const value = boolean.length === 0 ? FilterValue : z.union([FilterValue, z.boolean()]);
  const filters = checked<FiltersOf[TypeName], Record<string, string[]>>(z.record(z.string(), value), (map, context) => {
    const query: Record<string, string[]> = {};
    for (const [name, given] of givenEntries(map, 'filter names to values, such as { cdn: ["Akamai", "Fastly"] }', context)) {
      if (!filterNames.includes(name)) {
        context.addIssue({ code: "custom", path: [name], message: `"${name}" is not a filter of this endpoint (spec 4.7); ${describeChoices(name, filterNames, "filter names")}` });
      } else query[name] = filterValues(given, [name], boolean.includes(name), context);
    }
    return query;
  });
  return typeScriptType(filters, typeName);
}

/** @internal Custom-tag filters (spec 4.2) as `tag_<name>` query parameters. */
export const TagFilters = checked<TagFilters, Record<string, string[]>>(z.record(z.string(), FilterValue).readonly(), (map, context) => {
  const query: Record<string, string[]> = {};
  for (const [name, given] of givenEntries(map, 'tag names (without "tag_") to values, such as { show: "Blue" }', context)) {
    if (name.length === 0) context.addIssue({ code: "custom", message: "a tag name must not be empty" });
    else if (name.startsWith("tag_")) context.addIssue({ code: "custom", path: [name], message: `give the tag name without the "tag_" prefix: "${name.slice(4)}"` });
    else query[`tag_${name}`] = filterValues(given, [name], false, context);
  }
  return query;
}).describe("Custom-tag filters: tag name (without the `tag_` prefix) to value(s), sent as `tag_<name>` (spec 4.2).");

/** The members of the filter arguments shared by sample sessions and metrics, but `filters`. */
const FILTER_CHOICES = {
  tags: TagFilters.optional().describe("Custom-tag filters (spec 4.2 `tag_<tag_name>`)."),
  filterId: QueryIdentifier.optional().describe("One saved filter; exclusive with `filters` and `tags` (spec 4.2, 4.6: one filter type per request)."),
};

/** @internal The members of the filter arguments of an endpoint whose dimension filters are `filters`. */
export function filterMembers<Filters extends z.ZodType>(filters: Filters) {
  return { filters: filters.optional().describe("Dimension filters: different dimensions are joined by AND, the values of one by OR (spec 4.2)."), ...FILTER_CHOICES };
}

/** @internal The schema of {@link FilterArguments}, for the generated interfaces: `Filters` is its type parameter. */
export const FilterArguments = z
  .strictObject(filterMembers(typeScriptType(z.record(z.string(), z.union([FilterValue, z.boolean()])), "Filters")))
  .describe("The filter arguments shared by sample sessions and metrics.");

/**
 * @internal
 * The query of parsed filter arguments (spec 4.2, 4.6, 4.7): a saved filter, or dimension and tag
 * filters; `filterId` excludes the others, a request has one filter type.
 */
export function filterQuery(
  parsed: { filters?: Record<string, string[]> | undefined; tags?: Record<string, string[]> | undefined; filterId?: string | undefined },
  context: z.RefinementCtx,
): QueryParams {
  const { filters = {}, tags = {}, filterId } = parsed;
  if (filterId === undefined) return { ...filters, ...tags };
  if (Object.keys(filters).length > 0 || Object.keys(tags).length > 0) {
    context.addIssue({
      code: "custom",
      path: ["filterId"],
      message: "cannot be combined with dimension or tag filters (spec 4.2, 4.6: one filter type per request); give either filterId or filters/tags",
    });
  }
  return { filter_id: filterId };
}

/** A metric granularity after checking: an interval length, or one interval for the whole range. */
export type Granularity = { text: string; stepMs: number } | { text: "ALL"; stepMs: undefined };

/** Shortest and longest granularities seen (docs/api.md 10.4): PT1M to P10W, plus ALL. */
const GRANULARITY_BOUNDS = { minMs: MINUTE_MS, maxMs: 70 * DAY_MS } as const;
/** Units of an ISO 8601 duration with a fixed length, in the order they are written. */
const DURATION_UNITS_MS = [WEEK_MS, DAY_MS, HOUR_MS, MINUTE_MS, 1000] as const;

/**
 * @internal
 * A granularity (spec 4.6: an ISO 8601 duration; docs/api.md 10.4: PT1M up to P10W, or ALL). Years
 * and months are refused because they have no fixed length, so windows could not align with them.
 */
export const Granularity = checked<string, Granularity>(z.string(), (text, context) => {
  if (text === "ALL") return { text, stepMs: undefined };
  const match = typeof text === "string" && !text.endsWith("T") ? /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(text) : null;
  let stepMs = 0;
  match?.slice(1).forEach((count, index) => {
    stepMs += count === undefined ? 0 : Number(count) * DURATION_UNITS_MS[index]!;
  });
  if (typeof text !== "string" || stepMs === 0) {
    context.addIssue({ code: "custom", message: `must be an ISO 8601 duration such as PT1M, PT1H, P1D or P1W, or "ALL"; got ${describeValue(text)}` });
  } else if (stepMs < GRANULARITY_BOUNDS.minMs || stepMs > GRANULARITY_BOUNDS.maxMs || stepMs % MINUTE_MS !== 0) {
    context.addIssue({ code: "custom", message: `must be whole minutes from PT1M to P10W (or "ALL"); got ${text}` });
  }
  return { text: String(text), stepMs };
});

/** A dimension to group by: predefined or error-code (spec 4.7). */
export type GroupByName = GroupByDimension | ErrorCodeDimension;

/** Every {@link GroupByName}. */
const GROUP_BY_NAMES: readonly GroupByName[] = [...GROUP_BY_DIMENSIONS, ...(Object.keys(ERROR_CODE_DIMENSIONS) as ErrorCodeDimension[])];

/** @internal A dimension to group by (spec 4.7), described by `description`. */
export function zGroupByName(description: string) {
  return typeScriptType(zChoice(GROUP_BY_NAMES, "group-by dimensions"), "GroupByName").describe(description);
}

/**
 * @internal
 * Refuses an error-code dimension grouping other metrics than its own (spec 4.7), at `dimension`.
 */
export function refineGroupByDimension(dimension: GroupByName, metrics: readonly string[], context: z.RefinementCtx): void {
  const onlyMetric: string | undefined = (ERROR_CODE_DIMENSIONS as Record<string, string>)[dimension];
  const other = metrics.find((metric) => metric !== onlyMetric);
  if (onlyMetric !== undefined && other !== undefined) {
    context.addIssue({
      code: "custom",
      path: ["dimension"],
      message: `"${dimension}" groups only the metric "${onlyMetric}" (spec 4.7), not "${other}"; request "${onlyMetric}" alone or group by another dimension`,
    });
  }
}

/** @internal The schema of a method that takes no arguments: any key is refused with a hint. */
export const NoParams = z.strictObject({});

/** The keys a params schema knows: its object's, through the transforms that follow it. */
function knownKeys(schema: z.core.$ZodType): string[] {
  let node = schema;
  while (node._zod.def.type === "pipe") node = (node._zod.def as unknown as { in: z.core.$ZodType }).in;
  return Object.keys((node._zod.def as unknown as { shape: Record<string, unknown> }).shape);
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
 * @internal
 * Parses `value` with `schema`, or throws an {@link ArgumentError} at `root` and the path of the
 * first issue (`ids[3]`, `filters[2].rules`); the others are appended to its message.
 */
export function parseArgument<Schema extends z.ZodType>(schema: Schema, value: unknown, root = ""): z.output<Schema> {
  let parsed: z.ZodSafeParseResult<z.output<Schema>>;
  try {
    parsed = schema.safeParse(value);
  } catch (error) {
    // A recursive schema (a rule tree) recurses into a cyclic or absurdly deep value until the
    // stack overflows; that is the caller's value at fault, so it gets an ArgumentError.
    throw new ArgumentError(root || "params", `could not be read (${error instanceof Error ? error.message : describeValue(error)}); a value may contain a cycle or nest too deep`);
  }
  if (parsed.success) return parsed.data;
  const [first, ...rest] = parsed.error.issues;
  const more = rest.length === 0 ? "" : ` (and ${rest.length} more: ${describeIssues(rest).slice(0, 3).join("; ")})`;
  throw new ArgumentError(issuePath(root, first?.path ?? []), `${first?.message ?? "invalid"}${more}`);
}

/**
 * Parses the params object of a method with its strict zod schema (and the transform that may
 * follow it): a key the method does not take gets a "did you mean", any other mismatch an
 * {@link ArgumentError} whose path starts at the params key, for example `ids[3]` or
 * `filters[2].rules` (after `root`, where a family names its params).
 *
 * @internal
 */
export function parseParams<Schema extends z.ZodType>(schema: Schema, params: unknown, root = ""): z.output<Schema> {
  checkKnownKeys(params, knownKeys(schema));
  return parseArgument(schema, params, root);
}
