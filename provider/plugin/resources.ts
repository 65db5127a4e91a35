import { ResourcePartialFailureError } from "../accounts/calls";
import { InsightsError } from "../client";
import { piiOptOutRequestCore } from "../pii/pii-opt-out-request";
import { savedFilterCore } from "../saved-filters/saved-filter";
import { savedFilterSetCore } from "../saved-filters/saved-filter-set";
import { coreAdapter, savedFilterImportedInputs, type ResourceAdapter } from "./core-adapter";
import { RESOURCE_NAMES, RESOURCE_TOKENS, typeToken, unknownToken, type ResourceName } from "./tokens";

/**
 * The resources' side of the plugin: one adapter object per type token, which the server calls
 * for Check, Diff, Create, Read, Update and Delete (docs/provider-plugins.md rules 7 to 11) with plain
 * property bags, secret markers kept (rule 6). An adapter turns a call into the resource's core and
 * back (./core-adapter.ts); it knows nothing of gRPC. The cores are the ones the dynamic resources
 * run (accounts/calls.ts `ResourceCore`), so both hosts plan, send and fail alike.
 */

/**
 * True for a core's failure after the object was (partly) made (accounts/calls.ts): the server sends
 * it as ErrorResourceInitFailed, and the engine keeps the object with its id and outputs
 * (docs/provider-plugins.md rule 9).
 */
export function isPartialFailure(error: unknown): error is ResourcePartialFailureError {
  return error instanceof ResourcePartialFailureError;
}

/**
 * The adapter of each resource, by resource name: its core (whose plan says where each change is)
 * and, for a saved filter, the inputs an import by id answers. A SavedFilterSet's id is the set's own, not a filter's of the
 * account, and a PiiOptOutRequest's is derived from a digest: neither is imported by id.
 */
const ADAPTERS: Record<ResourceName, ResourceAdapter> = {
  SavedFilter: coreAdapter({ core: savedFilterCore, importedInputs: savedFilterImportedInputs }),
  SavedFilterSet: coreAdapter({
    core: savedFilterSetCore,
    notImportable: "a SavedFilterSet's id is the set's own, not a filter's of the account: import the filters as SavedFilter resources (`pulumi-insights import --pulumi-import-file`), or declare the set with `adopt`",
  }),
  PiiOptOutRequest: coreAdapter({
    core: piiOptOutRequestCore,
    notImportable: "a PiiOptOutRequest cannot be imported: its identifiers are known only to the program that declares them",
  }),
};

/** A call the plugin does not serve: the engine reports it as an error of the resource (gRPC UNIMPLEMENTED). */
export class NotServedError extends InsightsError {}

/**
 * The adapter of `type`. Throws a {@link NotServedError} for a type the package does not have, with
 * the nearest token.
 */
export function adapterOf(type: string): ResourceAdapter {
  const name = RESOURCE_NAMES.find((candidate) => typeToken(candidate) === type);
  if (name === undefined) throw new NotServedError(unknownToken("resource type", type, RESOURCE_TOKENS));
  return ADAPTERS[name];
}
