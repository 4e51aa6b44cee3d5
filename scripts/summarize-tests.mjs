// Prints one `N passed, N failed` line from the vitest and Playwright JSON reports of this run.
import fs from 'node:fs';

function read(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

let passed = 0;
let failed = 0;
let skipped = 0;
const unit = read('test-results/unit.json');
if (unit) {
  passed += unit.numPassedTests ?? 0;
  failed += unit.numFailedTests ?? 0;
  // A test file that failed to load has no failed test of its own: count it, or a broken import would pass.
  for (const file of unit.testResults ?? []) {
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((a) => a.status === 'failed')) failed += 1;
  }
  skipped += (unit.numPendingTests ?? 0) + (unit.numTodoTests ?? 0);
} else {
  console.log('unit: no report (vitest did not run)');
  failed += 1;
}
const e2e = read('test-results/e2e.json');
if (e2e?.stats) {
  passed += (e2e.stats.expected ?? 0) + (e2e.stats.flaky ?? 0);
  failed += e2e.stats.unexpected ?? 0;
  skipped += e2e.stats.skipped ?? 0;
} else if (process.argv.includes('--expect-e2e')) {
  console.log('e2e: no report (Playwright did not run)');
  failed += 1;
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exitCode = failed > 0 ? 1 : 0;
