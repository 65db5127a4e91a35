import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { claimFilters, sharedFilterGateway } from "../../saved-filters/gateways";
import { configureFromStack, report } from "../../accounts/runtime";
import { namedCalls } from "../../host/runtime";
import { accountChange, accountOutputs, boundAccount, checkWithAccount, declaredAccount, type AccountOutputs } from "../../accounts/binding";
import { configureMatchEstimate, matchEstimateLines } from "./match-preview";
import type { SavedFilterInput } from "../../schema";
import {
  checkFilterSpec,
  createOrAdopt,
  describeRulesChange,
  desiredState,
  FILTER_NEEDS,
  FilterSpec,
  plannedChanges,
  RULES_DIFF_LEGEND,
  stateOf,
  updateFilter,
  type FilterState,
} from "./spec";

/**
 * The host side of the SavedFilter resource: check, diff, create, read, update and delete against
 * `/bulk_filters` (spec 4.8). Loaded by name in the dynamic-provider host (see host/shim.ts); every
 * SavedFilter of a stack shares its account's client and gateway, so the engine's concurrent calls
 * become bulk calls of up to 100 filters (saved-filters/gateway/filter-gateway.ts).
 */

/** The properties a program declares; `adoptId` only matters at create, `account` names where the filter lives. */
const DeclaredFilter = FilterSpec.extend({
  adoptId: z.string().regex(/^\d+$/, "must be the numeric id of an existing saved filter").optional(),
  account: z.string().optional(),
});
type DeclaredFilter = z.infer<typeof DeclaredFilter>;

/** The outputs recorded in the state: the filter, the adopted id and the account it lives in. */
export interface SavedFilterOutputs extends FilterState, AccountOutputs {
  adoptId?: string;
}

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
  return new Error(`SavedFilter "${name}": ${action} failed: ${message}`, { cause: error });
}

/**
 * The SavedFilter provider implementation (see host/shim.ts); the host's log lines about its calls
 * name the filter (`SavedFilter "x": ..., waiting 12 s`).
 */
export const provider: Required<pulumi.dynamic.ResourceProvider> = namedCalls("SavedFilter", (properties) => (properties as { name?: unknown } | undefined)?.name, {
  async configure(request) {
    configureFromStack(request.config);
    configureMatchEstimate(request.config);
  },

  /**
   * Validates every input with its exact path and what would be valid; values of pre-set fields are
   * checked against the lookups (spec 2.7, 4.8) so a typo fails the preview, not the account. The
   * account's connection is checked first (accounts/binding.ts `checkWithAccount`: credentials, the
   * bulk-filters feature, the base-URL policy, reachability); its failure is on `account`, never
   * on `rules`.
   */
  async check(olds, news) {
    const { accountFailures, checked: failures } = await checkWithAccount(news, FILTER_NEEDS, (lookups) => checkFilterSpec(lookups, news, "", DeclaredFilter));
    // A filter to create (no inputs before): what its rules would match (a change says it in diff).
    if (accountFailures.length === 0 && failures.length === 0 && olds.rules === undefined) {
      const lines = await matchEstimateLines(news.rules, undefined, declaredAccount(news));
      const [first, ...rest] = lines;
      if (first !== undefined) report([`SavedFilter "${String(news.name)}": ${first}`, ...rest]);
    }
    return {
      inputs: news,
      failures: [
        ...accountFailures,
        ...failures.filter(({ path }) => path !== "account").map(({ path, reason }) => ({ property: path.split(/[.[]/)[0]!, reason: `${path}: ${reason}` })),
      ],
    };
  },

  /**
   * Compares canonical forms (reordering never diffs, nor the server's own ordering); every property
   * updates in place, except the account: another account replaces the filter (README "Accounts").
   * A rules change is printed as a rule-tree diff, which the engine shows.
   */
  async diff(id, olds, news) {
    const account = accountChange(labelOf(news, id), olds, news);
    claimFilters(declaredAccount(olds), [id]);
    const current = olds as Partial<SavedFilterInput>;
    const changed = plannedChanges(current, news);
    const text = describeRulesChange(current, news, changed);
    if (text) {
      const estimate = await matchEstimateLines(news.rules, current.rules, declaredAccount(news));
      report([`SavedFilter "${String(news.name)}": rules change ${RULES_DIFF_LEGEND}`, ...text.replace(/\n+$/, "").split("\n"), ...estimate]);
    }
    return { changes: changed.length > 0 || account.changed, replaces: account.replace ? ["account"] : [], deleteBeforeReplace: false };
  },

  /**
   * POSTs the filter, or takes over `adoptId`. A filter an earlier create left with an unknown
   * outcome (same name and declared content, held by no other resource) is adopted instead: the
   * engine keeps no state of a failed create, so every create looks (one listing by name).
   */
  async create(inputs) {
    const declared: DeclaredFilter = DeclaredFilter.parse(inputs);
    try {
      const gateway = sharedFilterGateway(declared.account);
      const outputs = outputsOf(await createOrAdopt(gateway, desiredState(declared), declared.adoptId, true), declared.adoptId, declared.account);
      return { id: outputs.filterId, outs: outputs };
    } catch (error) {
      throw withContext(declared.name, declared.adoptId === undefined ? "create" : `create (adoptId ${declared.adoptId})`, error);
    }
  },

  /** The account's current filter, so refresh shows drift; a filter deleted elsewhere leaves the state. */
  async read(id, props) {
    const account = boundAccount(labelOf(props, id), declaredAccount(props), props);
    try {
      const filter = await sharedFilterGateway(account).read(id);
      if (filter === undefined) return {};
      return { id, props: outputsOf(stateOf(filter), (props as Partial<SavedFilterOutputs> | undefined)?.adoptId, account) };
    } catch (error) {
      throw withContext(String((props as { name?: string } | undefined)?.name ?? id), "read", error);
    }
  },

  /** Sends only what changed (PUT merges, spec 4.8) and returns the full outputs (docs/dynamic-providers.md rule 6). */
  async update(id, olds, news) {
    const declared: DeclaredFilter = DeclaredFilter.parse(news);
    const account = boundAccount(labelOf(news, id), declared.account, olds);
    try {
      const state = await updateFilter(sharedFilterGateway(account), id, olds as Partial<SavedFilterInput>, desiredState(declared));
      return { outs: outputsOf(state, declared.adoptId ?? (olds as SavedFilterOutputs).adoptId, account) };
    } catch (error) {
      throw withContext(declared.name, "update", error);
    }
  },

  /** Deletes the filter; one already deleted outside Pulumi counts as deleted. */
  async delete(id, props) {
    const account = boundAccount(labelOf(props, id), declaredAccount(props), props);
    try {
      await sharedFilterGateway(account).delete(id);
    } catch (error) {
      throw withContext(String((props as { name?: string }).name ?? id), "delete", error);
    }
  },
});
