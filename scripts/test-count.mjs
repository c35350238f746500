// The closing count of `npm test` (scripts/test.mjs), from vitest's JSON report; its own file so a test can import it.

/**
 * Failed tests, plus files that failed on their own (an import error, a failing hook) with no failed test in them:
 * a failing test is counted once, not once more for its file.
 */
export function failures(r) {
  const brokenFiles = (r.testResults ?? []).filter(
    (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'),
  ).length;
  return r.numFailedTests + brokenFiles + (r.numTotalTests === 0 && !brokenFiles ? 1 : 0);
}
