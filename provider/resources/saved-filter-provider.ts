import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { BadRequestError, ConnectionError, NotFoundError, TimeoutError } from "../client/errors";
import type { FilterLookupName } from "../client/filters";
import { configureFromStack, report, sharedClient } from "../host/runtime";
import {
  describeRulesDiff,
  lookupsForRules,
  PREVIEW_UNKNOWN,
  rulesEqual,
  validateRuleValues,
  validateRules,
  type RuleFailure,
} from "../rules";
import type { RuleGroup, SavedFilter, SavedFilterInput, SavedFilterUpdate } from "../schema";

/**
 * The host side of the SavedFilter resource: check, diff, create, read, update and delete against
 * `/bulk_filters` (spec 4.8). Loaded by name in the dynamic-provider host (see host/shim.ts); every
 * SavedFilter of a stack shares this module's client.
 */

/** The properties a program declares; `adoptId` only matters at create. */
const DeclaredFilter = z.object({
  name: z.string().trim().min(1, "must be a non-empty string"),
  rules: z.custom<RuleGroup>(),
  category: z.string().min(1, "must be a non-empty string when given").optional(),
  subcategory: z.string().min(1, "must be a non-empty string when given").optional(),
  advanced: z.boolean().optional(),
  content: z.boolean().optional(),
  enabled: z.boolean().optional(),
  adoptId: z.string().regex(/^\d+$/, "must be the numeric id of an existing saved filter").optional(),
});
type DeclaredFilter = z.infer<typeof DeclaredFilter>;

/**
 * The API's values for booleans left out (spec 2.7 is silent; these are what a filter made in the
 * console has). They are sent explicitly at create, so "left out" and "the default" never diff.
 */
const BOOLEAN_DEFAULTS = { advanced: false, content: false, enabled: true } as const;

/** Properties compared by `diff` and sent by `update`, in display order. */
const MANAGED_PROPERTIES = ["name", "rules", "category", "subcategory", "advanced", "content", "enabled"] as const;
type ManagedProperty = (typeof MANAGED_PROPERTIES)[number];

/** The outputs recorded in the state. */
export interface SavedFilterOutputs {
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
  adoptId?: string;
}

/** Lookup values fetched during this host's run, shared by every check (issue: "cached per run"). */
const lookupCache = new Map<string, Promise<ReadonlySet<string>>>();

function lookupValues(lookup: string): Promise<ReadonlySet<string>> {
  const cached = lookupCache.get(lookup);
  if (cached) return cached;
  const values = sharedClient()
    .filters.lookup(lookup as FilterLookupName)
    .then((list): ReadonlySet<string> => new Set(list));
  // A failed lookup is not cached: the next check tries again.
  values.catch(() => lookupCache.delete(lookup));
  lookupCache.set(lookup, values);
  return values;
}

const isUnknown = (value: unknown) => value === PREVIEW_UNKNOWN;

/** The declared state with the API's defaults filled in: what the account should hold. */
function desiredState(declared: DeclaredFilter): SavedFilterInput {
  return {
    name: declared.name,
    rules: declared.rules,
    ...(declared.category === undefined ? {} : { category: declared.category }),
    ...(declared.subcategory === undefined ? {} : { subcategory: declared.subcategory }),
    advanced: declared.advanced ?? BOOLEAN_DEFAULTS.advanced,
    content: declared.content ?? BOOLEAN_DEFAULTS.content,
    enabled: declared.enabled ?? BOOLEAN_DEFAULTS.enabled,
  };
}

function sameValue(property: ManagedProperty, current: unknown, desired: unknown): boolean {
  if (property === "rules") {
    return current !== undefined && desired !== undefined && rulesEqual(current as RuleGroup, desired as RuleGroup);
  }
  return current === desired;
}

/** The managed properties whose current value differs from the desired one. */
function changedProperties(current: Partial<SavedFilterInput>, desired: SavedFilterInput): ManagedProperty[] {
  return MANAGED_PROPERTIES.filter((property) => !sameValue(property, current[property], desired[property]));
}

/**
 * The PUT body item for the changed properties (spec 4.8: PUT merges). A property that is no longer
 * declared is sent as null, which clears it (emulator/README.md, saved filters).
 */
function updateBody(id: string, changed: readonly ManagedProperty[], desired: SavedFilterInput): SavedFilterUpdate {
  const body: Record<string, unknown> = { id };
  for (const property of changed) body[property] = desired[property] ?? null;
  return body as SavedFilterUpdate;
}

function outputsOf(filter: SavedFilter, adoptId: string | undefined): SavedFilterOutputs {
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
    ...(adoptId === undefined ? {} : { adoptId }),
  };
}

function declaredFrom(inputs: Record<string, unknown>): DeclaredFilter {
  return DeclaredFilter.parse(inputs);
}

/** Says which resource an error is about; client errors never carry credentials. */
function withContext(name: string, action: string, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`SavedFilter "${name}": ${action} failed: ${message}`, { cause: error });
}

/** Brings an existing filter to the declared state and returns its outputs. */
async function converge(existing: SavedFilter, desired: SavedFilterInput, adoptId: string | undefined): Promise<SavedFilterOutputs> {
  const changed = changedProperties(existing as Partial<SavedFilterInput>, desired);
  if (changed.length === 0) return outputsOf(existing, adoptId);
  const client = sharedClient();
  await client.filters.update([updateBody(existing.id, changed, desired)]);
  return outputsOf(await client.filters.get(existing.id), adoptId);
}

/**
 * After a POST whose answer was lost (timeout, reset after the server committed), the filter may
 * exist: find it by exact name and equivalent rules before posting again (no idempotency key
 * exists, api-facts). The newest match wins.
 */
async function findCreated(desired: SavedFilterInput): Promise<SavedFilter | undefined> {
  const candidates = await sharedClient().filters.list({ name: desired.name });
  return candidates
    .filter((filter) => filter.name === desired.name && rulesEqual(filter.rules, desired.rules))
    .sort((a, b) => Number(b.id) - Number(a.id))[0];
}

async function createFilter(desired: SavedFilterInput): Promise<SavedFilter> {
  const client = sharedClient();
  try {
    const [created] = await client.filters.create([desired]);
    return created!;
  } catch (error) {
    if (!(error instanceof ConnectionError || error instanceof TimeoutError)) throw error;
    const existing = await findCreated(desired);
    if (existing) {
      report(`SavedFilter "${desired.name}": the create answer was lost; found the filter it made (id ${existing.id})`);
      return existing;
    }
    const [created] = await client.filters.create([desired]);
    return created!;
  }
}

function failuresOf(issues: z.core.$ZodIssue[]): pulumi.dynamic.CheckFailure[] {
  return issues.map((issue) => ({
    property: String(issue.path[0] ?? ""),
    reason: `${issue.path.map(String).join(".") || "inputs"}: ${issue.message}`,
  }));
}

function ruleFailures(failures: readonly RuleFailure[]): pulumi.dynamic.CheckFailure[] {
  return failures.map((failure) => ({ property: "rules", reason: `${failure.path}: ${failure.reason}` }));
}

/** The SavedFilter provider implementation (see host/shim.ts). */
export const provider: Required<pulumi.dynamic.ResourceProvider> = {
  async configure(request) {
    configureFromStack(request.config);
  },

  /**
   * Validates every input with its exact path and what would be valid; values of pre-set fields are
   * checked against the lookups (spec 2.7, 4.8) so a typo fails the preview, not the account.
   */
  async check(_olds, news) {
    const known = Object.fromEntries(Object.entries(news).filter(([, value]) => !isUnknown(value)));
    const parsed = DeclaredFilter.partial().safeParse(known);
    const failures = parsed.success ? [] : failuresOf(parsed.error.issues);
    if (!("name" in news)) failures.push({ property: "name", reason: "name: required" });
    if (!("rules" in news)) failures.push({ property: "rules", reason: "rules: required, a rule group of spec 2.7" });
    else if (!isUnknown(news.rules)) {
      const structural = validateRules(news.rules, "rules");
      failures.push(...ruleFailures(structural));
      if (structural.length === 0) {
        const rules = news.rules as RuleGroup;
        const lookups = new Map<string, ReadonlySet<string>>();
        try {
          await Promise.all(lookupsForRules(rules).map(async (lookup) => lookups.set(lookup, await lookupValues(lookup))));
        } catch (error) {
          failures.push({ property: "rules", reason: `rules: the lookup values could not be read to check them: ${error instanceof Error ? error.message : String(error)}` });
        }
        failures.push(...ruleFailures(validateRuleValues(rules, lookups, "rules")));
      }
    }
    return { inputs: news, failures };
  },

  /**
   * Compares canonical forms (reordering never diffs, nor the server's own ordering); every property
   * updates in place. A rules change is printed as a rule-tree diff, which the engine shows.
   */
  async diff(_id, olds, news) {
    const current = olds as Partial<SavedFilterInput>;
    const changed: string[] = [];
    for (const property of MANAGED_PROPERTIES) {
      const next = news[property];
      if (isUnknown(next)) {
        changed.push(property);
        continue;
      }
      const desired = next ?? (property in BOOLEAN_DEFAULTS ? BOOLEAN_DEFAULTS[property as keyof typeof BOOLEAN_DEFAULTS] : undefined);
      if (!sameValue(property, current[property], desired)) changed.push(property);
    }
    if (changed.includes("rules") && !isUnknown(news.rules) && current.rules) {
      const text = describeRulesDiff(current.rules, news.rules as RuleGroup);
      if (text) report(`SavedFilter "${String(news.name)}": rules change\n${text}`);
    }
    return { changes: changed.length > 0, replaces: [], deleteBeforeReplace: false };
  },

  /** POSTs the filter, or takes over `adoptId`; a lost answer is reconciled, never duplicated. */
  async create(inputs) {
    const declared = declaredFrom(inputs);
    const desired = desiredState(declared);
    try {
      if (declared.adoptId !== undefined) {
        const existing = await sharedClient().filters.get(declared.adoptId).catch((error: unknown) => {
          if (error instanceof NotFoundError) {
            throw new Error(`adoptId ${declared.adoptId}: the account has no saved filter with this id`);
          }
          throw error;
        });
        const outputs = await converge(existing, desired, declared.adoptId);
        return { id: outputs.filterId, outs: outputs };
      }
      const created = await createFilter(desired);
      const outputs = await converge(created, desired, undefined);
      return { id: outputs.filterId, outs: outputs };
    } catch (error) {
      throw withContext(declared.name, "create", error);
    }
  },

  /** The account's current filter, so refresh shows drift; a filter deleted elsewhere leaves the state. */
  async read(id, props) {
    try {
      const filter = await sharedClient().filters.get(id);
      return { id, props: outputsOf(filter, (props as Partial<SavedFilterOutputs> | undefined)?.adoptId) };
    } catch (error) {
      if (error instanceof NotFoundError) return {};
      throw withContext(String((props as { name?: string } | undefined)?.name ?? id), "read", error);
    }
  },

  /** Sends only what changed (PUT merges, spec 4.8) and returns the full outputs (note, rule 6). */
  async update(id, olds, news) {
    const declared = declaredFrom(news);
    const desired = desiredState(declared);
    try {
      const changed = changedProperties(olds as Partial<SavedFilterInput>, desired);
      const client = sharedClient();
      if (changed.length > 0) await client.filters.update([updateBody(id, changed, desired)]);
      return { outs: outputsOf(await client.filters.get(id), declared.adoptId ?? (olds as SavedFilterOutputs).adoptId) };
    } catch (error) {
      throw withContext(declared.name, "update", error);
    }
  },

  /**
   * Deletes the filter; one already deleted outside Pulumi counts as deleted. The service's answer
   * to an unknown id is not specified (the emulator answers 400), so a refused delete is followed by
   * a read: if the filter is gone, the delete succeeded.
   */
  async delete(id, props) {
    const client = sharedClient();
    try {
      await client.filters.delete([id]);
    } catch (error) {
      if (error instanceof NotFoundError) return;
      if (error instanceof BadRequestError) {
        const gone = await client.filters.get(id).then(
          () => false,
          (readError: unknown) => readError instanceof NotFoundError,
        );
        if (gone) return;
      }
      throw withContext(String((props as { name?: string }).name ?? id), "delete", error);
    }
  },
};
