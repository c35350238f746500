import { configure } from '@testing-library/dom';

/**
 * How long a `findBy…` or `waitFor` waits in the UI tests: 10 s, not Testing Library's 1 s. On a busy two-core machine
 * (the type-check, the API suite and the builds beside them) a heavy screen such as Base settings takes over a second
 * to show what it shows in a third of one when quiet. An element that never comes still fails the test, later.
 */
export const WAIT_MS = 10_000;
configure({ asyncUtilTimeout: WAIT_MS });
