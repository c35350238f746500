import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Projects: `ui` (jsdom components and client rules), `api` (the API in-process on PGlite) and `api-pg`
// (the same API suite on a real PostgreSQL, a fresh database per file). scripts/test.mjs picks which run.
// The API projects share one module graph per worker (`isolate: false`): each file still makes its own app on its
// own database, and the server keeps no module-level state that is not keyed by its database; importing the whole
// server once per file instead cost more than the tests themselves (3 s a file on this machine). A test that needs
// another registry of modules passes it to `startApi` (never `vi.mock`, which would leak into the next file).
// The API budgets only stop a hung test: on two busy cores a seed of the demo data takes over 30 s beside the
// end-to-end suite, and the kept reports' property tests (14-23 s a file alone) over 120 s in a full run.
// The UI files share one worker (`isolate: false`: tests/ui/setup.ts says what each still gets afresh) except these:
// two mock a module with `vi.mock` (the mock would stay for the next files) and three read computed styles.
const UI_ISOLATED = [
  'tests/ui/datagrid.test.tsx',
  'tests/ui/movies.test.tsx',
  'tests/ui/report-list.test.tsx',
  'tests/ui/settings.test.tsx',
  'tests/ui/shell-drawer.test.tsx',
];

// Like the API budgets, the UI tests' only stops a hung test: vitest's 5 s is too short for a date picker's or a
// settings screen's test beside the type-check, the demo build and the API suite on two cores. What a test waits for
// is still bounded by its `findBy…`/`waitFor` timeouts (tests/ui/waits.ts). The same budget for their hooks (vitest's
// is 10 s): a file's warm-up render (tests/ui/warm-up.tsx) can take longer than that on a loaded machine.
const UI_TIMEOUT = 60_000;

export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'ui',
          include: ['tests/ui/**/*.test.{ts,tsx}'],
          exclude: UI_ISOLATED,
          environment: 'node',
          isolate: false,
          setupFiles: ['tests/ui/setup.ts'],
          testTimeout: UI_TIMEOUT,
          hookTimeout: UI_TIMEOUT,
        },
      },
      {
        extends: true,
        test: {
          name: 'ui-isolated',
          include: UI_ISOLATED,
          environment: 'node',
          setupFiles: ['tests/ui/waits.ts'],
          testTimeout: UI_TIMEOUT,
          hookTimeout: UI_TIMEOUT,
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          env: { TEST_DB: 'pglite' },
          isolate: false,
          testTimeout: 300_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'api-pg',
          include: ['tests/api/**/*.test.ts'],
          // They run once (api): files that never open a database (the same code, the same answers on either run),
          // the embedded data dir, and demo mode's snapshot, which lives on PGlite only (in the browser, in its build).
          exclude: [
            'tests/api/data-dir.test.ts',
            'tests/api/demo-snapshot.test.ts',
            'tests/api/rich-text.test.ts',
            'tests/api/stats-period.test.ts',
            'tests/api/stats-region.test.ts',
            'tests/api/test-count.test.ts',
            'tests/api/e2e-parts.test.ts',
            'tests/api/chromium.test.ts',
          ],
          environment: 'node',
          env: { TEST_DB: 'postgres' },
          isolate: false,
          testTimeout: 300_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
