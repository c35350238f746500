// Debian's Chromium, headless, as every browser run here starts it (e2e suite, benchmarks): no downloads of its
// own, no network beyond loopback.
import { chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
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

export const launchChromium = () => chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
