import { defineConfig } from 'vitest/config';

// The end-to-end suite: the built app served by the real Node server (tests/e2e/setup.ts), driven in Debian's
// headless Chromium through playwright-core. Files run one after another: one browser, two cores.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['tests/e2e/**/*.test.ts'],
    globalSetup: ['tests/e2e/setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A browser under load (two cores, a PBKDF2 login) can take seconds to show an answer; 1 s flakes.
    expect: { poll: { timeout: 10_000 } },
  },
});
