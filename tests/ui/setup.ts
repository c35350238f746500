// The `ui` project runs its files one after another in one worker (`isolate: false`, vitest.config.ts): a fresh
// worker per file imported react-admin, MUI and jsdom again for each of them, 6 s of every file's 8–9 s (the project
// took 380 s, 200 of them imports and jsdom set-ups). This file, run before each test file, gives each file what
// isolation gave it, except the packages in node_modules, which are loaded once and keep no state the tests read:
// - a fresh copy of every module of ours (the app's and the tests'): their module-level state (the event bus's
//   listeners, the session, caches) starts empty, as in a worker of its own;
// - Testing Library's configuration as it was before any file changed it (warm-up.tsx sets `defaultHidden`);
// and, after the file, unmounts what it rendered and puts the page back as jsdom made it: its body and root element
// (attributes, content), the title, the URL, localStorage and sessionStorage (the app keeps no cookies); real timers, unstubbed
// globals and environment. Files that read computed styles (the styles MUI puts in the document's head stay there
// from one file to the next) or mock a module with `vi.mock` (the mock would stay for the next files) run isolated,
// in the `ui-isolated` project.
import { configure, getConfig } from '@testing-library/dom';
import { cleanup } from '@testing-library/react';
import { afterAll, vi } from 'vitest';
import { WAIT_MS } from './waits';

type Initial = {
  rtl: ReturnType<typeof getConfig>;
  href?: string;
  html?: [string, string][];
  title?: string;
};
const key = Symbol.for('zg.uiInitialState');
const store = globalThis as unknown as Record<symbol, Initial | undefined>;
const attributes = (e: Element) => [...e.attributes].map((a): [string, string] => [a.name, a.value]);
store[key] ??= { rtl: { ...getConfig(), asyncUtilTimeout: WAIT_MS } };
const initial = store[key];
if (globalThis.document && initial.html === undefined) {
  initial.href = location.href;
  initial.html = attributes(document.documentElement);
  initial.title = document.title;
}

vi.resetModules();
configure(initial.rtl);

afterAll(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  if (!globalThis.document) return;
  const root = document.documentElement;
  for (const name of root.getAttributeNames()) root.removeAttribute(name);
  for (const [name, value] of initial.html ?? []) root.setAttribute(name, value);
  for (const name of document.body.getAttributeNames()) document.body.removeAttribute(name);
  document.body.replaceChildren();
  document.title = initial.title ?? '';
  localStorage.clear();
  sessionStorage.clear();
  if (initial.href && location.href !== initial.href) history.replaceState(null, '', initial.href);
});
