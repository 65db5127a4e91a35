import { z } from "zod";
import type { InsightsClient } from "../../client";
import { CLEARED_FIELD, isRefusalStatus, mayBeCut } from "../../schema/assumptions";
import { coverNames } from "../../client/core/listing";
import type { AccountNeed } from "../../connection-check/probe";
import { isConnectionFailure } from "../../connection-check/words";
import type { FilterLookupName } from "../../client/filters";
import type { FilterGateway } from "../../saved-filters/gateway/filter-gateway";
import { FilterItemError } from "../../saved-filters/gateway/refusals";
import {
  describeRulesDiff,
  isUnknown,
  lookupCandidates,
  lookupsForRules,
  rulesEqual,
  validateRuleValues,
  validateRules,
  type RuleFailure,
} from "../../rules";
import type { RuleGroup, SavedFilter, SavedFilterInput, SavedFilterUpdate } from "../../schema";
import { unknownProperties } from "../../schema/suggest";

/**
 * What SavedFilter and SavedFilterSet share about one declared saved filter (spec 2.7, 4.8): its
 * inputs and their check with exact paths, the API's defaults, the comparison with the account's
 * state, and the update that sends only what changed.
 */

/** @internal The properties of one saved filter that a program declares (spec 2.7, 4.8). */
export const FilterSpec = z.object({
  // Refused when blank, but never trimmed: the account keeps a name as sent (a console name that
  // ends with a space stays so), and a trimmed declaration would differ from it on every adoption.
  name: z.string().refine((name) => name.trim() !== "", "must be a non-empty string"),
  rules: z.custom<RuleGroup>(),
  category: z.string().min(1, "must be a non-empty string when given").optional(),
  subcategory: z.string().min(1, "must be a non-empty string when given").optional(),
  advanced: z.boolean().optional(),
  content: z.boolean().optional(),
  enabled: z.boolean().optional(),
});
/** A {@link FilterSpec} after parsing. */
export type FilterSpec = SavedFilterInput;

/** What a saved filter needs of its account, checked at preview (connection-check/probe.ts): every `/bulk_filters` endpoint is behind the feature (docs/api.md 1). */
export const FILTER_NEEDS: readonly AccountNeed[] = ["bulkFilters"];

/**
 * The API's values for booleans left out (spec 2.7 is silent; these are what a filter made in the
 * console has). They are sent explicitly at create, so "left out" and "the default" never diff.
 */
export const BOOLEAN_DEFAULTS = { advanced: false, content: false, enabled: true } as const;

/** Properties compared by `diff` and sent by `update`, in display order. */
export const MANAGED_PROPERTIES = ["name", "rules", "category", "subcategory", "advanced", "content", "enabled"] as const;
/** One of {@link MANAGED_PROPERTIES}. */
export type ManagedProperty = (typeof MANAGED_PROPERTIES)[number];

/** A saved filter as the account holds it, as recorded in the state. */
export interface FilterState {
  filterId: string;
  name: string;
  rules: RuleGroup;
  category?: string;
  subcategory?: string;
  advanced: boolean;
  content: boolean;
  enabled: boolean;
  created?: string;
  edited?: string;
  creator?: string;
  editor?: string;
}

/** A problem found by {@link checkFilterSpec}: the exact path of the input and what is wrong there. */
export interface PathFailure {
  path: string;
  reason: string;
}

/** `base` and a path below it: `filters["x"]` + `rules.rules[0]` -> `filters["x"].rules.rules[0]`. */
export function joinPath(base: string, path: string): string {
  if (base === "") return path;
  if (path === "") return base;
  return path.startsWith("[") ? `${base}${path}` : `${base}.${path}`;
}

/**
 * Lookup values fetched during this host's run, shared by every check: a preview of many filters
 * reads each lookup once. Kept per client: when the stack config names another account, its new
 * client starts an empty cache.
 */
const lookupCaches = new WeakMap<InsightsClient, Map<string, Promise<ReadonlySet<string>>>>();

/** The values of `lookup`, or of those containing `pattern` when one is given; cached (above). */
function lookupValues(client: InsightsClient, lookup: string, pattern?: string): Promise<ReadonlySet<string>> {
  const lookupCache = lookupCaches.get(client) ?? new Map<string, Promise<ReadonlySet<string>>>();
  lookupCaches.set(client, lookupCache);
  const key = pattern === undefined ? lookup : `${lookup}\u0000${pattern}`;
  const cached = lookupCache.get(key);
  if (cached) return cached;
  const values = client.filters.lookup({ lookup: lookup as FilterLookupName, pattern }).then((list): ReadonlySet<string> => new Set(list));
  // A failed lookup is not cached: the next check tries again.
  values.catch(() => lookupCache.delete(key));
  lookupCache.set(key, values);
  return values;
}

/**
 * The values of `lookup` to check `candidates` against. An answer as long as the cap may have been
 * cut (docs/api.md 11.6): the candidates it does not list are looked up again with `pattern`, as
 * few queries as cover them (client/core/listing.ts `coverNames`: their common beginning, else
 * narrower ones, down to each candidate alone), and the values found are added. A candidate that
 * even its own narrowed answer may have cut is added as it is: nothing shows that the service would
 * refuse it, and the preview refuses only what it can show the service would.
 */
async function valuesToCheck(client: InsightsClient, lookup: string, candidates: ReadonlySet<string>): Promise<ReadonlySet<string>> {
  const values = await lookupValues(client, lookup);
  const unlisted = [...candidates].filter((candidate) => !values.has(candidate));
  if (!mayBeCut(values.size) || unlisted.length === 0) return values;
  const widened = new Set(values);
  const { answers, uncovered } = await coverNames(unlisted, async (pattern) => {
    // No shared beginning: that is the whole lookup, already known to be cut.
    if (pattern === "") return undefined;
    const narrowed = await lookupValues(client, lookup, pattern);
    return mayBeCut(narrowed.size) ? undefined : [...narrowed];
  });
  for (const value of answers.flat()) widened.add(value);
  for (const candidate of uncovered) widened.add(candidate);
  return widened;
}

function pathFailures(failures: readonly RuleFailure[]): PathFailure[] {
  return failures.map(({ path, reason }) => ({ path, reason }));
}

/**
 * The lookup-value failures of a structurally valid rule tree at `rulesPath`. A lookup that fails
 * for a reason of the connection (connection-check/words.ts `isConnectionFailure`: credentials,
 * features, an unreachable or failing service) is thrown: the account is at fault, not the rules.
 */
async function ruleValueFailures(client: () => InsightsClient, rules: RuleGroup, rulesPath: string): Promise<PathFailure[]> {
  const lookups = new Map<string, ReadonlySet<string>>();
  const candidates = lookupCandidates(rules);
  try {
    await Promise.all(lookupsForRules(rules).map(async (lookup) => {
      lookups.set(lookup, await valuesToCheck(client(), lookup, candidates.get(lookup) ?? new Set()));
    }));
  } catch (error) {
    if (isConnectionFailure(error)) throw error;
    const reason = `the lookup values could not be read to check them: ${error instanceof Error ? error.message : String(error)}`;
    return [{ path: rulesPath, reason }];
  }
  return pathFailures(validateRuleValues(rules, lookups, rulesPath));
}

/**
 * The partial form of each schema, made once: zod compiles a parser per schema object, so making it
 * per check would cost time and memory for every member of a large SavedFilterSet.
 */
const partialSchemas = new WeakMap<z.ZodObject, z.ZodObject>();

function partialOf(schema: z.ZodObject): z.ZodObject {
  let partial = partialSchemas.get(schema);
  if (partial === undefined) {
    partial = schema.partial();
    partialSchemas.set(schema, partial);
  }
  return partial;
}

/**
 * Checks one declared filter with exact paths below `basePath` and what would be valid: the
 * properties with `schema` (FilterSpec or an extension of it), the rule tree's structure, and the
 * values of pre-set fields against the lookups (spec 2.7, 4.8), so that a typo fails the preview,
 * not the account. Values not known yet are skipped. `client` gives the client the lookups are read
 * with; it is asked for only when a rule needs a lookup, so a tree without pre-set fields is checked
 * without any settings. Undefined when the account itself is not valid: the lookups are not checked
 * (the account's own failure says why). A lookup that fails for a reason of the connection is
 * thrown, for the caller to report on the account.
 *
 * @internal
 */
export async function checkFilterSpec(
  client: (() => InsightsClient) | undefined,
  spec: Record<string, unknown>,
  basePath: string,
  schema: z.ZodObject = FilterSpec,
): Promise<PathFailure[]> {
  const at = (path: string) => joinPath(basePath, path) || "inputs";
  const known = Object.fromEntries(Object.entries(spec).filter(([, value]) => !isUnknown(value)));
  const parsed = partialOf(schema).safeParse(known);
  const failures: PathFailure[] = parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({ path: at(issue.path.map(String).join(".")), reason: issue.message }));
  // The engine's own `__provider` input is not the user's.
  for (const { property, reason } of unknownProperties(spec, Object.keys(schema.shape), ["__provider"])) failures.push({ path: at(property), reason });
  if (!("name" in spec)) failures.push({ path: at("name"), reason: "required" });
  if (!("rules" in spec)) failures.push({ path: at("rules"), reason: "required, a rule group of spec 2.7" });
  else if (!isUnknown(spec.rules)) {
    const structural = pathFailures(validateRules(spec.rules, at("rules")));
    failures.push(...structural);
    if (structural.length === 0 && client !== undefined) failures.push(...(await ruleValueFailures(client, spec.rules as RuleGroup, at("rules"))));
  }
  return failures;
}

/** The declared state with the API's defaults filled in: what the account should hold. */
export function desiredState(spec: FilterSpec): SavedFilterInput {
  return {
    name: spec.name,
    rules: spec.rules,
    ...(spec.category === undefined ? {} : { category: spec.category }),
    ...(spec.subcategory === undefined ? {} : { subcategory: spec.subcategory }),
    advanced: spec.advanced ?? BOOLEAN_DEFAULTS.advanced,
    content: spec.content ?? BOOLEAN_DEFAULTS.content,
    enabled: spec.enabled ?? BOOLEAN_DEFAULTS.enabled,
  };
}

function sameValue(property: ManagedProperty, current: unknown, desired: unknown): boolean {
  if (property === "rules") {
    return current !== undefined && desired !== undefined && rulesEqual(current as RuleGroup, desired as RuleGroup);
  }
  return current === desired;
}

/**
 * The managed properties that change from `current` to `news` (inputs as a preview sees them, or a
 * {@link desiredState}): compared on canonical forms (reordering never diffs, nor the server's own
 * ordering), defaults filled in, values not known yet counted as changes.
 */
export function plannedChanges(current: Partial<SavedFilterInput>, news: Readonly<Partial<Record<ManagedProperty, unknown>>>): ManagedProperty[] {
  return MANAGED_PROPERTIES.filter((property) => {
    const next = news[property];
    if (isUnknown(next)) return true;
    const desired = next ?? (property in BOOLEAN_DEFAULTS ? BOOLEAN_DEFAULTS[property as keyof typeof BOOLEAN_DEFAULTS] : undefined);
    return !sameValue(property, current[property], desired);
  });
}

/**
 * What the signs of a rule-tree diff stand for, said beside it. The diff goes from the state (the
 * account as last read) to the program, and a refresh shows it too: since CLI 3.120 it asks `diff`
 * of the account's filter against the declaration (docs/dynamic-providers.md rule 7), where a bare
 * `- Canada + Mexico` would read backwards.
 */
export const RULES_DIFF_LEGEND = "(- in the account, + declared)";

/** The rule-tree diff of a planned rules change, "" when there is none to show. */
export function describeRulesChange(current: Partial<SavedFilterInput>, news: Record<string, unknown>, changed: readonly string[]): string {
  if (!changed.includes("rules") || isUnknown(news.rules) || current.rules === undefined || news.rules === undefined) return "";
  return describeRulesDiff(current.rules, news.rules as RuleGroup);
}

/**
 * The PUT body item for the changed properties (spec 4.8: PUT merges). A property that is no longer
 * declared is sent as null, which clears it (docs/api.md 11.2; provider/schema/assumptions.ts `CLEARED_FIELD`).
 */
function updateBody(id: string, changed: readonly ManagedProperty[], desired: SavedFilterInput): SavedFilterUpdate {
  const body: Record<string, unknown> = { id };
  for (const property of changed) body[property] = desired[property] ?? CLEARED_FIELD;
  return body as unknown as SavedFilterUpdate;
}

/** The state of a filter as read from the account, the API's defaults filled in. */
export function stateOf(filter: SavedFilter): FilterState {
  return {
    filterId: filter.id,
    name: filter.name,
    rules: filter.rules,
    ...(filter.category === undefined || filter.category === "" ? {} : { category: filter.category }),
    ...(filter.subcategory === undefined || filter.subcategory === "" ? {} : { subcategory: filter.subcategory }),
    advanced: filter.advanced ?? BOOLEAN_DEFAULTS.advanced,
    content: filter.content ?? BOOLEAN_DEFAULTS.content,
    enabled: filter.enabled ?? BOOLEAN_DEFAULTS.enabled,
    ...(filter.created === undefined ? {} : { created: filter.created }),
    ...(filter.edited === undefined ? {} : { edited: filter.edited }),
    ...(filter.creator === undefined ? {} : { creator: filter.creator }),
    ...(filter.editor === undefined ? {} : { editor: filter.editor }),
  };
}

/** What bringing one filter to its declared state takes: the PUT item (none when nothing changes) and the state after. */
export interface UpdatePlan {
  change: SavedFilterUpdate | undefined;
  state: FilterState;
}

/**
 * Plans bringing filter `id` from `current` (its last known state) to `desired`: one PUT item with
 * only what changed, none when nothing did. PUT merges (spec 4.8) and answers only a location, so the
 * new state is the old one with the changes applied. Only `edited` and `editor`, which the service
 * sets, are read back after the PUT ({@link appliedUpdate}).
 */
export function planUpdate(id: string, current: Partial<FilterState>, desired: SavedFilterInput): UpdatePlan {
  const changed = plannedChanges(current, desired);
  // Optional fields that are no longer declared are cleared by the PUT (null), so they go too.
  const { category: _category, subcategory: _subcategory, filterId: _filterId, ...kept } = current;
  return {
    change: changed.length > 0 ? updateBody(id, changed, desired) : undefined,
    state: stateOf({ ...kept, ...desired, id } as SavedFilter),
  };
}

/**
 * The state a plan reaches once its PUT item (`sent`, none when nothing changed) was applied; a
 * refusal is explained with what `gateway` reads back. After a PUT, `edited` and `editor` are read
 * back (one GET per batch of reads): the service sets them, and a state holding the values from
 * before would differ from the account at every refresh, so the scheduled drift check
 * (`pulumi preview --refresh --expect-no-changes`, README "The examples and a GitOps pipeline")
 * would report a change after each update. A failed read-back keeps the values from before: the
 * update itself was applied.
 */
export async function appliedUpdate(plan: UpdatePlan, sent: Promise<void> | undefined, gateway: FilterGateway): Promise<FilterState> {
  try {
    await sent;
  } catch (error) {
    throw plan.change === undefined ? error : await explainRefusal(gateway, plan.change, error);
  }
  if (plan.change === undefined) return plan.state;
  const current = await gateway.read(String(plan.change.id)).catch(() => undefined);
  if (current === undefined) return plan.state;
  return {
    ...plan.state,
    ...(current.edited === undefined ? {} : { edited: current.edited }),
    ...(current.editor === undefined ? {} : { editor: current.editor }),
  };
}

/** Brings filter `id` from `current` to `desired` (see {@link planUpdate}), batched with other resources' updates. */
export async function updateFilter(gateway: FilterGateway, id: string, current: Partial<FilterState>, desired: SavedFilterInput): Promise<FilterState> {
  const plan = planUpdate(id, current, desired);
  return appliedUpdate(plan, plan.change === undefined ? undefined : gateway.update(plan.change), gateway);
}

/**
 * An update refused (any refusal status: docs/api.md 10.2 shows neither its status nor its body)
 * says what to do about it. A filter deleted elsewhere is recognised by reading the id back
 * (provider/schema/assumptions.ts `UNKNOWN_FILTER_ID_RULE`), never by a code; a change that clears a
 * field with `null` (docs/api.md 11.2, our choice) names the fields, since a service may refuse null.
 */
async function explainRefusal(gateway: FilterGateway, body: SavedFilterUpdate, error: unknown): Promise<unknown> {
  const cause = error instanceof FilterItemError ? error.cause : error;
  if (!isRefusalStatus(cause)) return error;
  const path = error instanceof FilterItemError ? error.path : "";
  const reason = error instanceof FilterItemError ? error.reason : ((cause as { detail?: string }).detail ?? (cause as Error).message);
  let gone: boolean;
  try {
    gone = (await gateway.read(String(body.id))) === undefined;
  } catch {
    return error;
  }
  if (gone) {
    return new FilterItemError(path, `${reason}; deleted outside Pulumi? \`pulumi refresh\` forgets it and the next \`pulumi up\` creates it again`, cause as Error);
  }
  const cleared = Object.entries(body).filter(([, value]) => value === CLEARED_FIELD).map(([property]) => property);
  if (cleared.length > 0) {
    const fields = cleared.join(" and ");
    return new FilterItemError(path, `${reason}; the change clears ${fields} by sending null (docs/api.md 11.2), which the service refused: declare ${fields} again, or replace the filter (\`pulumi up --replace\`)`, cause as Error);
  }
  return error;
}

/**
 * Creates the declared filter (one POST per batch, an unknown outcome watched for by the gateway and
 * never posted again), or takes over the account's filter `adoptId`, and brings it to the declared
 * state. With `findEarlier`, a filter that an earlier operation whose outcome was unknown made (same
 * name and declared content, held by no other resource) is adopted instead of creating another.
 */
export async function createOrAdopt(gateway: FilterGateway, desired: SavedFilterInput, adoptId: string | undefined, findEarlier = false): Promise<FilterState> {
  const existing = adoptId === undefined ? gateway.create(desired, { findEarlier }) : gateway.read(adoptId);
  return bringToDeclared(gateway, existing, desired, adoptId);
}

/**
 * Brings the filter a create made, or the filter `adoptId` as read (`existing`), to the declared
 * state; an adopted id the account does not hold fails.
 */
export async function bringToDeclared(
  gateway: FilterGateway,
  existing: Promise<SavedFilter | undefined>,
  desired: SavedFilterInput,
  adoptId: string | undefined,
): Promise<FilterState> {
  const filter = await existing;
  if (filter === undefined) throw new Error(`the account has no saved filter with id ${adoptId} to adopt`);
  return updateFilter(gateway, filter.id, stateOf(filter), desired);
}
