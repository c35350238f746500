import { type ComponentType, lazy, useSyncExternalStore } from 'react';

let pending = 0;
const listeners = new Set<() => void>();
const emit = () => {
  for (const fn of [...listeners]) fn();
};
const subscribe = (fn: () => void) => {
  listeners.add(fn);
  return () => {
    listeners.delete(fn);
  };
};

function track<T>(load: Promise<T>): Promise<T> {
  pending++;
  emit();
  return load.finally(() => {
    pending--;
    emit();
  });
}

/** Whether a lazily declared screen's code is loading (router transitions keep the old screen meanwhile). */
export function useScreensLoading(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => pending > 0,
    () => false,
  );
}

/**
 * A screen loaded with its route: `lazyScreen(() => import('./OperatorList'), 'OperatorList')` (or without the
 * name for a default export). Each section then becomes its own chunk, and the navigation progress bar shows
 * while it loads.
 */
export function lazyScreen<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  name: keyof M = 'default',
): ComponentType {
  return lazy(() => track(load()).then((m) => ({ default: m[name] as ComponentType })));
}
