import { configure } from '@testing-library/dom';

/**
 * How long a `findBy…` or `waitFor` waits in the UI tests: 20 s, not Testing Library's 1 s. On a busy two-core machine
 * (the type-check, the API suites and two end-to-end parts beside them) a heavy screen such as Base settings takes
 * seconds to show what it shows in a third of one when quiet, and a save there can pass 10 s. An element that never
 * comes still fails the test, later.
 */
export const WAIT_MS = 20_000;
configure({ asyncUtilTimeout: WAIT_MS });
