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
