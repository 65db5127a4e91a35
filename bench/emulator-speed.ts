import { performance } from "node:perf_hooks";
import { DEV_ACCOUNT, startEmulator, type RunningEmulator } from "../emulator";

/**
 * Benchmark of the emulator's own speed, over HTTP on loopback against an in-process emulator with
 * the default data world (seed 7, frozen clock): the first (cold) metric query that generates 30
 * days of sessions, then warm metric queries — a 30-day hourly series must answer in well under
 * 100 ms — and a bulk POST of 100 saved filters. Prints a markdown table of medians and p95s.
 */

const NOW = "2026-11-20T12:30:00.000Z";
const RUNS = 15;
const AUTHORIZATION = `Basic ${Buffer.from(`${DEV_ACCOUNT.clientId}:${DEV_ACCOUNT.clientSecret}`).toString("base64")}`;

/** One line of the table. */
export interface Row {
  request: string;
  runs: number;
  medianMs: number;
  p95Ms: number;
  status: number;
  bytes: number;
}

/** A request measured `runs` times in a row. */
export interface Probe {
  request: string;
  runs: number;
  send: (emulator: RunningEmulator, run: number) => Promise<Response>;
}

const get = (path: string) => (emulator: RunningEmulator) => fetch(new URL(path, emulator.url), { headers: { authorization: AUTHORIZATION } });

/** The probes of the table: the cold 30-day query, the warm 30-day and shorter queries, a bulk POST. */
export const PROBES: readonly Probe[] = [
  { request: "cold: GET metrics/attempts, 30 days PT1H (generates the world)", runs: 1, send: get("/insights/3.0/metrics/attempts?days=30&granularity=PT1H") },
  { request: "GET metrics/attempts, 30 days PT1H", runs: RUNS, send: get("/insights/3.0/metrics/attempts?days=30&granularity=PT1H") },
  {
    request: "GET metrics/custom-selection (12 metrics), 30 days PT1H",
    runs: RUNS,
    send: get(
      "/insights/3.0/metrics/custom-selection?days=30&granularity=PT1H&" +
        ["attempts", "plays", "video-start-failures", "exits-before-video-start", "video-playback-failures", "rebuffering-ratio",
          "bitrate", "video-start-time", "unique-devices", "ended-plays", "minutes-played", "concurrent-plays"]
          .map((metric) => `metric=${metric}`).join("&"),
    ),
  },
  { request: "GET metrics/attempts?geo_country_code=US, 30 days PT1H", runs: RUNS, send: get("/insights/3.0/metrics/attempts?days=30&granularity=PT1H&geo_country_code=US") },
  { request: "GET metrics/plays/group-by/cdn, 30 days P1D", runs: RUNS, send: get("/insights/3.0/metrics/plays/group-by/cdn?days=30&granularity=P1D") },
  { request: "GET metrics/attempts/group-by/asset?limit=500, 24 hours PT1H", runs: RUNS, send: get("/insights/3.0/metrics/attempts/group-by/asset?days=1&limit=500") },
  { request: "GET real-time-metrics/quality-summary/group-by/asset, 15 minutes", runs: RUNS, send: get("/insights/3.0/real-time-metrics/quality-summary/group-by/asset?minutes=15") },
  {
    request: "POST /bulk_filters/ (100 filters)",
    runs: 5,
    send: (emulator, run) =>
      fetch(new URL("/bulk_filters/", emulator.url), {
        method: "POST",
        headers: { authorization: AUTHORIZATION, "content-type": "application/json" },
        body: JSON.stringify(
          Array.from({ length: 100 }, (_, index) => ({
            name: `bench ${run}-${index}`,
            category: "CONTENT",
            subcategory: "Asset",
            rules: { op: "and", rules: [{ op: "or", rules: [{ field: "Asset Name", op: "contains", value: `show-${index}` }] }] },
          })),
        ),
      }),
  },
];

/** Runs the benchmark and returns its markdown table. */
export async function run(): Promise<string> {
  const emulator = await startEmulator({ port: 0, seed: 7, clock: { start: NOW, frozen: true }, rateBudgets: false });
  try {
    const rows: Row[] = [];
    for (const probe of PROBES) rows.push(await measure(emulator, probe));
    return table(rows);
  } finally {
    await emulator.close();
  }
}

/** Sends a probe's request `runs` times in a row: the median and p95 of the wall times, the last status and size. */
export async function measure(emulator: RunningEmulator, probe: Probe): Promise<Row> {
  const times: number[] = [];
  let status = 0;
  let bytes = 0;
  for (let index = 0; index < probe.runs; index++) {
    const started = performance.now();
    const response = await probe.send(emulator, index);
    const text = await response.text();
    times.push(performance.now() - started);
    status = response.status;
    bytes = Buffer.byteLength(text);
  }
  times.sort((left, right) => left - right);
  const at = (share: number) => times[Math.min(times.length - 1, Math.floor(share * times.length))]!;
  return { request: probe.request, runs: probe.runs, medianMs: at(0.5), p95Ms: at(0.95), status, bytes };
}

function table(rows: readonly Row[]): string {
  const lines = [
    `Emulator speed (in process, loopback HTTP, seed 7, clock ${NOW}, Node ${process.version})`,
    "",
    "| request | runs | median ms | p95 ms | status | body bytes |",
    "|---|---:|---:|---:|---:|---:|",
    ...rows.map((row) => `| ${row.request} | ${row.runs} | ${row.medianMs.toFixed(1)} | ${row.p95Ms.toFixed(1)} | ${row.status} | ${row.bytes} |`),
  ];
  return lines.join("\n");
}

if (require.main === module) {
  run().then(
    (output) => console.log(output),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
