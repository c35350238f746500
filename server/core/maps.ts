/** A map's get and set: `Map` and `WeakMap` alike. */
interface KeyedStore<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): unknown;
}

/** The value of `key` in `map`, made and set first when missing. */
export function entry<K, V>(map: KeyedStore<K, V>, key: K, make: () => V): V {
  const had = map.get(key);
  if (had !== undefined) return had;
  const made = make();
  map.set(key, made);
  return made;
}

/**
 * `compute` kept per key, for keys that come again and again (a user agent, a visitor, an address): at most `max`
 * keys, all let go at once when full (cheaper than an order of use, and the keys in use come back at once).
 */
export function memo<K, V>(max: number, compute: (key: K) => V): (key: K) => V {
  const kept = new Map<K, V>();
  return (key) => {
    const had = kept.get(key);
    if (had !== undefined) return had;
    const made = compute(key);
    if (kept.size >= max) kept.clear();
    kept.set(key, made);
    return made;
  };
}

/**
 * `memo` for keys most of which come once (an address where mobile networks hand out a new one nearly every request):
 * a key is kept from the second time it is met, so a key met once costs no entry, no collection of it later and no
 * clearing of the kept ones it would have crowded out. `compute` learns whether what it makes is kept. A fixed table
 * of 32-bit fingerprints remembers the keys met once (two keys sharing a slot and fingerprint: the second is kept at
 * once, which is harmless).
 */
export function memoFromSecond<V>(
  max: number,
  compute: (key: string, kept: boolean) => V,
): (key: string) => V {
  const kept = new Map<string, V>();
  const met = new Uint32Array(METS);
  return (key) => {
    const had = kept.get(key);
    if (had !== undefined) return had;
    let h = 0x811c9dc5; // FNV-1a
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
    const print = (h | 1) >>> 0; // never 0, an empty slot
    const slot = (h >>> 15) & (METS - 1);
    if (met[slot] !== print) {
      met[slot] = print;
      return compute(key, false);
    }
    const made = compute(key, true);
    if (kept.size >= max) kept.clear();
    kept.set(key, made);
    return made;
  };
}
/** How many keys met once `memoFromSecond` remembers (a power of two). */
const METS = 1 << 18;
