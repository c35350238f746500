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

/**
 * The server's modules as a graph of folders: module → the modules its files import (`server/modules/<name>/…` or
 * `server/modules/<name>.ts`). A module pair that imports each other cannot be understood, tested or moved alone;
 * the shared piece goes down (core/, common/) or the lower module declares a hook the higher one fills.
 */
function moduleGraph(fileGraph: Map<string, string[]>, modulesDir: string): Map<string, string[]> {
  const moduleOf = (file: string) => {
    const rest = relative(modulesDir, file);
    if (rest.startsWith('..')) return null;
    const name = rest.split('/')[0].replace(/\.tsx?$/, '');
    return name === 'index' ? null : name; // the list of every module imports them all, by design
  };
  const graph = new Map<string, Set<string>>();
  for (const [file, targets] of fileGraph) {
    const from = moduleOf(file);
    if (!from) continue;
    const set = graph.get(from) ?? new Set<string>();
    graph.set(from, set);
    for (const target of targets) {
      const to = moduleOf(target);
      if (to && to !== from) set.add(to);
    }
  }
  return new Map([...graph].map(([k, v]) => [k, [...v].sort()]));
}

describe('import cycles', () => {
  it('no two server modules import each other, even round about', () => {
    const server = resolve(root, 'server');
    const graph = moduleGraph(importGraph(server), resolve(server, 'modules'));
    expect(cycles(graph).map((c) => c.join(' → '))).toEqual([]);
    // a control: the graph reads the modules' imports (the actresses module builds on the movie module)
    expect(graph.get('actresses')).toContain('movie');
  });

  it('no file circle in server/core (nor anywhere under server/)', () => {
    const server = resolve(root, 'server');
    const found = cycles(importGraph(server)).map((c) => c.map((f) => relative(root, f)).join(' → '));
    expect(found).toEqual([]);
  });

  it('the module graph sees a cycle (a control: comment ↔ users as they were before #50)', () => {
    const dir = '/m';
    const files = new Map([
      ['/m/users/routes.ts', ['/m/comment/moderation.ts', '/m/site/routes.ts']],
      ['/m/comment/schema.ts', ['/m/users/schema.ts']],
      ['/m/comment/moderation.ts', ['/m/comment/schema.ts']],
      ['/m/index.ts', ['/m/users/routes.ts', '/m/comment/schema.ts']],
    ]);
    expect(cycles(moduleGraph(files, dir))).toEqual([['users', 'comment']]);
  });

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
