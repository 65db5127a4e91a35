import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";
import { REPOSITORY_ROOT } from "../engine";

/**
 * The repository type-checks as a whole, tests, benchmarks, scripts and examples included
 * (tsconfig.test.json, `npm run typecheck`): run as a test of the suite, so that its 15 seconds of one
 * core share the workers' time with the files that wait on timers, processes and the network.
 */
it("type-checks every source, test, benchmark, script and example (tsconfig.test.json)", () => {
  const tsc = spawnSync(process.execPath, [path.join(REPOSITORY_ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.test.json", "--pretty", "false"], { cwd: REPOSITORY_ROOT, encoding: "utf8" });
  expect(tsc.stdout.split("\n").filter((line) => /error TS\d+/.test(line))).toEqual([]);
  // A compiler that stops without a diagnostic (a missing tsconfig, a crash) fails too.
  expect(tsc.status, `${tsc.stdout}${tsc.stderr}${tsc.error ?? ""}`).toBe(0);
}, 120_000);
