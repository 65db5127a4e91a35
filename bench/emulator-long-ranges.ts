import { execFile } from "node:child_process";
import os from "node:os";
import { performance } from "node:perf_hooks";
import v8 from "node:v8";
import vm from "node:vm";
import { DEV_ACCOUNT, startEmulator } from "../emulator";
import { InsightsClient } from "../provider/client";
import { measure, PROBES } from "./emulator-speed";

/**
 * Long metric ranges against the emulator, through the client (which splits a year into 90-day
 * windows and asks them in parallel, all answered on the emulator's one thread): a 90-day and a
 * 365-day `attempts` P1D query, each cold (first read: the hours are generated) and warm (read
 * again), with every hour kept in the compact form of emulator/world/compact.ts and the metrics
 * reading it through one moving record, side by side with the approach before it (records of the
 * recent 35 days only, older hours generated again on every read). Before them, the 30-day queries
 * of the emulator's speed table (bench/emulator-speed.ts) in each mode; after them, the emulator's
 * memory once a year has been read. Each mode runs in a process of its own.
 */

const NOW = "2026-11-20T12:30:00.000Z";
const NOW_MS = Date.parse(NOW);

interface Measure {
  query: string;
  coldMs: number;
  warmMs: number;
}

/** A 30-day query of the speed table: its median. */
interface ShortMeasure {
  request: string;
  medianMs: number;
}

/** A garbage collection on demand (the benchmark runs without --expose-gc), for memory readings. */
function collectGarbage(): void {
  v8.setFlagsFromString("--expose-gc");
  (vm.runInNewContext("gc") as () => void)();
}


async function measureMode(compactOldHours: boolean): Promise<{ short: ShortMeasure[]; rows: Measure[]; heapMb: number; rssMb: number }> {
  collectGarbage();
  const usage = () => process.memoryUsage();
  // Heap and array buffers: the compact form keeps its numbers in typed arrays, outside the heap.
  const heldBefore = usage().heapUsed + usage().arrayBuffers;
  const emulator = await startEmulator({ port: 0, seed: 7, clock: { start: NOW, frozen: true }, rateBudgets: false, world: { compactOldHours } });
  const client = new InsightsClient({ baseUrl: emulator.url, clientId: DEV_ACCOUNT.clientId, clientSecret: DEV_ACCOUNT.clientSecret, env: {}, now: () => NOW_MS, timeoutMs: 600_000 });
  try {
    const time = async (days: number): Promise<number> => {
      const started = performance.now();
      const result = await client.metrics.metric({ metric: "attempts", range: { lastDays: days }, granularity: "P1D" });
      if (result.response.time_series.length < days) throw new Error(`${days}-day query answered ${result.response.time_series.length} intervals`);
      return performance.now() - started;
    };
    const short: ShortMeasure[] = [];
    for (const probe of PROBES.filter((candidate) => candidate.request.includes("GET metrics/"))) {
      short.push(await measure(emulator, probe));
    }
    const rows: Measure[] = [];
    for (const days of [90, 365]) {
      const coldMs = await time(days);
      const warmMs = await time(days);
      rows.push({ query: `${days}-day attempts, P1D`, coldMs, warmMs });
    }
    collectGarbage();
    const heapMb = (usage().heapUsed + usage().arrayBuffers - heldBefore) / 1e6;
    const rssMb = usage().rss / 1e6;
    return { short, rows, heapMb, rssMb };
  } finally {
    await client.close();
    await emulator.close();
  }
}

type ModeResult = Awaited<ReturnType<typeof measureMode>>;

/**
 * Measures one mode in a fresh node process: in one process the second mode would inherit the
 * first one's heap and its garbage collector's sizing, which skews both time and memory.
 */
function measureInChild(compactOldHours: boolean): Promise<ModeResult> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [__filename, compactOldHours ? "compact" : "before"], { maxBuffer: 1 << 20 }, (error, stdout) => {
      if (error) reject(error);
      else resolve(JSON.parse(stdout) as ModeResult);
    });
  });
}

/** Runs the benchmark and returns its markdown table. */
export async function run(): Promise<string> {
  const before = await measureInChild(false);
  const after = await measureInChild(true);
  const seconds = (ms: number) => (ms / 1000).toFixed(2);
  const load = os.loadavg().map((value) => value.toFixed(1)).join(", ");
  const lines = [
    `Long ranges through the client (split into 90-day windows, asked in parallel), in process, seed 7, clock ${NOW}, Node ${process.version}, load average at the end ${load} (2 cores).`,
    "\"before\": records of the recent 35 days, older hours generated again on every read; \"compact\": every hour kept in the compact form (emulator/world/compact.ts), the metrics reading it through one moving record. Warm: the same query again. Each mode in a process of its own.",
    "",
    "| 30-day query of the speed table (bench/emulator-speed.ts), median | before ms | compact ms |",
    "|---|---:|---:|",
    ...before.short.map((row, index) => `| ${row.request} | ${row.medianMs.toFixed(1)} | ${after.short[index]!.medianMs.toFixed(1)} |`),
    "",
    "| query | before: cold s | before: warm s | compact: cold s | compact: warm s |",
    "|---|---:|---:|---:|---:|",
    ...before.rows.map((row, index) => {
      const compact = after.rows[index]!;
      return `| ${row.query} | ${seconds(row.coldMs)} | ${seconds(row.warmMs)} | ${seconds(compact.coldMs)} | ${seconds(compact.warmMs)} |`;
    }),
    "",
    "| memory after the 365-day reads | before | compact |",
    "|---|---:|---:|",
    `| heap and array buffers held by the emulator (MB, after a collection) | ${before.heapMb.toFixed(0)} | ${after.heapMb.toFixed(0)} |`,
    `| process RSS (MB, each mode in its own process) | ${before.rssMb.toFixed(0)} | ${after.rssMb.toFixed(0)} |`,
  ];
  return lines.join("\n");
}

if (require.main === module) {
  measureMode(process.argv[2] === "compact").then(
    (result) => process.stdout.write(JSON.stringify(result)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
