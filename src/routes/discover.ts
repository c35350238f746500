import type { SectionDecl } from './types';

/**
 * The sections found by `import.meta.glob` (path → its exports), in their `order` and, at the same order, by
 * folder: each `src/resources/<section>/index.ts` default-exports its declaration. `src/resources/index.ts` passes
 * the real folders; a test passes its own.
 */
export function discoverSections(found: Record<string, { default?: SectionDecl }>): SectionDecl[] {
  const list = Object.entries(found)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, exports]) => {
      const s = exports.default;
      if (!s || typeof s.path !== 'string' || !Array.isArray(s.screens))
        throw new Error(`${path}: no section declaration as its default export`);
      return s;
    });
  const paths = new Set<string>();
  for (const s of list) {
    if (paths.has(s.path)) throw new Error(`Two sections declare the path /${s.path}`);
    paths.add(s.path);
  }
  // Array.prototype.sort is stable: sections of one order stay in their folders' order.
  return list.sort((a, b) => a.order - b.order);
}
