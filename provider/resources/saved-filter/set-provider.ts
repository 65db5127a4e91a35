import { randomUUID } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { claimFilters, sharedFilterGateway } from "../../saved-filters/gateways";
import { FilterItemError } from "../../saved-filters/gateway/refusals";
import type { InsightsClient } from "../../client";
import { configureFromStack, report } from "../../accounts/runtime";
import { namedCalls, ResourceInitFailedError } from "../../host/runtime";
import { UnknownOutcomeError } from "../../client/core/outcome";
import { accountChange, accountOutputs, boundAccount, checkWithAccount, declaredAccount, type AccountOutputs } from "../../accounts/binding";
import { configureMatchEstimate, matchEstimateLines } from "./match-preview";
import { isUnknown } from "../../rules";
import { isJsonObject, type SavedFilterInput, type SavedFilterUpdate } from "../../schema";
import { describeChoices, unknownProperties } from "../../schema/suggest";
import {
  appliedUpdate,
  bringToDeclared,
  checkFilterSpec,
  describeRulesChange,
  desiredState,
  FILTER_NEEDS,
  FilterSpec,
  MANAGED_PROPERTIES,
  planUpdate,
  plannedChanges,
  RULES_DIFF_LEGEND,
  stateOf,
  type FilterState,
  type UpdatePlan,
} from "./spec";

/**
 * The host side of the SavedFilterSet resource: one resource for many generated saved filters (one
 * per city, per platform, per episode), diffed member by member and applied with bulk calls of up to
 * 100 filters (spec 4.8, 8) through the account's gateway (saved-filters/gateway/filter-gateway.ts).
 */

/** The outputs recorded in the state, with the account the members live in. */
export interface SavedFilterSetOutputs extends Partial<AccountOutputs> {
  /** The filter id of each member, by member key. */
  ids: Record<string, string>;
  /** Each member as the account holds it, by member key. */
  filters: Record<string, FilterState>;
  /** The adoption map as declared (it only matters when a member is added). */
  adopt?: Record<string, string>;
  /**
   * Members whose create had an unknown outcome (client/core/outcome.ts): the next update looks for
   * the filter that create may have made and adopts it instead of creating another.
   */
  unknownOutcome?: string[];
}

/** A member's shape for messages: a SavedFilter's properties, `name` defaulting to the member key. */
const MEMBER_SHAPE = `{${MANAGED_PROPERTIES.map((property) => (property === "rules" ? property : `${property}?`)).join(", ")}}`;

const NUMERIC_ID = /^\d+$/;

/** The inputs as `create` and `update` receive them (after a successful check). */
const DeclaredSet = z.object({
  filters: z.record(z.string(), z.record(z.string(), z.unknown())),
  adopt: z.record(z.string(), z.string().regex(NUMERIC_ID)).optional(),
  account: z.string().optional(),
});

/** A member's declaration, keyed and parsed, with the name defaulted to the key. */
interface Member {
  key: string;
  spec: FilterSpec;
}

/** Where a member is in the inputs, as check failures and messages name it: `filters["paris"]`. */
function memberPath(key: string): string {
  return `filters[${JSON.stringify(key)}]`;
}

/** A member's inputs with the name defaulted to its key. */
function withDefaultName(key: string, spec: Record<string, unknown>): Record<string, unknown> {
  return spec.name === undefined ? { ...spec, name: key } : spec;
}

function parseMembers(inputs: Record<string, unknown>): { members: Member[]; adopt: Record<string, string> | undefined; account: string | undefined } {
  const declared = DeclaredSet.parse(inputs);
  const members = Object.entries(declared.filters).map(([key, spec]) => ({ key, spec: FilterSpec.parse(withDefaultName(key, spec)) }));
  return { members, adopt: declared.adopt, account: declared.account };
}

/** How messages about the account name the set: `SavedFilterSet (id 5f0c...)`. */
function labelOf(id: string): string {
  return `SavedFilterSet (id ${id})`;
}

/** The failures of one member: unknown properties, then SavedFilter's checks with the member's paths. */
async function checkMember(client: (() => InsightsClient) | undefined, key: string, spec: unknown): Promise<pulumi.dynamic.CheckFailure[]> {
  const path = memberPath(key);
  const failure = (where: string, reason: string) => ({ property: "filters", reason: `${where}: ${reason}` });
  if (isUnknown(spec)) return [];
  if (key.trim() === "") return [failure(path, "member keys must be non-empty")];
  if (!isJsonObject(spec)) return [failure(path, `must be a saved-filter spec ${MEMBER_SHAPE}`)];
  // Unknown properties of a member are refused by checkFilterSpec, as for a SavedFilter.
  const specFailures = await checkFilterSpec(client, withDefaultName(key, spec), path);
  return specFailures.map(({ path: where, reason }) => failure(where, reason));
}

/** The failures of `adopt`: numeric ids, keys that are members, no id adopted twice. */
function checkAdopt(adopt: unknown, filters: unknown): pulumi.dynamic.CheckFailure[] {
  if (adopt === undefined || isUnknown(adopt)) return [];
  const failure = (where: string, reason: string) => ({ property: "adopt", reason: `${where}: ${reason}` });
  if (!isJsonObject(adopt)) return [failure("adopt", "must be a map from member keys to ids of existing saved filters")];
  const failures: pulumi.dynamic.CheckFailure[] = [];
  const keys = isJsonObject(filters) ? Object.keys(filters) : undefined;
  const adoptedBy = new Map<string, string>();
  for (const [key, id] of Object.entries(adopt)) {
    const path = `adopt[${JSON.stringify(key)}]`;
    if (keys !== undefined && !keys.includes(key)) failures.push(failure(path, `no member of filters has this key; ${describeChoices(key, keys, "member keys")}`));
    if (isUnknown(id)) continue;
    if (typeof id !== "string" || !NUMERIC_ID.test(id)) {
      failures.push(failure(path, `must be the numeric id of an existing saved filter, got ${JSON.stringify(id)}`));
      continue;
    }
    const earlier = adoptedBy.get(id);
    if (earlier !== undefined) failures.push(failure(path, `filter ${id} is already adopted by member ${JSON.stringify(earlier)}; a filter can belong to one member`));
    adoptedBy.set(id, key);
  }
  return failures;
}

/** One line of a member's failure: the path inside the member when the service named one. */
function memberFailure(key: string, action: string, error: unknown): string {
  // Said once for all such members (see failureMessage): the line would be long, and many alike.
  if (error instanceof UnknownOutcomeError) return `${memberPath(key)}: ${action}: the outcome is unknown (see below)`;
  if (error instanceof FilterItemError && error.path !== "") return `${memberPath(key)}.${error.path}: ${error.reason}`;
  return `${memberPath(key)}: ${action} failed: ${error instanceof Error ? error.message : String(error)}`;
}

/** The error of members that failed while others were applied (at most this many are in the message). */
const FAILURES_IN_MESSAGE = 10;

function failureMessage(failures: readonly string[], total: number, unknownOutcome?: { count: number; example: UnknownOutcomeError }): string {
  const shown = failures.slice(0, FAILURES_IN_MESSAGE).join("\n");
  const more = failures.length > FAILURES_IN_MESSAGE ? `\n… and ${failures.length - FAILURES_IN_MESSAGE} more` : "";
  const unknown = unknownOutcome === undefined ? "" : `\nThe outcome of ${unknownOutcome.count} member create(s) is unknown, for example: ${unknownOutcome.example.message}`;
  return `SavedFilterSet: ${failures.length} of ${total} member changes failed (the others were applied):\n${shown}${more}${unknown}`;
}

/** The engine's reasons of a partial failure: the lines the message shows (gRPC trailers are small). */
function reasonsOf(failures: readonly string[]): string[] {
  return failures.slice(0, FAILURES_IN_MESSAGE);
}

/**
 * Bytes of member states a partial failure carries. The host sends a partial failure's outputs in a
 * gRPC trailer (docs/dynamic-providers.md "The life of a dynamic resource"), and Node's HTTP/2 refuses
 * header blocks over 64 KiB: the stream is then dropped and the engine never hears of the failure.
 */
const PARTIAL_STATES_BYTES = 20_000;

/**
 * The outputs of a partial failure, small enough for the trailer: every id, and the states of the
 * members that fit in {@link PARTIAL_STATES_BYTES}. A member without a recorded state is sent in
 * full by the next update (PUT merges, so the same values change nothing).
 */
function partialOutputs(outputs: SavedFilterSetOutputs): SavedFilterSetOutputs {
  const filters: Record<string, FilterState> = {};
  let bytes = 0;
  for (const [key, state] of Object.entries(outputs.filters)) {
    bytes += JSON.stringify(state).length;
    if (bytes > PARTIAL_STATES_BYTES) break;
    filters[key] = state;
  }
  return { ...outputs, filters };
}

/**
 * Brings the account from `previous` (the outputs in the state, none at create) to the declared
 * members: creates (or adopts) added members, updates changed ones, deletes removed ones. The set
 * knows its whole batch, so it hands each kind to the gateway at once (bulk calls of up to 100, sent
 * without waiting for the batching window). Returns the outputs of what was applied and the failure
 * of each member that was not.
 */
async function apply(previous: SavedFilterSetOutputs | undefined, inputs: Record<string, unknown>): Promise<{ outputs: SavedFilterSetOutputs; failures: string[]; message: string }> {
  const { members, adopt, account } = parseMembers(inputs);
  const gateway = sharedFilterGateway(account);
  const ids: Record<string, string> = { ...previous?.ids };
  const states: Record<string, FilterState> = { ...previous?.filters };
  const failures: string[] = [];
  const unknownOutcome = new Set<string>();
  let unknownExample: UnknownOutcomeError | undefined;
  const work: Array<Promise<void>> = [];
  const attempt = (key: string, action: string, run: () => Promise<FilterState | undefined>) => {
    work.push(
      run().then(
        (state) => {
          if (state === undefined) {
            delete ids[key];
            delete states[key];
          } else {
            ids[key] = state.filterId;
            states[key] = state;
          }
        },
        (error: unknown) => {
          if (error instanceof UnknownOutcomeError) {
            unknownOutcome.add(key);
            unknownExample ??= error;
          }
          failures.push(memberFailure(key, action, error));
        },
      ),
    );
  };
  const creates: Array<{ key: string; desired: SavedFilterInput; findEarlier: boolean }> = [];
  const adoptions: Array<{ key: string; desired: SavedFilterInput; adoptId: string }> = [];
  const updates: Array<{ key: string; plan: UpdatePlan & { change: SavedFilterUpdate } }> = [];
  for (const { key, spec } of members) {
    const desired = desiredState(spec);
    const id = previous?.ids[key];
    const adoptId = adopt?.[key];
    if (id === undefined) {
      // A create whose outcome was unknown in an earlier run: its filter may be in the account.
      if (adoptId === undefined) creates.push({ key, desired, findEarlier: previous?.unknownOutcome?.includes(key) ?? false });
      else adoptions.push({ key, desired, adoptId });
    } else {
      const plan = planUpdate(id, states[key] ?? {}, desired);
      if (plan.change !== undefined) updates.push({ key, plan: { ...plan, change: plan.change } });
    }
  }
  const declaredKeys = new Set(members.map((member) => member.key));
  const deletes = Object.entries(previous?.ids ?? {}).filter(([key]) => !declaredKeys.has(key));

  const created = gateway.createAll(creates.map(({ desired, findEarlier }) => ({ input: desired, findEarlier })));
  creates.forEach(({ key, desired }, index) => attempt(key, "create", () => bringToDeclared(gateway, created[index]!, desired, undefined)));
  const adopted = gateway.readAll(adoptions.map(({ adoptId }) => adoptId));
  adoptions.forEach(({ key, desired, adoptId }, index) => attempt(key, "adopt", () => bringToDeclared(gateway, adopted[index]!, desired, adoptId)));
  const updated = gateway.updateAll(updates.map(({ plan }) => plan.change));
  updates.forEach(({ key, plan }, index) => attempt(key, "update", () => appliedUpdate(plan, updated[index]!, gateway)));
  const deleted = gateway.deleteAll(deletes.map(([, id]) => id));
  deletes.forEach(([key], index) => attempt(key, "delete", async () => void (await deleted[index]!)));
  const total = work.length;
  await Promise.all(work);
  // Declared order first, then members whose delete failed (still in the account, still managed).
  const order = [...declaredKeys, ...Object.keys(ids).filter((key) => !declaredKeys.has(key))].filter((key) => ids[key] !== undefined);
  const outputs: SavedFilterSetOutputs = {
    ids: Object.fromEntries(order.map((key) => [key, ids[key]!])),
    filters: Object.fromEntries(order.map((key) => [key, states[key]!])),
    ...(adopt === undefined ? {} : { adopt }),
    ...(unknownOutcome.size === 0 ? {} : { unknownOutcome: [...declaredKeys].filter((key) => unknownOutcome.has(key)) }),
    ...accountOutputs(account),
  };
  const message = failureMessage(failures, total, unknownExample && { count: unknownOutcome.size, example: unknownExample });
  return { outputs, failures, message };
}

/** Lines that show one member's planned change, or none when it does not change. */
async function describeMember(key: string, spec: unknown, previous: Partial<SavedFilterSetOutputs>, adopt: unknown, account: string | undefined): Promise<string[]> {
  const path = memberPath(key);
  if (previous.ids?.[key] === undefined) {
    const adoptId = isJsonObject(adopt) ? adopt[key] : undefined;
    const pending = previous.unknownOutcome?.includes(key) ? " (an earlier create's outcome is unknown: its filter is looked for first)" : "";
    const estimate = isJsonObject(spec) ? await matchEstimateLines(spec.rules, undefined, account) : [];
    return [`  + ${path}: added${typeof adoptId === "string" ? ` (adopting filter ${adoptId})` : pending}`, ...estimate.map((line) => `      ${line}`)];
  }
  if (isUnknown(spec) || !isJsonObject(spec)) return [`  ~ ${path}: changes (not known until apply)`];
  const current = previous.filters?.[key] ?? {};
  const news = withDefaultName(key, spec);
  const changed = plannedChanges(current, news);
  if (changed.length === 0) return [];
  const rulesDiff = describeRulesChange(current, news, changed);
  const lines = [`  ~ ${path}: ${changed.join(", ")}${rulesDiff ? ` ${RULES_DIFF_LEGEND}` : ""}`];
  if (rulesDiff) {
    lines.push(...rulesDiff.replace(/\n+$/, "").split("\n").map((line) => `      ${line}`));
    lines.push(...(await matchEstimateLines((news as { rules?: unknown }).rules, (current as { rules?: unknown }).rules, account)).map((line) => `      ${line}`));
  }
  return lines;
}

/** The SavedFilterSet provider implementation (see host/shim.ts). */
export const provider: Required<pulumi.dynamic.ResourceProvider> = namedCalls("SavedFilterSet", () => undefined, {
  async configure(request) {
    configureFromStack(request.config);
    configureMatchEstimate(request.config);
  },

  /**
   * Validates every member as SavedFilter does, with paths such as `filters["paris"].rules.rules[0].field`
   * and lookup values included, and the adoption map. The account's connection is checked first,
   * as SavedFilter's: its failure is on `account`, never on a member.
   */
  async check(olds, news) {
    const account = declaredAccount(news);
    const filters = news.filters;
    const { accountFailures, checked: memberFailures } = await checkWithAccount(news, FILTER_NEEDS, async (lookups) =>
      isJsonObject(filters) ? (await Promise.all(Object.entries(filters).map(([key, spec]) => checkMember(lookups, key, spec)))).flat() : []);
    const failures: pulumi.dynamic.CheckFailure[] = [...accountFailures];
    if (filters === undefined) {
      failures.push({ property: "filters", reason: "filters: required, a map from member keys to saved-filter specs {name?, rules, ...}" });
    } else if (!isUnknown(filters) && !isJsonObject(filters)) {
      failures.push({ property: "filters", reason: "filters: must be a map from member keys to saved-filter specs {name?, rules, ...}" });
    }
    failures.push(...memberFailures);
    failures.push(...checkAdopt(news.adopt, filters));
    for (const { property, reason } of unknownProperties(news, ["filters", "adopt", "account"], ["__provider"])) failures.push({ property, reason: `${property}: ${reason}` });
    // A set to create (no inputs before): what each member's rules would match (changes say it in diff).
    if (failures.length === 0 && olds.filters === undefined && isJsonObject(filters)) {
      const members = await Promise.all(Object.entries(filters).map(async ([key, spec]) =>
        (isJsonObject(spec) ? await matchEstimateLines(spec.rules, undefined, account) : []).map((line) => `  ${memberPath(key)}: ${line}`)));
      const lines = members.flat();
      if (lines.length > 0) report([`SavedFilterSet (${Object.keys(filters).length} members):`, ...lines]);
    }
    return { inputs: news, failures };
  },

  /**
   * Member by member: added, changed (canonical rule trees, so reordering never diffs) and removed
   * members are printed as info lines with rule-tree diffs; every change is made in place, except
   * the account: another account replaces the set (README "Accounts").
   */
  async diff(id, olds, news) {
    const previous = olds as Partial<SavedFilterSetOutputs>;
    const account = accountChange(labelOf(id), olds, news);
    const replaces = account.replace ? ["account"] : [];
    claimFilters(declaredAccount(olds), Object.values(previous.ids ?? {}));
    if (isUnknown(news.filters) || !isJsonObject(news.filters)) {
      report("SavedFilterSet: the members are not known until apply");
      return { changes: true, replaces, deleteBeforeReplace: false };
    }
    const filters = news.filters;
    const changed = (await Promise.all(Object.entries(filters).map(([key, spec]) => describeMember(key, spec, previous, news.adopt, declaredAccount(news))))).filter((lines) => lines.length > 0);
    const removed = Object.entries(previous.ids ?? {})
      .filter(([key]) => !(key in filters))
      .map(([key, id]) => [`  - ${memberPath(key)}: removed (filter ${id} is deleted)`]);
    const count = (sign: string) => changed.filter((lines) => lines[0]!.startsWith(`  ${sign}`)).length;
    if (changed.length + removed.length > 0) {
      const summary = `${count("+")} to add, ${count("~")} to change, ${removed.length} to remove`;
      report([`SavedFilterSet (${Object.keys(filters).length} members): ${summary}`, ...[...changed, ...removed].flat()]);
    }
    return { changes: changed.length + removed.length > 0 || account.changed, replaces, deleteBeforeReplace: false };
  },

  /** Creates (or adopts) every member with bulk calls; members that fail leave a partial failure. */
  async create(inputs) {
    const id = randomUUID();
    const { outputs, failures, message } = await apply(undefined, inputs);
    if (failures.length === 0) return { id, outs: outputs };
    // Nothing made and nothing that may have been made: no state, the next run creates again.
    if (Object.keys(outputs.ids).length === 0 && outputs.unknownOutcome === undefined) throw new Error(message);
    throw new ResourceInitFailedError(message, id, partialOutputs(outputs), inputs.__provider, reasonsOf(failures));
  },

  /** The members as the account holds them (one GET per 100); members deleted elsewhere leave the state. */
  async read(id, props) {
    const previous = props as SavedFilterSetOutputs;
    const account = boundAccount(labelOf(id), declaredAccount(props), props);
    const gateway = sharedFilterGateway(account);
    try {
      const members = Object.entries(previous.ids ?? {});
      const read = gateway.readAll(members.map(([, filterId]) => filterId));
      const found = await Promise.all(members.map(async ([key], index) => [key, await read[index]!] as const));
      const present = found.filter(([, filter]) => filter !== undefined).map(([key, filter]) => [key, stateOf(filter!)] as const);
      const outputs: SavedFilterSetOutputs = {
        ...previous,
        ids: Object.fromEntries(present.map(([key, state]) => [key, state.filterId])),
        filters: Object.fromEntries(present),
        ...accountOutputs(account),
      };
      return { id, props: outputs };
    } catch (error) {
      throw new Error(`SavedFilterSet: refresh failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  },

  /** Applies the member changes with bulk calls and returns the full outputs (docs/dynamic-providers.md rule 6). */
  async update(id, olds, news) {
    boundAccount(labelOf(id), declaredAccount(news), olds);
    const { outputs, failures, message } = await apply(olds as SavedFilterSetOutputs, news);
    if (failures.length > 0) throw new ResourceInitFailedError(message, id, partialOutputs(outputs), news.__provider, reasonsOf(failures));
    return { outs: outputs };
  },

  /** Deletes every member with bulk calls; members already deleted elsewhere count as deleted. */
  async delete(id, props) {
    const gateway = sharedFilterGateway(boundAccount(labelOf(id), declaredAccount(props), props));
    const members = Object.entries((props as Partial<SavedFilterSetOutputs>).ids ?? {});
    const outcomes = await Promise.allSettled(gateway.deleteAll(members.map(([, filterId]) => filterId)));
    const failures = outcomes.flatMap((outcome, index) => (outcome.status === "rejected" ? [memberFailure(members[index]![0], "delete", outcome.reason)] : []));
    if (failures.length > 0) throw new Error(failureMessage(failures, members.length));
  },
});
