import { vi } from 'vitest';

/** jsdom has no ResizeObserver: one that sees nothing, for what measures itself (MUI X charts, the Datagrid). */
export function stubResizeObserver() {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
}
