import { performance } from "node:perf_hooks";
import { DEV_ACCOUNT, startEmulator } from "../emulator";
import { groupByResult } from "../provider/client/metric-results";
import { getMetricGroupBy } from "../provider/data";
import { groupByLayoutBefore } from "./metric-layout-before";

/**
 * Benchmark of the 30-day group-by data source (`getMetricGroupBy`, plays by ISP, 30 days hourly, the
 * top 50 ISPs: 720 intervals of 50 entities) and of the layout of its answer, side by side with the
 * layout it replaced (bench/metric-layout-before.ts: a class with `Date`s and scanning accessors,
 * laid out a second time as plain data, each entity's series found by a scan of every interval's
 * entities). Both layouts read the same merged answer, many times over; the data source is timed
 * end to end (HTTP to an in-process emulator, parsing, layout) after one unmeasured run that lets the
 * emulator generate the 30 days.
 */

/** Layout runs per approach; the median is reported. */
const LAYOUT_RUNS = 15;
/** Data-source calls; the median is reported. */
const SOURCE_RUNS = 5;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timed<T>(body: () => T | Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await body();
  return [value, performance.now() - started];
}

/** Runs the benchmark and returns its markdown. */
export async function run(): Promise<string> {
  const emulator = await startEmulator({ port: 0, seed: 7 });
  const connection = { baseUrl: emulator.url, clientId: DEV_ACCOUNT.clientId, clientSecret: DEV_ACCOUNT.clientSecret };
  const query = { metric: "plays", dimension: "isp", range: { lastDays: 30 }, granularity: "PT1H", limit: 50, connection } as const;
  try {
    await getMetricGroupBy(query);
    const sourceTimes: number[] = [];
    let answer = await getMetricGroupBy(query);
    for (let run = 0; run < SOURCE_RUNS; run++) {
      const [result, ms] = await timed(() => getMetricGroupBy(query));
      answer = result;
      sourceTimes.push(ms);
    }
    const merged = { response: answer.response, windows: answer.windows };
    const intervals = merged.response.time_series.length;
    const entries = merged.response.time_series.reduce((sum, point) => sum + point.dimensional_data.length, 0);
    const before: number[] = [];
    const after: number[] = [];
    for (let run = 0; run < LAYOUT_RUNS; run++) {
      const [old, oldMs] = await timed(() => groupByLayoutBefore(merged, ["plays"]));
      const [now, newMs] = await timed(() => groupByResult(merged, ["plays"]));
      before.push(oldMs);
      after.push(newMs);
      if (old.entities.length !== now.entities.length) throw new Error("the two layouts answer different entities");
    }
    const [oldLayoutMs, newLayoutMs, sourceMs] = [median(before), median(after), median(sourceTimes)];
    const check = answer.entities[0]!;
    return [
      `getMetricGroupBy: plays by ISP over 30 days, PT1H, limit 50: ${intervals} intervals, ${answer.entities.length} entities, ${entries} entity values (each with 2 value fields); top ISP ${check.value}: ${check.series.plays.count.length} points.`,
      "",
      "| step | before (class + second layout, scans) | after (one layout, indexed once) | speed-up |",
      "|---|---:|---:|---:|",
      `| layout of the merged answer (median of ${LAYOUT_RUNS}) | ${oldLayoutMs.toFixed(1)} ms | ${newLayoutMs.toFixed(1)} ms | ${(oldLayoutMs / newLayoutMs).toFixed(1)}x |`,
      `| data source end to end (median of ${SOURCE_RUNS}; before = after - new layout + old layout) | ${(sourceMs - newLayoutMs + oldLayoutMs).toFixed(0)} ms | ${sourceMs.toFixed(0)} ms | ${((sourceMs - newLayoutMs + oldLayoutMs) / sourceMs).toFixed(2)}x |`,
      "",
      `Lookups to find each entity's value per interval: before, a scan of the interval's entities for every entity, metric field and interval (about ${answer.entities.length} x 2 x ${intervals} scans of up to ${answer.entities.length} entries); after, one map lookup per entity value read (${entries}).`,
    ].join("\n");
  } finally {
    await emulator.close();
  }
}

