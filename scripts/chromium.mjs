// Debian's Chromium, headless, as every browser run here starts it (e2e suite, benchmarks): no downloads of its
// own, no network beyond loopback.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's package `chromium-headless-shell`: the same Blink, without the browser's windows and their compositor. */
export const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

/**
 * Which browser runs: `CHROMIUM_PATH` when set; else the end-to-end suite takes the headless shell when it is installed
 * (the same pages, screens and axe checks for about a fifth less of the machine's CPU: the suite's largest cost), and
 * the benches, which time what operators wait for, the browser itself.
 */
export function chromiumPath({ tests = false, env = process.env, exists = existsSync } = {}) {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  return tests && exists(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium';
}

export const launchChromium = ({ tests = false } = {}) =>
  chromium.launch({ executablePath: chromiumPath({ tests }), args: CHROMIUM_ARGS });
