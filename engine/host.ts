/**
 * Steps 2 and 3 of driving the provider path without the CLI (docs/dynamic-providers.md "Testing without the CLI"): start
 * the SDK's real dynamic-provider host as the engine does and call it over gRPC with the SDK's own
 * stubs, with typed requests and answers.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as providerProto from "@pulumi/pulumi/proto/provider_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import type { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { startFakeEngine, type FakeEngine, type Severity } from "./fake-engine";
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

/** A line the engine would show: a `Log` call, or a line of the host's stdout (info) or stderr (error). */
export interface Diagnostic {
  source: "engine" | "stdout" | "stderr";
  severity: Severity;
  message: string;
  /** The resource a `Log` call named; "" for output lines (the engine shows them without URN). */
  urn: string;
}

/** Per-call options. */
export interface CallOptions {
  /** The resource's URN in the request (the host does not use it). */
  urn?: string;
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

/** What `diff` answered. `changes`: some, none or unknown (docs/dynamic-providers.md rule 5). */
export interface DiffResult {
  changes: "some" | "none" | "unknown";
  replaces: string[];
  stables: string[];
  deleteBeforeReplace: boolean;
  diffs: string[];
  hasDetailedDiff: boolean;
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

const liveHosts = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of liveHosts) child.kill("SIGKILL");
});

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

/** A running dynamic-provider host and a client to it. Close it: {@link ProviderHost.close}. */
export class ProviderHost {
  /** What the engine would show, in arrival order (see {@link Diagnostic}). */
  readonly diagnostics: Diagnostic[] = [];
  /** The host's stdout lines after the port line. */
  readonly stdout: string[] = [];
  /** The host's stderr lines. */
  readonly stderr: string[] = [];
  /** The gRPC port of the host (its first stdout line). */
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
      this.record({ source: "stdout", severity: "info", message: line, urn: "" });
    });
    onLines(child.stderr!, (line) => {
      this.stderr.push(line);
      this.record({ source: "stderr", severity: "error", message: line, urn: "" });
    });
    engine.onLog = (entry) => this.record({ source: "engine", severity: entry.severity, message: entry.message, urn: entry.urn });
  }

  /** Starts the host (see {@link startProviderHost}). */
  static async start(options: ProviderHostOptions): Promise<ProviderHost> {
    const entry = path.join(options.projectDir, "node_modules", "@pulumi", "pulumi", "cmd", "dynamic-provider");
    if (!existsSync(entry)) {
      throw new Error(`engine driver: ${entry} is missing; the project directory must resolve @pulumi/pulumi`);
    }
    const engine = await startFakeEngine();
    const env: NodeJS.ProcessEnv = { ...process.env, PULUMI_NODEJS_PROJECT: options.project ?? "insights-test-project" };
    delete env.NODE_OPTIONS; // no loader of the test runner in the host
    if (options.logToEngine) env.PULUMI_NODEJS_ENGINE = engine.address;
    Object.assign(env, options.env);
    // As the engine runs it: `node <project>/node_modules/@pulumi/pulumi/cmd/dynamic-provider <engine>`.
    const child = spawn(process.execPath, [entry, engine.address], {
      cwd: options.projectDir,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    liveHosts.add(child);
    child.once("exit", () => liveHosts.delete(child));
    const host = new ProviderHost(engine, child);
    try {
      host.port = await host.readPort(options.startTimeoutMs ?? 20_000);
    } catch (error) {
      await host.close();
      throw error;
    }
    host.client = new ResourceProviderClient(`127.0.0.1:${host.port}`, grpc.credentials.createInsecure(), {
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
        this.exited.then(() => Promise.reject(failure(`the host exited (${this.child.exitCode}) before printing its port`))),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(failure(`no port from the host within ${timeoutMs} ms`)), timeoutMs))),
      ]);
      const port = Number(line.trim());
      if (!Number.isInteger(port) || port <= 0) throw failure(`the host's first line is not a port: ${line}`);
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

  /** The host's process id (to check that it is gone after {@link close}). */
  get pid(): number {
    return this.child.pid!;
  }

  /**
   * Waits until a diagnostic matches (a substring of its message, or a predicate) and returns it.
   * Output lines travel on pipes and can arrive after the gRPC answer, hence the wait.
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
   * Configure, as the engine does once before other calls: `config` is the stack configuration by
   * full key (`insights:clientSecret`), secrets as `secret(...)` markers. The host hands it to the
   * provider's `configure` (secrets revealed) when it first loads a provider text.
   */
  configure(config: PropertyMap): Promise<ConfigureResult> {
    const request = new providerProto.ConfigureRequest();
    request.setArgs(toStruct(config));
    const variables = request.getVariablesMap();
    for (const [key, value] of Object.entries(revealSecrets(config))) {
      variables.set(key, typeof value === "string" ? value : JSON.stringify(value));
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

  /** Check(olds, news): the inputs to use (with `__provider`) and the failures. */
  async check(olds: PropertyMap, news: PropertyMap, options: CallOptions = {}): Promise<{ inputs: PropertyMap; failures: CheckFailure[] }> {
    const request = new providerProto.CheckRequest();
    request.setUrn(options.urn ?? DEFAULT_URN);
    request.setOlds(await this.outgoing(olds, options));
    request.setNews(await this.outgoing(news, options));
    const response = await this.call<providerProto.CheckResponse>("check", (client, callback) => client.check(request, callback));
    const failures = response.getFailuresList().map((failure) => ({ property: failure.getProperty(), reason: failure.getReason() }));
    return { inputs: fromStruct(response.getInputs()), failures };
  }

  /** Diff(id, old outputs, new inputs). */
  async diff(id: string, olds: PropertyMap, news: PropertyMap, options: CallOptions & { oldInputs?: PropertyMap } = {}): Promise<DiffResult> {
    const request = await this.changeRequest(new providerProto.DiffRequest(), id, olds, news, options);
    const response = await this.call<providerProto.DiffResponse>("diff", (client, callback) => client.diff(request, callback));
    return {
      changes: DIFF_CHANGES[response.getChanges()],
      replaces: response.getReplacesList(),
      stables: response.getStablesList(),
      deleteBeforeReplace: response.getDeletebeforereplace(),
      diffs: response.getDiffsList(),
      hasDetailedDiff: response.getHasdetaileddiff(),
    };
  }

  /** Create(inputs): the new id and the outputs (with `__provider`). */
  async create(inputs: PropertyMap, options: CallOptions = {}): Promise<{ id: string; outputs: PropertyMap }> {
    const request = new providerProto.CreateRequest();
    request.setUrn(options.urn ?? DEFAULT_URN);
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
    request.setUrn(options.urn ?? DEFAULT_URN);
    request.setProperties(await this.outgoing(outputs, options));
    if (options.inputs) request.setInputs(await this.outgoing(options.inputs, options));
    const response = await this.call<providerProto.ReadResponse>("read", (client, callback) => client.read(request, callback));
    const answer = { id: response.getId() || undefined, outputs: fromStruct(response.getProperties()) };
    return response.hasInputs() ? { ...answer, inputs: fromStruct(response.getInputs()) } : answer;
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
    request.setUrn(options.urn ?? DEFAULT_URN);
    request.setProperties(await this.outgoing(outputs, options));
    await this.call<Empty>("delete", (client, callback) => client.delete(request, callback));
  }

  /**
   * Stops the host and the fake engine and waits for the process to exit (SIGTERM, then SIGKILL
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

  /** Fills the fields Diff and Update requests share: id, URN, old outputs, new inputs, old inputs. */
  private async changeRequest<Request extends providerProto.DiffRequest | providerProto.UpdateRequest>(
    request: Request,
    id: string,
    olds: PropertyMap,
    news: PropertyMap,
    options: CallOptions & { oldInputs?: PropertyMap },
  ): Promise<Request> {
    request.setId(id);
    request.setUrn(options.urn ?? DEFAULT_URN);
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

/** Starts the SDK's dynamic-provider host in `options.projectDir`, with a fake engine. */
export function startProviderHost(options: ProviderHostOptions): Promise<ProviderHost> {
  return ProviderHost.start(options);
}
