// @vitest-environment jsdom
import { Autocomplete, TextField } from '@mui/material';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import {
  AdminContext,
  AutocompleteInput,
  List,
  TextField as RaTextField,
  ResourceContextProvider,
  SimpleForm,
  testDataProvider,
} from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, expect, test, vi } from 'vitest';
import { useAutocompleteTexts } from '../../src/components/autocompleteTexts';
import { FilterSelectInput } from '../../src/components/FilterSelectInput';
import { createI18nProvider } from '../../src/i18n';
import { Datagrid } from '../../src/layout/listParts';
import { makeTheme } from '../../src/layout/theme';

/** Issue #52, language: list filters start with "全部 / All"; search-as-you-type boxes speak the interface's language. */

afterEach(() => cleanup());

const theme = makeTheme('light', '#165DFF', 250);

test('a status filter starts with 全部, shown and said; choosing a status filters, 全部 lifts the filter', async () => {
  const getList = vi.fn(async () => ({ data: [{ id: 1, title: 'x' }], total: 1 }));
  render(
    <MemoryRouter>
      <AdminContext
        dataProvider={testDataProvider({ getList } as never)}
        i18nProvider={createI18nProvider('zh-CN')}
        theme={theme}
      >
        <ResourceContextProvider value="things">
          <List
            disableSyncWithLocation
            filters={[
              <FilterSelectInput
                key="status"
                source="status"
                alwaysOn
                label="状态"
                choices={[
                  { id: 'open', name: 'shell.list.density.compact' },
                  { id: 'done', name: 'shell.list.density.comfortable' },
                ]}
              />,
            ]}
          >
            <Datagrid bulkActionButtons={false}>
              <RaTextField source="title" />
            </Datagrid>
          </List>
        </ResourceContextProvider>
      </AdminContext>
    </MemoryRouter>,
  );
  const select = await screen.findByRole('combobox', { name: '状态' });
  expect(select.textContent).toBe('全部');
  fireEvent.mouseDown(select);
  const options = within(await screen.findByRole('listbox')).getAllByRole('option');
  expect(options.map((o) => o.textContent)).toEqual(['全部', '紧凑行', '宽松行']);
  fireEvent.click(options[1]);
  await waitFor(() =>
    expect(getList).toHaveBeenLastCalledWith(
      'things',
      expect.objectContaining({ filter: { status: 'open' } }),
    ),
  );
  expect(screen.getByRole('combobox', { name: '状态' }).textContent).toBe('紧凑行');
  fireEvent.mouseDown(screen.getByRole('combobox', { name: '状态' }));
  fireEvent.click(within(await screen.findByRole('listbox')).getByRole('option', { name: '全部' }));
  await waitFor(() =>
    expect(getList).toHaveBeenLastCalledWith('things', expect.objectContaining({ filter: {} })),
  );
});

function PlainSearch() {
  const texts = useAutocompleteTexts();
  return (
    <Autocomplete
      {...texts}
      options={['a']}
      renderInput={(params) => <TextField {...params} label="Search" />}
    />
  );
}

test('a search box’s buttons say what they do in the interface’s language, never MUI’s “Open”', async () => {
  for (const [locale, open] of [
    ['zh-CN', '展开选项'],
    ['en-US', 'Show the options'],
  ] as const) {
    render(
      <MemoryRouter>
        <AdminContext
          dataProvider={testDataProvider()}
          i18nProvider={createI18nProvider(locale)}
          theme={theme}
        >
          <SimpleForm toolbar={false} defaultValues={{ tag: 'a' }}>
            <AutocompleteInput source="tag" choices={[{ id: 'a', name: 'A' }]} label="Tag" />
          </SimpleForm>
          <PlainSearch />
        </AdminContext>
      </MemoryRouter>,
    );
    // react-admin's input (theme defaults) and a plain MUI Autocomplete (the hook)
    expect(await screen.findAllByRole('button', { name: open })).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Open' })).toBeNull();
    expect(screen.queryByRole('button', { name: '打开' })).toBeNull();
    cleanup();
  }
});
