import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import * as clientSplitting from "./client-splitting";
import * as emulatorSpeed from "./emulator-speed";
import * as providerBatching from "./provider-batching";

/**
 * `npm run bench`: builds, runs every benchmark in turn and writes BENCHMARKS.md at the repository
 * root with the command that reproduces it. A benchmark that fails leaves its error in its section;
 * the others still run, and the process exits with 1.
 */

/** A benchmark module: `run()` answers its results as markdown. */
interface Benchmark {
  title: string;
  run(): Promise<string>;
}

const BENCHMARKS: readonly Benchmark[] = [
  { title: "Client: automatic splitting of long queries", run: () => clientSplitting.run() },
  { title: "Emulator: speed over HTTP", run: () => emulatorSpeed.run() },
  { title: "Provider: request batching of saved filters (issue 7)", run: () => providerBatching.run() },
];

/** The repository root: this file runs from its build, dist/bench. */
const REPOSITORY_ROOT = path.resolve(__dirname, "..", "..");

async function main(): Promise<void> {
  let failed = false;
  const sections: string[] = [];
  for (const benchmark of BENCHMARKS) {
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
    "Wall times depend on the machine and its load; request counts do not.",
  ].join("\n");
  writeFileSync(path.join(REPOSITORY_ROOT, "BENCHMARKS.md"), `${header}\n\n${sections.join("\n\n")}\n`);
  process.stderr.write(`bench: wrote ${path.join(REPOSITORY_ROOT, "BENCHMARKS.md")}\n`);
  if (failed) process.exitCode = 1;
}

void main();
