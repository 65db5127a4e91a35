import { BaseSequencer, type TestSpecification } from "vitest/node";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * The suites of the client, the provider and the data sources: they run twice, against the
 * emulator's standard dialect and against its alternate one (emulator/README.md "Dialects"), so
 * that none of them depends on a choice the contract leaves open (provider/schema/assumptions.ts).
 */
export const BOTH_DIALECTS = [
  "test/client-*.test.ts",
  "test/data-sources.test.ts",
  "test/filter-gateway.test.ts",
  "test/provider/saved-filter.test.ts",
  "test/provider/saved-filter-set.test.ts",
  "test/provider/batching.test.ts",
  "test/provider/pii-opt-out-request.test.ts",
  "test/provider/lookup-cap.test.ts",
  // Not test/provider/import-command.test.ts: it reads both dialects in one run, an account of each.
  "test/plugin/functions.test.ts",
  "test/plugin/resources.test.ts",
  "test/plugin/pii-opt-out-request.test.ts",
];

/**
 * What `npm run test:quick` leaves out for the edit loop (CONTRIBUTING.md "Build and test"): the
 * files that pack, install, build executables, start many processes or run thousands of resources,
 * and the alternate dialect. `npm test` and CI run everything.
 */
export const SLOW = [
  "test/package.test.ts", // packs the package, runs TypeDoc and three compilers
  "test/install.test.ts", // installs from the npm registry with an empty cache
  "test/release.test.ts", // packs the package
  "test/plugin/standalone.test.ts", // bundles the standalone plugin
  "test/plugin/yaml-example.test.ts",
  "test/examples.test.ts",
  "test/integration/**",
  "test/engine.test.ts",
  "test/provider/fault-matrix.test.ts",
  "test/provider/failures-of-any-size.test.ts", // thousands of members through both hosts
  "test/provider/import-*.test.ts", // the built command, 520 filters, generated modules type-checked
  "test/provider/host-logs.test.ts",
  "test/provider/accounts.test.ts",
  "test/provider/no-echo.test.ts",
  "test/emulator-world-cache.test.ts",
  "test/typecheck.test.ts", // the compiler over the whole repository: `npm run typecheck`
  "test/release-workflow.test.ts",
  "test/provider/batching.test.ts", // hundreds of resources; test/filter-gateway.test.ts is quick
  "test/provider/connection-check.test.ts",
  "test/provider/match-preview.test.ts",
  "test/provider/drift-diff.test.ts",
  "test/provider/pii-verification.test.ts",
];

/**
 * The longest files, as `project:file`, longest first (their wall time in full runs on an idle
 * 2-core machine). Vitest orders the files it has no earlier durations for (a fresh clone, CI) by
 * size, which says nothing of their time: the registry wait of install.test.ts or the compilers of
 * package.test.ts would start late and run alone at the end. Started first, the long ones overlap
 * and the many short files fill the gaps.
 */
const LONGEST = [
  "standard:test/package.test.ts", // packs, TypeDoc, seven compiler runs
  "standard:test/install.test.ts", // most of it waiting on the npm registry
  "standard:test/provider/fault-matrix.test.ts", // most of it real late-write waits
  "standard:test/provider/import-command.test.ts", // 520 filters in two accounts
  "standard:test/provider/failures-of-any-size.test.ts", // 5,000 members through both hosts
  "standard:test/plugin/standalone.test.ts",
  "standard:test/examples.test.ts",
  "standard:test/provider/host-logs.test.ts",
  "standard:test/typecheck.test.ts",
  "standard:test/provider/batching.test.ts",
  "standard:test/provider/accounts.test.ts",
  "standard:test/integration/demo.test.ts",
  "standard:test/plugin/plugin.test.ts",
  "standard:test/emulator-world-cache.test.ts",
  "standard:test/provider/connection-check.test.ts",
  "standard:test/provider/match-preview.test.ts",
  "alternate:test/provider/batching.test.ts",
  "standard:test/release.test.ts",
  "standard:test/provider/no-echo.test.ts",
  "standard:test/plugin/resources.test.ts",
];

/**
 * The standard project before the alternate one (a worker serves one project: a file of the other
 * starts new workers, seconds of CPU each), and in each {@link LONGEST} in its order, then the other
 * files in vitest's (failed first, then longest by earlier runs, else largest).
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = LONGEST.findIndex((entry) => {
        const [project, name] = entry.split(":");
        return file.project.name === project && file.moduleId.endsWith(`/${name}`);
      });
      return index < 0 ? LONGEST.length : index;
    };
    const alternateLast = (file: TestSpecification) => (file.project.name === "alternate" ? 1 : 0);
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: vitest's order stays among files of one project and rank.
    return sorted.sort((a, b) => alternateLast(a) - alternateLast(b) || rank(a) - rank(b));
  }
}

// Tests talk HTTP over loopback to in-process emulators. Three files at a time on the 2-core machines:
// many files wait, on real timeouts (the fault matrix's late writes), the npm registry
// (install.test.ts) or processes they start, and a third worker uses the time the others wait.
// A worker keeps its loaded modules from one file to the next (isolate: false): the SDK, gRPC and
// the emulator are loaded once per worker instead of once per file (vitest's import time of the
// whole suite went from about 270 s to 70 s on a loaded machine). Files leave
// nothing behind that another reads: each starts its own emulators and provider processes, a test
// that stubs the environment restores it, and the Pulumi SDK's global store starts empty in each
// file (test/support/fresh-runtime.ts). What a worker keeps on purpose is the `__provider` text of
// each resource class, the same for every file (test/provider/fixture.ts).
export default defineConfig(({ mode }) => ({
  test: {
    environment: "node",
    pool: "forks",
    maxWorkers: 3,
    isolate: false,
    sequence: { sequencer: LongestFirst },
    setupFiles: ["test/support/fresh-runtime.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects:
      mode === "quick"
        ? [{ extends: true, test: { name: "quick", include: ["test/**/*.test.ts"], exclude: [...configDefaults.exclude, ...SLOW] } }]
        : [
            { extends: true, test: { name: "standard", include: ["test/**/*.test.ts"] } },
            { extends: true, test: { name: "alternate", include: BOTH_DIALECTS, env: { INSIGHTS_TEST_DIALECT: "alternate" } } },
          ],
  },
}));
