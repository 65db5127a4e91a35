import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import * as clientSplitting from "./client-splitting";
import * as emulatorLongRanges from "./emulator-long-ranges";
import * as emulatorSpeed from "./emulator-speed";
import * as metricLayout from "./metric-layout";
import * as providerBatching from "./provider-batching";
import * as ratePacing from "./rate-pacing";

/**
 * `npm run bench`: builds, runs every benchmark in turn and writes BENCHMARKS.md at the repository
 * root with the command that reproduces it. A benchmark that fails leaves its error in its section;
 * the others still run, and the process exits with 1.
 *
 * `npm run bench -- <words>` runs only the benchmarks whose title contains one of the words (case
 * ignored) and replaces only their sections, keeping the others as they were last measured.
 */

/** A benchmark module: `run()` answers its results as markdown. */
interface Benchmark {
  title: string;
  run(): Promise<string>;
}

const BENCHMARKS: readonly Benchmark[] = [
  { title: "Client: automatic splitting of long queries", run: () => clientSplitting.run() },
  { title: "Emulator: speed over HTTP", run: () => emulatorSpeed.run() },
  { title: "Emulator: long ranges, cold and warm", run: () => emulatorLongRanges.run() },
  { title: "Data sources: 30-day group-by layout", run: () => metricLayout.run() },
  { title: "Provider: request batching of saved filters", run: () => providerBatching.run() },
  { title: "Client: pacing within the rate budgets", run: () => ratePacing.run() },
];

/** The repository root: this file runs from its build, dist/bench. */
const REPOSITORY_ROOT = path.resolve(__dirname, "..", "..");

/** The sections of an existing BENCHMARKS.md by title, so a partial run keeps the others. */
function previousSections(file: string): Map<string, string> {
  const sections = new Map<string, string>();
  if (!existsSync(file)) return sections;
  for (const part of readFileSync(file, "utf8").split(/^(?=## )/m).slice(1)) {
    const title = part.slice(3, part.indexOf("\n")).trim();
    sections.set(title, part.trimEnd());
  }
  return sections;
}

async function main(): Promise<void> {
  const words = process.argv.slice(2).map((word) => word.toLowerCase());
  const selected = (title: string) => words.length === 0 || words.some((word) => title.toLowerCase().includes(word));
  const file = path.join(REPOSITORY_ROOT, "BENCHMARKS.md");
  const previous = previousSections(file);
  let failed = false;
  const sections: string[] = [];
  for (const benchmark of BENCHMARKS) {
    const kept = previous.get(benchmark.title);
    if (!selected(benchmark.title)) {
      if (kept !== undefined) sections.push(kept);
      continue;
    }
    process.stderr.write(`bench: ${benchmark.title}\n`);
    const started = performance.now();
    let body: string;
    try {
      body = await benchmark.run();
    } catch (error) {
      failed = true;
      body = `**Failed:** ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
    }
    const minutes = ((performance.now() - started) / 60_000).toFixed(1);
    sections.push(`## ${benchmark.title}\n\n${body}\n\n_Ran in ${minutes} min._`);
  }
  const cpu = os.cpus()[0]?.model.trim() ?? "unknown CPU";
  const header = [
    "# Benchmarks",
    "",
    "Reproduce with `npm run bench` (it builds with tsc, runs `node dist/bench/index.js` and rewrites this file).",
    "",
    `Last run: ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores (${cpu}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB.`,
    "Wall times depend on the machine and its load. Request counts hardly do: a batch of SavedFilter calls is sent as soon as every engine call in flight waits in it (docs/api.md 11.10); only the first burst of a run and its last calls close on the quiet window, where a loaded machine may split a round in two (at a load average of 7 to 10 on 2 cores, 1000 updates at parallelism 8 took 140 to 144 PUTs for 125 rounds, at 64 16 to 19 for 16). test/provider/batching.test.ts holds the counts.",
  ].join("\n");
  writeFileSync(file, `${header}\n\n${sections.join("\n\n")}\n`);
  process.stderr.write(`bench: wrote ${file}\n`);
  if (failed) process.exitCode = 1;
}

void main();
