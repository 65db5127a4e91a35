import { execFileSync } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";
import { REPOSITORY_ROOT } from "../engine";

/**
 * The repository type-checks as a whole, tests, benchmarks, scripts and examples included
 * (tsconfig.test.json, `npm run typecheck`): run as a test of the suite, so that its 15 seconds of one
 * core share the workers' time with the files that wait on timers, processes and the network.
 */
it("type-checks every source, test, benchmark, script and example (tsconfig.test.json)", () => {
  let output = "";
  try {
    execFileSync(process.execPath, [path.join(REPOSITORY_ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.test.json", "--pretty", "false"], { cwd: REPOSITORY_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  expect(output.split("\n").filter((line) => /error TS\d+/.test(line))).toEqual([]);
}, 120_000);
