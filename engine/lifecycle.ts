/**
 * The engine's step sequences on top of the host's calls, so that resource tests read like the
 * commands a user runs: `up` (check, then create, or diff and update/replace), `refresh` (read) and
 * `destroy` (delete), with the state the engine would keep (docs/dynamic-providers.md "The life of a dynamic resource").
 */
import { isDeepStrictEqual } from "node:util";
import { ProviderCallError, type CallOptions, type CheckFailure, type DiffResult, type ProviderHost } from "./host";
import type { PropertyMap } from "./struct";

/** A resource's state as the engine keeps it: id, the checked inputs and the outputs. */
export interface ResourceState {
  id: string;
  inputs: PropertyMap;
  outputs: PropertyMap;
}

/** What one `up` step did. */
export interface UpResult {
  operation: "create" | "update" | "replace" | "same";
  state: ResourceState;
  /** The diff answer, for an existing resource. */
  diff?: DiffResult;
}

/** `check` reported failures: the engine stops with `property: reason` lines. */
export class CheckFailedError extends Error {
  constructor(readonly failures: CheckFailure[]) {
    super(failures.map((failure) => `${failure.property}: ${failure.reason}`).join("\n"));
    this.name = "CheckFailedError";
  }
}

/**
 * The state the engine keeps after a partial failure (docs/dynamic-providers.md "The life of a dynamic resource": the resource stays with that id and
 * properties, and the next `up` updates it), or undefined for any other error.
 */
export function stateAfterFailure(error: unknown, inputs: PropertyMap): ResourceState | undefined {
  if (!(error instanceof ProviderCallError) || error.partial === undefined) return undefined;
  return { id: error.partial.id, inputs, outputs: error.partial.properties };
}

/**
 * One resource's part of `pulumi up`: check the new inputs (`news`, with `__provider`) against the
 * prior state's inputs; without prior state create; else diff and update, replace (create then
 * delete, or delete first when the provider asks) or leave it. Check failures throw
 * {@link CheckFailedError}; provider errors throw ProviderCallError (see {@link stateAfterFailure}).
 */
export async function up(host: ProviderHost, news: PropertyMap, prior?: ResourceState, options: CallOptions = {}): Promise<UpResult> {
  const checked = await host.check(prior?.inputs ?? {}, news, options);
  if (checked.failures.length > 0) throw new CheckFailedError(checked.failures);
  const inputs = checked.inputs;
  if (prior === undefined) {
    const created = await host.create(inputs, options);
    return { operation: "create", state: { id: created.id, inputs, outputs: created.outputs } };
  }
  const diff = await host.diff(prior.id, prior.outputs, inputs, { ...options, oldInputs: prior.inputs });
  // Unknown changes: the engine compares the old and new inputs itself.
  const unchanged = diff.changes === "none" || (diff.changes === "unknown" && isDeepStrictEqual(prior.inputs, inputs));
  if (unchanged) return { operation: "same", state: prior, diff };
  if (diff.replaces.length > 0) {
    if (diff.deleteBeforeReplace) await host.delete(prior.id, prior.outputs, options);
    const created = await host.create(inputs, options);
    if (!diff.deleteBeforeReplace) await host.delete(prior.id, prior.outputs, options);
    return { operation: "replace", state: { id: created.id, inputs, outputs: created.outputs }, diff };
  }
  const updated = await host.update(prior.id, prior.outputs, inputs, { ...options, oldInputs: prior.inputs });
  return { operation: "update", state: { id: prior.id, inputs, outputs: updated.outputs }, diff };
}

/**
 * `pulumi refresh` for one resource: the refreshed state, or undefined when `read` says the object
 * is gone (the engine drops it from state).
 */
export async function refresh(host: ProviderHost, state: ResourceState, options: CallOptions = {}): Promise<ResourceState | undefined> {
  const read = await host.read(state.id, state.outputs, { ...options, inputs: state.inputs });
  if (read.id === undefined) return undefined;
  return { id: read.id, inputs: read.inputs ?? state.inputs, outputs: read.outputs };
}

/** `pulumi destroy` for one resource. */
export async function destroy(host: ProviderHost, state: ResourceState, options: CallOptions = {}): Promise<void> {
  await host.delete(state.id, state.outputs, options);
}
