import type { EmulatorOptions, JournalEntry } from "../../emulator";
import {
  captureDynamicResource, createTestProject, secret, startProviderHost,
  type PropertyMap, type ProviderHost, type TestProject,
} from "../../engine";
import { DEV, startTestEmulator, type TestEmulator } from "../support/emulator";

/**
 * A provider-host test setup: the emulator, a project whose node_modules resolve pulumi-insights,
 * the SDK's dynamic-provider host configured for the emulator, and the `__provider` text of one
 * resource class of the tsc build (docs/dynamic-providers.md "Testing without the CLI").
 */
export interface ProviderFixture {
  emulator: TestEmulator;
  host: ProviderHost;
  /** The `__provider` text the engine would send for the resource class. */
  providerText: string;
  /** The inputs the engine would send for the resource with `args`. */
  inputs(args: Record<string, unknown>): PropertyMap;
  /** The saved filters the emulator holds. */
  listed(): Promise<Array<Record<string, any>>>;
  /** The API requests the emulator answered since `mark()`. */
  requestsSince(mark: number): JournalEntry[];
  /** A journal position for {@link requestsSince}. */
  mark(): number;
  close(): Promise<void>;
}

/** What to start: the resource class to capture, and the project directory and environment of the host (batch tuning). */
export interface FixtureOptions {
  module: string;
  exportName: string;
  args: unknown[];
  hostEnv?: Record<string, string>;
  /**
   * The host's project directory, for example the repository itself (REPOSITORY_ROOT). By default a
   * fresh test project whose node_modules resolve pulumi-insights, removed on close.
   */
  projectDir?: string;
  /** Options of the test emulator (its clock, faults, PII timing). */
  emulatorOptions?: EmulatorOptions;
}

/**
 * A quiet window wide enough that a burst of gRPC calls on a busy 2-core machine always lands in one
 * batch, so request counts are deterministic (provider/saved-filters/gateway/coalescer.ts; timing itself is for benchmarks).
 */
export const STEADY_BATCHING = { INSIGHTS_BATCH_WINDOW_MS: "200", INSIGHTS_BATCH_MAX_WAIT_MS: "5000" };

/**
 * How long the host watches the account after an unknown outcome before it fails (the setting
 * `INSIGHTS_UNKNOWN_OUTCOME_WAIT_MS`, provider/client/core/outcome.ts): short, so a test of a write that
 * never landed ends soon, and long enough that a write which did land is always seen first.
 */
export const QUICK_UNKNOWN_OUTCOME = { INSIGHTS_UNKNOWN_OUTCOME_WAIT_MS: "1000" };

/**
 * Previews sample sessions for their match-rate line (provider/match-estimate/preview.ts):
 * off unless a test is about it, so that request counts stay those of the resource itself.
 */
export const NO_MATCH_ESTIMATE = { INSIGHTS_MATCH_ESTIMATE: "false" };

/**
 * The `__provider` text of each resource class, captured once per worker: it is the same for every
 * resource of a class whatever its arguments (one provider object per class, which captures only
 * plain data: provider/host/shim.ts), and a capture is a node process of some seconds of CPU.
 */
const providerTexts = new Map<string, Promise<string>>();

/** The `__provider` text of `options`' resource class, from the worker's first capture of that class. */
function providerTextOf(options: FixtureOptions): Promise<string> {
  const key = `${options.module}#${options.exportName}`;
  let text = providerTexts.get(key);
  if (text === undefined) {
    text = captureDynamicResource({ module: options.module, exportName: options.exportName, args: options.args }).then((captured) => captured.provider);
    providerTexts.set(key, text);
    // A failed capture is not kept: the next fixture of the class captures again and fails alike.
    text.catch(() => providerTexts.delete(key));
  }
  return text;
}

/** Starts a {@link ProviderFixture}. */
export async function startProviderFixture(options: FixtureOptions): Promise<ProviderFixture> {
  const emulator = await startTestEmulator(options.emulatorOptions);
  // A given directory is the user's: it is used as it is and left in place.
  const project: TestProject = options.projectDir === undefined ? createTestProject() : { dir: options.projectDir, remove: () => {} };
  const [providerText, host] = await Promise.all([
    providerTextOf(options),
    startProviderHost({ projectDir: project.dir, env: { ...STEADY_BATCHING, ...QUICK_UNKNOWN_OUTCOME, ...NO_MATCH_ESTIMATE, ...options.hostEnv } }),
  ]);
  await host.configure({
    "insights:baseUrl": emulator.url,
    "insights:clientId": DEV.clientId,
    "insights:clientSecret": secret(DEV.clientSecret),
  });
  return {
    emulator,
    host,
    providerText,
    inputs: (args) => ({ ...args, __provider: providerText }),
    // Ids as strings: their JSON type is the dialect's (emulator/README.md "Dialects").
    listed: async () => ((await emulator.get("/bulk_filters/")).body.filters as Array<Record<string, any>>).map((filter) => ({ ...filter, id: String(filter.id) })),
    requestsSince: (mark) => emulator.state.journal.list(mark),
    mark: () => emulator.state.journal.lastSeq(),
    close: async () => {
      await host.close();
      project.remove();
      await emulator.close();
    },
  };
}

/** `METHOD status` of each bulk call (lookups of `check` left out), for compact assertions on what was sent. */
export function summarize(requests: readonly JournalEntry[]): string[] {
  return requests
    .filter((request) => request.path.replace(/\/$/, "") === "/bulk_filters")
    .map((request) => `${request.method} ${request.status}`);
}
