import type { z } from "zod";
import { accountChange, accountChanges, accountOutputs, boundAccount, checkWithAccount, declaredAccount, type AccountContext } from "../accounts/binding";
import { byProperty, type PlannedDiff, type PropertyChanges, type PropertyFailure, type ResourceCore } from "../accounts/calls";
import { withoutSecretMarkers } from "../accounts/wire-secret";
import { report } from "../accounts/runtime";
import { InsightsError } from "../client";
import type { AccountNeed } from "../connection-check/probe";
import { matchEstimateLines } from "../match-estimate/preview";
import type { SavedFilterInput } from "../schema";
import { claimFilters, sharedFilterGateway } from "./gateways";
import { accountLookups } from "./lookups";
import type { SavedFilterOutputs } from "../schema/resource-records";
import { SAVED_FILTER } from "./filter-properties";
import { checkDeclaredFilter } from "./model/declared";
import { planMembers, type MembersState } from "./model/plan";
import { changedProperties, describeRulesChange, desiredState, filterChanges, RULES_DIFF_LEGEND, type FilterChange, type FilterState } from "./model/state";
import { perform, readFilters } from "./reconciler";

/** What a saved filter needs of its account, checked at preview (connection-check/probe.ts): every `/bulk_filters` endpoint is behind the feature (docs/api.md 1). */
export const FILTER_NEEDS: readonly AccountNeed[] = ["bulkFilters"];

/** The inputs a program declares (./filter-properties.ts); `adoptId` only matters at create, `account` names where the filter lives. */
const SavedFilterInputs = SAVED_FILTER.inputs;
type SavedFilterInputs = z.output<typeof SavedFilterInputs>;

/** The key of a SavedFilter's one member in the plans of the reconciler. */
const MEMBER = "filter";

function outputsOf(state: FilterState, adoptId: string | undefined, account: string | undefined): SavedFilterOutputs {
  return { ...state, ...(adoptId === undefined ? {} : { adoptId }), ...accountOutputs(account) };
}

/** How messages about the account name the filter: `SavedFilter "x" (id 12)`. */
function labelOf(properties: Record<string, unknown> | undefined, id?: string): string {
  const name = typeof properties?.name === "string" ? ` "${properties.name}"` : "";
  return `SavedFilter${name}${id === undefined ? "" : ` (id ${id})`}`;
}

/** Says which resource an error is about; client errors never carry credentials. */
function withContext(name: string, action: string, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new InsightsError(`SavedFilter "${name}": ${action} failed: ${message}`, { cause: error });
}

/** `changes` as a plan's paths: none replaces the filter. */
export function asPaths(changes: readonly FilterChange[]): PropertyChanges {
  return Object.fromEntries(changes.map(({ path, kind }) => [path, { kind, replace: false }]));
}

/**
 * Where a SavedFilter changes from its recorded outputs `olds` to the declared `news`: its managed
 * properties at their paths (saved-filters/model/state.ts `filterChanges`), secrets compared by their
 * values, and `account`, whose change to another account replaces the resource.
 */
export function savedFilterChanges(olds: Record<string, unknown>, news: Record<string, unknown>, context: AccountContext = {}): PropertyChanges {
  const [before, after] = [withoutSecretMarkers(olds) as Record<string, unknown>, withoutSecretMarkers(news) as Record<string, unknown>];
  return { ...asPaths(filterChanges(before, after)), ...accountChanges(before, after, context) };
}

/** Performs the plan of the one member and answers its state, or throws its failure. */
async function performOne(account: string | undefined, previous: MembersState | undefined, inputs: SavedFilterInputs): Promise<FilterState> {
  const operations = planMembers(previous, [{ key: MEMBER, desired: desiredState(inputs) }], {
    ...(inputs.adoptId === undefined || previous !== undefined ? {} : { adopt: { [MEMBER]: inputs.adoptId } }),
    // The engine keeps no state of a create that failed: every create looks for what it may have made.
    lookFirst: "always",
  });
  const [outcome] = await perform(sharedFilterGateway(account), operations, "join");
  if (outcome === undefined || "error" in outcome) throw outcome?.error;
  return outcome.state!;
}

/**
 * The SavedFilter resource's core, host-neutral: check, diff, create, read, update and delete of one
 * saved filter against `/bulk_filters` (docs/api.md 4.8). A SavedFilter is a set of one member
 * (model/plan.ts), performed by the same reconciler as a SavedFilterSet; its calls join the other
 * resources' in the account's gateway, so the engine's concurrent calls become bulk calls of up to
 * 100 filters (gateway/filter-gateway.ts). The dynamic-provider host (provider/host/saved-filter-adapter.ts)
 * and the provider plugin adapt it.
 */
export const savedFilterCore: ResourceCore<SavedFilterOutputs> = {
  /**
   * Validates every input with its exact path and what would be valid; values of pre-set fields are
   * checked against the lookups (docs/api.md 2.7, 4.8) so a typo fails the preview, not the account.
   * The account's connection is checked first (accounts/binding.ts `checkWithAccount`: credentials,
   * the bulk-filters feature, the base-URL policy, reachability); its failure is on `account`, never
   * on `rules`. A filter to create shows what its rules would match.
   */
  async check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<{ inputs: Record<string, unknown>; failures: PropertyFailure[] }> {
    const { accountFailures, checked: failures } = await checkWithAccount(news, FILTER_NEEDS, (client) =>
      checkDeclaredFilter(client === undefined ? undefined : accountLookups(client), news, "", SavedFilterInputs));
    // A filter to create (no inputs before): what its rules would match (a change says it in diff).
    if (accountFailures.length === 0 && failures.length === 0 && olds.rules === undefined) {
      const lines = await matchEstimateLines(news.rules, undefined, declaredAccount(news));
      const [first, ...rest] = lines;
      if (first !== undefined) report([`SavedFilter "${String(news.name)}": ${first}`, ...rest]);
    }
    return { inputs: news, failures: [...accountFailures, ...byProperty(failures.filter(({ path }) => path !== "account"))] };
  },

  /**
   * Compares canonical forms (reordering never diffs, nor the server's own ordering); every property
   * updates in place, except the account: another account replaces the filter (docs/configuration.md "Accounts").
   * A rules change is shown as a rule-tree diff.
   */
  async diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<PlannedDiff> {
    const account = accountChange(labelOf(news, id), olds, news);
    claimFilters(declaredAccount(olds), [id]);
    const current = olds as Partial<SavedFilterInput>;
    const paths = savedFilterChanges(olds, news, { accountReplaced: account.replace });
    const changed = changedProperties(Object.keys(paths));
    const text = describeRulesChange(current, news, changed);
    if (text) {
      const estimate = await matchEstimateLines(news.rules, current.rules, declaredAccount(news));
      report([`SavedFilter "${String(news.name)}": rules change ${RULES_DIFF_LEGEND}`, ...text.replace(/\n+$/, "").split("\n"), ...estimate]);
    }
    return { changes: changed.length > 0 || account.changed, replaces: account.replace ? ["account"] : [], paths };
  },

  /**
   * POSTs the filter, or takes over `adoptId`. A filter an earlier create left with an unknown
   * outcome (same name and declared content, held by no other resource) is adopted instead: the
   * engine keeps no state of a failed create, so every create looks (one listing by name).
   */
  async create(inputs: Record<string, unknown>): Promise<{ id: string; outputs: SavedFilterOutputs }> {
    const declared = SavedFilterInputs.parse(inputs);
    try {
      const outputs = outputsOf(await performOne(declared.account, undefined, declared), declared.adoptId, declared.account);
      return { id: outputs.filterId, outputs };
    } catch (error) {
      throw withContext(declared.name, declared.adoptId === undefined ? "create" : `create (adoptId ${declared.adoptId})`, error);
    }
  },

  /**
   * The account's current filter, so refresh shows drift; undefined for a filter deleted elsewhere.
   * The refresh's reads are served from one listing of the account (saved-filters/reconciler.ts `readFilters`).
   */
  async read(id: string, olds: Record<string, unknown>): Promise<{ id: string; outputs: SavedFilterOutputs } | undefined> {
    const account = boundAccount(labelOf(olds, id), declaredAccount(olds), olds);
    try {
      const [state] = await readFilters(sharedFilterGateway(account), [{ id, name: (olds as Partial<SavedFilterOutputs>).name }], "join");
      if (state === undefined) return undefined;
      return { id, outputs: outputsOf(state, (olds as Partial<SavedFilterOutputs>).adoptId, account) };
    } catch (error) {
      throw withContext(String((olds as { name?: string }).name ?? id), "read", error);
    }
  },

  /** Sends only what changed (PUT merges, docs/api.md 4.8) and answers the full outputs. */
  async update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<SavedFilterOutputs> {
    const declared = SavedFilterInputs.parse(news);
    const account = boundAccount(labelOf(news, id), declared.account, olds);
    try {
      const state = await performOne(account, { ids: { [MEMBER]: id }, filters: { [MEMBER]: olds as unknown as FilterState } }, declared);
      return outputsOf(state, declared.adoptId ?? (olds as Partial<SavedFilterOutputs>).adoptId, account);
    } catch (error) {
      throw withContext(declared.name, "update", error);
    }
  },

  /** Deletes the filter; one already deleted outside Pulumi counts as deleted. */
  async delete(id: string, olds: Record<string, unknown>): Promise<void> {
    const account = boundAccount(labelOf(olds, id), declaredAccount(olds), olds);
    try {
      const [outcome] = await perform(sharedFilterGateway(account), [{ kind: "delete", key: MEMBER, id }], "join");
      if (outcome !== undefined && "error" in outcome) throw outcome.error;
    } catch (error) {
      throw withContext(String((olds as { name?: string }).name ?? id), "delete", error);
    }
  },
};
