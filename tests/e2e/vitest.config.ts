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
  },
});
