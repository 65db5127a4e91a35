/**
 * Steps 2 and 3 of driving the provider path without the CLI (docs/dynamic-providers.md "Testing
 * without the CLI", docs/provider-plugins.md "Testing without the CLI"): start a provider process as
 * the engine does (the SDK's real dynamic-provider host, or a provider plugin: ./plugin.ts) and call
 * it over gRPC with the SDK's own stubs, with typed requests and answers. Both serve the same
 * ResourceProvider service; they differ in how they are started and in what the engine makes of
 * their output lines.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import type { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import { ResourceProviderClient, ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as providerProto from "@pulumi/pulumi/proto/provider_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { startFakeEngine, type FakeEngine, type Severity } from "./fake-engine";
import { readWithStructs } from "../provider/plugin/struct-wire";
import { fromStruct, revealSecrets, toStruct, type PropertyMap } from "./struct";

/** Options of {@link startProviderHost}. */
export interface ProviderHostOptions {
  /** The Pulumi project directory: the host's cwd, whose node_modules resolve `__provider`'s requires. */
  projectDir: string;
  /** PULUMI_NODEJS_PROJECT, the project name `Config.get` prefixes keys with. */
  project?: string;
  /**
   * Also point the SDK's `pulumi.log` at the fake engine (PULUMI_NODEJS_ENGINE). Off by default:
   * the engine does not set it, so `pulumi.log` in the host writes to stdout (docs/dynamic-providers.md rule 10).
   */
  logToEngine?: boolean;
  /** Extra environment for the host (the engine lets the host inherit its environment). */
  env?: Record<string, string | undefined>;
  /** How long to wait for the host's port line. Default 20 s. */
  startTimeoutMs?: number;
}

/**
 * How a provider process is started: the command line the engine would run (the engine's address is
 * appended as the last argument), where, with which environment, and the severity the engine gives
 * its output lines: the dynamic-provider host's stdout is shown as info and its stderr as error
 * (docs/dynamic-providers.md rule 10), a plugin's output only at debug level (docs/provider-plugins.md rule 2).
 */
export interface ProviderLaunch {
  /** The executable (`process.execPath` for a Node script). */
  command: string;
  /** Its arguments before the engine's address. */
  args: string[];
  /** The working directory. */
  cwd: string;
  /** The whole environment of the process. */
  env: NodeJS.ProcessEnv;
  /** The severity of each output line. */
  output: { stdout: Severity; stderr: Severity };
  /** How long to wait for the port line. */
  startTimeoutMs: number;
}

/**
 * A line the engine would show: a `Log` call (with its severity and URN), or a line of the process's
 * stdout or stderr, at the severity its {@link ProviderLaunch} gives it.
 */
export interface Diagnostic {
  source: "engine" | "stdout" | "stderr";
  severity: Severity;
  message: string;
  /** The resource a `Log` call named; "" for output lines (the engine shows them without URN). */
  urn: string;
}

/** Per-call options. */
export interface CallOptions {
  /**
   * The resource's URN in the request; its type and name are sent beside it, as the engine does (a
   * plugin dispatches by type, docs/provider-plugins.md "The life of a plugin"; the dynamic host
   * uses neither).
   */
  urn?: string;
  /**
   * Send the URN alone, without its type and name beside it, as engines before Pulumi 3.131 do
   * (docs/provider-plugins.md "What this plugin answers where the protocol leaves a choice").
   */
  urnOnly?: boolean;
  /**
   * Send secret markers as they are. By default they are revealed when the host did not accept
   * secrets in `configure`, as the engine does (the dynamic-provider host never accepts them).
   */
  keepSecrets?: boolean;
}

/** A check failure, as the engine prints it: `property: reason`. */
export interface CheckFailure {
  property: string;
  reason: string;
}

/** A kind of change of a detailed diff (docs/provider-plugins.md rule 8). */
export type PropertyDiffKind = "add" | "add-replace" | "delete" | "delete-replace" | "update" | "update-replace";

/** What `diff` answered. `changes`: some, none or unknown (docs/dynamic-providers.md rule 5, docs/provider-plugins.md rule 8). */
export interface DiffResult {
  changes: "some" | "none" | "unknown";
  replaces: string[];
  stables: string[];
  deleteBeforeReplace: boolean;
  diffs: string[];
  hasDetailedDiff: boolean;
  /** The detailed diff by property path (empty unless `hasDetailedDiff`). */
  detailedDiff: Record<string, { kind: PropertyDiffKind; inputDiff: boolean }>;
}

/** What `configure` answered. */
export interface ConfigureResult {
  acceptSecrets: boolean;
  supportsPreview: boolean;
  acceptResources: boolean;
  acceptOutputs: boolean;
}

/** The details of a partial failure: the object exists with this id and these properties. */
export interface PartialFailure {
  id: string;
  properties: PropertyMap;
  reasons: string[];
}

/**
 * A failed call. `message` is the gRPC message as the engine shows it (a thrown Error's message);
 * `partial` is set when the error carried `id`, `properties` and `reasons` (ErrorResourceInitFailed):
 * the engine then keeps the resource in state with that id and properties.
 */
export class ProviderCallError extends Error {
  constructor(
    readonly method: string,
    readonly code: grpc.status,
    message: string,
    readonly partial?: PartialFailure,
  ) {
    super(message);
    this.name = "ProviderCallError";
  }
}

const DEFAULT_URN = "urn:pulumi:test::insights-test-project::pulumi-nodejs:dynamic:Resource::resource";
/** The URN of the stack's default provider of the `insights` package, which CheckConfig and DiffConfig are about. */
const DEFAULT_PROVIDER_URN = "urn:pulumi:test::insights-test-project::pulumi:providers:insights::default";

/**
 * The type token and name of a resource's URN (`urn:pulumi:<stack>::<project>::<type>::<name>`, the
 * type qualified by its parents' types with `$`), which the engine sends beside the URN.
 */
export function urnParts(urn: string): { type: string; name: string } {
  const parts = urn.split("::");
  if (parts.length < 4) throw new Error(`engine driver: not a resource URN: ${urn}`);
  return { type: parts[2]!.split("$").pop()!, name: parts.slice(3).join("::") };
}
/** The SDK's own limit (runtime/settings maxRPCMessageSize): `__provider` texts can be large. */
const MAX_MESSAGE_BYTES = 1024 * 1024 * 400;
/**
 * The engine's (grpc-go's) default limit of the headers and trailers it receives, 16 MiB: a partial
 * failure travels in the `grpc-status-details-bin` trailer with the outputs of the resource (a
 * SavedFilterSet of 150 members is tens of kilobytes), which grpc-js's default of 8 KiB would drop.
 */
const MAX_METADATA_BYTES = 16 * 1024 * 1024;

const { DiffChanges } = providerProto.DiffResponse;
const DIFF_CHANGES: Record<providerProto.DiffResponse.DiffChanges, DiffResult["changes"]> = {
  [DiffChanges.DIFF_SOME]: "some",
  [DiffChanges.DIFF_NONE]: "none",
  [DiffChanges.DIFF_UNKNOWN]: "unknown",
};

const { Kind } = providerProto.PropertyDiff;
const PROPERTY_DIFF_KINDS: Record<providerProto.PropertyDiff.Kind, PropertyDiffKind> = {
  [Kind.ADD]: "add",
  [Kind.ADD_REPLACE]: "add-replace",
  [Kind.DELETE]: "delete",
  [Kind.DELETE_REPLACE]: "delete-replace",
  [Kind.UPDATE]: "update",
  [Kind.UPDATE_REPLACE]: "update-replace",
};

const liveHosts = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of liveHosts) child.kill("SIGKILL");
});

/**
 * The Struct fields (getter to field number) of the answers that carry property bags, read by the
 * plugin's own decoder (provider/plugin/struct-wire.ts `readWithStructs`, as its server reads requests):
 * google-protobuf builds a message per value of a Struct, seconds for a SavedFilterSet of thousands
 * of members, during which this process (and an emulator in it) would serve nothing.
 */
const ANSWER_STRUCTS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  check: { getInputs: 1 },
  checkConfig: { getInputs: 1 },
  invoke: { getReturn: 1 },
  create: { getProperties: 2 },
  read: { getProperties: 2, getInputs: 3 },
  update: { getProperties: 1 },
};

/** The SDK's client of the ResourceProvider service, the Structs of its answers read as {@link ANSWER_STRUCTS} says. */
const DriverClient = grpc.makeGenericClientConstructor(
  Object.fromEntries(Object.entries(ResourceProviderService).map(([name, method]) => {
    const structs = ANSWER_STRUCTS[name];
    return [name, structs === undefined ? method : { ...method, responseDeserialize: (bytes: Buffer) => readWithStructs(bytes, method.responseDeserialize, structs) }];
  })) as grpc.ServiceDefinition,
  "ResourceProvider",
) as unknown as typeof ResourceProviderClient;

/** The partial-failure details in a gRPC error's status details, if any. */
function partialFailureOf(error: grpc.ServiceError): PartialFailure | undefined {
  const [details] = error.metadata?.get("grpc-status-details-bin") ?? [];
  if (!(details instanceof Buffer)) return undefined;
  for (const any of Status.deserializeBinary(details).getDetailsList()) {
    if (any.getTypeName() !== "pulumirpc.ErrorResourceInitFailed") continue;
    const failure = providerProto.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
    return { id: failure.getId(), properties: fromStruct(failure.getProperties()), reasons: failure.getReasonsList() };
  }
  return undefined;
}

/** Splits a stream into lines, calling `onLine` for each complete one. */
function onLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let pending = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    pending += chunk;
    const lines = pending.split(/\r?\n/);
    pending = lines.pop()!;
    lines.forEach(onLine);
  });
  stream.on("end", () => {
    if (pending) onLine(pending);
  });
}

/**
 * A running provider process (the dynamic-provider host or a plugin) and a client to it, as the
 * engine holds them. Close it: {@link ProviderHost.close}.
 */
export class ProviderHost {
  /** What the engine would show, in arrival order (see {@link Diagnostic}). */
  readonly diagnostics: Diagnostic[] = [];
  /** The process's stdout lines after the port line. */
  readonly stdout: string[] = [];
  /** The process's stderr lines. */
  readonly stderr: string[] = [];
  /** The gRPC port of the process (its first stdout line). */
  port = 0;
  /** Called with each diagnostic as it arrives (to print it live, as the engine does). */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  private client: ResourceProviderClient | undefined;
  private configured: Promise<ConfigureResult> | undefined;
  private readonly exited: Promise<void>;
  private readonly waiters = new Set<() => void>();
  private readonly portLine: Promise<string>;

  private constructor(
    readonly engine: FakeEngine,
    private readonly child: ChildProcess,
    output: ProviderLaunch["output"],
  ) {
    // "close" rather than "exit": by then every line of output has been read.
    this.exited = new Promise((resolve) => child.once("close", () => resolve()));
    let firstLine: ((line: string) => void) | undefined;
    this.portLine = new Promise((resolve) => (firstLine = resolve));
    // One reader from the start, so that no output is lost between the port line and the rest.
    onLines(child.stdout!, (line) => {
      if (firstLine) {
        firstLine(line);
        firstLine = undefined;
        return;
      }
      this.stdout.push(line);
      this.record({ source: "stdout", severity: output.stdout, message: line, urn: "" });
    });
    onLines(child.stderr!, (line) => {
      this.stderr.push(line);
      this.record({ source: "stderr", severity: output.stderr, message: line, urn: "" });
    });
    engine.onLog = (entry) => this.record({ source: "engine", severity: entry.severity, message: entry.message, urn: entry.urn });
  }

  /** Starts the dynamic-provider host (see {@link startProviderHost}). */
  static async start(options: ProviderHostOptions): Promise<ProviderHost> {
    const entry = path.join(options.projectDir, "node_modules", "@pulumi", "pulumi", "cmd", "dynamic-provider");
    if (!existsSync(entry)) {
      throw new Error(`engine driver: ${entry} is missing; the project directory must resolve @pulumi/pulumi`);
    }
    const env: NodeJS.ProcessEnv = { ...process.env, PULUMI_NODEJS_PROJECT: options.project ?? "insights-test-project" };
    delete env.NODE_OPTIONS; // no loader of the test runner in the host
    return ProviderHost.launch(
      {
        // As the engine runs it: `node <project>/node_modules/@pulumi/pulumi/cmd/dynamic-provider <engine>`.
        command: process.execPath,
        args: [entry],
        cwd: options.projectDir,
        env: { ...env, ...options.env },
        output: { stdout: "info", stderr: "error" },
        startTimeoutMs: options.startTimeoutMs ?? 20_000,
      },
      // The engine does not set PULUMI_NODEJS_ENGINE (docs/dynamic-providers.md rule 10).
      (engine) => (options.logToEngine ? { PULUMI_NODEJS_ENGINE: engine.address } : {}),
    );
  }

  /**
   * Starts a provider process as {@link ProviderLaunch} says, with a fake engine whose address is its
   * last argument, and connects to the port it prints (docs/provider-plugins.md rule 1).
   * `engineEnv` adds environment that names the engine.
   */
  static async launch(launch: ProviderLaunch, engineEnv: (engine: FakeEngine) => NodeJS.ProcessEnv = () => ({})): Promise<ProviderHost> {
    const engine = await startFakeEngine();
    const child = spawn(launch.command, [...launch.args, engine.address], {
      cwd: launch.cwd,
      env: { ...launch.env, ...engineEnv(engine) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    liveHosts.add(child);
    child.once("exit", () => liveHosts.delete(child));
    const host = new ProviderHost(engine, child, launch.output);
    try {
      host.port = await host.readPort(launch.startTimeoutMs);
    } catch (error) {
      await host.close();
      throw error;
    }
    host.client = new DriverClient(`127.0.0.1:${host.port}`, grpc.credentials.createInsecure(), {
      "grpc.max_receive_message_length": MAX_MESSAGE_BYTES,
      "grpc.max_send_message_length": MAX_MESSAGE_BYTES,
      "grpc.max_metadata_size": MAX_METADATA_BYTES,
    });
    return host;
  }

  /** The port from the first stdout line; fails with the host's stderr if it exits or times out first. */
  private async readPort(timeoutMs: number): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const failure = (reason: string) => new Error(`engine driver: ${reason}\n${this.stderr.join("\n")}`);
    try {
      const line = await Promise.race([
        this.portLine,
        this.exited.then(() => Promise.reject(failure(`the provider process exited (${this.child.exitCode}) before printing its port`))),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(failure(`no port from the provider process within ${timeoutMs} ms`)), timeoutMs))),
      ]);
      const port = Number(line.trim());
      if (!Number.isInteger(port) || port <= 0) throw failure(`the provider process's first line is not a port: ${line}`);
      return port;
    } finally {
      clearTimeout(timer);
    }
  }

  private record(diagnostic: Diagnostic): void {
    this.diagnostics.push(diagnostic);
    this.onDiagnostic?.(diagnostic);
    for (const wake of this.waiters) wake();
  }

  /** The process id (to check that it is gone after {@link close}). */
  get pid(): number {
    return this.child.pid!;
  }

  /**
   * Waits until a diagnostic matches (a substring of its message, or a predicate) and returns it.
   * Output lines travel on pipes, and `Log` calls on their own connection: both can arrive after the
   * gRPC answer, hence the wait.
   */
  async waitForDiagnostic(match: string | ((diagnostic: Diagnostic) => boolean), timeoutMs = 5_000): Promise<Diagnostic> {
    const test = typeof match === "string" ? (diagnostic: Diagnostic) => diagnostic.message.includes(match) : match;
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.diagnostics.find(test);
        if (!found) return false;
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve(found);
        return true;
      };
      const wake = () => void check();
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        const seen = this.diagnostics.map((diagnostic) => `  ${diagnostic.source}: ${diagnostic.message}`).join("\n");
        reject(new Error(`engine driver: no diagnostic matched ${String(match)} within ${timeoutMs} ms; seen:\n${seen}`));
      }, timeoutMs);
      if (!check()) this.waiters.add(wake);
    });
  }

  /**
   * Configure, as the engine does once before other calls. For the dynamic-provider host `config`
   * is the stack configuration by full key (`insights:clientSecret`), secrets as `secret(...)`
   * markers; the host hands it to the provider's `configure` (secrets revealed) when it first loads
   * a provider text. With `package`, `config` is a plugin's provider inputs by bare name
   * (`clientSecret`), sent as `args` and as `variables` keyed `<package>:config:<name>`
   * (docs/provider-plugins.md rule 5).
   */
  configure(config: PropertyMap, options: { package?: string } = {}): Promise<ConfigureResult> {
    const request = new providerProto.ConfigureRequest();
    request.setArgs(toStruct(config));
    const variables = request.getVariablesMap();
    for (const [key, value] of Object.entries(revealSecrets(config))) {
      const variable = options.package === undefined ? key : `${options.package}:config:${key}`;
      variables.set(variable, typeof value === "string" ? value : JSON.stringify(value));
    }
    request.setAcceptsecrets(true);
    request.setAcceptresources(true);
    this.configured = this.call<providerProto.ConfigureResponse>("configure", (client, callback) => client.configure(request, callback))
      .then((response) => ({
        acceptSecrets: response.getAcceptsecrets(),
        supportsPreview: response.getSupportspreview(),
        acceptResources: response.getAcceptresources(),
        acceptOutputs: response.getAcceptoutputs(),
      }));
    return this.configured;
  }

  /** GetPluginInfo: the plugin's version (docs/provider-plugins.md rule 4). */
  async getPluginInfo(): Promise<{ version: string }> {
    const info = await this.call<PluginInfo>("getPluginInfo", (client, callback) => client.getPluginInfo(new Empty(), callback));
    return { version: info.getVersion() };
  }

  /** GetSchema: the package schema as JSON text (docs/provider-plugins.md rule 4). */
  async getSchema(version = 0): Promise<string> {
    const request = new providerProto.GetSchemaRequest();
    request.setVersion(version);
    const response = await this.call<providerProto.GetSchemaResponse>("getSchema", (client, callback) => client.getSchema(request, callback));
    return response.getSchema();
  }

  /**
   * CheckConfig(olds, news): the provider's inputs by bare name (docs/provider-plugins.md rule 5), sent
   * with their secrets; `urn` defaults to the stack's default provider of `insights`.
   */
  async checkConfig(olds: PropertyMap, news: PropertyMap, options: CallOptions = {}): Promise<{ inputs: PropertyMap; failures: CheckFailure[] }> {
    const request = new providerProto.CheckRequest();
    this.address(request, options.urn ?? DEFAULT_PROVIDER_URN);
    request.setOlds(toStruct(olds));
    request.setNews(toStruct(news));
    const response = await this.call<providerProto.CheckResponse>("checkConfig", (client, callback) => client.checkConfig(request, callback));
    return { inputs: fromStruct(response.getInputs()), failures: failuresOf(response.getFailuresList()) };
  }

  /** DiffConfig(old inputs, new inputs) of the provider's settings. */
  async diffConfig(olds: PropertyMap, news: PropertyMap, options: CallOptions = {}): Promise<DiffResult> {
    const request = new providerProto.DiffRequest();
    this.address(request, options.urn ?? DEFAULT_PROVIDER_URN);
    request.setOlds(toStruct(olds));
    request.setNews(toStruct(news));
    request.setOldInputs(toStruct(olds));
    return diffResultOf(await this.call<providerProto.DiffResponse>("diffConfig", (client, callback) => client.diffConfig(request, callback)));
  }

  /** Invoke(token, args): a function's result, or the failures of its arguments (docs/provider-plugins.md rule 11). */
  async invoke(token: string, args: PropertyMap, options: CallOptions = {}): Promise<{ outputs: PropertyMap; failures: CheckFailure[] }> {
    const request = new providerProto.InvokeRequest();
    request.setTok(token);
    request.setArgs(await this.outgoing(args, options));
    const response = await this.call<providerProto.InvokeResponse>("invoke", (client, callback) => client.invoke(request, callback));
    return { outputs: fromStruct(response.getReturn()), failures: failuresOf(response.getFailuresList()) };
  }

  /** Cancel, as the engine asks before it ends the process. */
  async cancel(): Promise<void> {
    await this.call<Empty>("cancel", (client, callback) => client.cancel(new Empty(), callback));
  }

  /** Check(olds, news): the inputs to use (with `__provider`) and the failures. */
  async check(olds: PropertyMap, news: PropertyMap, options: CallOptions = {}): Promise<{ inputs: PropertyMap; failures: CheckFailure[] }> {
    const request = new providerProto.CheckRequest();
    this.address(request, options.urn, options.urnOnly);
    request.setOlds(await this.outgoing(olds, options));
    request.setNews(await this.outgoing(news, options));
    const response = await this.call<providerProto.CheckResponse>("check", (client, callback) => client.check(request, callback));
    return { inputs: fromStruct(response.getInputs()), failures: failuresOf(response.getFailuresList()) };
  }

  /** Diff(id, old outputs, new inputs). */
  async diff(id: string, olds: PropertyMap, news: PropertyMap, options: CallOptions & { oldInputs?: PropertyMap } = {}): Promise<DiffResult> {
    const request = await this.changeRequest(new providerProto.DiffRequest(), id, olds, news, options);
    return diffResultOf(await this.call<providerProto.DiffResponse>("diff", (client, callback) => client.diff(request, callback)));
  }

  /** Create(inputs): the new id and the outputs (with `__provider`). */
  async create(inputs: PropertyMap, options: CallOptions = {}): Promise<{ id: string; outputs: PropertyMap }> {
    const request = new providerProto.CreateRequest();
    this.address(request, options.urn, options.urnOnly);
    request.setProperties(await this.outgoing(inputs, options));
    const response = await this.call<providerProto.CreateResponse>("create", (client, callback) => client.create(request, callback));
    return { id: response.getId(), outputs: fromStruct(response.getProperties()) };
  }

  /**
   * Read(id, old outputs), as on refresh. `id` undefined means the object is gone (docs/dynamic-providers.md rule 7);
   * `inputs` is set when the provider returned inputs to use for later diffs.
   */
  async read(id: string, outputs: PropertyMap, options: CallOptions & { inputs?: PropertyMap } = {}): Promise<{ id: string | undefined; outputs: PropertyMap; inputs?: PropertyMap }> {
    const request = new providerProto.ReadRequest();
    request.setId(id);
    this.address(request, options.urn, options.urnOnly);
    request.setProperties(await this.outgoing(outputs, options));
    if (options.inputs) request.setInputs(await this.outgoing(options.inputs, options));
    const response = await this.call<providerProto.ReadResponse>("read", (client, callback) => client.read(request, callback));
    const answer = { id: response.getId() || undefined, outputs: fromStruct(response.getProperties()) };
    // Absent inputs read as undefined (readWithStructs), as the SDK's message answers them.
    const inputs = response.getInputs();
    return inputs === undefined ? answer : { ...answer, inputs: fromStruct(inputs) };
  }

  /** Update(id, old outputs, new inputs): the new outputs, which replace the old ones entirely. */
  async update(id: string, olds: PropertyMap, news: PropertyMap, options: CallOptions & { oldInputs?: PropertyMap } = {}): Promise<{ outputs: PropertyMap }> {
    const request = await this.changeRequest(new providerProto.UpdateRequest(), id, olds, news, options);
    const response = await this.call<providerProto.UpdateResponse>("update", (client, callback) => client.update(request, callback));
    return { outputs: fromStruct(response.getProperties()) };
  }

  /** Delete(id, outputs). */
  async delete(id: string, outputs: PropertyMap, options: CallOptions = {}): Promise<void> {
    const request = new providerProto.DeleteRequest();
    request.setId(id);
    this.address(request, options.urn, options.urnOnly);
    request.setProperties(await this.outgoing(outputs, options));
    await this.call<Empty>("delete", (client, callback) => client.delete(request, callback));
  }

  /**
   * Stops the process and the fake engine and waits for the process to exit (SIGTERM, then SIGKILL
   * after 5 s). Safe to call twice.
   */
  async close(): Promise<void> {
    this.client?.close();
    this.engine.close();
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill("SIGTERM");
      const timer = setTimeout(() => this.child.kill("SIGKILL"), 5_000);
      await this.exited;
      clearTimeout(timer);
    }
  }

  /**
   * Properties as the engine sends them. The engine configures a provider before any other call,
   * so a call made first configures with an empty config.
   */
  private async outgoing(properties: PropertyMap, options: CallOptions) {
    const configured = await (this.configured ?? this.configure({}));
    return toStruct(options.keepSecrets || configured.acceptSecrets ? properties : revealSecrets(properties));
  }

  /** Sets a request's URN and, as the engine does beside it, the type and name it names. */
  private address(request: { setUrn(urn: string): unknown; setType(type: string): unknown; setName(name: string): unknown }, urn = DEFAULT_URN, urnOnly = false): void {
    const { type, name } = urnParts(urn);
    request.setUrn(urn);
    if (urnOnly) return;
    request.setType(type);
    request.setName(name);
  }

  /** Fills the fields Diff and Update requests share: id, URN, old outputs, new inputs, old inputs. */
  private async changeRequest<Request extends providerProto.DiffRequest | providerProto.UpdateRequest>(
    request: Request,
    id: string,
    olds: PropertyMap,
    news: PropertyMap,
    options: CallOptions & { oldInputs?: PropertyMap },
  ): Promise<Request> {
    request.setId(id);
    this.address(request, options.urn, options.urnOnly);
    request.setOlds(await this.outgoing(olds, options));
    request.setNews(await this.outgoing(news, options));
    if (options.oldInputs) request.setOldInputs(await this.outgoing(options.oldInputs, options));
    return request;
  }

  private call<Response>(
    method: string,
    send: (client: ResourceProviderClient, callback: (error: grpc.ServiceError | null, response: Response) => void) => void,
  ): Promise<Response> {
    return new Promise((resolve, reject) => {
      send(this.client!, (error, response) => {
        if (error) reject(new ProviderCallError(method, error.code, error.details, partialFailureOf(error)));
        else resolve(response);
      });
    });
  }
}

/** The failures of a Check, CheckConfig or Invoke answer. */
function failuresOf(failures: providerProto.CheckFailure[]): CheckFailure[] {
  return failures.map((failure) => ({ property: failure.getProperty(), reason: failure.getReason() }));
}

/** A Diff or DiffConfig answer. */
function diffResultOf(response: providerProto.DiffResponse): DiffResult {
  const detailedDiff: DiffResult["detailedDiff"] = {};
  response.getDetaileddiffMap().forEach((diff, path) => {
    detailedDiff[path] = { kind: PROPERTY_DIFF_KINDS[diff.getKind()], inputDiff: diff.getInputdiff() };
  });
  return {
    changes: DIFF_CHANGES[response.getChanges()],
    replaces: response.getReplacesList(),
    stables: response.getStablesList(),
    deleteBeforeReplace: response.getDeletebeforereplace(),
    diffs: response.getDiffsList(),
    hasDetailedDiff: response.getHasdetaileddiff(),
    detailedDiff,
  };
}

/** Starts the SDK's dynamic-provider host in `options.projectDir`, with a fake engine. */
export function startProviderHost(options: ProviderHostOptions): Promise<ProviderHost> {
  return ProviderHost.start(options);
}
