import { expect, test } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { failures } from '../../scripts/test-count.mjs';

/** `npm test`'s closing line counts each failing test once (issue #11: 3 failing tests showed as "6 failed"). */
const report = (files: { status: string; tests: string[] }[]) => ({
  numFailedTests: files.flatMap((f) => f.tests).filter((t) => t === 'failed').length,
  numFailedTestSuites: files.filter((f) => f.status === 'failed').length,
  numTotalTests: files.flatMap((f) => f.tests).length,
  testResults: files.map((f) => ({
    status: f.status,
    assertionResults: f.tests.map((status) => ({ status })),
  })),
});

test('three failing tests in two files are 3 failures, not 5', () => {
  expect(
    failures(
      report([
        { status: 'failed', tests: ['failed', 'failed', 'passed'] },
        { status: 'failed', tests: ['failed'] },
        { status: 'passed', tests: ['passed'] },
      ]),
    ),
  ).toBe(3);
});

test('a file that fails with no failing test (an import error) counts once; an empty run counts once', () => {
  expect(
    failures(
      report([
        { status: 'failed', tests: [] },
        { status: 'passed', tests: ['passed'] },
      ]),
    ),
  ).toBe(1);
  expect(failures(report([]))).toBe(1);
  expect(failures(report([{ status: 'passed', tests: ['passed'] }]))).toBe(0);
});
