import { defineConfig } from "vitest/config";

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
  "test/provider/import-command.test.ts",
  "test/plugin/functions.test.ts",
  "test/plugin/resources.test.ts",
  "test/plugin/pii-opt-out-request.test.ts",
];

// Tests talk HTTP over loopback to in-process emulators; the 2-core machines run two files at a time.
export default defineConfig({
  test: {
    environment: "node",
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: "standard", include: ["test/**/*.test.ts"] } },
      { extends: true, test: { name: "alternate", include: BOTH_DIALECTS, env: { INSIGHTS_TEST_DIALECT: "alternate" } } },
    ],
  },
});
