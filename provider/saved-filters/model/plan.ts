import { CLEARED_FIELD } from "../../schema/assumptions";
import type { SavedFilter, SavedFilterInput, SavedFilterUpdate } from "../../schema";
import type { ManagedProperty } from "./declared";
import { plannedChanges, recordedState, stateOf, type FilterState } from "./state";

/**
 * The plan that brings saved filters from what the state records to what a program declares: typed
 * operations (create, adopt, update, delete) for the gateway to perform. A SavedFilterSet plans its
 * members by key; a SavedFilter is a set of one. Pure.
 */

/** What bringing one filter to its declared state takes: the PUT item (none when nothing changes) and the state after. */
export interface UpdatePlan {
  /** The PUT item with only what changed (docs/api.md 4.8: PUT merges), or undefined when nothing does. */
  change: SavedFilterUpdate | undefined;
  /** The filter's state once the change is applied. */
  state: FilterState;
}

/**
 * The PUT body item for the changed properties (docs/api.md 4.8: PUT merges). A property that is no
 * longer declared is sent as null, which clears it (docs/api.md 11.2; provider/schema/assumptions.ts
 * `CLEARED_FIELD`).
 */
function updateBody(id: string, changed: readonly ManagedProperty[], desired: SavedFilterInput): SavedFilterUpdate {
  const body: Record<string, unknown> = { id };
  for (const property of changed) body[property] = desired[property] ?? CLEARED_FIELD;
  return body as unknown as SavedFilterUpdate;
}

/**
 * Plans bringing filter `id` from `current` (its last known state) to `desired`: one PUT item with
 * only what changed, none when nothing did. PUT merges (docs/api.md 4.8) and answers only a location,
 * so the new state is the old one with the changes applied; `edited` and `editor`, which the service
 * sets, are read back after the PUT (saved-filters/reconciler.ts).
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

/** One declared filter of a set, by its key (a SavedFilter is a set of one). */
export interface DeclaredMember {
  /** The member's key (`paris`). */
  key: string;
  /** What the account should hold for it (model/state.ts `desiredState`). */
  desired: SavedFilterInput;
}

/** What the state records of a set's members. */
export interface MembersState {
  /** The filter id of each member, by key. */
  ids: Readonly<Record<string, string>>;
  /** Each member as the account held it when last read or written, by key. */
  filters: Readonly<Record<string, FilterState>>;
  /** Members whose create had an unknown outcome: the next create looks for what it made first. */
  unknownOutcome?: readonly string[];
}

/** An operation of a plan, about one member. */
export type FilterOperation =
  /** Create the member's filter; with `findEarlier`, first look for the filter an earlier lost create made. */
  | { kind: "create"; key: string; desired: SavedFilterInput; findEarlier: boolean }
  /** Take over the account's filter `adoptId` and bring it to the declared state. */
  | { kind: "adopt"; key: string; desired: SavedFilterInput; adoptId: string }
  /** Send the member's change (PUT merges); `plan.state` is its state after. */
  | { kind: "update"; key: string; id: string; plan: UpdatePlan & { change: SavedFilterUpdate } }
  /** Nothing to send: the member stays as the state records it. */
  | { kind: "keep"; key: string; id: string; state: FilterState }
  /** Delete the member's filter. */
  | { kind: "delete"; key: string; id: string };

/** How a plan treats members to create. */
export interface PlanOptions {
  /** Member keys to adopt, with the id of the account's filter each takes over. */
  adopt?: Readonly<Record<string, string>>;
  /**
   * Which creates look first for what an earlier lost create made: only those the state records as
   * unknown (a set keeps them in its state), or every one (a SavedFilter: the engine keeps no state
   * of a create that failed, so its next create cannot know).
   */
  lookFirst: "recorded" | "always";
}

/**
 * The operations that bring the members of `previous` (none at create) to `members`: creates (or
 * adoptions) of added members, updates of changed ones (only what changed), the others kept as
 * recorded, deletes of removed ones; in the declared order and then the removed members'.
 */
export function planMembers(previous: MembersState | undefined, members: readonly DeclaredMember[], options: PlanOptions): FilterOperation[] {
  const operations: FilterOperation[] = [];
  for (const { key, desired } of members) {
    const id = previous?.ids[key];
    const adoptId = options.adopt?.[key];
    if (id !== undefined) {
      const recorded = previous?.filters[key];
      const plan = planUpdate(id, recorded ?? {}, desired);
      if (plan.change !== undefined) operations.push({ kind: "update", key, id, plan: { ...plan, change: plan.change } });
      // Unchanged means every managed property is recorded (planUpdate sends them all otherwise).
      else operations.push({ kind: "keep", key, id, state: recordedState(recorded!) });
    } else if (adoptId !== undefined) {
      operations.push({ kind: "adopt", key, desired, adoptId });
    } else {
      const findEarlier = options.lookFirst === "always" || (previous?.unknownOutcome?.includes(key) ?? false);
      operations.push({ kind: "create", key, desired, findEarlier });
    }
  }
  const declared = new Set(members.map((member) => member.key));
  for (const [key, id] of Object.entries(previous?.ids ?? {})) {
    if (!declared.has(key)) operations.push({ kind: "delete", key, id });
  }
  return operations;
}
