import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers of issue #10 §2: the SPA talks to the API only over HTTP, so nothing under `src/` imports `server/`;
 * code both sides run lives in `common/`, which is pure and dependency-free: it imports nothing but `common/`
 * itself (no package, no `src/`, no `server/`), with one exception below.
 */
const root = resolve(import.meta.dirname, '../..');

/** Files the layering still lets through, each with why. Remove an entry when its import is gone. */
const ALLOWED: Record<string, string> = {};

/**
 * The one package `common/` may import, and only in this file (issue #11): the pop-up notices' HTML sanitizer is a
 * maintained library rather than hand-written code, because it guards the door. It needs no DOM, so it runs on
 * both sides like the rest of `common/`.
 */
const COMMON_PACKAGES: Record<string, string> = {
  'common/rich-text.ts -> sanitize-html': 'the notices sanitizer (issue #11)',
  'common/ad.ts -> re2js':
    "linear-time operators' patterns, checked in the form and run by the API (issue #48)",
  'common/fold.ts -> confusables':
    'the look-alike letters table of the fold both sides match with (issue #48)',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(resolve(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mts)$/.test(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

/** Every module specifier of a file (static imports and re-exports, dynamic imports). */
function importsOf(file: string): string[] {
  const source = readFileSync(resolve(root, file), 'utf8');
  return [
    ...source.matchAll(/(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]/g),
  ].map((m) => m[1] ?? m[2]);
}

/** `[file, what it imports]` pairs, the relative ones resolved to a path from the root (without extension). */
function edges(dir: string): Array<[string, string]> {
  return sourceFiles(dir).flatMap((file) =>
    importsOf(file).map((spec): [string, string] => [
      file,
      spec.startsWith('.') ? relative(root, resolve(root, file, '..', spec)) : spec,
    ]),
  );
}

const show = ([file, target]: [string, string]) => `${file} -> ${target}`;

describe('layers', () => {
  it('nothing under src/ imports server/ (the SPA talks to the API over HTTP)', () => {
    const bad = edges('src')
      .filter(([, target]) => target === 'server' || target.startsWith('server/'))
      .map(show)
      .filter((edge) => !(edge in ALLOWED));
    expect(bad).toEqual([]);
  });

  it('common/ imports only common/ (pure, dependency-free, run by both sides)', () => {
    const bad = edges('common')
      .filter(([, target]) => !target.startsWith('common/'))
      .map(show)
      .filter((edge) => !(edge in COMMON_PACKAGES));
    expect(bad).toEqual([]);
  });

  it('nothing under server/core/ imports a module (the modules declare what core reads: registries, guards)', () => {
    const bad = edges('server/core')
      .filter(([, target]) => target.startsWith('server/modules/'))
      .map(show);
    expect(bad).toEqual([]);
    // a control: the walker resolves server/core's relative imports (core/auth.ts imports core/context.ts)
    expect(edges('server/core').map(show)).toContain('server/core/auth.ts -> server/core/context');
  });

  it('the walker sees what it must (a control: the SPA does import common/ and the API does too)', () => {
    expect(edges('src').map(show)).toContain('src/resources/novel/ChapterInputs.tsx -> common/words');
    expect(edges('server').map(([, t]) => t)).toContain('common/codes');
    // and a file that imports server/ would be caught: the whitelisted one is seen while it is there
    for (const edge of Object.keys(COMMON_PACKAGES)) expect(edges('common').map(show)).toContain(edge);
    for (const edge of Object.keys(ALLOWED))
      if (sourceFiles('src').includes(edge.split(' -> ')[0])) expect(edges('src').map(show)).toContain(edge);
  });
});
