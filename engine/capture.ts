/**
 * Step 1 of driving the provider path without the CLI (docs/dynamic-providers.md
 * "Testing without the CLI"): register resources from tsc-built code under `pulumi.runtime.setMocks` in a
 * child node process and capture what the engine would receive, `__provider` included.
 */
import { spawn } from "node:child_process";
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
  /** Extra environment for the child process. */
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

function collect(stream: Readable): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => (text += chunk));
    stream.on("end", () => resolve(text));
    stream.on("error", reject);
  });
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
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  delete env.NODE_OPTIONS; // no loader of the test runner: the child must run the code as node does
  const child = spawn(process.execPath, [CHILD_SCRIPT, JSON.stringify(request)], {
    cwd: REPOSITORY_ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe", "pipe"],
  });
  const [stdout, stderr, result, exitCode] = await Promise.all([
    collect(child.stdout!),
    collect(child.stderr!),
    collect(child.stdio[3] as Readable),
    new Promise<number | null>((resolve) => child.on("close", resolve)),
  ]);
  const output = [stdout.trim(), stderr.trim()].filter(Boolean).join("\n");
  let parsed: { registrations?: Registration[]; error?: string };
  try {
    parsed = JSON.parse(result) as typeof parsed;
  } catch {
    throw new Error(`engine driver: the capture process exited with ${exitCode} and no result\n${output}`);
  }
  if (parsed.error !== undefined || parsed.registrations === undefined) {
    throw new Error(`engine driver: constructing ${options.exportName} failed: ${parsed.error}\n${output}`);
  }
  return parsed.registrations;
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
