import { RESOURCE_NAMES, RESOURCE_TOKENS, typeToken, unknownToken, type ResourceName } from "./tokens";
import type { PropertyMap } from "./wire";

/**
 * The resources' side of the plugin: one adapter object per type token, which the server calls
 * for Check, Diff, Create, Read, Update and Delete (docs/provider-plugins.md rules 7 to 11) with plain
 * property bags, secret markers kept (rule 6). An adapter turns a call into the resource's core and
 * back; it knows nothing of gRPC. A resource of the schema without an adapter yet is refused with
 * a clear "not yet served" error, naming the dynamic resource that serves it today.
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

/** The name of a ResourceAdapter's method, as the engine's call is named. */
export type ResourceMethod = keyof ResourceAdapter;

/**
 * The adapters wired so far, by resource name. None yet: the resources' core still runs inside the
 * dynamic-provider host (provider/README.md); each resource becomes one entry here once it is free of it.
 */
const ADAPTERS: Partial<Record<ResourceName, ResourceAdapter>> = {};

/** A call the plugin does not serve: the engine reports it as an error of the resource (gRPC UNIMPLEMENTED). */
export class NotServedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NotServedError";
  }
}

/**
 * The adapter of `type`. Throws a {@link NotServedError} for a type the package does not have (with
 * the nearest token) and for a resource of the package that the plugin does not serve yet.
 */
export function adapterOf(type: string, method: ResourceMethod): ResourceAdapter {
  const name = RESOURCE_NAMES.find((candidate) => typeToken(candidate) === type);
  if (name === undefined) throw new NotServedError(unknownToken("resource type", type, RESOURCE_TOKENS));
  const adapter = ADAPTERS[name];
  if (adapter === undefined) {
    throw new NotServedError(
      `${type} is not yet served by the pulumi-resource-insights plugin (${method}): its core still runs in the ` +
        `dynamic-provider host; declare it with the TypeScript package (\`new ${name}(...)\` of pulumi-insights) until it is`,
    );
  }
  return adapter;
}
