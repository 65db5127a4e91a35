import { InsightsError } from "../client";
import { CLEARED_FIELD, isRefusalStatus } from "../schema/assumptions";
import type { SavedFilter, SavedFilterInput, SavedFilterUpdate } from "../schema";
import type { FilterGateway } from "./gateway/filter-gateway";
import { FilterItemError } from "./gateway/refusals";
import { planUpdate, type FilterOperation, type UpdatePlan } from "./model/plan";
import { stateOf, type FilterState } from "./model/state";

/**
 * The reconciler: performs a plan of the model (model/plan.ts) through an account's gateway
 * (gateway/filter-gateway.ts) and answers, per member, the state it reached or why it did not. The
 * direction is one way: the reconciler calls the model and the gateway, neither calls back.
 */

/** What one operation of a plan came to. */
export type MemberOutcome =
  | { key: string; kind: FilterOperation["kind"]; state: FilterState }
  | { key: string; kind: "delete"; state: undefined }
  | { key: string; kind: FilterOperation["kind"]; error: unknown };

/**
 * How the operations reach the gateway: `join` queues each where the concurrent calls of other
 * resources can join it (a SavedFilter: the engine calls many at once, and the gateway gathers them
 * into bulk calls, sent as soon as no more can join); `now` hands the whole plan over at once (a
 * SavedFilterSet knows its whole batch: bulk calls go out without waiting).
 */
export type Sending = "join" | "now";

/**
 * Performs `operations` with `gateway` and answers one outcome per operation, in order. Creates and
 * adoptions are brought to the declared state after (a filter an earlier lost create made may
 * differ; an adopted one usually does), updates read back what the service sets. One call of the
 * engine: the gateway counts it while it runs (gateway/coalescer.ts `EngineCalls`).
 */
export function perform(gateway: FilterGateway, operations: readonly FilterOperation[], sending: Sending): Promise<MemberOutcome[]> {
  return gateway.serve(() => performAll(gateway, operations, sending));
}

async function performAll(gateway: FilterGateway, operations: readonly FilterOperation[], sending: Sending): Promise<MemberOutcome[]> {
  const creates = operations.filter((operation) => operation.kind === "create");
  const adoptions = operations.filter((operation) => operation.kind === "adopt");
  const updates = operations.filter((operation) => operation.kind === "update");
  const deletes = operations.filter((operation) => operation.kind === "delete");
  const kept = operations.filter((operation) => operation.kind === "keep");
  const now = sending === "now";
  // The filters this engine call is about: a second call about one of them starts another run (gateway/account-view.ts).
  gateway.touch("change", [...adoptions.map(({ adoptId }) => adoptId), ...updates.map(({ id }) => id), ...deletes.map(({ id }) => id)]);
  const created = now
    ? gateway.createAll(creates.map(({ desired, findEarlier }) => ({ input: desired, findEarlier })))
    : creates.map(({ desired, findEarlier }) => gateway.create(desired, { findEarlier }));
  // An adopted filter this run has listed is taken as listed: no read of it (docs/api.md 11.10).
  const adopted = gateway.readKnown(adoptions.map(({ adoptId }) => adoptId), sending);
  const updated = now ? gateway.updateAll(updates.map(({ plan }) => plan.change)) : updates.map(({ plan }) => gateway.update(plan.change));
  const deleted = now ? gateway.deleteAll(deletes.map(({ id }) => id)) : deletes.map(({ id }) => gateway.delete(id));

  const outcome = async (operation: FilterOperation, run: () => Promise<FilterState | undefined>): Promise<MemberOutcome> => {
    try {
      const state = await run();
      return operation.kind === "delete" ? { key: operation.key, kind: "delete", state: undefined } : { key: operation.key, kind: operation.kind, state: state! };
    } catch (error) {
      return { key: operation.key, kind: operation.kind, error };
    }
  };
  const byOperation = new Map<FilterOperation, Promise<MemberOutcome>>();
  creates.forEach((operation, index) => byOperation.set(operation, outcome(operation, () => bringToDeclared(gateway, created[index]!, operation.desired, undefined, sending))));
  adoptions.forEach((operation, index) => byOperation.set(operation, outcome(operation, () => bringToDeclared(gateway, adopted[index]!, operation.desired, operation.adoptId, sending))));
  updates.forEach((operation, index) => byOperation.set(operation, outcome(operation, () => appliedUpdate(operation.plan, updated[index]!, gateway, sending))));
  deletes.forEach((operation, index) => byOperation.set(operation, outcome(operation, async () => void (await deleted[index]!))));
  kept.forEach((operation) => byOperation.set(operation, outcome(operation, async () => operation.state)));
  return Promise.all(operations.map((operation) => byOperation.get(operation)!));
}

/** A filter a refresh reads: its id, and its name as last recorded (to find it in a listing cut at the cap). */
export interface RecordedFilter {
  id: string;
  name: string | undefined;
}

/**
 * The filters as the account holds them now, one per filter (undefined for a filter gone from the
 * account), for the engine's refresh: with `join` (SavedFilter resources, many engine calls) from
 * the run's one listing of the account, else by id joined with other resources' reads; with `now`
 * (a SavedFilterSet) from what the run has listed, the others one GET per 100 ids
 * (gateway/account-view.ts, docs/api.md 11.10).
 */
export function readFilters(gateway: FilterGateway, filters: readonly RecordedFilter[], sending: Sending): Promise<Array<FilterState | undefined>> {
  return gateway.serve(async () => {
    if (sending === "now") gateway.touch("read", filters.map(({ id }) => id));
    const read = sending === "now" ? gateway.readKnown(filters.map(({ id }) => id), "now") : filters.map(({ id, name }) => gateway.readCurrent(id, name));
    return (await Promise.all(read)).map((filter) => (filter === undefined ? undefined : stateOf(filter)));
  });
}

/**
 * The state a plan reaches once its PUT item (`sent`, none when nothing changed) was applied; a
 * refusal is explained with what `gateway` reads back. After a PUT, `edited` and `editor` are read
 * back (one GET per batch of reads): the service sets them, and a state holding the values from
 * before would differ from the account at every refresh, so the scheduled drift check
 * (`pulumi preview --refresh --expect-no-changes`, docs/gitops.md "The GitOps workflow")
 * would report a change after each update. A failed read-back keeps the values from before: the
 * update itself was applied.
 */
async function appliedUpdate(plan: UpdatePlan, sent: Promise<void> | undefined, gateway: FilterGateway, sending: Sending): Promise<FilterState> {
  try {
    await sent;
  } catch (error) {
    throw plan.change === undefined ? error : await explainRefusal(gateway, plan.change, error, sending);
  }
  if (plan.change === undefined) return plan.state;
  // The PUT answers only a location (docs/api.md 4.8): nothing but a read shows what the service set.
  const current = await gateway.read(String(plan.change.id), sending).catch(() => undefined);
  if (current === undefined) return plan.state;
  return {
    ...plan.state,
    ...(current.edited === undefined ? {} : { edited: current.edited }),
    ...(current.editor === undefined ? {} : { editor: current.editor }),
  };
}

/**
 * Brings the filter a create made, or the filter `adoptId` as read (`existing`), to the declared
 * state, batched with other resources' updates; an adopted id the account does not hold fails.
 */
async function bringToDeclared(
  gateway: FilterGateway,
  existing: Promise<SavedFilter | undefined>,
  desired: SavedFilterInput,
  adoptId: string | undefined,
  sending: Sending,
): Promise<FilterState> {
  const filter = await existing;
  if (filter === undefined) throw new InsightsError(`the account has no saved filter with id ${adoptId} to adopt`);
  const plan = planUpdate(filter.id, stateOf(filter), desired);
  return appliedUpdate(plan, plan.change === undefined ? undefined : gateway.update(plan.change, sending), gateway, sending);
}

/**
 * An update refused (any refusal status: docs/api.md 10.2 shows neither its status nor its body)
 * says what to do about it. A filter deleted elsewhere is recognised by reading the id back
 * (provider/schema/assumptions.ts `UNKNOWN_FILTER_ID_RULE`), never by a code; a change that clears a
 * field with `null` (docs/api.md 11.2, our choice) names the fields, since a service may refuse null.
 */
async function explainRefusal(gateway: FilterGateway, body: SavedFilterUpdate, error: unknown, sending: Sending): Promise<unknown> {
  const cause = error instanceof FilterItemError ? error.cause : error;
  if (!isRefusalStatus(cause)) return error;
  const path = error instanceof FilterItemError ? error.path : "";
  const reason = error instanceof FilterItemError ? error.reason : ((cause as { detail?: string }).detail ?? (cause as Error).message);
  let gone: boolean;
  try {
    gone = (await gateway.read(String(body.id), sending)) === undefined;
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
