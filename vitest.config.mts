import { defineConfig } from "vitest/config";

// Tests talk HTTP over loopback to in-process emulators; the 2-core machines run two files at a time.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
