import { readFileSync } from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { DEV_ACCOUNT, startEmulator, type JournalEntry, type RunningEmulator } from "../emulator";
import { RATE_BUDGET_ENV } from "../provider/client/core/settings";
import { FILTERS_PER_CALL } from "../provider/schema";
import { BATCH_ENV } from "../provider/saved-filters/gateways";
import { captureDynamicResource, createTestProject, startProviderHost, type PropertyMap, type ProviderHost } from "../engine";

/**
 * Benchmark of the provider's request batching, through the SDK's real dynamic-provider
 * host over gRPC (the engine driver, engine/, as the engine drives it) against an in-process emulator with
 * 50 ms of latency per request: N SavedFilter resources driven by 8, 16 and 64 concurrent engine
 * calls (the engine's `--parallel`: its default is 4 x the CPU count, 8 on 2 cores, 16 on 4), and
 * one SavedFilterSet of N members; create, refresh, update one, update all, delete. Beside each
 * figure, two floors: the same calls on a provider that does nothing (bench/noop-provider.ts, the
 * SDK host's own cost), and the round-trip floor, that time plus one request's latency per engine
 * round (the engine waits for each answer before it sends the next call of that slot). Side by side
 * at 64 and for the set, naive: one request per filter through the same client
 * (`INSIGHTS_BATCH_SIZE=1`), as providers without bulk calls do. Requests come from the emulator's
 * journal; the host's peak memory is its VmHWM (Linux /proc).
 */

const LATENCY_MS = 50;
/** The engine's parallelisms measured (`pulumi up --parallel N`). */
const PARALLELISMS = [8, 16, 64] as const;
/** The parallelism of the naive comparison and of the memory table (the largest measured). */
const NAIVE_PARALLELISM = 64;
/** How far above its floor an operation of N resources may be (the target). */
const FLOOR_FACTOR = 1.5;
/** The most requests a refresh of N resources may send for one account (the target). */
const REFRESH_REQUESTS = 3;

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
 * provider/connection-check/probe.ts); create, read, update and delete run `parallelism` at a time (timed).
 */
async function resourceOperations(host: ProviderHost, emulator: RunningEmulator, provider: string, count: number, parallelism: number): Promise<Record<Operation, Measurement>> {
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
    states = await inParallel(indexes, parallelism, (index) => host.create(created[index]!));
  });
  const refresh = await measure(emulator, () => inParallel(states, parallelism, (state) => host.read(state.id, state.outputs)));
  const update = async (changed: PropertyMap[]) => {
    const toUpdate: number[] = [];
    for (const index of indexes) if ((await host.diff(states[index]!.id, states[index]!.outputs, changed[index]!)).changes === "some") toUpdate.push(index);
    return measure(emulator, () =>
      inParallel(toUpdate, parallelism, async (index) => {
        states[index] = { id: states[index]!.id, outputs: (await host.update(states[index]!.id, states[index]!.outputs, changed[index]!)).outputs };
      }));
  };
  // Update one: every resource is checked and diffed, one changes; update all: the next revision of each.
  const updateOne = await update(await checkAll((index) => (index === 0 ? 1 : 0)));
  const updateAll = await update(await checkAll(() => 2));
  const deleted = await measure(emulator, () => inParallel(states, parallelism, (state) => host.delete(state.id, state.outputs)));
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

/** What one run measures: a subject at a size, in a mode, at the engine's parallelism (1 for a set: one call). */
interface RunKey {
  subject: Subject;
  size: number;
  mode: Mode;
  parallelism: number;
}

const keyOf = ({ subject, size, mode, parallelism }: RunKey) => `${subject}/${size}/${mode}/${parallelism}`;

/** Runs one subject at one size in one mode in a fresh host (so its peak memory is this run's, and its listings this run's). */
async function runOnce(key: RunKey, emulator: RunningEmulator, provider: string, projectDir: string): Promise<Run> {
  emulator.state.reset();
  const host = await startProviderHost({ projectDir, env: MODES[key.mode] });
  try {
    await host.configure({
      "insights:baseUrl": emulator.url,
      "insights:clientId": DEV_ACCOUNT.clientId,
      "insights:clientSecret": DEV_ACCOUNT.clientSecret,
    });
    const operations = key.subject === "resources"
      ? await resourceOperations(host, emulator, provider, key.size, key.parallelism)
      : await setOperations(host, emulator, provider, key.size);
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

/** The bulk-call target of a SavedFilterSet: one call per 100 filters of each kind. */
function setTarget(operation: Operation, size: number): number {
  return Math.ceil((operation === "update one" ? 1 : size) / FILTERS_PER_CALL);
}

const seconds = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
const megabytes = (bytes: number | undefined) => (bytes === undefined ? "n/a" : `${(bytes / 1024 / 1024).toFixed(0)} MB`);

/**
 * The floors of one operation of N resources at `parallelism`: the no-op provider's time, and the
 * round-trip floor (that time plus one latency per engine round); the target, and whether it was met.
 */
interface Floors {
  noopMs: number;
  roundTripMs: number;
  /** The time the operation should stay within. */
  targetMs: number;
  /** The requests it should stay within, if any. */
  targetRequests?: number;
}

function floorsOf(operation: Operation, size: number, parallelism: number, noopMs: number): Floors {
  const filters = operation === "update one" ? 1 : size;
  const roundTripMs = noopMs + Math.ceil(filters / parallelism) * LATENCY_MS;
  // A refresh could be served from one listing: the no-op time and one round trip.
  if (operation === "refresh") return { noopMs, roundTripMs, targetMs: FLOOR_FACTOR * noopMs + LATENCY_MS, targetRequests: REFRESH_REQUESTS };
  return { noopMs, roundTripMs, targetMs: FLOOR_FACTOR * roundTripMs };
}

/** Whether a measurement meets its floors' target. */
function meets(measured: Measurement, floors: Floors): boolean {
  return measured.wallMs <= floors.targetMs && (floors.targetRequests === undefined || measured.requests.length <= floors.targetRequests);
}

/** One operation of N resources at `parallelism`: its measurement, its floors, and whether it met its target. */
function resourceVerdict(runs: Map<string, Run>, size: number, parallelism: number, operation: Operation): { measured: Measurement; floors: Floors; met: string } {
  const measured = runs.get(keyOf({ subject: "resources", size, mode: "batched", parallelism }))!.operations[operation];
  const noop = runs.get(keyOf({ subject: "resources", size, mode: "no-op", parallelism }))!.operations[operation];
  const floors = floorsOf(operation, size, parallelism, noop.wallMs);
  return { measured, floors, met: meets(measured, floors) ? "✓" : "✗" };
}

/** The table of N resources: each parallelism and operation, against its two floors. */
function resourceTable(sizes: readonly number[], runs: Map<string, Run>): string {
  const lines = [
    "| N | parallelism | operation | requests | wall | no-op | round-trip floor | wall / round-trip floor | target | met |",
    "| ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | --- | --- |",
  ];
  for (const size of sizes) {
    for (const parallelism of PARALLELISMS) {
      for (const operation of OPERATIONS) {
        const { measured, floors, met } = resourceVerdict(runs, size, parallelism, operation);
        const target = operation === "refresh"
          ? `≤ ${FLOOR_FACTOR} x no-op + ${LATENCY_MS} ms (${seconds(floors.targetMs)}), ≤ ${REFRESH_REQUESTS} requests`
          : `≤ ${FLOOR_FACTOR} x floor (${seconds(floors.targetMs)})`;
        lines.push(
          `| ${size} | ${parallelism} | ${operation} | ${describeRequests(measured.requests)} | ${seconds(measured.wallMs)} | ${seconds(floors.noopMs)} ` +
            `| ${seconds(floors.roundTripMs)} | ${(measured.wallMs / floors.roundTripMs).toFixed(2)}x | ${target} | ${met} |`,
        );
      }
    }
  }
  return lines.join("\n");
}

/** Batched against naive at one parallelism, with the host's peak memory. */
function naiveTable(subject: Subject, sizes: readonly number[], parallelism: number, runs: Map<string, Run>): string {
  const run = (size: number, mode: Mode) => runs.get(keyOf({ subject, size, mode, parallelism }))!;
  const lines = [
    `| N | operation | requests, batched | requests, naive | ${subject === "set" ? "requests / target | " : ""}wall, batched | wall, naive | naive / batched |`,
    `| ---: | --- | --- | --- | ${subject === "set" ? "--- | " : ""}---: | ---: | ---: |`,
  ];
  for (const size of sizes) {
    for (const operation of OPERATIONS) {
      const fast = run(size, "batched").operations[operation];
      const slow = run(size, "naive").operations[operation];
      const sent = fast.requests.length;
      const target = subject === "set" ? `${sent} / ${setTarget(operation, size)} ${sent <= setTarget(operation, size) ? "✓" : "✗"} | ` : "";
      lines.push(
        `| ${size} | ${operation} | ${describeRequests(fast.requests)} | ${describeRequests(slow.requests)} | ${target}` +
          `${seconds(fast.wallMs)} | ${seconds(slow.wallMs)} | ${(slow.wallMs / fast.wallMs).toFixed(1)}x |`,
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
  for (const size of sizes) lines.push(`| ${size} | ${megabytes(run(size, "batched").peakMemoryBytes)} | ${megabytes(run(size, "naive").peakMemoryBytes)} | ${megabytes(run(size, "no-op").peakMemoryBytes)} |`);
  return lines.join("\n");
}

/** The operations on many filters, those the targets are about ("update one" touches one). */
const BULK_OPERATIONS: readonly Operation[] = ["create", "refresh", "update all", "delete"];

/** The targets at the largest N: each parallelism of the resources against its floors, the set against its bulk calls. */
function targets(resourceSizes: readonly number[], setSizes: readonly number[], runs: Map<string, Run>): string {
  const lines = ["### Targets at the largest N", ""];
  if (resourceSizes.length > 0) {
    const size = Math.max(...resourceSizes);
    lines.push(
      `${size} SavedFilter resources, wall time / round-trip floor (refresh: / no-op time; ✓ within the target of the table above):`,
      "",
      `| parallelism | ${BULK_OPERATIONS.join(" | ")} |`,
      `| ---: | ${BULK_OPERATIONS.map(() => "---").join(" | ")} |`,
    );
    for (const parallelism of PARALLELISMS) {
      const cells = BULK_OPERATIONS.map((operation) => {
        const { measured, floors, met } = resourceVerdict(runs, size, parallelism, operation);
        const ratio = measured.wallMs / (operation === "refresh" ? floors.noopMs : floors.roundTripMs);
        return `${ratio.toFixed(2)}x, ${measured.requests.length} requests ${met}`;
      });
      lines.push(`| ${parallelism} | ${cells.join(" | ")} |`);
    }
  }
  if (setSizes.length > 0) {
    const size = Math.max(...setSizes);
    const run = (mode: Mode) => runs.get(keyOf({ subject: "set", size, mode, parallelism: 1 }))!;
    const withinTarget = OPERATIONS.every((operation) => run("batched").operations[operation].requests.length <= setTarget(operation, size));
    const ratios = BULK_OPERATIONS.map((operation) => run("naive").operations[operation].wallMs / run("batched").operations[operation].wallMs);
    lines.push(
      "",
      "| subject | requests within one bulk call per 100 filters | naive / batched wall time (target ≥ 10x) | host peak: batched / no-op provider (target < 200 MB) |",
      "| --- | --- | --- | --- |",
      `| SavedFilterSet of ${size} | ${withinTarget ? "yes" : "no"} | ${Math.min(...ratios).toFixed(1)}x to ${Math.max(...ratios).toFixed(1)}x | ` +
        `${megabytes(run("batched").peakMemoryBytes)} / ${megabytes(run("no-op").peakMemoryBytes)} |`,
    );
  }
  return lines.join("\n");
}

/** The runs of the benchmark: every size of each subject, each mode and (for resources) each parallelism. */
function plannedRuns({ resourceCounts, setSizes }: ProviderBenchOptions): RunKey[] {
  const keys: RunKey[] = [];
  for (const size of resourceCounts) {
    for (const parallelism of PARALLELISMS) {
      keys.push({ subject: "resources", size, mode: "batched", parallelism }, { subject: "resources", size, mode: "no-op", parallelism });
      if (parallelism === NAIVE_PARALLELISM) keys.push({ subject: "resources", size, mode: "naive", parallelism });
    }
  }
  for (const size of setSizes) for (const mode of Object.keys(MODES) as Mode[]) keys.push({ subject: "set", size, mode, parallelism: 1 });
  return keys;
}

/** Runs the benchmark and returns its markdown. */
export async function run(options: Partial<ProviderBenchOptions> = {}): Promise<string> {
  const sizes = { ...DEFAULT_SIZES, ...options } satisfies ProviderBenchOptions;
  const emulator = await startEmulator({ port: 0, seed: 7, latencyMs: LATENCY_MS, clock: { start: NOW, frozen: true }, rateBudgets: false });
  const project = createTestProject({ name: "insights-bench-project" });
  try {
    const [resourceProvider, setProvider, noopProvider] = await Promise.all([
      captureDynamicResource({ module: "dist/provider/index.js", exportName: "SavedFilter", args: ["f", episodeSpec(0)] }),
      captureDynamicResource({ module: "dist/provider/index.js", exportName: "SavedFilterSet", args: ["s", { filters: {} }] }),
      captureDynamicResource({ module: "dist/bench/noop-provider.js", exportName: "NoopResource", args: ["n", {}] }),
    ]);
    const runs = new Map<string, Run>();
    for (const key of plannedRuns(sizes)) {
      const started = performance.now();
      const text = key.mode === "no-op" ? noopProvider.provider : key.subject === "resources" ? resourceProvider.provider : setProvider.provider;
      runs.set(keyOf(key), await runOnce(key, emulator, text, project.dir));
      const at = key.subject === "resources" ? ` at ${key.parallelism}` : "";
      process.stderr.write(`provider batching: ${key.subject} N=${key.size} ${key.mode}${at} in ${seconds(performance.now() - started)}\n`);
    }
    const load = os.loadavg().map((value) => value.toFixed(1)).join(", ");
    return [
      `Latency ${LATENCY_MS} ms per request; the host's client at its default concurrency bound (8 requests in flight), its pacing within the rate budgets off (the emulator's too).`,
      `Load average at the end: ${load} (${os.cpus().length} cores); wall times depend on it, request counts do not.`,
      "Requests per operation from the emulator's journal. Wall time covers the provider calls that send requests; the engine's check and diff calls (serial; no requests but the host's one check of the account, docs/api.md 11.8) are neither timed nor counted.",
      "",
      `### N SavedFilter resources at the engine's parallelism`,
      "",
      `Each operation against two floors, both measured in the same run: "no-op", the same calls at the same parallelism on a provider that sends nothing; the round-trip floor, that time plus ${LATENCY_MS} ms for each engine round (ceil(N / parallelism) of them), which no provider that waits for the service's answer can beat.`,
      "",
      resourceTable(sizes.resourceCounts, runs),
      "",
      "Where a target is missed, what bounds it: an update reads its filters back after the PUT (one GET per batch: the PUT answers only a location, docs/api.md 4.8, and the service sets `edited` and `editor`, which a refresh after the update must find unchanged), so each engine round of updates costs two round trips and \"update all\" stays near twice its round-trip floor however its batches close; a refresh of more filters than the listing cap (500, docs/api.md 10.1) cannot be one request: the first listing shows 500 and the others are listed by a beginning of their names (\"Episode 5\" to \"Episode 9\" here: 6 requests for 1000), while an account of at most 499 filters is one; at N = 10 and for \"update one\" (a PUT and its read back, after the 20 ms quiet window of a command's first burst) the window and the read back are most of the time.",
      "",
      ...(sizes.resourceCounts.length > 0
        ? [`### N SavedFilter resources, batched and naive at ${NAIVE_PARALLELISM}`, "", naiveTable("resources", sizes.resourceCounts, NAIVE_PARALLELISM, runs), ""]
        : []),
      ...(sizes.setSizes.length > 0 ? ["### One SavedFilterSet of N members", "", naiveTable("set", sizes.setSizes, 1, runs), ""] : []),
      targets(sizes.resourceCounts, sizes.setSizes, runs),
    ].join("\n");
  } finally {
    project.remove();
    await emulator.close();
  }
}
