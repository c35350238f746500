import { defineConfig } from 'vitest/config';

// The end-to-end suite: the built app served by the real Node server (tests/e2e/setup.ts), driven in Debian's
// headless Chromium through playwright-core. Files run one after another by default: run two at once
// (E2E_WORKERS=2) and the settings journey's new site key races the files that read it, and the actress journey's
// avatar upload misses its wait; E2E_WORKERS=2 is for trying that again.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['tests/e2e/**/*.test.ts'],
    globalSetup: ['tests/e2e/setup.ts'],
    setupFiles: ['tests/e2e/failures.ts'],
    fileParallelism: Number(process.env.E2E_WORKERS ?? 1) > 1,
    maxWorkers: Number(process.env.E2E_WORKERS ?? 1),
    // One more try for a failed test: a browser on two loaded cores can miss a step. The failed try still prints
    // what each page showed (failures.ts), so a flake is read and fixed, not hidden (the actress journey's
    // "flake" of sessions 6–8 was read so: a list pulled the operator back, src/routes/LeavingScreen.tsx); a real
    // failure fails twice.
    retry: 1,
    // A whole journey is 20–35 s alone, several minutes beside the API suites; the budget only stops a hung test.
    testTimeout: 300_000,
    hookTimeout: 120_000,
    // A browser under load (two cores, a PBKDF2 login) can take seconds to show an answer; 1 s flakes.
    expect: { poll: { timeout: 10_000 } },
  },
});
