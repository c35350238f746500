import { keyOf } from '../db/stand-in';

/** A map's get and set: `Map` and `WeakMap` alike. */
interface KeyedStore<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): unknown;
}

/** The value of `key` in `map`, made and set first when missing. */
export function entry<K, V>(map: KeyedStore<K, V>, key: K, make: () => V): V {
  const k = keyOf(key);
  const had = map.get(k);
  if (had !== undefined) return had;
  const made = make();
  map.set(k, made);
  return made;
}

/**
 * `compute` cached per key, for keys that come again and again (a user agent, a visitor, an address): at most `max`
 * keys, all let go at once when full (cheaper than an order of use, and the keys in use come back at once).
 */
export function memo<K, V>(max: number, compute: (key: K) => V): (key: K) => V {
  const cache = new Map<K, V>();
  return (key) => {
    const had = cache.get(key);
    if (had !== undefined) return had;
    const made = compute(key);
    if (cache.size >= max) cache.clear();
    cache.set(key, made);
    return made;
  };
}

/**
 * `memo` for keys most of which come once (an address where mobile networks hand out a new one nearly every request):
 * a key is cached from the second time it is met, so a key met once costs no entry, no collection of it later and no
 * clearing of the cached ones it would have crowded out. `compute` learns whether what it makes is cached. A fixed table
 * of 32-bit fingerprints remembers the keys met once, each in one of two slots: a key met once goes into the first of
 * its slots that is empty (else over its first), so two keys that share a slot and come in turn do not wipe each
 * other out. (With one slot, and the slot taken from the hash's top 17 bits only, a third of 50,000 addresses that
 * came again and again were never cached.) Two keys sharing a slot and fingerprint: the second is cached at once, which
 * is harmless.
 */
export function memoFromSecond<V>(
  max: number,
  compute: (key: string, cached: boolean) => V,
): (key: string) => V {
  const cache = new Map<string, V>();
  const met = new Uint32Array(METS);
  return (key) => {
    const had = cache.get(key);
    if (had !== undefined) return had;
    const [print, first, second] = metSlots(key);
    if (met[first] !== print && met[second] !== print) {
      if (met[first] === 0 || met[second] !== 0) met[first] = print;
      else met[second] = print;
      return compute(key, false);
    }
    const made = compute(key, true);
    if (cache.size >= max) cache.clear();
    cache.set(key, made);
    return made;
  };
}

/**
 * A key's fingerprint (FNV-1a, never 0: an empty slot) and its two slots in `memoFromSecond`'s table, each from the
 * top bits of the hash mixed by its own odd multiplier.
 */
export function metSlots(key: string): [print: number, first: number, second: number] {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return [
    (h | 1) >>> 0,
    Math.imul(h, 0x9e3779b1) >>> (32 - MET_BITS),
    Math.imul(h, 0x85ebca6b) >>> (32 - MET_BITS),
  ];
}
/** How many keys met once `memoFromSecond` remembers. */
const MET_BITS = 18;
const METS = 1 << MET_BITS;
