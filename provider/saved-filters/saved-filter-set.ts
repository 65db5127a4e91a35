import { randomUUID } from "node:crypto";
import { accountChange, accountChanges, accountOutputs, boundAccount, checkWithAccount, declaredAccount, type AccountContext, type AccountOutputs } from "../accounts/binding";
import { changeKind, ResourcePartialFailureError, type PlannedDiff, type PropertyChanges, type PropertyFailure, type ResourceCore } from "../accounts/calls";
import { withoutSecretMarkers } from "../accounts/wire-secret";
import { report } from "../accounts/runtime";
import { InsightsError } from "../client";
import { UnknownOutcomeError } from "../client/core/outcome";
import { matchEstimateLines } from "../match-estimate/preview";
import { isUnknown } from "../rules";
import { isJsonObject } from "../schema";
import { describeChoices, unknownProperties } from "../schema/suggest";
import type { SavedFilterSetOutputs as DeclaredOutputs } from "../schema/resource-records";
import { SAVED_FILTER_SET } from "./filter-properties";
import { FilterItemError } from "./gateway/refusals";
import { claimFilters, sharedFilterGateway } from "./gateways";
import { accountLookups } from "./lookups";
import { checkDeclaredFilter, DeclaredFilter, MANAGED_PROPERTIES, propertyPath, type LookupReader } from "./model/declared";
import { planMembers, type MembersState } from "./model/plan";
import { describeRulesChange, desiredState, filterChanges, plannedChanges, RULES_DIFF_LEGEND, type FilterState } from "./model/state";
import { perform, readFilters } from "./reconciler";
import { asPaths, FILTER_NEEDS } from "./saved-filter";

/**
 * The outputs recorded in the state (./filter-properties.ts), and the members whose create had an
 * unknown outcome (client/core/outcome.ts): the next update looks for the filter that create may
 * have made and adopts it instead of creating another.
 */
type SavedFilterSetOutputs = Omit<DeclaredOutputs, keyof AccountOutputs> & Partial<AccountOutputs> & { unknownOutcome?: string[] };

/** A member's shape for messages: a SavedFilter's properties, `name` defaulting to the member key. */
const MEMBER_SHAPE = `{${MANAGED_PROPERTIES.map((property) => (property === "rules" ? property : `${property}?`)).join(", ")}}`;

const NUMERIC_ID = /^\d+$/;

/** The inputs as `create` and `update` receive them (after a successful check). */
const DeclaredSet = SAVED_FILTER_SET.inputs;

/** A member's declaration, keyed and parsed, with the name defaulted to the key. */
interface Member {
  key: string;
  declared: DeclaredFilter;
}

/** Where a member is in the inputs, as check failures and messages name it: `filters["paris"]`. */
function memberPath(key: string): string {
  return `filters[${JSON.stringify(key)}]`;
}

/** A member's inputs with the name defaulted to its key. */
function withDefaultName(key: string, member: Record<string, unknown>): Record<string, unknown> {
  return member.name === undefined ? { ...member, name: key } : member;
}

function parseMembers(inputs: Record<string, unknown>): { members: Member[]; adopt: Record<string, string> | undefined; account: string | undefined } {
  const declared = DeclaredSet.parse(inputs);
  const members = Object.entries(declared.filters).map(([key, member]) => ({ key, declared: DeclaredFilter.parse(withDefaultName(key, member)) }));
  return { members, adopt: declared.adopt, account: declared.account };
}

/** How messages about the account name the set: `SavedFilterSet (id 5f0c...)`. */
function labelOf(id: string): string {
  return `SavedFilterSet (id ${id})`;
}

/** The failures of one member: unknown properties, then SavedFilter's checks with the member's paths. */
async function checkMember(lookups: LookupReader | undefined, key: string, member: unknown): Promise<PropertyFailure[]> {
  const path = memberPath(key);
  const failure = (where: string, reason: string) => ({ property: "filters", reason: `${where}: ${reason}` });
  if (isUnknown(member)) return [];
  if (key.trim() === "") return [failure(path, "member keys must be non-empty")];
  if (!isJsonObject(member)) return [failure(path, `must be a saved-filter spec ${MEMBER_SHAPE}`)];
  // Unknown properties of a member are refused by checkDeclaredFilter, as for a SavedFilter.
  const memberFailures = await checkDeclaredFilter(lookups, withDefaultName(key, member), path);
  return memberFailures.map(({ path: where, reason }) => failure(where, reason));
}

/** The failures of `adopt`: numeric ids, keys that are members, no id adopted twice. */
function checkAdopt(adopt: unknown, filters: unknown): PropertyFailure[] {
  if (adopt === undefined || isUnknown(adopt)) return [];
  const failure = (where: string, reason: string) => ({ property: "adopt", reason: `${where}: ${reason}` });
  if (!isJsonObject(adopt)) return [failure("adopt", "must be a map from member keys to ids of existing saved filters")];
  const failures: PropertyFailure[] = [];
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
 * members: the model's plan (creates or adoptions of added members, updates of changed ones,
 * deletes of removed ones), handed to the gateway at once by the reconciler. Returns the outputs of
 * what was applied and the failure of each member that was not.
 */
async function apply(previous: SavedFilterSetOutputs | undefined, inputs: Record<string, unknown>): Promise<{ outputs: SavedFilterSetOutputs; failures: string[]; message: string }> {
  const { members, adopt, account } = parseMembers(inputs);
  const recorded: MembersState | undefined = previous && { ids: previous.ids ?? {}, filters: previous.filters ?? {}, ...(previous.unknownOutcome === undefined ? {} : { unknownOutcome: previous.unknownOutcome }) };
  const operations = planMembers(recorded, members.map(({ key, declared }) => ({ key, desired: desiredState(declared) })), { ...(adopt === undefined ? {} : { adopt }), lookFirst: "recorded" });
  const outcomes = await perform(sharedFilterGateway(account), operations, "now");
  const ids: Record<string, string> = { ...previous?.ids };
  const states: Record<string, FilterState> = { ...previous?.filters };
  const failures: string[] = [];
  const unknownOutcome = new Set<string>();
  let unknownExample: UnknownOutcomeError | undefined;
  for (const outcome of outcomes) {
    const { key } = outcome;
    if ("error" in outcome) {
      if (outcome.error instanceof UnknownOutcomeError) {
        unknownOutcome.add(key);
        unknownExample ??= outcome.error;
      }
      failures.push(memberFailure(key, outcome.kind, outcome.error));
    } else if (outcome.state === undefined) {
      delete ids[key];
      delete states[key];
    } else {
      ids[key] = outcome.state.filterId;
      states[key] = outcome.state;
    }
  }
  // Members kept as recorded were not sent: only what the plan sends counts in the message.
  const total = operations.filter((operation) => operation.kind !== "keep").length;
  const declaredKeys = new Set(members.map((member) => member.key));
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

/**
 * Where a SavedFilterSet changes from its recorded outputs `olds` to the declared `news`: each member
 * by key (added, deleted, or changed property by property below `filters.<key>`, its name defaulting
 * to its key), members not known yet as a change of `filters`, the adoption map, and `account`, whose
 * change to another account replaces the set. Secrets are compared by their values.
 */
export function savedFilterSetChanges(olds: Record<string, unknown>, news: Record<string, unknown>, context: AccountContext = {}): PropertyChanges {
  const [before, after] = [withoutSecretMarkers(olds) as Record<string, unknown>, withoutSecretMarkers(news) as Record<string, unknown>];
  const paths: PropertyChanges = {};
  if (isUnknown(after.filters) || !isJsonObject(after.filters)) {
    paths.filters = { kind: "update", replace: false };
  } else {
    const [oldMembers, newMembers] = [isJsonObject(before.filters) ? before.filters : {}, after.filters];
    for (const key of [...new Set([...Object.keys(oldMembers), ...Object.keys(newMembers)])].sort()) {
      const path = propertyPath("filters", key);
      const [old, current] = [oldMembers[key], newMembers[key]];
      if (old === undefined || current === undefined || !isJsonObject(old) || !isJsonObject(current)) {
        const kind = changeKind(old, current);
        if (kind !== undefined) paths[path] = { kind, replace: false };
      } else Object.assign(paths, asPaths(filterChanges(old, withDefaultName(key, current), path)));
    }
  }
  const adopt = changeKind(before.adopt, after.adopt);
  return { ...paths, ...(adopt === undefined ? {} : { adopt: { kind: adopt, replace: false } }), ...accountChanges(before, after, context) };
}

/** Lines that show one member's planned change, or none when it does not change. */
async function describeMember(key: string, member: unknown, previous: Partial<SavedFilterSetOutputs>, adopt: unknown, account: string | undefined): Promise<string[]> {
  const path = memberPath(key);
  if (previous.ids?.[key] === undefined) {
    const adoptId = isJsonObject(adopt) ? adopt[key] : undefined;
    const pending = previous.unknownOutcome?.includes(key) ? " (an earlier create's outcome is unknown: its filter is looked for first)" : "";
    const estimate = isJsonObject(member) ? await matchEstimateLines(member.rules, undefined, account) : [];
    return [`  + ${path}: added${typeof adoptId === "string" ? ` (adopting filter ${adoptId})` : pending}`, ...estimate.map((line) => `      ${line}`)];
  }
  if (isUnknown(member) || !isJsonObject(member)) return [`  ~ ${path}: changes (not known until apply)`];
  const current = previous.filters?.[key] ?? {};
  const news = withDefaultName(key, member);
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

/**
 * The SavedFilterSet resource's core, host-neutral: one resource for many generated saved filters
 * (one per city, per platform, per episode), diffed member by member and applied with bulk calls of
 * up to 100 filters (docs/api.md 4.8, 8): the model plans the members (model/plan.ts), the
 * reconciler hands the whole plan to the account's gateway at once (reconciler.ts). The
 * dynamic-provider host (provider/host/saved-filter-set-adapter.ts) and the provider plugin adapt it.
 */
export const savedFilterSetCore: ResourceCore<SavedFilterSetOutputs> = {
  /**
   * Validates every member as SavedFilter does, with paths such as `filters["paris"].rules.rules[0].field`
   * and lookup values included, and the adoption map. The account's connection is checked first,
   * as SavedFilter's: its failure is on `account`, never on a member. A set to create shows what
   * each member's rules would match.
   */
  async check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<{ inputs: Record<string, unknown>; failures: PropertyFailure[] }> {
    const account = declaredAccount(news);
    const filters = news.filters;
    const { accountFailures, checked: memberFailures } = await checkWithAccount(news, FILTER_NEEDS, async (client) => {
      const lookups = client === undefined ? undefined : accountLookups(client);
      return isJsonObject(filters) ? (await Promise.all(Object.entries(filters).map(([key, member]) => checkMember(lookups, key, member)))).flat() : [];
    });
    const failures: PropertyFailure[] = [...accountFailures];
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
      const members = await Promise.all(Object.entries(filters).map(async ([key, member]) =>
        (isJsonObject(member) ? await matchEstimateLines(member.rules, undefined, account) : []).map((line) => `  ${memberPath(key)}: ${line}`)));
      const lines = members.flat();
      if (lines.length > 0) report([`SavedFilterSet (${Object.keys(filters).length} members):`, ...lines]);
    }
    return { inputs: news, failures };
  },

  /**
   * Member by member: added, changed (canonical rule trees, so reordering never diffs) and removed
   * members are shown as lines with rule-tree diffs; every change is made in place, except the
   * account: another account replaces the set (docs/configuration.md "Accounts").
   */
  async diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<PlannedDiff> {
    const previous = olds as Partial<SavedFilterSetOutputs>;
    const account = accountChange(labelOf(id), olds, news);
    const replaces = account.replace ? ["account"] : [];
    claimFilters(declaredAccount(olds), Object.values(previous.ids ?? {}));
    const paths = savedFilterSetChanges(olds, news, { accountReplaced: account.replace });
    if (isUnknown(news.filters) || !isJsonObject(news.filters)) {
      report("SavedFilterSet: the members are not known until apply");
      return { changes: true, replaces, paths };
    }
    const filters = news.filters;
    const changed = (await Promise.all(Object.entries(filters).map(([key, member]) => describeMember(key, member, previous, news.adopt, declaredAccount(news))))).filter((lines) => lines.length > 0);
    const removed = Object.entries(previous.ids ?? {})
      .filter(([key]) => !(key in filters))
      .map(([key, id]) => [`  - ${memberPath(key)}: removed (filter ${id} is deleted)`]);
    const count = (sign: string) => changed.filter((lines) => lines[0]!.startsWith(`  ${sign}`)).length;
    if (changed.length + removed.length > 0) {
      const summary = `${count("+")} to add, ${count("~")} to change, ${removed.length} to remove`;
      report([`SavedFilterSet (${Object.keys(filters).length} members): ${summary}`, ...[...changed, ...removed].flat()]);
    }
    return { changes: changed.length + removed.length > 0 || account.changed, replaces, paths };
  },

  /** Creates (or adopts) every member with bulk calls; members that fail leave a partial failure. */
  async create(inputs: Record<string, unknown>): Promise<{ id: string; outputs: SavedFilterSetOutputs }> {
    const id = randomUUID();
    const { outputs, failures, message } = await apply(undefined, inputs);
    if (failures.length === 0) return { id, outputs };
    // Nothing made and nothing that may have been made: no state, the next run creates again.
    if (Object.keys(outputs.ids).length === 0 && outputs.unknownOutcome === undefined) throw new InsightsError(message);
    throw new ResourcePartialFailureError(message, id, { ...partialOutputs(outputs) }, reasonsOf(failures));
  },

  /** The members as the account holds them (one GET per 100); members deleted elsewhere leave the state. */
  async read(id: string, olds: Record<string, unknown>): Promise<{ id: string; outputs: SavedFilterSetOutputs }> {
    const previous = olds as Partial<SavedFilterSetOutputs>;
    const account = boundAccount(labelOf(id), declaredAccount(olds), olds);
    try {
      const members = Object.entries(previous.ids ?? {});
      const states = await readFilters(sharedFilterGateway(account), members.map(([key, filterId]) => ({ id: filterId, name: previous.filters?.[key]?.name })), "now");
      const present = members.flatMap(([key], index) => (states[index] === undefined ? [] : [[key, states[index]!] as const]));
      const outputs: SavedFilterSetOutputs = {
        ...previous,
        ids: Object.fromEntries(present.map(([key, state]) => [key, state.filterId])),
        filters: Object.fromEntries(present),
        ...accountOutputs(account),
      };
      return { id, outputs };
    } catch (error) {
      throw new InsightsError(`SavedFilterSet: refresh failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  },

  /** Applies the member changes with bulk calls and answers the full outputs. */
  async update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<SavedFilterSetOutputs> {
    boundAccount(labelOf(id), declaredAccount(news), olds);
    const { outputs, failures, message } = await apply(olds as unknown as SavedFilterSetOutputs, news);
    if (failures.length > 0) throw new ResourcePartialFailureError(message, id, { ...partialOutputs(outputs) }, reasonsOf(failures));
    return outputs;
  },

  /** Deletes every member with bulk calls; members already deleted elsewhere count as deleted. */
  async delete(id: string, olds: Record<string, unknown>): Promise<void> {
    const account = boundAccount(labelOf(id), declaredAccount(olds), olds);
    const members = Object.entries((olds as Partial<SavedFilterSetOutputs>).ids ?? {});
    const outcomes = await perform(sharedFilterGateway(account), members.map(([key, filterId]) => ({ kind: "delete", key, id: filterId })), "now");
    const failures = outcomes.flatMap((outcome) => ("error" in outcome ? [memberFailure(outcome.key, "delete", outcome.error)] : []));
    if (failures.length > 0) throw new InsightsError(failureMessage(failures, members.length));
  },
};
