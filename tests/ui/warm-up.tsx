import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Drawer, Switch } from '@mui/material';
import { cleanup, configure, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import {
  AdminContext,
  ArrayInput,
  AutocompleteArrayInput,
  BooleanInput,
  defaultTheme,
  Form,
  Notification,
  type RaThemeOptions,
  ResourceContextProvider,
  SaveButton,
  SelectInput,
  SimpleFormIterator,
  TextInput,
  testDataProvider,
} from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll } from 'vitest';
import { createI18nProvider } from '../../src/i18n';

/**
 * Screen tests (a whole react-admin/MUI screen walked through in jsdom) without the work that made them slow.
 * Measured on the settings drawer, the platform removal and the ActressPicker, which timed out at 5 s whenever
 * other jobs shared the 2 cores; nothing in them waits on a clock, the time was all CPU in three places:
 *
 * 1. Role queries check every candidate for being inaccessible: `getComputedStyle` on it and on each ancestor.
 *    `configure({ defaultHidden: true })` skips that: the queries still match by role and accessible name, which
 *    is what these tests assert; they do not test visibility.
 * 2. jsdom's CSS. Emotion inserts every MUI component's styles into the document as its own `<style>` (300–470 of
 *    them on these screens); jsdom parses each one, and each `getComputedStyle` — the accessible-name computation
 *    makes one per descendant of every candidate, about 250 per test — walks all their rules. `ScreenCss` gives
 *    emotion a container outside the document: the styles are still computed (MUI runs exactly as before), jsdom
 *    just never sees them. The drawer test's `getComputedStyle` time fell from 1.1 s to 0.3–0.6 s.
 * 3. The first render in a fresh worker costs several times a later one: React's, MUI's and react-admin's code runs
 *    cold (not yet optimised by V8) and emotion serialises every component's styles for the first time. The
 *    drawer's first render took 560 ms, the same render after a warm-up 80–140 ms. `warmUpScreens()` pays that
 *    once in a `beforeAll` (a form, inputs, a dialog, a drawer, a role query) instead of inside the first test.
 *
 * Use in a file that tests no CSS: call `warmUpScreens()` at the top level and wrap what `render` mounts in
 * `<ScreenCss>` (outside `AdminContext`). A test that reads computed styles (colours, say) must not use them.
 */
configure({ defaultHidden: true });

/**
 * react-admin's default theme without motion: no ripple on clicks and zero-length transitions. A ripple or a fade is
 * a run of DOM mutations, and every mutation re-runs the pending `findBy…`/`waitFor` queries of the test.
 */
export const screenTheme: RaThemeOptions = {
  ...defaultTheme,
  transitions: {
    create: () => 'none',
    duration: {
      shortest: 0,
      shorter: 0,
      short: 0,
      standard: 0,
      complex: 0,
      enteringScreen: 0,
      leavingScreen: 0,
    },
  },
  components: { ...defaultTheme.components, MuiButtonBase: { defaultProps: { disableRipple: true } } },
};

const cache = createCache({ key: 'css', container: document.createElement('div') });

export function ScreenCss({ children }: { children: ReactNode }) {
  return <CacheProvider value={cache}>{children}</CacheProvider>;
}

export function warmUpScreens() {
  beforeAll(async () => {
    render(
      <ScreenCss>
        <MemoryRouter>
          <AdminContext
            dataProvider={testDataProvider()}
            i18nProvider={createI18nProvider('zh-CN')}
            theme={screenTheme}
          >
            <ResourceContextProvider value="warm-up">
              <Form record={{ id: 1, name: '林', on: true, kind: 'a', tags: ['x'], rows: [{ n: '1' }] }}>
                <TextInput source="name" />
                <BooleanInput source="on" />
                <SelectInput source="kind" choices={[{ id: 'a', name: 'A' }]} />
                <AutocompleteArrayInput source="tags" choices={[{ id: 'x', name: 'X' }]} />
                <ArrayInput source="rows">
                  <SimpleFormIterator>
                    <TextInput source="n" />
                  </SimpleFormIterator>
                </ArrayInput>
                <SaveButton />
              </Form>
            </ResourceContextProvider>
            <Dialog open aria-labelledby="warm-up-title">
              <DialogTitle id="warm-up-title">预热</DialogTitle>
              <DialogContent>
                <Switch slotProps={{ input: { 'aria-label': '开关' } }} />
              </DialogContent>
              <DialogActions>
                <Button>确认</Button>
              </DialogActions>
            </Dialog>
            <Drawer open anchor="right">
              <Button>取消</Button>
            </Drawer>
            <Notification />
          </AdminContext>
        </MemoryRouter>
      </ScreenCss>,
    );
    await screen.findAllByRole('button', { name: /./ });
    screen.getAllByRole('textbox', { name: /./ });
    cleanup();
    localStorage.clear();
  });
}
