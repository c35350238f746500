/**
 * The property under which a stand-in for an object (a request's auditing view of the database, core/audit.ts)
 * answers the object it stands for.
 */
export const STANDS_FOR = Symbol.for('zg.standsFor');

/**
 * The object a store keeps `key`'s value under: the object itself, or the one it stands in for. What is kept per
 * database handle (kept reports, folds, caches, a driver's COPY and row streams) must be the same whether a request
 * reaches the database directly or through a stand-in for it; a stand-in's own identity would give each request a
 * store of its own, and no COPY or stream.
 */
export function keyOf<K>(key: K): K {
  if (key === null || (typeof key !== 'object' && typeof key !== 'function')) return key;
  return ((key as Record<symbol, unknown>)[STANDS_FOR] as K | undefined) ?? key;
}
