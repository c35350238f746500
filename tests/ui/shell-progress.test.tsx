// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { afterEach, expect, test } from 'vitest';
import { RouteSuspense } from '../../src/layout/ProgressBar';
import { lazyScreen, useScreensLoading } from '../../src/routes/lazy';

afterEach(cleanup);

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

class Boundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? <p>FAILED</p> : this.props.children;
  }
}

const LoadedThing = () => <h1>THING</h1>;

const Flag = () => <p data-testid="flag">{useScreensLoading() ? 'loading' : 'idle'}</p>;

test('a lazily declared screen shows the navigation progress bar until its code has loaded', async () => {
  const load = deferred<{ Thing: () => React.ReactNode }>();
  const Thing = lazyScreen(() => load.promise, 'Thing');
  render(
    <>
      <Flag />
      <RouteSuspense>
        <Thing />
      </RouteSuspense>
    </>,
  );
  expect(screen.getByRole('progressbar')).toBeTruthy();
  expect(screen.getByTestId('flag').textContent).toBe('loading');
  await act(async () => load.resolve({ Thing: LoadedThing }));
  expect(await screen.findByText('THING')).toBeTruthy();
  expect(screen.queryByRole('progressbar')).toBeNull();
  expect(screen.getByTestId('flag').textContent).toBe('idle');
});

test('a failed load does not leave the bar spinning', async () => {
  const load = deferred<Record<string, never>>();
  const Broken = lazyScreen(() => load.promise.then(() => Promise.reject(new Error('offline'))));
  render(
    <>
      <Flag />
      <Boundary>
        <RouteSuspense>
          <Broken />
        </RouteSuspense>
      </Boundary>
    </>,
  );
  expect(screen.getByTestId('flag').textContent).toBe('loading');
  await act(async () => load.resolve({}));
  expect(await screen.findByText('FAILED')).toBeTruthy();
  expect(screen.getByTestId('flag').textContent).toBe('idle');
});

test('a screen whose code was loaded ahead renders at once: its fallback never shows', async () => {
  const load = deferred<{ Thing: () => React.ReactNode }>();
  const Thing = lazyScreen(() => load.promise, 'Thing');
  const ahead = Thing.preload();
  await act(async () => {
    load.resolve({ Thing: LoadedThing });
    await ahead;
  });
  // Rendered synchronously: no progress bar committed first (React would then hold it 300 ms before the screen).
  render(
    <RouteSuspense>
      <Thing />
    </RouteSuspense>,
  );
  expect(screen.getByText('THING')).toBeTruthy();
  expect(screen.queryByRole('progressbar')).toBeNull();
  // Loaded once: a second preload is the same load.
  expect(Thing.preload()).toBe(ahead);
});

test('the home screen is a lazily declared one that the login page can load ahead', async () => {
  const { preloadHome } = await import('../../src/App');
  const ahead = preloadHome();
  expect(ahead).toBeInstanceOf(Promise);
  await ahead;
});

test('a directly opened screen’s code can be loaded ahead from its address: lists, their sub-screens, plain screens', async () => {
  const { preloadAt } = await import('../../src/App');
  for (const path of ['/movie/review', '/setting/notices/edit/3', '/users/detail/5', '/stats/domains/detail'])
    expect(preloadAt(path), path).toBeInstanceOf(Promise);
  await Promise.all(['/movie/review', '/users/detail/5'].map((p) => preloadAt(p)));
  // an address of no screen asks for nothing (the admin shows its not-found page)
  for (const path of ['/', '/movie', '/nowhere/list', '/movie/nowhere'])
    expect(preloadAt(path), path).toBeUndefined();
});
