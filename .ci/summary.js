// Prints vitest's JSON report as the one closing line CI reads: "N passed, N failed[, N skipped]".
// Usage: node .ci/summary.js REPORT EXIT_STATUS. A missing or unreadable report (the build failed
// before vitest ran) counts as one failure, and so does a non-zero exit with no failed test in the
// report (vitest exits 1 on an unhandled error while its report still says every test passed).
const { readFileSync } = require("node:fs");

const [path, exitStatus = "0"] = process.argv.slice(2);
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
if (exitStatus !== "0" && failed === 0) {
  console.error(`the test command exited with ${exitStatus} although the report counts no failed test (an unhandled error?)`);
  failed = 1;
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
