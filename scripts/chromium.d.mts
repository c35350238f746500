import type { Browser } from 'playwright-core';

export const CHROMIUM_ARGS: string[];
export const HEADLESS_SHELL: string;
export function chromiumPath(opts?: {
  tests?: boolean;
  env?: Record<string, string | undefined>;
  exists?: (path: string) => boolean;
}): string;
export function launchChromium(opts?: { tests?: boolean }): Promise<Browser>;
