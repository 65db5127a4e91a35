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
 * resources can join it (a SavedFilter: the engine calls many at once, and the batching window
 * gathers them into bulk calls); `now` hands the whole plan over at once (a SavedFilterSet knows its
 * whole batch: bulk calls go out without waiting for the window).
 */
export type Sending = "join" | "now";

/**
 * Performs `operations` with `gateway` and answers one outcome per operation, in order. Creates and
 * adoptions are brought to the declared state after (a filter an earlier lost create made may
 * differ; an adopted one usually does), updates read back what the service sets.
 */
export async function perform(gateway: FilterGateway, operations: readonly FilterOperation[], sending: Sending): Promise<MemberOutcome[]> {
  const creates = operations.filter((operation) => operation.kind === "create");
  const adoptions = operations.filter((operation) => operation.kind === "adopt");
  const updates = operations.filter((operation) => operation.kind === "update");
  const deletes = operations.filter((operation) => operation.kind === "delete");
  const kept = operations.filter((operation) => operation.kind === "keep");
  const now = sending === "now";
  const created = now
    ? gateway.createAll(creates.map(({ desired, findEarlier }) => ({ input: desired, findEarlier })))
    : creates.map(({ desired, findEarlier }) => gateway.create(desired, { findEarlier }));
  const adopted = now ? gateway.readAll(adoptions.map(({ adoptId }) => adoptId)) : adoptions.map(({ adoptId }) => gateway.read(adoptId));
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
  creates.forEach((operation, index) => byOperation.set(operation, outcome(operation, () => bringToDeclared(gateway, created[index]!, operation.desired, undefined))));
  adoptions.forEach((operation, index) => byOperation.set(operation, outcome(operation, () => bringToDeclared(gateway, adopted[index]!, operation.desired, operation.adoptId))));
  updates.forEach((operation, index) => byOperation.set(operation, outcome(operation, () => appliedUpdate(operation.plan, updated[index]!, gateway))));
  deletes.forEach((operation, index) => byOperation.set(operation, outcome(operation, async () => void (await deleted[index]!))));
  kept.forEach((operation) => byOperation.set(operation, outcome(operation, async () => operation.state)));
  return Promise.all(operations.map((operation) => byOperation.get(operation)!));
}

/**
 * The filters with `ids` as the account holds them now, one per id (undefined for a filter gone from
 * the account): one GET per 100 ids with `now`, else joined with other resources' reads.
 */
export async function readFilters(gateway: FilterGateway, ids: readonly string[], sending: Sending): Promise<Array<FilterState | undefined>> {
  const read = sending === "now" ? gateway.readAll(ids) : ids.map((id) => gateway.read(id));
  return (await Promise.all(read)).map((filter) => (filter === undefined ? undefined : stateOf(filter)));
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
async function appliedUpdate(plan: UpdatePlan, sent: Promise<void> | undefined, gateway: FilterGateway): Promise<FilterState> {
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

/**
 * Brings the filter a create made, or the filter `adoptId` as read (`existing`), to the declared
 * state, batched with other resources' updates; an adopted id the account does not hold fails.
 */
async function bringToDeclared(
  gateway: FilterGateway,
  existing: Promise<SavedFilter | undefined>,
  desired: SavedFilterInput,
  adoptId: string | undefined,
): Promise<FilterState> {
  const filter = await existing;
  if (filter === undefined) throw new InsightsError(`the account has no saved filter with id ${adoptId} to adopt`);
  const plan = planUpdate(filter.id, stateOf(filter), desired);
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
