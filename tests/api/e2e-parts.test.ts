import { readdirSync } from 'node:fs';
import { expect, test } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { E2E_SECONDS, e2eParts } from '../../scripts/e2e-parts.mjs';

/**
 * `npm test` deals the end-to-end files into parts that both lanes take from one queue (issue #11): every file runs
 * exactly once, the parts are of even size, the biggest first, and a file nobody measured still runs.
 */
const names: string[] = readdirSync('tests/e2e').filter((f) => f.endsWith('.test.ts'));
const seconds = (f: string) => E2E_SECONDS[f.replace(/^.*\/|\.test\.ts$/g, '')] ?? 30;

test('every end-to-end file is in exactly one part', () => {
  const parts: string[][] = e2eParts(names);
  expect(parts.flat().sort()).toEqual(names.map((f) => `tests/e2e/${f}`).sort());
  expect(parts.length).toBeGreaterThan(1);
});

test('the parts are even, the biggest first; an unmeasured file counts 30 s', () => {
  const parts: string[][] = e2eParts([...names, 'brand-new.test.ts'], 130);
  expect(parts.flat()).toContain('tests/e2e/brand-new.test.ts');
  const sizes = parts.map((p) => p.reduce((s, f) => s + seconds(f), 0));
  expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
  const longest = Math.max(...names.map(seconds));
  // dealt longest-first to the least-filled part: no part exceeds another by more than the longest file
  expect(sizes[0] - sizes[sizes.length - 1]).toBeLessThanOrEqual(longest);
});

test('one part when the files are few', () => {
  expect(e2eParts(['server.test.ts', 'start.test.ts'])).toEqual([
    ['tests/e2e/start.test.ts', 'tests/e2e/server.test.ts'],
  ]);
});
