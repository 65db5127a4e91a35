/**
 * A stack's deployments without the Pulumi CLI: the program runs in this process under the SDK's
 * runtime (`pulumi.runtime.setMocks`, so no engine is needed to register resources), and every
 * resource it registers goes through the real dynamic-provider host over gRPC (./host.ts), with the
 * engine's steps (check, diff, create/update/replace/delete, read) and the state the engine would
 * keep, in memory. What it prints follows what `pulumi preview`, `up` and `refresh` print.
 *
 * Not the Pulumi engine: no state files, no plugins, no parallelism limits, no dependency graph
 * beyond the program's own awaits. It serves the tests and `npm start -- --offline`.
 */
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { type CheckFailure, type Diagnostic, type ProviderHost } from "./host";
import { builtModule } from "./project";
import { isSecret, secret, type PropertyMap } from "./struct";

/** The program: a function exported by a built module, returning the stack outputs (as Pulumi.yaml's `main` does). */
export interface StackProgram {
  /** The built module, relative to the repository root (`dist/examples/program.js`). */
  module: string;
  /** The exported function to call. */
  exportName: string;
}

/** Options of {@link Deployment}. */
export interface DeploymentOptions {
  host: ProviderHost;
  program: StackProgram;
  /** Project and stack names (they appear in URNs and in the headings). */
  project: string;
  stack: string;
  /** Where the lines a user reads go. Default: standard output. */
  write?: (line: string) => void;
  /** The stack config the program reads (`pulumi config set`), by full key (`insights:baseUrl`). */
  config?: Record<string, string>;
  /** The keys of `config` that are secrets (the program reads them as secret Outputs). */
  secretConfigKeys?: string[];
  /** The clock for durations. Default: `Date.now`. */
  now?: () => number;
}

/** What the engine does with one resource. */
export type Operation = "create" | "update" | "replace" | "delete" | "same";

/** One resource's step of a deployment, as the summary lists it. */
export interface Step {
  type: string;
  name: string;
  operation: Operation;
  /** Check failures (the step is then not applied), as the engine prints them. */
  failures: CheckFailure[];
  /** The properties the provider said differ, for an update or replace. */
  changedProperties: string[];
  /** An error of the provider, for a step that failed. */
  error?: string;
}

/** What a preview or an update did. */
export interface DeploymentResult {
  steps: Step[];
  /** The stack outputs as `pulumi stack output` shows them: secrets are `"[secret]"`. Set by an update. */
  outputs?: Record<string, unknown>;
  /** True when a check failed or a provider call failed. */
  failed: boolean;
}

/** A property that changed outside Pulumi, seen by a refresh. */
export interface Drift {
  type: string;
  name: string;
  /** `changed` (with the properties), or `deleted` (the object is gone: the state drops it). */
  kind: "changed" | "deleted";
  properties: string[];
}

/** A resource as the engine keeps it in the state. */
interface StateEntry {
  type: string;
  name: string;
  id: string;
  inputs: PropertyMap;
  outputs: PropertyMap;
  /** Outputs the engine keeps only as secrets (`additionalSecretOutputs`, and inputs that were secret). */
  secretOutputs: string[];
}

/** What the program registered: type, name, inputs (secret markers kept) and the secret outputs it asked for. */
interface Registration {
  type: string;
  name: string;
  inputs: PropertyMap;
  additionalSecretOutputs: string[];
}

const SYMBOLS: Record<Operation, string> = { create: "+", update: "~", replace: "+-", delete: "-", same: " " };
const PLANNED: Record<Operation, string> = { create: "create", update: "update", replace: "replace", delete: "delete", same: "" };
const DONE: Record<Operation, string> = { create: "created", update: "updated", replace: "replaced", delete: "deleted", same: "" };

/** The additionalSecretOutputs of the registrations in flight, by `type::name` (the mocks do not see options). */
const secretOutputsRequested = new Map<string, string[]>();
let monitorPatched = false;

/** `value` with the listed top-level properties wrapped as secrets, as the engine returns them to the program. */
function withSecretOutputs(properties: PropertyMap, secretKeys: string[]): PropertyMap {
  return Object.fromEntries(Object.entries(properties).map(([key, value]) =>
    [key, secretKeys.includes(key) && !isSecret(value) ? secret(value) : value]));
}

/** The stack outputs as `pulumi stack output` shows them: a secret top-level output is `[secret]`. */
async function displayOutputs(pulumi: typeof import("@pulumi/pulumi"), result: unknown): Promise<Record<string, unknown>> {
  if (typeof result !== "object" || result === null) return {};
  const outputs: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(result)) {
    const output = pulumi.output(value);
    outputs[key] = (await pulumi.isSecret(output)) ? "[secret]" : await new Promise((resolve) => output.apply(resolve));
  }
  return outputs;
}

/**
 * One stack: its state in memory and the commands a user runs on it. Commands run one at a time.
 *
 * ```ts
 * const stack = new Deployment({ host, program: { module: "dist/examples/program.js", exportName: "runExamples" }, project: "insights", stack: "dev" });
 * await stack.preview(); await stack.update(); await stack.refresh(); await stack.destroy();
 * ```
 */
export class Deployment {
  private readonly state = new Map<string, StateEntry>();
  private readonly write: (line: string) => void;
  private readonly now: () => number;
  private readonly config: Record<string, string>;
  private readonly secretConfigKeys: Set<string>;

  constructor(private readonly options: DeploymentOptions) {
    this.write = options.write ?? ((line) => process.stdout.write(`${line}\n`));
    this.now = options.now ?? Date.now;
    this.config = { ...options.config };
    this.secretConfigKeys = new Set(options.secretConfigKeys);
  }

  /** `pulumi config set [--secret] <key> <value>`: the next command's program reads it. */
  setConfig(key: string, value: string, options: { secret?: boolean } = {}): void {
    this.config[key] = value;
    if (options.secret) this.secretConfigKeys.add(key);
    else this.secretConfigKeys.delete(key);
  }

  /** The resources in the state, by name (a copy). */
  get resources(): Map<string, { type: string; id: string; inputs: PropertyMap; outputs: PropertyMap }> {
    return new Map([...this.state.values()].map((entry) => [entry.name, { type: entry.type, id: entry.id, inputs: entry.inputs, outputs: entry.outputs }]));
  }

  /** `pulumi preview`: runs the program, checks and diffs every resource, changes nothing. */
  preview(): Promise<DeploymentResult> {
    return this.deploy(true);
  }

  /** `pulumi up --yes`: runs the program and applies every step; prints the outputs. */
  update(): Promise<DeploymentResult> {
    return this.deploy(false);
  }

  /**
   * `pulumi refresh --yes`: reads every resource and takes what the account holds into the state;
   * the provider's diff of it against the declaration prints its lines, as under the CLI since 3.120.
   * A changed resource shows as `pulumi refresh --yes` shows it, by the properties that changed
   * (`[diff: ~name, ~rules]`); their values are the provider's to show, in its diff's direction
   * (`- in the account, + declared`, the direction of the update that puts the declaration back),
   * never a second diff of the same change in the other direction.
   */
  async refresh(): Promise<Drift[]> {
    this.write(`Refreshing (${this.options.stack}):`);
    const drifts: Drift[] = [];
    await Promise.all([...this.state.entries()].map(async ([key, entry]) => {
      const read = await this.options.host.read(entry.id, entry.outputs, { inputs: entry.inputs, urn: this.urn(entry) });
      if (read.id === undefined) {
        this.state.delete(key);
        drifts.push({ type: entry.type, name: entry.name, kind: "deleted", properties: [] });
        this.write(` -  ${entry.type}  ${entry.name}  deleted (gone from the account)`);
        return;
      }
      const changed = [...new Set([...Object.keys(entry.outputs), ...Object.keys(read.outputs)])]
        .filter((property) => property !== "__provider" && !isDeepStrictEqual(entry.outputs[property], read.outputs[property]))
        .sort();
      this.state.set(key, { ...entry, id: read.id, outputs: read.outputs, inputs: read.inputs ?? entry.inputs });
      // As the CLI since 3.120: the refresh asks the provider's diff of what the account holds (the
      // outputs read) against the declaration (the recorded inputs), docs/dynamic-providers.md rule 7;
      // what the provider prints then, such as a rule-tree diff, is part of what a refresh shows.
      await this.options.host.diff(read.id, read.outputs, entry.inputs, { urn: this.urn(entry), oldInputs: read.inputs ?? entry.inputs });
      if (changed.length === 0) return;
      drifts.push({ type: entry.type, name: entry.name, kind: "changed", properties: changed });
      this.write(` ~  ${entry.type}  ${entry.name}  updated [diff: ${changed.map((property) => `~${property}`).join(", ")}]`);
    }));
    await this.hostOutputSettled();
    this.write(drifts.length === 0 ? "Resources: no drift" : `Resources: ${drifts.length} changed outside Pulumi (the next update puts them back)`);
    return drifts;
  }

  /** `pulumi destroy --yes`: deletes every resource of the state. */
  async destroy(): Promise<Step[]> {
    this.write(`Destroying (${this.options.stack}):`);
    const steps = await Promise.all([...this.state.entries()].map(async ([key, entry]) => {
      await this.options.host.delete(entry.id, entry.outputs, { urn: this.urn(entry) });
      this.state.delete(key);
      this.write(` -  ${entry.type}  ${entry.name}  deleted`);
      return { type: entry.type, name: entry.name, operation: "delete" as const, failures: [], changedProperties: [] };
    }));
    this.write(`Resources:\n    - ${steps.length} deleted`);
    return steps;
  }

  private urn(entry: { type: string; name: string }): string {
    return `urn:pulumi:${this.options.stack}::${this.options.project}::${entry.type}::${entry.name}`;
  }

  /** A preview (`preview` true) or an update: the program's run, the steps, the summary. */
  private async deploy(preview: boolean): Promise<DeploymentResult> {
    const started = this.now();
    this.write(preview ? `Previewing update (${this.options.stack}):` : `Updating (${this.options.stack}):`);
    const steps: Step[] = [];
    const seen = new Set<string>();
    const print = (step: Step, seconds?: number) => {
      const label = preview ? PLANNED[step.operation] : DONE[step.operation];
      const status = step.failures.length > 0 || step.error !== undefined ? `${label} **failed**` : label;
      const detail = step.changedProperties.length > 0 ? ` [diff: ${step.changedProperties.map((property) => `~${property}`).join(", ")}]` : "";
      const timing = seconds === undefined ? "" : ` (${seconds.toFixed(1)}s)`;
      this.write(` ${SYMBOLS[step.operation].padEnd(2)} ${step.type}  ${step.name}  ${status}${detail}${timing}`);
      for (const failure of step.failures) this.write(`    error: ${step.name}: ${failure.reason.startsWith(failure.property) ? failure.reason : `${failure.property}: ${failure.reason}`}`);
      if (step.error !== undefined) this.write(`    error: ${step.name}: ${step.error}`);
    };
    const stepOf = async (registration: Registration): Promise<PropertyMap> => {
      const key = `${registration.type}::${registration.name}`;
      seen.add(key);
      const prior = this.state.get(key);
      const started = this.now();
      const step: Step = { type: registration.type, name: registration.name, operation: prior ? "same" : "create", failures: [], changedProperties: [] };
      steps.push(step);
      const secretOutputs = [...new Set([...registration.additionalSecretOutputs, ...Object.keys(registration.inputs).filter((property) => isSecret(registration.inputs[property]))])];
      const urn = this.urn(registration);
      try {
        const checked = await this.options.host.check(prior?.inputs ?? {}, registration.inputs, { urn });
        step.failures = checked.failures;
        if (checked.failures.length > 0) {
          // What the engine shows for a resource whose new inputs it could not check.
          if (prior !== undefined) step.operation = "update";
          print(step);
          return registration.inputs;
        }
        const inputs = checked.inputs;
        if (prior !== undefined) {
          const diff = await this.options.host.diff(prior.id, prior.outputs, inputs, { urn, oldInputs: prior.inputs });
          const unchanged = diff.changes === "none" || (diff.changes === "unknown" && isDeepStrictEqual(prior.inputs, inputs));
          if (!unchanged) {
            step.operation = diff.replaces.length > 0 ? "replace" : "update";
            step.changedProperties = diff.diffs.length > 0 ? diff.diffs : Object.keys(inputs).filter((property) => property !== "__provider" && !isDeepStrictEqual(prior.inputs[property], inputs[property]));
          }
        }
        if (preview || step.operation === "same") {
          if (step.operation !== "same") print(step);
          return withSecretOutputs(prior?.outputs ?? inputs, secretOutputs);
        }
        let entry: StateEntry;
        if (prior === undefined || step.operation === "replace") {
          if (prior !== undefined && (await this.replacesDeletingFirst(prior, inputs))) await this.options.host.delete(prior.id, prior.outputs, { urn });
          const created = await this.options.host.create(inputs, { urn });
          entry = { type: registration.type, name: registration.name, id: created.id, inputs, outputs: created.outputs, secretOutputs };
        } else {
          const updated = await this.options.host.update(prior.id, prior.outputs, inputs, { urn, oldInputs: prior.inputs });
          entry = { ...prior, inputs, outputs: updated.outputs, secretOutputs };
        }
        this.state.set(key, entry);
        print(step, (this.now() - started) / 1000);
        return withSecretOutputs(entry.outputs, secretOutputs);
      } catch (error) {
        step.error = error instanceof Error ? error.message : String(error);
        print(step);
        return withSecretOutputs(prior?.outputs ?? registration.inputs, secretOutputs);
      }
    };

    const programResult = await this.runProgram(preview, stepOf);
    // Resources in the state that the program no longer registers are deleted.
    for (const [key, entry] of [...this.state.entries()].filter(([key]) => !seen.has(key))) {
      const step: Step = { type: entry.type, name: entry.name, operation: "delete", failures: [], changedProperties: [] };
      steps.push(step);
      try {
        if (!preview) {
          await this.options.host.delete(entry.id, entry.outputs, { urn: this.urn(entry) });
          this.state.delete(key);
        }
        print(step);
      } catch (error) {
        step.error = error instanceof Error ? error.message : String(error);
        print(step);
      }
    }
    const failed = steps.some((step) => step.failures.length > 0 || step.error !== undefined);
    const result: DeploymentResult = { steps, failed };
    if (!preview && !failed) {
      result.outputs = await displayOutputs(programResult.pulumi, programResult.value);
      this.write("Outputs:");
      for (const [key, value] of Object.entries(result.outputs)) {
        const text = typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value, null, 4) ?? "undefined";
        this.write(`    ${key}: ${text.split("\n").join("\n    ")}`);
      }
    }
    await this.hostOutputSettled();
    this.writeSummary(steps, preview, (this.now() - started) / 1000);
    return result;
  }

  /**
   * Waits a moment for the host's last lines: they travel on its stdout pipe and can come after the
   * gRPC answers, as under the real engine. For readability only (at most half a second); nothing
   * depends on it.
   */
  private async hostOutputSettled(): Promise<void> {
    const deadline = this.now() + 500;
    let seen = -1;
    while (seen !== this.options.host.diagnostics.length && this.now() < deadline) {
      seen = this.options.host.diagnostics.length;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Whether the provider asked to delete before creating the replacement (asked again: the diff is cheap). */
  private async replacesDeletingFirst(prior: StateEntry, inputs: PropertyMap): Promise<boolean> {
    const diff = await this.options.host.diff(prior.id, prior.outputs, inputs, { urn: this.urn(prior), oldInputs: prior.inputs });
    return diff.deleteBeforeReplace;
  }

  private writeSummary(steps: Step[], preview: boolean, seconds: number): void {
    const counts = new Map<Operation, number>();
    for (const step of steps) counts.set(step.operation, (counts.get(step.operation) ?? 0) + 1);
    this.write("Resources:");
    for (const operation of ["create", "update", "replace", "delete"] as const) {
      const count = counts.get(operation);
      if (count) this.write(`    ${SYMBOLS[operation]} ${count} ${preview ? `to ${PLANNED[operation]}` : DONE[operation]}`);
    }
    const same = counts.get("same") ?? 0;
    if (same > 0) this.write(`    ${same} unchanged`);
    const failures = steps.filter((step) => step.failures.length > 0 || step.error !== undefined).length;
    if (failures > 0) this.write(`    ${failures} failed`);
    if (!preview) this.write(`Duration: ${seconds.toFixed(1)}s`);
    this.write("");
  }

  /**
   * Runs the program under the SDK's runtime; `register` answers each resource registration with
   * the state to give the program. Resolves once every registration is answered.
   */
  private async runProgram(
    preview: boolean,
    register: (registration: Registration) => Promise<PropertyMap>,
  ): Promise<{ pulumi: typeof import("@pulumi/pulumi"); value: unknown }> {
    const modulePath = builtModule(this.options.program.module);
    const paths = [path.dirname(modulePath)];
    // The copy of @pulumi/pulumi the program uses: mocks set on another copy would not apply.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pulumi = require(require.resolve("@pulumi/pulumi", { paths })) as typeof import("@pulumi/pulumi");
    if (!monitorPatched) {
      // Mocks see a resource's inputs but not its options; the secret outputs it asks for are read
      // from the registration request itself.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { MockMonitor } = require(require.resolve("@pulumi/pulumi/runtime/mocks", { paths })) as typeof import("@pulumi/pulumi/runtime/mocks");
      const original = MockMonitor.prototype.registerResource;
      MockMonitor.prototype.registerResource = function (this: InstanceType<typeof MockMonitor>, request: { getType(): string; getName(): string; getAdditionalsecretoutputsList(): string[] }, callback: unknown) {
        secretOutputsRequested.set(`${request.getType()}::${request.getName()}`, request.getAdditionalsecretoutputsList());
        return original.call(this, request, callback as never);
      } as typeof original;
      monitorPatched = true;
    }
    await pulumi.runtime.setMocks(
      {
        // The data sources of pulumi-insights read the account (the emulator) instead of asking
        // `call`: the mark of its withAccountReads (provider/data/define.ts), set without loading the package.
        [Symbol.for("pulumi-insights.readTheAccountUnderMocks")]: true,
        newResource: async (args) => {
          const key = `${args.type}::${args.name}`;
          const state = await register({ type: args.type, name: args.name, inputs: args.inputs as PropertyMap, additionalSecretOutputs: secretOutputsRequested.get(key) ?? [] });
          return { id: this.state.get(key)?.id ?? (preview ? "" : `${args.name}-failed`), state };
        },
        call: (args) => args.inputs,
      },
      this.options.project,
      this.options.stack,
      preview,
    );
    // The SDK reads its config from its own store, loaded from PULUMI_CONFIG when it was first loaded.
    pulumi.runtime.setAllConfig(this.config, [...this.secretConfigKeys]);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const exported = (require(modulePath) as Record<string, unknown>)[this.options.program.exportName];
    if (typeof exported !== "function") throw new Error(`engine driver: ${this.options.program.module} exports no function ${this.options.program.exportName}`);
    const value: unknown = await (exported as () => unknown)();
    // Internal to the SDK (runtime/settings), as in engine/capture-child.cjs: every registration answered.
    await (pulumi.runtime as unknown as { waitForRPCs(): Promise<void> }).waitForRPCs();
    return { pulumi, value };
  }
}

/** Writes each line the provider host prints (its progress and rule-tree diffs) as it arrives, indented under the steps. */
export function echoHostOutput(host: ProviderHost, write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): void {
  host.onDiagnostic = (diagnostic: Diagnostic) => {
    if (diagnostic.severity === "debug") return;
    const prefix = diagnostic.severity === "warning" ? "warning: " : diagnostic.severity === "error" ? "error: " : "";
    for (const line of diagnostic.message.split("\n")) write(`    ${prefix}${line}`);
  };
}
