import { performance } from "node:perf_hooks";
import { DEV_ACCOUNT, startEmulator, type RunningEmulator } from "../emulator";
import { InsightsClient } from "../provider/client";

/**
 * Benchmark of the client's automatic splitting (spec 8 limits made invisible): a 1-year metric
 * query (windows of at most 90 days) and a 30-day viewer-session query (split while answers hold
 * 500 sessions), against an in-process emulator with 50 ms of latency per request. Each query runs
 * with the client's parallel splitting and, side by side, with the same requests sent one at a time
 * (a concurrency bound of 1). Request counts come from the emulator's journal. Clients of one
 * account share its concurrency bound at the smallest bound asked for, so each mode's client is
 * created for its measurement and closed after it.
 *
 * The emulator generates old data on demand and keeps only the last 35 days in memory, so the
 * 1-year query spends most of its time generating sessions in the emulator's single thread; the
 * 30-day query is measured after one unmeasured run, on cached data, where latency dominates.
 */

/** Options of {@link run}; the defaults are the benchmark as documented. */
export interface SplittingBenchOptions {
  /** Latency the emulator adds to every request. */
  latencyMs: number;
  /** Length of the metric query in days (over 90 days it is split into windows). */
  metricDays: number;
  /** Length of the viewer-session query in days (the emulator keeps 30 days of viewer data). */
  viewerDays: number;
}

const DEFAULT_OPTIONS = { latencyMs: 50, metricDays: 365, viewerDays: 30 } satisfies SplittingBenchOptions;

/** A fixed emulator time, so every run sees the same data world. */
const NOW = "2026-11-20T12:30:00.000Z";
const NOW_MS = Date.parse(NOW);
/** A documented heavy viewer of the emulator's world (about 36 sessions a day): its 30 days exceed 500. */
const HEAVY_VIEWER = "viewer-000001";
/** The client's default concurrency bound, and one request at a time. */
const MODES = [
  { mode: "parallel", maxConcurrency: 8 },
  { mode: "sequential", maxConcurrency: 1 },
] as const;

interface Row {
  query: string;
  mode: string;
  requests: number;
  wallMs: number;
  answer: string;
}

/** Runs the benchmark and returns its markdown table. */
export async function run(options: Partial<SplittingBenchOptions> = {}): Promise<string> {
  const settings = { ...DEFAULT_OPTIONS, ...options };
  const emulator = await startEmulator({ port: 0, seed: 7, latencyMs: settings.latencyMs, clock: { start: NOW, frozen: true }, rateBudgets: false });
  /** Runs `query` once per mode, each with a client of its own bound that is closed afterwards. */
  const eachMode = async (name: string, query: (client: InsightsClient) => Promise<string>): Promise<Row[]> => {
    const rows: Row[] = [];
    for (const { mode, maxConcurrency } of MODES) {
      const client = new InsightsClient({ baseUrl: emulator.url, clientId: DEV_ACCOUNT.clientId, clientSecret: DEV_ACCOUNT.clientSecret, maxConcurrency, env: {}, now: () => NOW_MS });
      try {
        rows.push(await measure(emulator, name, mode, () => query(client)));
      } finally {
        await client.close();
      }
    }
    return rows;
  };
  try {
    const viewerQuery = { viewerId: HEAVY_VIEWER, range: { lastDays: settings.viewerDays } };
    const metricQuery = { metric: "attempts", range: { lastDays: settings.metricDays }, granularity: "P1D" } as const;
    // One unmeasured run generates and caches the viewer's 30 days in the emulator.
    await eachMode("warm-up", async (client) => `${(await client.sessions.listViewer(viewerQuery)).sessions.length}`);
    const rows = [
      ...(await eachMode(`${settings.viewerDays}-day viewer sessions`, async (client) => `${(await client.sessions.listViewer(viewerQuery)).sessions.length} sessions`)),
      ...(await eachMode(`${settings.metricDays}-day attempts, P1D`, async (client) => `${(await client.metrics.metric(metricQuery)).response.time_series.length} intervals`)),
    ];
    return table(rows, settings.latencyMs);
  } finally {
    await emulator.close();
  }
}

/** Times one query and counts its requests in the journal. */
async function measure(emulator: RunningEmulator, query: string, mode: string, body: () => Promise<string>): Promise<Row> {
  const mark = emulator.state.journal.lastSeq();
  const started = performance.now();
  const answer = await body();
  const wallMs = performance.now() - started;
  return { query, mode, requests: emulator.state.journal.list(mark).length, wallMs, answer };
}

function table(rows: Row[], latencyMs: number): string {
  return [
    `Client splitting against the emulator (${latencyMs} ms latency per request)`,
    "",
    "| query | mode | requests | wall time (ms) | answer |",
    "|---|---|---:|---:|---|",
    ...rows.map((row) => `| ${row.query} | ${row.mode} | ${row.requests} | ${row.wallMs.toFixed(0)} | ${row.answer} |`),
  ].join("\n");
}

if (require.main === module) {
  run().then(
    (markdown) => process.stdout.write(`${markdown}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
