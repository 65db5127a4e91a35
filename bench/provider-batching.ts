import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { DEV_ACCOUNT, startEmulator, type JournalEntry, type RunningEmulator } from "../emulator";
import { RATE_BUDGET_ENV } from "../provider/client/core/settings";
import { FILTERS_PER_CALL } from "../provider/schema";
import { BATCH_ENV } from "../provider/saved-filters/gateways";
import { DEFAULT_BATCH_OPTIONS } from "../provider/saved-filters/gateway/filter-gateway";
import { captureDynamicResource, createTestProject, startProviderHost, type PropertyMap, type ProviderHost } from "../engine";

/**
 * Benchmark of the provider's request batching, through the SDK's real dynamic-provider
 * host over gRPC (the engine driver, engine/, as the engine drives it) against an in-process emulator with
 * 50 ms of latency per request: N SavedFilter resources driven by 64 concurrent engine calls, and
 * one SavedFilterSet of N members; create, refresh, update one, update all, delete. Each runs
 * batched (the default) and, side by side in the same run, naive: one request per filter through
 * the same client (`INSIGHTS_BATCH_SIZE=1`), as providers without bulk calls do. Requests come from
 * the emulator's journal; the host's peak memory is its VmHWM (Linux /proc), next to that of the same
 * calls on a provider that does nothing (bench/noop-provider.ts): the SDK host's own share.
 */

const LATENCY_MS = 50;
/** The engine's parallelism in the benchmark (`pulumi up --parallel 64`). */
const ENGINE_CONCURRENCY = 64;

/** The sizes measured; the defaults are the issue's. */
export interface ProviderBenchOptions {
  resourceCounts: readonly number[];
  setSizes: readonly number[];
}

const DEFAULT_SIZES = { resourceCounts: [10, 100, 1000], setSizes: [10, 100, 1000, 5000] } satisfies ProviderBenchOptions;
const NOW = "2026-11-20T12:30:00.000Z";
const OPERATIONS = ["create", "refresh", "update one", "update all", "delete"] as const;
type Operation = (typeof OPERATIONS)[number];

/**
 * The client's pacing is off in every mode, as the emulator's budgets are: the naive mode sends some
 * 5000 requests for 1000 resources, more than the 3000 per 5 minutes of docs/api.md 10.1, and would
 * measure minutes of waiting for the budget instead of its requests (pacing has its own section,
 * bench/rate-pacing.ts).
 */
const UNPACED = { [RATE_BUDGET_ENV]: "off" } as const;

/** The host's environment in each mode; "no-op" runs the same calls on bench/noop-provider.ts. */
const MODES = {
  batched: UNPACED,
  naive: { ...UNPACED, [BATCH_ENV.size]: "1" },
  "no-op": UNPACED,
} as const satisfies Record<string, Record<string, string>>;
type Mode = keyof typeof MODES;

/** What one operation cost. */
interface Measurement {
  requests: JournalEntry[];
  wallMs: number;
}

/** One subject at one size in one mode: every operation and the host's peak memory. */
interface Run {
  operations: Record<Operation, Measurement>;
  peakMemoryBytes: number | undefined;
}

type Subject = "resources" | "set";

/**
 * A member or resource: one filter per episode, as generated filters are. Each revision
 * renames it, so "update one" changes one filter and "update all" (the next revision) every one.
 */
function episodeSpec(index: number, revision = 0): Record<string, unknown> {
  return {
    name: revision === 0 ? `Episode ${index}` : `Episode ${index} (revision ${revision})`,
    rules: { op: "and", rules: [{ field: "Asset Name", op: "contains", value: `Episode ${index}` }] },
    category: "CONTENT",
    subcategory: "Show",
  };
}

/** Runs `work` on every item with at most `concurrency` in flight, as the engine's step executor does. */
export async function inParallel<Item, Result>(items: readonly Item[], concurrency: number, work: (item: Item) => Promise<Result>): Promise<Result[]> {
  const results = new Array<Result>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/** The host's peak resident memory (VmHWM), or undefined where /proc is not available. */
function peakMemory(pid: number): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

async function measure(emulator: RunningEmulator, body: () => Promise<unknown>): Promise<Measurement> {
  const mark = emulator.state.journal.lastSeq();
  const started = performance.now();
  await body();
  const wallMs = performance.now() - started;
  return { requests: emulator.state.journal.list(mark), wallMs };
}

/**
 * N SavedFilter resources: `check` and `diff` run one at a time as the engine runs them (untimed and
 * uncounted; they send no request but the host's one check of the account's connection,
 * provider/connection-check/probe.ts); create, read, update and delete run 64 at a time (timed).
 */
async function resourceOperations(host: ProviderHost, emulator: RunningEmulator, provider: string, count: number): Promise<Record<Operation, Measurement>> {
  const inputsOf = (index: number, revision: number): PropertyMap => ({ ...episodeSpec(index, revision), __provider: provider });
  const checkAll = async (revisionOf: (index: number) => number) => {
    const checked: PropertyMap[] = [];
    for (let index = 0; index < count; index++) checked.push((await host.check({}, inputsOf(index, revisionOf(index)))).inputs);
    return checked;
  };
  const indexes = Array.from({ length: count }, (_, index) => index);
  const created = await checkAll(() => 0);
  let states: Array<{ id: string; outputs: PropertyMap }> = [];
  const create = await measure(emulator, async () => {
    states = await inParallel(indexes, ENGINE_CONCURRENCY, (index) => host.create(created[index]!));
  });
  const refresh = await measure(emulator, () => inParallel(states, ENGINE_CONCURRENCY, (state) => host.read(state.id, state.outputs)));
  // Update one: every resource is checked and diffed, one changes.
  const changedOne = await checkAll((index) => (index === 0 ? 1 : 0));
  const toUpdateOne: number[] = [];
  for (const index of indexes) if ((await host.diff(states[index]!.id, states[index]!.outputs, changedOne[index]!)).changes === "some") toUpdateOne.push(index);
  const updateOne = await measure(emulator, () =>
    inParallel(toUpdateOne, ENGINE_CONCURRENCY, async (index) => {
      states[index] = { id: states[index]!.id, outputs: (await host.update(states[index]!.id, states[index]!.outputs, changedOne[index]!)).outputs };
    }));
  const changedAll = await checkAll(() => 2);
  const toUpdateAll: number[] = [];
  for (const index of indexes) if ((await host.diff(states[index]!.id, states[index]!.outputs, changedAll[index]!)).changes === "some") toUpdateAll.push(index);
  const updateAll = await measure(emulator, () =>
    inParallel(toUpdateAll, ENGINE_CONCURRENCY, async (index) => {
      states[index] = { id: states[index]!.id, outputs: (await host.update(states[index]!.id, states[index]!.outputs, changedAll[index]!)).outputs };
    }));
  const deleted = await measure(emulator, () => inParallel(states, ENGINE_CONCURRENCY, (state) => host.delete(state.id, state.outputs)));
  return { create, refresh, "update one": updateOne, "update all": updateAll, delete: deleted };
}

/** One SavedFilterSet of N members: check and diff untimed, each provider call timed. */
async function setOperations(host: ProviderHost, emulator: RunningEmulator, provider: string, size: number): Promise<Record<Operation, Measurement>> {
  const members = (revisionOf: (index: number) => number) =>
    Object.fromEntries(Array.from({ length: size }, (_, index) => [`episode-${index}`, episodeSpec(index, revisionOf(index))]));
  const inputsOf = async (revisionOf: (index: number) => number) => (await host.check({}, { filters: members(revisionOf), __provider: provider })).inputs;
  const initial = await inputsOf(() => 0);
  let state = { id: "", outputs: {} as PropertyMap };
  const create = await measure(emulator, async () => {
    state = await host.create(initial);
  });
  const refresh = await measure(emulator, () => host.read(state.id, state.outputs));
  const update = async (news: PropertyMap) => {
    await host.diff(state.id, state.outputs, news);
    return measure(emulator, async () => {
      state = { id: state.id, outputs: (await host.update(state.id, state.outputs, news)).outputs };
    });
  };
  const updateOne = await update(await inputsOf((index) => (index === 0 ? 1 : 0)));
  const updateAll = await update(await inputsOf(() => 2));
  const deleted = await measure(emulator, () => host.delete(state.id, state.outputs));
  return { create, refresh, "update one": updateOne, "update all": updateAll, delete: deleted };
}

/** Runs one subject at one size in one mode in a fresh host (so its peak memory is this run's). */
async function runOnce(subject: Subject, size: number, mode: Mode, emulator: RunningEmulator, provider: string, projectDir: string): Promise<Run> {
  emulator.state.reset();
  const host = await startProviderHost({ projectDir, env: MODES[mode] });
  try {
    await host.configure({
      "insights:baseUrl": emulator.url,
      "insights:clientId": DEV_ACCOUNT.clientId,
      "insights:clientSecret": DEV_ACCOUNT.clientSecret,
    });
    const operations = subject === "resources"
      ? await resourceOperations(host, emulator, provider, size)
      : await setOperations(host, emulator, provider, size);
    return { operations, peakMemoryBytes: peakMemory(host.pid) };
  } finally {
    await host.close();
  }
}

/** How many requests of each method, in order of first use. */
function countByMethod(requests: readonly JournalEntry[]): Map<string, number> {
  const byMethod = new Map<string, number>();
  for (const request of requests) byMethod.set(request.method, (byMethod.get(request.method) ?? 0) + 1);
  return byMethod;
}

/** Requests by method, for example `10 PUT + 10 GET`. */
function describeRequests(requests: readonly JournalEntry[]): string {
  const parts = [...countByMethod(requests).entries()].map(([method, count]) => `${count} ${method}`);
  return parts.join(" + ") || "0";
}

/** The request target per kind of call for one operation of N filters. */
function requestTarget(subject: Subject, operation: Operation, size: number): number {
  const filters = operation === "update one" ? 1 : size;
  return subject === "set" ? Math.ceil(filters / FILTERS_PER_CALL) : Math.floor(1.25 * Math.ceil(filters / ENGINE_CONCURRENCY));
}

const seconds = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
const megabytes = (bytes: number | undefined) => (bytes === undefined ? "n/a" : `${(bytes / 1024 / 1024).toFixed(0)} MB`);

/** The markdown table of one subject: each operation side by side, then the host's peak memory. */
function table(subject: Subject, sizes: readonly number[], runs: Map<string, Run>): string {
  const lines = [
    "| N | operation | requests, batched | requests, naive | requests / target | wall, batched | wall, naive | naive / batched |",
    "| ---: | --- | --- | --- | --- | ---: | ---: | ---: |",
  ];
  for (const size of sizes) {
    const batched = runs.get(`${subject}/${size}/batched`)!;
    const naive = runs.get(`${subject}/${size}/naive`)!;
    for (const operation of OPERATIONS) {
      const fast = batched.operations[operation];
      const slow = naive.operations[operation];
      const target = requestTarget(subject, operation, size);
      const sent = fast.requests.length;
      lines.push(
        `| ${size} | ${operation} | ${describeRequests(fast.requests)} | ${describeRequests(slow.requests)} | ${sent} / ${target} ${sent <= target ? "✓" : "✗"} ` +
          `| ${seconds(fast.wallMs)} | ${seconds(slow.wallMs)} | ${(slow.wallMs / fast.wallMs).toFixed(1)}x |`,
      );
    }
  }
  lines.push(
    "",
    "Host peak memory (VmHWM) over the five operations; \"no-op provider\" is the same calls on a provider that sends nothing (the SDK host's own share):",
    "",
    "| N | batched | naive | no-op provider |",
    "| ---: | ---: | ---: | ---: |",
  );
  for (const size of sizes) {
    const peak = (mode: Mode) => megabytes(runs.get(`${subject}/${size}/${mode}`)!.peakMemoryBytes);
    lines.push(`| ${size} | ${peak("batched")} | ${peak("naive")} | ${peak("no-op")} |`);
  }
  return lines.join("\n");
}

/** The operations on many filters, those the wall-time target is about ("update one" touches one). */
const BULK_OPERATIONS: readonly Operation[] = ["create", "refresh", "update all", "delete"];

/** The targets at the largest N of each subject, checked on this run's numbers. */
function targets(subjects: ReadonlyArray<[Subject, readonly number[]]>, runs: Map<string, Run>): string {
  const lines = ["### Targets at the largest N", "", "| subject | requests within target | naive / batched wall time (target ≥ 10x) | host peak: batched / no-op provider (target < 200 MB) |", "| --- | --- | --- | --- |"];
  for (const [subject, sizes] of subjects) {
    const size = Math.max(...sizes);
    const run = (mode: Mode) => runs.get(`${subject}/${size}/${mode}`)!;
    const withinTarget = OPERATIONS.every((operation) => run("batched").operations[operation].requests.length <= requestTarget(subject, operation, size));
    const ratios = BULK_OPERATIONS.map((operation) => run("naive").operations[operation].wallMs / run("batched").operations[operation].wallMs);
    const name = subject === "set" ? `SavedFilterSet of ${size}` : `${size} SavedFilter resources`;
    lines.push(
      `| ${name} | ${withinTarget ? "yes" : "no"} | ${Math.min(...ratios).toFixed(1)}x to ${Math.max(...ratios).toFixed(1)}x | ` +
        `${megabytes(run("batched").peakMemoryBytes)} / ${megabytes(run("no-op").peakMemoryBytes)} |`,
    );
  }
  return lines.join("\n");
}

/** Runs the benchmark and returns its markdown. */
export async function run(options: Partial<ProviderBenchOptions> = {}): Promise<string> {
  const { resourceCounts, setSizes } = { ...DEFAULT_SIZES, ...options } satisfies ProviderBenchOptions;
  const emulator = await startEmulator({ port: 0, seed: 7, latencyMs: LATENCY_MS, clock: { start: NOW, frozen: true }, rateBudgets: false });
  const project = createTestProject({ name: "insights-bench-project" });
  try {
    const [resourceProvider, setProvider, noopProvider] = await Promise.all([
      captureDynamicResource({ module: "dist/provider/index.js", exportName: "SavedFilter", args: ["f", episodeSpec(0)] }),
      captureDynamicResource({ module: "dist/provider/index.js", exportName: "SavedFilterSet", args: ["s", { filters: {} }] }),
      captureDynamicResource({ module: "dist/bench/noop-provider.js", exportName: "NoopResource", args: ["n", {}] }),
    ]);
    const runs = new Map<string, Run>();
    const plan: Array<[Subject, readonly number[], string]> = [
      ["resources", resourceCounts, resourceProvider.provider],
      ["set", setSizes, setProvider.provider],
    ];
    for (const [subject, sizes, provider] of plan) {
      for (const size of sizes) {
        for (const mode of Object.keys(MODES) as Mode[]) {
          const started = performance.now();
          const text = mode === "no-op" ? noopProvider.provider : provider;
          runs.set(`${subject}/${size}/${mode}`, await runOnce(subject, size, mode, emulator, text, project.dir));
          process.stderr.write(`provider batching: ${subject} N=${size} ${mode} in ${seconds(performance.now() - started)}\n`);
        }
      }
    }
    return [
      `Latency ${LATENCY_MS} ms per request; the host's client at its default concurrency bound (8 requests in flight), its pacing within the rate budgets off (the emulator's too);`,
      `a batch is sent when full (${FILTERS_PER_CALL}), ${DEFAULT_BATCH_OPTIONS.windowMs} ms after its last call joined, or ${DEFAULT_BATCH_OPTIONS.maxWaitMs} ms after it opened.`,
      "Requests per operation from the emulator's journal, against the issue's target:",
      `ceil(N/${FILTERS_PER_CALL}) for a SavedFilterSet, 1.25 x ceil(N/${ENGINE_CONCURRENCY}) for N resources under ${ENGINE_CONCURRENCY} concurrent engine calls.`,
      "Wall time covers the provider calls that send requests; the engine's check and diff calls (serial; no requests but the host's one check of the account, docs/api.md 11.8) are neither timed nor counted.",
      "Beyond the target, which counts one call per batch: a create of SavedFilter resources first lists the names of its batch, to find a filter that an earlier create whose answer was lost made instead of making it twice (docs/api.md 11.2; past 500 alike filters a batch takes a few narrower listings), and an update reads its filters back, so that a refresh after it shows no change; each is one GET per batch. A SavedFilterSet looks only for the members whose outcome was unknown.",
      "",
      `### N SavedFilter resources, ${ENGINE_CONCURRENCY} concurrent engine calls`,
      "",
      table("resources", resourceCounts, runs),
      "",
      "### One SavedFilterSet of N members",
      "",
      table("set", setSizes, runs),
      "",
      targets(plan.map(([subject, sizes]) => [subject, sizes]), runs),
    ].join("\n");
  } finally {
    project.remove();
    await emulator.close();
  }
}
