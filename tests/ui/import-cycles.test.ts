import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No import cycle under src/ (issue #10): a module that imports itself round about gets a half-initialised
 * namespace at load time (a section's names read as undefined), and the cycle ties folders that should stand
 * alone. Every relative import counts: static, `import type`, re-exports and lazy `import()`.
 */
const root = resolve(import.meta.dirname, '../..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

function resolveLocal(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // try the next form
    }
  }
  return null;
}

/** The import graph of the files under `dir`: file → the files it imports (relative imports only). */
function importGraph(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files(dir)) {
    const source = readFileSync(file, 'utf8');
    const specs = [
      ...source.matchAll(/(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]/g),
    ].map((m) => m[1] ?? m[2]);
    graph.set(
      file,
      specs.flatMap((spec) => {
        if (!spec.startsWith('.')) return [];
        const target = resolveLocal(file, spec);
        return target?.startsWith(dir) ? [target] : [];
      }),
    );
  }
  return graph;
}

/** Every cycle, each once (as found by a depth-first walk), as the list of its files. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push(stack.slice(stack.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe('import cycles', () => {
  it('there is none under src/', () => {
    const src = resolve(root, 'src');
    const found = cycles(importGraph(src)).map((c) => c.map((f) => relative(root, f)).join(' → '));
    expect(found).toEqual([]);
  });

  it('the finder sees one (a control: a → b → c → a, and d → d)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', ['d']],
      ['e', ['a']],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('the graph reads the real imports (a control: the actress section before #10 had its cycle)', () => {
    const graph = importGraph(resolve(root, 'src'));
    const index = resolve(root, 'src/resources/actresses/index.ts');
    expect(graph.get(index)).toContain(resolve(root, 'src/resources/actresses/names.ts'));
    expect(graph.get(index)).toContain(resolve(root, 'src/resources/actresses/ActressList.tsx'));
  });
});
