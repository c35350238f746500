import { configure } from '@testing-library/react';

/**
 * Why some UI tests were slow (and timed out at 5 s on a busy machine): every `getByRole`/`findByRole` checks each
 * candidate element for being inaccessible, which in jsdom means `getComputedStyle` on the element and on every
 * ancestor — thousands of style resolutions per query over a react-admin/MUI page, repeated at each retry of a
 * `findBy`/`waitFor`. Files importing this skip that check (`hidden: true` by default): the queries still match
 * by role and accessible name, which is what these tests assert; they do not test visibility.
 */
configure({ defaultHidden: true });

/**
 * A last resort, for the three tests that mount a whole react-admin screen and walk a dialog through (the platform
 * removal, the ActressPicker, the shell drawer): even with the faster queries their first render alone takes 1–2.5 s
 * of MUI and React development-mode work in jsdom when other jobs share the 2 cores, so 5 s was a bet on an idle
 * machine. They get 20 s; nothing in them waits on a clock.
 */
export const SLOW_UI_TEST_MS = 20_000;
