import type { PlannedDiff, PropertyChange, PropertyChanges, PropertyFailure, ResourceCore } from "../accounts/calls";
import { wireSecret } from "../accounts/wire-secret";
import { InsightsError } from "../client/core/errors";
import { isBelow } from "../saved-filters/model/declared";
import { declaredProperties } from "../saved-filters/model/state";
import { containsSecret, revealed, type PropertyMap } from "./wire";

/**
 * The plugin's adapter of a resource's core (accounts/calls.ts `ResourceCore`), the counterpart of
 * the dynamic host's (host/dynamic-provider.ts `dynamicProvider`): the same core, answered in the
 * protocol's forms (docs/provider-plugins.md rules 7 to 11). Check failures at their exact property
 * path; Diff as the core plans it, its changed paths forwarded as the detailed diff; Read of an id alone answers the inputs a
 * program declares (`pulumi import`); a partial failure passes through to the server, which sends
 * it as ErrorResourceInitFailed (./server.ts). Secrets: the core sees plain values, and what was
 * secret in the engine's call is secret again in the answer (rule 6).
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

/**
 * What Diff answers (docs/provider-plugins.md rule 8). `detailedDiff` keys are property paths;
 * `inputDiff` says the old side was the old inputs, not the recorded outputs (default false).
 */
export interface DiffAnswer {
  changes: "some" | "none" | "unknown";
  replaces?: string[];
  deleteBeforeReplace?: boolean;
  detailedDiff?: Record<string, PropertyChange & { inputDiff?: boolean }>;
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

/** What the plugin adds to a core to serve it. */
export interface CoreService<Outputs extends object> {
  /** The resource's core. */
  core: ResourceCore<Outputs>;
  /**
   * The inputs a program would declare for an object whose outputs are `outputs`: what Read of an
   * id alone answers, from which `pulumi import` writes the declaration.
   */
  importedInputs?(outputs: Outputs): PropertyMap;
  /** Why Read of an id alone cannot import the resource, for one without {@link importedInputs}. */
  notImportable?: string;
}

/**
 * A failure of the core at its exact path: the core's reason starts with the path
 * (`rules.rules[0].field: ...`, accounts/calls.ts `byProperty`), which becomes the protocol's
 * property path, the rest its reason. A reason that does not start so stays on the property.
 */
export function pathFailure({ property, reason }: PropertyFailure): Failure {
  if (!reason.startsWith(property)) return { property, reason };
  // The steps after the property (matched from where it ends: a property from outside never
  // becomes part of a pattern, whatever its length).
  PATH_STEPS.lastIndex = property.length;
  const match = PATH_STEPS.exec(reason);
  return match === null ? { property, reason } : { property: reason.slice(0, match.index + match[1]!.length), reason: reason.slice(match.index + match[0].length) };
}

/** The steps of a path, `.name`, `[1]` or `["a member key"]` (which may hold ": "), then `: ` (sticky). */
const PATH_STEPS = /((?:\.[A-Za-z_$][\w$]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])*): /y;

/** The top-level properties of `bags` that hold a secret marker anywhere. */
function secretKeys(...bags: PropertyMap[]): Set<string> {
  return new Set(bags.flatMap((bag) => Object.entries(bag).filter(([, value]) => containsSecret(value)).map(([key]) => key)));
}

/** `properties` with each of `keys` it holds as a secret (a value already a secret marker kept as it is). */
function withSecrets(properties: object, keys: ReadonlySet<string>): PropertyMap {
  if (keys.size === 0) return { ...properties };
  return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, keys.has(key) && !containsSecret(value) ? wireSecret(value) : value]));
}

/**
 * The Diff answer of a core's plan: the core decides whether anything changes and what replaces the
 * object; `detailed`, its changed paths, says where. A change the plan cannot place is answered
 * without a detailed diff (the engine then compares the inputs itself), and paths under
 * `ignoreChanges` are left out: a plan whose every change is ignored changes nothing.
 */
export function plannedAnswer(planned: Pick<PlannedDiff, "changes" | "replaces">, detailed: PropertyChanges, ignoreChanges: readonly string[]): DiffAnswer {
  if (!planned.changes) return { changes: "none", replaces: [], detailedDiff: {} };
  const kept = Object.fromEntries(Object.entries(detailed).filter(([path]) => !ignoreChanges.some((ignored) => isBelow(path, ignored))));
  if (Object.keys(detailed).length === 0) return { changes: "some", replaces: planned.replaces };
  if (Object.keys(kept).length === 0) return { changes: "none", replaces: [], detailedDiff: {} };
  return { changes: "some", replaces: planned.replaces, detailedDiff: kept };
}

/** The adapter of `service`'s core. */
export function coreAdapter<Outputs extends object>({ core, importedInputs, notImportable }: CoreService<Outputs>): ResourceAdapter {
  return {
    async check({ olds, news }) {
      const secrets = secretKeys(news);
      const { inputs, failures } = await core.check(revealed(olds), revealed(news));
      return { inputs: withSecrets(inputs, secrets), failures: failures.map(pathFailure) };
    },

    async diff({ id, olds, news, ignoreChanges }) {
      const planned = await core.diff(id, revealed(olds), revealed(news));
      return plannedAnswer(planned, planned.paths, ignoreChanges);
    },

    async create({ properties }) {
      const { id, outputs } = await core.create(revealed(properties));
      return { id, outputs: withSecrets(outputs, secretKeys(properties)) };
    },

    async read({ id, properties, inputs }) {
      // The id alone (rule 10): an import, answered with the inputs a program would declare.
      const importing = Object.keys(properties).length === 0 && Object.keys(inputs).length === 0;
      if (importing && importedInputs === undefined) throw new InsightsError(`cannot import ${JSON.stringify(id)}: ${notImportable ?? "this resource is not imported by id"}`);
      const found = await core.read(id, revealed(properties));
      if (found === undefined) return { outputs: {} };
      const outputs = withSecrets(found.outputs, secretKeys(properties));
      return { id: found.id, outputs, inputs: importing ? importedInputs!(found.outputs) : inputs };
    },

    async update({ id, olds, news }) {
      const outputs = await core.update(id, revealed(olds), revealed(news));
      return { outputs: withSecrets(outputs, secretKeys(olds, news)) };
    },

    async delete({ id, properties }) {
      await core.delete(id, revealed(properties));
    },
  };
}

/**
 * What a program declares for a saved filter the account holds: its managed properties, those at
 * the API's defaults left out, as a program leaves them out (saved-filters/model/state.ts
 * `declaredProperties`); the account is the provider's own (an import reads with the provider's
 * settings).
 */
export function savedFilterImportedInputs(outputs: object): PropertyMap {
  return declaredProperties(outputs as Record<string, unknown>);
}
