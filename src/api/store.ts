import { useSyncExternalStore } from 'react';

/** A tiny external store for React (useSyncExternalStore): one value, get/set, and a hook that re-renders on set. */
export function createStore<T>(initial: T) {
  let value = initial;
  const listeners = new Set<() => void>();
  const get = () => value;
  const subscribe = (fn: () => void) => {
    listeners.add(fn);
    return () => {
      listeners.delete(fn);
    };
  };
  return {
    get,
    set(next: T) {
      value = next;
      for (const fn of [...listeners]) fn();
    },
    use: () => useSyncExternalStore(subscribe, get, get),
  };
}
