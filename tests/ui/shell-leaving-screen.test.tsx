// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { BrowserRouter, Link, Route, Routes, useNavigate } from 'react-router-dom';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { LeavingScreen } from '../../src/routes/LeavingScreen';
import { lazyScreen } from '../../src/routes/lazy';

afterEach(cleanup);
beforeEach(() => window.history.replaceState(null, '', '/list'));

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A list that, like react-admin's search box, rewrites its own URL a moment after the operator typed. */
let applySearch: () => void = () => {};
function List() {
  const navigate = useNavigate();
  applySearch = () => navigate({ search: '?filter=%7B%22q%22%3A%22yui%22%7D' });
  return (
    <>
      <h1>LIST</h1>
      <Link to="/edit/1">row 1</Link>
    </>
  );
}

function app(Edit: React.ComponentType, guarded: boolean) {
  const list = guarded ? (
    <LeavingScreen>
      <List />
    </LeavingScreen>
  ) : (
    <List />
  );
  return (
    <BrowserRouter>
      <Suspense fallback={<p>LOADING</p>}>
        <Routes>
          <Route path="/list" element={list} />
          <Route path="/edit/:id" element={<Edit />} />
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}

async function leaveWhileTheSearchLands(guarded: boolean) {
  const load = deferred<{ Edit: () => React.ReactNode }>();
  const Edit = lazyScreen(() => load.promise, 'Edit');
  render(app(Edit, guarded));
  await act(async () => fireEvent.click(screen.getByText('row 1')));
  // The edit screen's code is loading: the list stays on screen, the address bar has moved on.
  expect(screen.getByText('LIST')).toBeTruthy();
  expect(window.location.pathname).toBe('/edit/1');
  await act(async () => applySearch());
  await act(async () => load.resolve({ Edit: () => <h1>EDIT</h1> }));
  await act(async () => new Promise((r) => setTimeout(r, 20)));
}

test('a list being left cannot pull the operator back with its late search update', async () => {
  await leaveWhileTheSearchLands(true);
  expect(window.location.pathname).toBe('/edit/1');
  expect(await screen.findByText('EDIT')).toBeTruthy();
});

test('without the wrapper the late update wins (the failure it prevents)', async () => {
  await leaveWhileTheSearchLands(false);
  expect(window.location.pathname).toBe('/list');
});

test('a screen on display still changes its own URL and leaves by its links', async () => {
  const Edit = lazyScreen(async () => ({ Edit: () => <h1>EDIT</h1> }), 'Edit');
  render(app(Edit, true));
  await act(async () => applySearch());
  expect(window.location.search).toContain('yui');
  await act(async () => fireEvent.click(screen.getByText('row 1')));
  expect(await screen.findByText('EDIT')).toBeTruthy();
  expect(window.location.pathname).toBe('/edit/1');
});
