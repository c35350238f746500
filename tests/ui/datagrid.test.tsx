// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import {
  AdminContext,
  ListContextProvider,
  TextField as RaTextField,
  ResourceContextProvider,
  testDataProvider,
  useList,
} from 'react-admin';
import { afterEach, expect, onTestFinished, test, vi } from 'vitest';
import { createI18nProvider } from '../../src/i18n';
import { Datagrid } from '../../src/layout/listParts';
import { makeTheme } from '../../src/layout/theme';
import { stubResizeObserver } from './resize-observer';

/**
 * The admin's Datagrid (src/layout/listParts.tsx): its row checkboxes carry their label on the input (axe), and a table
 * wider than its box scrolls inside it; both also for a table that comes with rows answered after the list mounted.
 */

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ROWS = [
  { id: 1, title: '第一行' },
  { id: 2, title: '第二行' },
];

/** The grid of a list in the admin's theme, over `rows`. */
function Grid({ rows }: { rows: typeof ROWS }) {
  const list = useList({ data: rows, resource: 'things' });
  return (
    <AdminContext
      dataProvider={testDataProvider()}
      i18nProvider={createI18nProvider('zh-CN')}
      theme={makeTheme('light', '#165DFF', 250)}
    >
      <ResourceContextProvider value="things">
        <ListContextProvider value={list}>
          <Datagrid>
            <RaTextField source="title" />
          </Datagrid>
        </ListContextProvider>
      </ResourceContextProvider>
    </AdminContext>
  );
}

/** A grid mounted with no rows (no table yet); `release()` gives it its rows, the table mounting then. */
function lateList() {
  const { rerender } = render(<Grid rows={[]} />);
  return () => rerender(<Grid rows={ROWS} />);
}

test('row checkboxes rendered after the list mounted carry their label on the input, not on its wrapper', async () => {
  const release = lateList();
  release();
  await screen.findByText('第二行');
  const boxes = await waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('tbody .select-item')];
    expect(found).toHaveLength(2);
    return found;
  });
  for (const span of boxes) {
    expect(span.getAttribute('aria-label')).toBeNull();
    expect(span.querySelector('input')?.getAttribute('aria-label')).toBeTruthy();
  }
});

test('a table wider than its box, mounted with rows answered later, scrolls inside its box', async () => {
  const observers: ResizeObserverCallback[] = [];
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(callback: ResizeObserverCallback) {
        observers.push(callback);
      }
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  // jsdom lays nothing out: the table is made 2,000 px wide in a box of 1,000
  const sizes = [
    [HTMLTableElement.prototype, 'offsetWidth', 2000],
    [HTMLDivElement.prototype, 'clientWidth', 1000],
  ] as const;
  for (const [proto, name, px] of sizes) {
    Object.defineProperty(proto, name, { configurable: true, get: () => px });
    onTestFinished(() => {
      delete (proto as unknown as Record<string, unknown>)[name];
    });
  }
  const release = lateList();
  const wrapperStyle = () => {
    const wrapper = document.querySelector<HTMLElement>('.RaDatagrid-tableWrapper');
    return wrapper ? getComputedStyle(wrapper).overflowX : undefined;
  };
  release();
  await screen.findByText('第二行');
  await waitFor(() => expect(wrapperStyle()).toBe('auto'));
  expect(observers.length).toBeGreaterThan(0);
});

test('one mutation observer follows the grid for both jobs', async () => {
  const targets: Node[] = [];
  const Native = MutationObserver;
  stubResizeObserver(); // the width follower works where ResizeObserver is (jsdom has none)
  vi.stubGlobal(
    'MutationObserver',
    class extends Native {
      observe(target: Node, options?: MutationObserverInit) {
        targets.push(target);
        super.observe(target, options);
      }
    },
  );
  const release = lateList();
  release();
  await screen.findByText('第二行');
  const root = document.querySelector('[data-density]');
  expect(root).not.toBeNull();
  expect(targets.filter((t) => t === root)).toHaveLength(1);
});
