import type { z } from "zod";
import { InsightsError } from "../client/core/errors";

/**
 * What a resource's core answers, as every host adapts it: the failures of `check()` by property,
 * the plan of `diff()`, and a failure after the object was (partly) made. The dynamic-provider host
 * (provider/host/) and the provider plugin (provider/plugin/) each turn these into their engine's
 * forms.
 */

/**
 * A failure of `check()` at a property of the inputs: the property's name (the first step of the
 * path) and what is wrong, the reason starting with the exact path. Each host hands it to the engine
 * in its own form.
 */
export interface PropertyFailure {
  /** The top-level property at fault (`account`, `rules`, `filters`). */
  property: string;
  /** What is wrong, starting with the exact path (`rules.rules[0].field: ...`). */
  reason: string;
}

/**
 * `failures` at exact paths (`rules.rules[0].field`, `filters["paris"].name`) by property: the
 * property is the path's first step, the reason starts with the path.
 */
export function byProperty(failures: ReadonlyArray<{ path: string; reason: string }>): PropertyFailure[] {
  return failures.map(({ path, reason }) => ({ property: path.split(/[.[]/)[0]!, reason: `${path}: ${reason}` }));
}

/** The kind of a change at a property path: added, deleted or updated there. */
export type PropertyChangeKind = "add" | "delete" | "update";

/** One changed property of a plan: its kind, and whether its change replaces the object. */
export interface PropertyChange {
  kind: PropertyChangeKind;
  replace: boolean;
}

/**
 * The changed properties of a plan by path, as a program's inputs spell them and the engine shows
 * them (`rules.rules[1].value`, `filters["san-jose"].name`, `account`).
 */
export type PropertyChanges = Record<string, PropertyChange>;

/** The kind of a change from `before` to `after`: none for JSON-equal values, added or deleted for a side left out. */
export function changeKind(before: unknown, after: unknown): PropertyChangeKind | undefined {
  if (before === undefined && after === undefined) return undefined;
  if (before === undefined || after === undefined) return before === undefined ? "add" : "delete";
  return JSON.stringify(before) === JSON.stringify(after) ? undefined : "update";
}

/**
 * What `diff()` plans: whether anything changes, the properties whose change replaces the object,
 * and where each change is. A host that can show where (the provider plugin's detailed diff,
 * docs/provider-plugins.md rule 8) forwards `paths`; the dynamic-provider host, which cannot, leaves
 * them.
 */
export interface PlannedDiff {
  /** True when the object changes (in place or by replacement). */
  changes: boolean;
  /** The properties whose change makes the engine replace the object (`account`). */
  replaces: string[];
  /** Each changed property's path and kind; empty when a change cannot be placed (it is still a change). */
  paths: PropertyChanges;
}

/**
 * A failure after the object was (partly) made: the engine keeps it with this id and these outputs,
 * and its next update calls `update` to finish (docs/dynamic-providers.md "The life of a dynamic
 * resource"; docs/provider-plugins.md rule 9). Each host records it in its own form. Not the
 * client's `PartialFailureError`, which is about the chunks of one API call.
 */
export class ResourcePartialFailureError extends InsightsError {
  constructor(
    message: string,
    /** The object's id. */
    readonly id: string,
    /** The outputs to record. */
    readonly properties: Record<string, unknown>,
    /** What failed, one line each. */
    readonly reasons: string[],
  ) {
    super(message);
  }
}

/**
 * A resource's core as every host calls it, with plain property bags (secret markers kept where the
 * engine sent them): the dynamic-provider host adapts it in provider/host/dynamic-provider.ts
 * `dynamicProvider`, the provider plugin in provider/plugin/resources.ts.
 */
export interface ResourceCore<Outputs extends object> {
  /** The failures of `news` by property (none: valid), and the inputs to record. */
  check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<{ inputs: Record<string, unknown>; failures: PropertyFailure[] }>;
  /** What changes from the outputs `olds` to the inputs `news`. */
  diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<PlannedDiff>;
  /** Makes the object; a {@link ResourcePartialFailureError} when it was partly made. */
  create(inputs: Record<string, unknown>): Promise<{ id: string; outputs: Outputs }>;
  /** The object as the account holds it now, or undefined when it is gone. */
  read(id: string, olds: Record<string, unknown>): Promise<{ id: string; outputs: Outputs } | undefined>;
  /** Brings the object to `news` and answers its full outputs; a {@link ResourcePartialFailureError} when partly done. */
  update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<Outputs>;
  /** Deletes the object (one already gone counts as deleted). */
  delete(id: string, olds: Record<string, unknown>): Promise<void>;
}

/**
 * @internal
 * What a resource is, declared once beside its core: its description, its inputs (with their
 * descriptions, defaults, secrets and checks) and its outputs. The TypeScript types of the resource
 * (scripts/generate-types.ts), the provider plugin's package schema (provider/plugin/schema/) and
 * the outputs a dynamic resource registers (host/shim.ts) are written from it.
 */
export interface ResourceDeclaration {
  /** What the resource is and does. */
  description: string;
  /** What a program gives. */
  inputs: z.ZodObject;
  /** What the state records: the object's properties. */
  outputs: z.ZodObject;
  /** Inputs whose change makes the provider replace the resource (the schema's `willReplaceOnChanges`). */
  replacedBy: readonly string[];
}
