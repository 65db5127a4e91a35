// Prints vitest's JSON report as the one closing line CI reads: "N passed, N failed[, N skipped]".
// A missing or unreadable report (the build failed before vitest ran) counts as one failure.
const { readFileSync } = require("node:fs");

const path = process.argv[2];
let passed = 0;
let failed = 1;
let skipped = 0;
try {
  const report = JSON.parse(readFileSync(path, "utf8"));
  passed = report.numPassedTests;
  // A test file that fails to load has no failed test but a failed suite: count it.
  const failedSuites = (report.testResults ?? []).filter(
    (file) => file.status === "failed" && (file.assertionResults ?? []).every((test) => test.status !== "failed"),
  ).length;
  failed = report.numFailedTests + failedSuites;
  skipped = report.numPendingTests + report.numTodoTests;
} catch (error) {
  console.error(`no readable vitest report at ${path}: ${error.message}`);
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
