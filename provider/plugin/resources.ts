import { piiOptOutRequestCore } from "../pii/pii-opt-out-request";
import { savedFilterCore } from "../saved-filters/saved-filter";
import { savedFilterSetCore } from "../saved-filters/saved-filter-set";
import { coreAdapter, savedFilterImportedInputs } from "./core-adapter";
import { piiOptOutRequestDiff, savedFilterDiff, savedFilterSetDiff } from "./detailed-diff";
import { RESOURCE_NAMES, RESOURCE_TOKENS, typeToken, unknownToken, type ResourceName } from "./tokens";
import type { PropertyMap } from "./wire";

/**
 * The resources' side of the plugin: one adapter object per type token, which the server calls
 * for Check, Diff, Create, Read, Update and Delete (docs/provider-plugins.md rules 7 to 11) with plain
 * property bags, secret markers kept (rule 6). An adapter turns a call into the resource's core and
 * back (./core-adapter.ts); it knows nothing of gRPC. The cores are the ones the dynamic resources
 * run (accounts/calls.ts `ResourceCore`), so both hosts plan, send and fail alike.
 */

/** What every call is about: the resource's URN, name and type token (sent by the engine beside the URN). */
export interface ResourceCall {
  urn: string;
  name: string;
  type: string;
}

/** A property path and what is wrong there (Check's and Invoke's failures). */
export interface Failure {
  property: string;
  reason: string;
}

/** The kind of a change at a property path (docs/provider-plugins.md rule 8). */
export type PropertyChangeKind = "add" | "delete" | "update";

/** One entry of a detailed diff: the kind, whether it replaces the resource, and whether it compares inputs. */
export interface PropertyChange {
  kind: PropertyChangeKind;
  replace: boolean;
  inputDiff: boolean;
}

/** What Diff answers (docs/provider-plugins.md rule 8). `detailedDiff` keys are property paths. */
export interface DiffAnswer {
  changes: "some" | "none" | "unknown";
  replaces?: string[];
  deleteBeforeReplace?: boolean;
  detailedDiff?: Record<string, PropertyChange>;
}

/**
 * A failure after the object was (partly) made: the engine keeps it with this id and these outputs,
 * and the next update calls Update (docs/provider-plugins.md rule 9). The dynamic host's
 * `ResourceInitFailedError` has the same members, so the core's errors pass through unchanged.
 */
export interface PartialFailure extends Error {
  id: string;
  properties: PropertyMap;
  reasons: string[];
}

/** True for an error carrying `id`, `properties` and `reasons`. */
export function isPartialFailure(error: unknown): error is PartialFailure {
  if (!(error instanceof Error)) return false;
  const { id, properties, reasons } = error as Partial<PartialFailure>;
  return typeof id === "string" && id !== "" && typeof properties === "object" && properties !== null && Array.isArray(reasons);
}

/** One resource type as the plugin serves it. */
export interface ResourceAdapter {
  check(call: ResourceCall & { olds: PropertyMap; news: PropertyMap }): Promise<{ inputs: PropertyMap; failures: Failure[] }>;
  diff(call: ResourceCall & { id: string; olds: PropertyMap; news: PropertyMap; oldInputs: PropertyMap; ignoreChanges: string[] }): Promise<DiffAnswer>;
  create(call: ResourceCall & { properties: PropertyMap; preview: boolean; timeoutSeconds: number }): Promise<{ id: string; outputs: PropertyMap }>;
  /** An answer without `id` says the object is gone; with the id alone in the call, it is an import (rule 10). */
  read(call: ResourceCall & { id: string; properties: PropertyMap; inputs: PropertyMap }): Promise<{ id?: string; outputs: PropertyMap; inputs?: PropertyMap }>;
  update(call: ResourceCall & { id: string; olds: PropertyMap; news: PropertyMap; oldInputs: PropertyMap; preview: boolean; timeoutSeconds: number }): Promise<{ outputs: PropertyMap }>;
  delete(call: ResourceCall & { id: string; properties: PropertyMap; oldInputs: PropertyMap }): Promise<void>;
}

/**
 * The adapter of each resource, by resource name: its core, where the detailed diff finds the
 * changes (./detailed-diff.ts; a moved account is the core's replacement), and, for a saved filter,
 * the inputs an import by id answers. A SavedFilterSet's id is the set's own, not a filter's of the
 * account, and a PiiOptOutRequest's is derived from a digest: neither is imported by id.
 */
const ADAPTERS: Record<ResourceName, ResourceAdapter> = {
  SavedFilter: coreAdapter({
    core: savedFilterCore,
    detailedDiff: (olds, news, planned) => savedFilterDiff(olds, news, { accountReplaced: planned.replaces.includes("account") }),
    importedInputs: savedFilterImportedInputs,
  }),
  SavedFilterSet: coreAdapter({
    core: savedFilterSetCore,
    detailedDiff: (olds, news, planned) => savedFilterSetDiff(olds, news, { accountReplaced: planned.replaces.includes("account") }),
    notImportable: "a SavedFilterSet's id is the set's own, not a filter's of the account: import the filters as SavedFilter resources (`pulumi-insights import --pulumi-import-file`), or declare the set with `adopt`",
  }),
  PiiOptOutRequest: coreAdapter({
    core: piiOptOutRequestCore,
    detailedDiff: (olds, news, planned) => piiOptOutRequestDiff(olds, news, planned.replaces),
    notImportable: "a PiiOptOutRequest cannot be imported: its identifiers are known only to the program that declares them",
  }),
};

/** A call the plugin does not serve: the engine reports it as an error of the resource (gRPC UNIMPLEMENTED). */
export class NotServedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NotServedError";
  }
}

/**
 * The adapter of `type`. Throws a {@link NotServedError} for a type the package does not have, with
 * the nearest token.
 */
export function adapterOf(type: string): ResourceAdapter {
  const name = RESOURCE_NAMES.find((candidate) => typeToken(candidate) === type);
  if (name === undefined) throw new NotServedError(unknownToken("resource type", type, RESOURCE_TOKENS));
  return ADAPTERS[name];
}
