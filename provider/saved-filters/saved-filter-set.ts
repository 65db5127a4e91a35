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
import type { SavedFilterSetOutputs as DeclaredOutputs } from "../schema/resource-records";
import { SAVED_FILTER_SET } from "./filter-properties";
import { ENGINE_BUDGET, propertiesBytes, structBytes } from "../text/bounded";
import { FilterItemError } from "./gateway/refusals";
import { claimFilters, sharedFilterGateway } from "./gateways";
import { accountLookups } from "./lookups";
import { checkDeclaredFilter, DeclaredFilter, propertyPath, type LookupReader } from "./model/declared";
import { checkDeclaredSet, memberFailures, memberPath, memberToCheck, withDefaultName } from "./model/declared-set";
import { planMembers, type MembersState } from "./model/plan";
import { describeRulesChange, desiredState, filterChanges, plannedChanges, RULES_DIFF_LEGEND, type FilterState } from "./model/state";
import type { FilterGateway } from "./gateway/filter-gateway";
import { perform, readFilters } from "./reconciler";
import { asPaths, FILTER_NEEDS } from "./saved-filter";

/**
 * The outputs recorded in the state (./filter-properties.ts), and two records of an earlier failure
 * that only the core reads: the members whose create had an unknown outcome (client/core/outcome.ts),
 * which the next update looks for and adopts instead of creating another; and how many members the
 * account holds for the set that the state does not record (`unrecorded`: a partial failure too
 * large for what the engine records of one, {@link partialOutputs}, whose members could not be
 * deleted again), for which the next update looks by exact name and declared content first.
 */
type SavedFilterSetOutputs = Omit<DeclaredOutputs, keyof AccountOutputs> & Partial<AccountOutputs> & { unknownOutcome?: string[]; unrecorded?: number };

/** The inputs as `create` and `update` receive them (after a successful check). */
const DeclaredSet = SAVED_FILTER_SET.inputs;

/** A member's declaration, keyed and parsed, with the name defaulted to the key. */
interface Member {
  key: string;
  declared: DeclaredFilter;
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

/** The failures of one member: SavedFilter's checks with the member's paths, lookups included (model/declared-set.ts). */
async function checkMember(lookups: LookupReader | undefined, key: string, member: unknown): Promise<PropertyFailure[]> {
  const toCheck = memberToCheck(key, member);
  return "failures" in toCheck ? toCheck.failures : memberFailures(await checkDeclaredFilter(lookups, toCheck.declared, toCheck.path));
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
 * Bytes of outputs a partial failure carries: what the hosts let the engine record of a failure
 * (provider/text/bounded.ts), less room for what they add (the dynamic host's `__provider`).
 */
const PARTIAL_OUTPUTS_BYTES = ENGINE_BUDGET.propertiesBytes - 6_000;

/**
 * The outputs of a partial failure, small enough for the engine to record (a failure travels in a
 * gRPC trailer, which carries some tens of kilobytes, docs/provider-plugins.md "Every answer reaches
 * the engine"): as they are when they fit. Else, in {@link PARTIAL_OUTPUTS_BYTES}, the ids in this
 * order as they fit: members the next update could not find by themselves (whose change failed,
 * whose delete failed), members that existed before this call (kept or adopted), then members this
 * call made; then the states of the members kept. Answers the outputs and the members left out. A
 * member recorded without a state is read from the account by the next update; what becomes of a
 * member left out is {@link partialFailure}'s. The adoption map, an echo of the inputs, is left out.
 */
function partialOutputs(outputs: SavedFilterSetOutputs, applied: Pick<Applied, "findable" | "made">): { outputs: SavedFilterSetOutputs; leftOut: string[] } {
  if (structBytes(outputs) <= PARTIAL_OUTPUTS_BYTES) return { outputs, leftOut: [] };
  const { ids, filters, adopt: _adopt, unknownOutcome, unrecorded: _unrecorded, ...rest } = outputs;
  let bytes = structBytes({ ...rest, ids: {}, filters: {}, unrecorded: Number.MAX_SAFE_INTEGER });
  // A map entry of the Struct, measured as text/bounded.ts measures every entry (its varints included).
  const entryBytes = (key: string, value: unknown) => propertiesBytes({ [key]: value });
  const keys = Object.keys(ids);
  const rank = (key: string) => (!applied.findable.has(key) ? 0 : applied.made.has(key) ? 2 : 1);
  const kept = new Set<string>();
  for (const key of [0, 1, 2].flatMap((wanted) => keys.filter((key) => rank(key) === wanted))) {
    const size = entryBytes(key, ids[key]);
    if (bytes + size > PARTIAL_OUTPUTS_BYTES) continue;
    kept.add(key);
    bytes += size;
  }
  const states: Record<string, FilterState> = {};
  for (const key of keys.filter((key) => kept.has(key) && filters[key] !== undefined)) {
    const size = entryBytes(key, filters[key]);
    if (bytes + size > PARTIAL_OUTPUTS_BYTES) break;
    states[key] = filters[key]!;
    bytes += size;
  }
  const unknown = unknownOutcome !== undefined && bytes + structBytes({ unknownOutcome }) <= PARTIAL_OUTPUTS_BYTES ? unknownOutcome : undefined;
  const leftOut = [...keys.filter((key) => !kept.has(key)), ...(unknown === undefined ? (unknownOutcome ?? []) : [])];
  return {
    outputs: { ...rest, ids: Object.fromEntries(keys.filter((key) => kept.has(key)).map((key) => [key, ids[key]!])), filters: states, ...(unknown === undefined ? {} : { unknownOutcome: unknown }) },
    leftOut,
  };
}

/**
 * The partial failure of `applied`, its outputs bounded ({@link partialOutputs}). The members this
 * call made that the state cannot record are deleted again, so that the next update makes them anew
 * (a member's name need not find it: a name the service lists more than 500 filters for cannot be
 * listed completely, docs/api.md 10.1); the others left out, and any such delete that failed, are
 * counted in `unrecorded`, found by the next update by their exact name and declared content. The
 * message says so on its second line (the hosts may cut a long message's middle).
 */
async function partialFailure(id: string, applied: Applied): Promise<ResourcePartialFailureError> {
  const { outputs, leftOut } = partialOutputs(applied.outputs, applied);
  const undone = leftOut.filter((key) => applied.made.has(key) && applied.outputs.ids[key] !== undefined);
  const outcomes = await perform(applied.gateway, undone.map((key) => ({ kind: "delete", key, id: applied.outputs.ids[key]! })), "now");
  const deleted = outcomes.filter((outcome) => !("error" in outcome)).length;
  const unrecorded = leftOut.length - deleted + (applied.outputs.unrecorded ?? 0);
  const bounded: SavedFilterSetOutputs = { ...outputs, ...(unrecorded === 0 ? {} : { unrecorded }) };
  let message = applied.message;
  if (leftOut.length > 0) {
    const [first, ...rest] = message.split("\n");
    const note = [
      `The state records ${Object.keys(bounded.ids).length} members' ids, all that a failure can carry`,
      deleted === 0 ? "" : `; the ${deleted} others this run made were deleted again, and the next \`pulumi up\` makes them anew`,
      unrecorded === 0 ? "" : `; ${unrecorded} more are found by the next \`pulumi up\` in the account by their name and declared content`,
      ": none is made twice.",
    ].join("");
    message = [first, note, ...rest].join("\n");
  }
  return new ResourcePartialFailureError(message, id, { ...bounded }, reasonsOf(applied.failures));
}

/** What `apply` did: the outputs, the failure of each member that failed, and which members it made or the account shows as declared. */
interface Applied {
  outputs: SavedFilterSetOutputs;
  failures: string[];
  message: string;
  /** Members the next update could find by their exact name and declared content: declared, and applied. */
  findable: Set<string>;
  /** Members whose filter this call made (or found, made by an earlier lost create). */
  made: Set<string>;
  /** The account's gateway. */
  gateway: FilterGateway;
}

/**
 * The members `keys` of `previous` that the account still holds, with their state: what the run has
 * listed, the others one GET per 100 ids (reconciler.ts `readFilters`); a member gone is left out.
 */
async function presentMembers(gateway: FilterGateway, previous: Partial<SavedFilterSetOutputs>, keys: readonly string[]): Promise<Map<string, FilterState>> {
  const states = await readFilters(gateway, keys.map((key) => ({ id: previous.ids![key]!, name: previous.filters?.[key]?.name })), "now");
  return new Map(keys.flatMap((key, index) => (states[index] === undefined ? [] : [[key, states[index]!] as const])));
}

/**
 * `previous` with the state of every member whose id it records without a state (a bounded partial
 * failure, {@link partialOutputs}) read from the account ({@link presentMembers}); a member the
 * account no longer holds loses its id, as a refresh would, and is made again.
 */
async function withStates(gateway: FilterGateway, previous: Partial<SavedFilterSetOutputs>): Promise<Partial<SavedFilterSetOutputs>> {
  const stateless = new Set(Object.keys(previous.ids ?? {}).filter((key) => previous.filters?.[key] === undefined));
  if (stateless.size === 0) return previous;
  const read = await presentMembers(gateway, previous, [...stateless]);
  const ids = Object.fromEntries(Object.entries(previous.ids!).filter(([key]) => !stateless.has(key) || read.has(key)));
  return { ...previous, ids, filters: { ...previous.filters, ...Object.fromEntries(read) } };
}

/**
 * Brings the account from `previous` (the outputs in the state, none at create) to the declared
 * members: the model's plan (creates or adoptions of added members, updates of changed ones,
 * deletes of removed ones), handed to the gateway at once by the reconciler. Returns the outputs of
 * what was applied and the failure of each member that was not.
 */
async function apply(stored: Partial<SavedFilterSetOutputs> | undefined, inputs: Record<string, unknown>): Promise<Applied> {
  const { members, adopt, account } = parseMembers(inputs);
  const gateway = sharedFilterGateway(account);
  const previous = stored && (await withStates(gateway, stored));
  const recorded: MembersState | undefined = previous && { ids: previous.ids ?? {}, filters: previous.filters ?? {}, ...(previous.unknownOutcome === undefined ? {} : { unknownOutcome: previous.unknownOutcome }) };
  // Members the state could not record are in the account: every create looks for its filter first.
  const lookFirst = previous?.unrecorded === undefined ? "recorded" : "always";
  const operations = planMembers(recorded, members.map(({ key, declared }) => ({ key, desired: desiredState(declared) })), { ...(adopt === undefined ? {} : { adopt }), lookFirst });
  const outcomes = await perform(gateway, operations, "now");
  const ids: Record<string, string> = { ...previous?.ids };
  const states: Record<string, FilterState> = { ...previous?.filters };
  const failures: string[] = [];
  const failed = new Set<string>();
  const unknownOutcome = new Set<string>();
  let unknownExample: UnknownOutcomeError | undefined;
  for (const outcome of outcomes) {
    const { key } = outcome;
    if ("error" in outcome) {
      failed.add(key);
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
  // Members an earlier failure left unrecorded and this run did not find stay looked for.
  const stillUnrecorded = previous?.unrecorded === undefined ? 0 : [...declaredKeys].filter((key) => ids[key] === undefined).length;
  const outputs: SavedFilterSetOutputs = {
    ids: Object.fromEntries(order.map((key) => [key, ids[key]!])),
    filters: Object.fromEntries(order.map((key) => [key, states[key]!])),
    ...(adopt === undefined ? {} : { adopt }),
    ...(unknownOutcome.size === 0 ? {} : { unknownOutcome: [...declaredKeys].filter((key) => unknownOutcome.has(key)) }),
    ...(stillUnrecorded === 0 ? {} : { unrecorded: stillUnrecorded }),
    ...accountOutputs(account),
  };
  const message = failureMessage(failures, total, unknownExample && { count: unknownOutcome.size, example: unknownExample });
  const findable = new Set([...declaredKeys].filter((key) => ids[key] !== undefined && !failed.has(key)));
  const made = new Set(outcomes.filter((outcome) => outcome.kind === "create" && !("error" in outcome)).map((outcome) => outcome.key));
  return { outputs, failures, message, findable, made, gateway };
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
    const pending = previous.unknownOutcome?.includes(key)
      ? " (an earlier create's outcome is unknown: its filter is looked for first)"
      : previous.unrecorded === undefined ? "" : " (an earlier `pulumi up` may have made it without recording it: its filter is looked for first)";
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
    const { accountFailures, checked: members } = await checkWithAccount(news, FILTER_NEEDS, async (client) => {
      const lookups = client === undefined ? undefined : accountLookups(client);
      return isJsonObject(filters) ? (await Promise.all(Object.entries(filters).map(([key, member]) => checkMember(lookups, key, member)))).flat() : [];
    });
    const failures: PropertyFailure[] = [...accountFailures, ...checkDeclaredSet(news, members)];
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
    const previous = olds as unknown as Partial<SavedFilterSetOutputs>;
    const account = accountChange(labelOf(id), olds, news);
    const replaces = account.replace ? ["account"] : [];
    claimFilters(declaredAccount(olds), Object.values(previous.ids ?? {}));
    const paths = savedFilterSetChanges(olds, news, { accountReplaced: account.replace });
    if (isUnknown(news.filters) || !isJsonObject(news.filters)) {
      report("SavedFilterSet: the members are not known until apply");
      return { changes: true, replaces, paths };
    }
    const filters = news.filters;
    // Members a bounded partial failure recorded without their state are read on apply, not listed one by one.
    const unread = new Set(Object.keys(filters).filter((key) => previous.ids?.[key] !== undefined && previous.filters?.[key] === undefined));
    const described = Object.entries(filters).filter(([key]) => !unread.has(key));
    const changed = (await Promise.all(described.map(([key, member]) => describeMember(key, member, previous, news.adopt, declaredAccount(news))))).filter((lines) => lines.length > 0);
    const removed = Object.entries(previous.ids ?? {})
      .filter(([key]) => !(key in filters))
      .map(([key, id]) => [`  - ${memberPath(key)}: removed (filter ${id} is deleted)`]);
    const count = (sign: string) => changed.filter((lines) => lines[0]!.startsWith(`  ${sign}`)).length;
    if (changed.length + removed.length + unread.size > 0) {
      const toRead = unread.size === 0 ? "" : `, ${unread.size} to read`;
      const readLine = unread.size === 0 ? [] : [`  ~ ${unread.size} members whose state an earlier failure could not record: read from the account and brought to their declaration`];
      report([`SavedFilterSet (${Object.keys(filters).length} members): ${count("+")} to add, ${count("~")} to change, ${removed.length} to remove${toRead}`, ...readLine, ...[...changed, ...removed].flat()]);
    }
    const unreadPaths: PropertyChanges = unread.size > 0 && paths.filters === undefined ? { filters: { kind: "update", replace: false } } : {};
    return { changes: changed.length + removed.length + unread.size > 0 || account.changed, replaces, paths: { ...paths, ...unreadPaths } };
  },

  /** Creates (or adopts) every member with bulk calls; members that fail leave a partial failure. */
  async create(inputs: Record<string, unknown>): Promise<{ id: string; outputs: SavedFilterSetOutputs }> {
    const id = randomUUID();
    const applied = await apply(undefined, inputs);
    const { outputs, failures, message } = applied;
    if (failures.length === 0) return { id, outputs };
    // Nothing made and nothing that may have been made: no state, the next run creates again.
    if (Object.keys(outputs.ids).length === 0 && outputs.unknownOutcome === undefined) throw new InsightsError(message);
    throw await partialFailure(id, applied);
  },

  /** The members as the account holds them (one GET per 100); members deleted elsewhere leave the state. */
  async read(id: string, olds: Record<string, unknown>): Promise<{ id: string; outputs: SavedFilterSetOutputs }> {
    const previous = olds as unknown as Partial<SavedFilterSetOutputs>;
    const account = boundAccount(labelOf(id), declaredAccount(olds), olds);
    try {
      const present = await presentMembers(sharedFilterGateway(account), previous, Object.keys(previous.ids ?? {}));
      const outputs: SavedFilterSetOutputs = {
        ...previous,
        ids: Object.fromEntries([...present].map(([key, state]) => [key, state.filterId])),
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
    const applied = await apply(olds as unknown as SavedFilterSetOutputs, news);
    if (applied.failures.length > 0) throw await partialFailure(id, applied);
    return applied.outputs;
  },

  /** Deletes every member with bulk calls; members already deleted elsewhere count as deleted. */
  async delete(id: string, olds: Record<string, unknown>): Promise<void> {
    const account = boundAccount(labelOf(id), declaredAccount(olds), olds);
    const members = Object.entries((olds as unknown as Partial<SavedFilterSetOutputs>).ids ?? {});
    const outcomes = await perform(sharedFilterGateway(account), members.map(([key, filterId]) => ({ kind: "delete", key, id: filterId })), "now");
    const failures = outcomes.flatMap((outcome) => ("error" in outcome ? [memberFailure(outcome.key, "delete", outcome.error)] : []));
    if (failures.length > 0) throw new InsightsError(failureMessage(failures, members.length));
  },
};
