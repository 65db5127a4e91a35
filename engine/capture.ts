/**
 * Step 1 of driving the provider path without the CLI (docs/dynamic-providers.md
 * "Testing without the CLI"): register resources from tsc-built code under `pulumi.runtime.setMocks` in a
 * child node process and capture what the engine would receive, `__provider` included. A child
 * (engine/capture-child.cjs) serves the captures of one test file one after another, each from a
 * fresh Pulumi runtime with its own `env`, since loading @pulumi/pulumi and the package costs seconds of CPU;
 * `closeCaptureProcesses` ends the children (test/support/fresh-runtime.ts, after each test file).
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { Readable } from "node:stream";
import { builtModule, REPOSITORY_ROOT } from "./project";
import type { PropertyMap } from "./struct";

/** What to construct: `new <export>(...args)` (or a call) from a built module. */
export interface CaptureOptions {
  /** The module, relative to the repository root (e.g. `dist/provider/index.js`, the package entry a program imports). */
  module: string;
  /** The export to construct: a resource class, or with `construct: "call"` a function. */
  exportName: string;
  /** JSON arguments; `secret(...)` markers of ./struct become `pulumi.secret(...)`. */
  args: unknown[];
  /** `new` (default) or `call` (a function that registers resources, e.g. a small program). */
  construct?: "new" | "call";
  /** Pulumi project and stack names given to setMocks (they appear in URNs). */
  project?: string;
  stack?: string;
  /** Whether the mocked run is a preview. */
  preview?: boolean;
  /** Extra environment for the capture (a stack config, as test/examples.test.ts passes), set in the child while the capture runs. */
  env?: Record<string, string>;
}

/** A resource registration as the engine would receive it. */
export interface Registration {
  type: string;
  name: string;
  /** A URN as the engine would give a resource without parent. */
  urn: string;
  custom: boolean;
  /** The inputs, secrets as markers; a dynamic resource's include `__provider`. */
  inputs: PropertyMap;
  /** The `additionalSecretOutputs` resource option: outputs the engine keeps only as secrets. */
  additionalSecretOutputs: string[];
}

/** A captured dynamic resource: its serialized provider text and inputs. */
export interface CapturedDynamicResource extends Registration {
  /** The `__provider` text (a secret marker's value if the closure captured a secret). */
  provider: string;
}

// From the source folder, also when this module runs from its tsc build (which does not copy .cjs files).
const CHILD_SCRIPT = path.join(REPOSITORY_ROOT, "engine", "capture-child.cjs");

/** What the child answers a request (engine/capture-child.cjs). */
interface ChildResult {
  registrations?: Registration[];
  error?: string;
  /** The child is ending: an error escaped the request's program. */
  fatal?: boolean;
}

interface Answer {
  result: ChildResult;
  /** What the child printed while it served the request. */
  output: string;
}

type Handle = { ref?(): void; unref?(): void };

/** One child process of engine/capture-child.cjs, given one request at a time. */
class CaptureProcess {
  /** False once the child has exited or is ending: the next request needs another. */
  usable = true;
  readonly closed: Promise<void>;
  private readonly child: ChildProcess;
  private stdout = "";
  private stderr = "";
  private answers = "";
  private pending?: { resolve(answer: Answer): void; reject(error: Error): void };

  constructor(env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, [CHILD_SCRIPT], { cwd: REPOSITORY_ROOT, env, stdio: ["pipe", "pipe", "pipe", "pipe"] });
    this.child.stdin!.on("error", () => undefined); // a dead child: its "close" rejects the request
    this.child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (this.stdout += chunk));
    this.child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (this.stderr += chunk));
    (this.child.stdio[3] as Readable).setEncoding("utf8").on("data", (chunk: string) => this.receive(chunk));
    this.closed = new Promise((resolve) => {
      this.child.on("error", (error) => this.end(new Error(`engine driver: the capture process failed: ${error.message}`)));
      this.child.on("close", (exitCode) => {
        this.end(new Error(`engine driver: the capture process exited with ${exitCode} and no result\n${this.output()}`));
        resolve();
      });
    });
    this.hold(false);
  }

  /** Sends `request` and resolves with the child's answer and what it printed meanwhile. */
  run(request: object): Promise<Answer> {
    if (!this.usable) return Promise.reject(new Error("engine driver: the capture process has exited"));
    this.stdout = this.stderr = "";
    this.hold(true);
    return new Promise<Answer>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.child.stdin!.write(`${JSON.stringify(request)}\n`);
    }).finally(() => this.hold(false));
  }

  /** Ends the child once its request in flight (if any) is answered. */
  close(): Promise<void> {
    this.usable = false;
    this.child.stdin!.end();
    // The child exits once its last request is answered; one whose program never settles (its test timed out) is killed.
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 10_000).unref();
    return this.closed.finally(() => clearTimeout(timer));
  }

  private receive(chunk: string): void {
    this.answers += chunk;
    let newline: number;
    while ((newline = this.answers.indexOf("\n")) >= 0) {
      const line = this.answers.slice(0, newline);
      this.answers = this.answers.slice(newline + 1);
      const pending = this.pending;
      this.pending = undefined;
      let result: ChildResult;
      try {
        result = JSON.parse(line) as ChildResult;
      } catch {
        result = { error: `an answer that is not JSON: ${line}`, fatal: true };
      }
      if (result.fatal) void this.close();
      // Output the child wrote before answering may be read after the answer: one turn of the event loop later.
      setImmediate(() => pending?.resolve({ result, output: this.output() }));
    }
  }

  private end(error: Error): void {
    this.usable = false;
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(error);
  }

  private output(): string {
    return [this.stdout.trim(), this.stderr.trim()].filter(Boolean).join("\n");
  }

  /** An idle child must not keep the test worker (or any process of this module) alive. */
  private hold(busy: boolean): void {
    for (const handle of [this.child, ...this.child.stdio] as (Handle | null)[]) {
      if (busy) handle?.ref?.();
      else handle?.unref?.();
    }
  }
}

/**
 * The children by the environment they start with (the test file's, which a test may stub), each
 * with the queue of its requests: concurrent captures wait for the one child (CPU, not the wait, is
 * what the suite lacks), and a child that died is replaced by the next request.
 */
const processes = new Map<string, { child?: CaptureProcess; queue: Promise<unknown> }>();

function runInChild(env: NodeJS.ProcessEnv, request: object): Promise<Answer> {
  const key = JSON.stringify(Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  let slot = processes.get(key);
  if (!slot) processes.set(key, (slot = { queue: Promise.resolve() }));
  const current = slot;
  const answer = current.queue.then(() => {
    // Queued behind a request closeCaptureProcesses ended: no child is started that nobody would close.
    if (processes.get(key) !== current) throw new Error("engine driver: the capture processes were closed");
    if (!current.child?.usable) current.child = new CaptureProcess(env);
    return current.child.run(request);
  });
  current.queue = answer.catch(() => undefined);
  return answer;
}

/** Ends the capture processes (after each test file, test/support/fresh-runtime.ts), waiting for them to exit. */
export async function closeCaptureProcesses(): Promise<void> {
  const slots = [...processes.values()];
  processes.clear();
  // Not after their queues: close() lets the request in flight finish, or kills a child that hangs on it.
  await Promise.all(slots.map((slot) => slot.child?.close()));
}

/** Registers the resources of `options` under mocks in a plain node process and returns them. */
export async function captureRegistrations(options: CaptureOptions): Promise<Registration[]> {
  const request = {
    modulePath: builtModule(options.module),
    exportName: options.exportName,
    args: options.args,
    construct: options.construct ?? "new",
    project: options.project ?? "insights-test-project",
    stack: options.stack ?? "test",
    preview: options.preview ?? false,
  };
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_OPTIONS; // no loader of the test runner: the child must run the code as node does
  // `options.env` travels with the request: one child serves the captures of every stack config.
  const { result, output } = await runInChild(env, { ...request, env: options.env ?? {} });
  if (result.error !== undefined || result.registrations === undefined) {
    throw new Error(`engine driver: constructing ${options.exportName} failed: ${result.error}\n${output}`);
  }
  return result.registrations;
}

/**
 * Registers the resources of `options` and returns the one dynamic resource among them (or the one
 * named `name`), with its `__provider` text.
 */
export async function captureDynamicResource(options: CaptureOptions & { name?: string }): Promise<CapturedDynamicResource> {
  const registrations = await captureRegistrations(options);
  const dynamic = registrations.filter((registration) => "__provider" in registration.inputs
    && (options.name === undefined || registration.name === options.name));
  if (dynamic.length !== 1) {
    const names = registrations.map((registration) => `${registration.type} ${registration.name}`).join(", ");
    throw new Error(`engine driver: expected one dynamic resource${options.name ? ` named ${options.name}` : ""}, registered: ${names || "none"}`);
  }
  const registration = dynamic[0]!;
  const provider = registration.inputs.__provider;
  const text = typeof provider === "object" && provider !== null && "value" in provider ? provider.value : provider;
  if (typeof text !== "string") throw new Error("engine driver: __provider is not a string");
  return { ...registration, provider: text };
}
