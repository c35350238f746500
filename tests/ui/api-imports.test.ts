import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Bundle discipline: the HTTP client, events and session run on the login page (under 200 KB gzip), so
 * nothing they reach may import react-admin, MUI, ra-* packages or the big message bundles.
 */
const root = resolve(import.meta.dirname, '../..');
const loginPageModules = ['src/api/http.ts', 'src/api/events.ts', 'src/api/session.ts'];

function resolveLocal(from: string, spec: string): string {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
    try {
      readFileSync(candidate);
      return candidate;
    } catch {
      // try the next form
    }
  }
  throw new Error(`cannot resolve ${spec} from ${from}`);
}

/** Every module specifier reachable from `entry` through relative imports: [file, specifier]. */
function reach(entry: string, seen = new Set<string>()): Array<[string, string]> {
  if (seen.has(entry)) return [];
  seen.add(entry);
  const source = readFileSync(entry, 'utf8');
  const specs = [
    ...source.matchAll(/(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]/g),
  ].map((m) => m[1] ?? m[2]);
  return specs.flatMap((spec): Array<[string, string]> => {
    const here: [string, string] = [entry.slice(root.length + 1), spec];
    return spec.startsWith('.') ? [here, ...reach(resolveLocal(entry, spec), seen)] : [here];
  });
}

describe('login-page modules', () => {
  it.each(loginPageModules)('%s imports no react-admin, MUI or big bundle', (file) => {
    const bad = reach(resolve(root, file)).filter(
      ([, spec]) =>
        /^(react-admin|ra-|@mui\/|@emotion\/)/.test(spec) ||
        /i18n\/(zh-CN|en-US)(\/index)?$/.test(spec) ||
        /i18n\/(zh-CN|en-US)\/(ra|shell|resources)$/.test(spec) ||
        /(^|\/)src\/i18n$|^\.\.\/i18n$/.test(spec),
    );
    expect(bad).toEqual([]);
  });
});

describe('the import walker', () => {
  it('sees package and relative imports (a control: src/i18n.ts does import the big bundles)', () => {
    const specs = reach(resolve(root, 'src/i18n.ts')).map(([, spec]) => spec);
    expect(specs).toEqual(
      expect.arrayContaining(['ra-i18n-polyglot', '../i18n/zh-CN', 'ra-language-english']),
    );
  });
});
