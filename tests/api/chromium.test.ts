import { expect, test } from 'vitest';
import { chromiumPath, HEADLESS_SHELL } from '../../scripts/chromium.mjs';

/**
 * The end-to-end suite runs in Debian's headless shell when it is installed (a fifth less CPU for the same pages), in
 * Chromium otherwise; the benches time the browser itself; CHROMIUM_PATH names another for both.
 */
const installed = (path: string) => path === HEADLESS_SHELL;
const missing = () => false;

test('the end-to-end suite takes the headless shell when it is there, else Chromium', () => {
  expect(chromiumPath({ tests: true, env: {}, exists: installed })).toBe(HEADLESS_SHELL);
  expect(chromiumPath({ tests: true, env: {}, exists: missing })).toBe('/usr/bin/chromium');
});

test('the benches take Chromium, the shell installed or not', () => {
  expect(chromiumPath({ env: {}, exists: installed })).toBe('/usr/bin/chromium');
});

test('CHROMIUM_PATH names the browser of both', () => {
  const env = { CHROMIUM_PATH: '/opt/chrome/chrome' };
  expect(chromiumPath({ tests: true, env, exists: installed })).toBe('/opt/chrome/chrome');
  expect(chromiumPath({ env, exists: installed })).toBe('/opt/chrome/chrome');
});
