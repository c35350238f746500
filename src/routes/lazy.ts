import { type ComponentType, createElement, lazy, useSyncExternalStore } from 'react';

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

/** A component whose code loads on first use, or ahead with `preload()`. */
export type Preloadable<P extends object = object> = ComponentType<P> & { preload: () => Promise<unknown> };

/**
 * A lazily loaded component that renders at once when its code was loaded ahead (`preload()`): `React.lazy` alone
 * suspends the first render even of a module already loaded (its promise settles a microtask later), so the nearest
 * Suspense fallback shows, and React holds a fallback for a while before revealing what replaces it (Suspense
 * throttling): after the login that showed an empty page between the login page and the admin.
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () =>
    (loading ??= load().then((component) => {
      loaded = component;
      return { default: component };
    }));
  const Lazy = lazy(preload);
  const Component = (props: P) => createElement((loaded ?? Lazy) as ComponentType<P>, props);
  return Object.assign(Component, { preload });
}

/**
 * A screen loaded with its route: `lazyScreen(() => import('./OperatorList'), 'OperatorList')` (or without the
 * name for a default export). Each section then becomes its own chunk, and the navigation progress bar shows
 * while it loads. `preloadScreen` loads one ahead (the home screen, while the operator types on the login page).
 */
export function lazyScreen<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  name: keyof M = 'default',
): Preloadable {
  return preloadable(() => track(load()).then((m) => m[name] as ComponentType));
}

/** Loads a screen's code ahead when it is a lazily declared one; anything else is left as it is. */
export function preloadScreen(component: unknown): Promise<unknown> | undefined {
  return (component as Partial<Preloadable> | undefined)?.preload?.();
}
