// @vitest-environment jsdom

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, ResourceContextProvider, SimpleForm, testDataProvider } from 'react-admin';
import { afterEach, expect, test, vi } from 'vitest';
import { DayInput, InstantInput } from '../../src/components/dates';
import { createI18nProvider } from '../../src/i18n';

/**
 * Issue #17: date pickers follow the interface's language, not the browser's (the native inputs did): the order of
 * the field's parts and the calendar's words change with react-admin's locale; the form keeps `YYYY-MM-DD` days and
 * ISO instants whatever is shown.
 */
afterEach(cleanup);

function form(locale: 'zh-CN' | 'en-US', record: Record<string, unknown>, onSubmit = vi.fn()) {
  render(
    <AdminContext dataProvider={testDataProvider()} i18nProvider={createI18nProvider(locale)}>
      <ResourceContextProvider value="things">
        <SimpleForm record={record} onSubmit={onSubmit}>
          <DayInput source="day" label="Day" />
          <InstantInput source="at" label="At" />
        </SimpleForm>
      </ResourceContextProvider>
    </AdminContext>,
  );
  return onSubmit;
}

/** The picker's value box (its hidden input: what the field shows, as one string). */
const box = (name: string) =>
  waitFor(
    () => {
      const input = document.querySelector<HTMLInputElement>(
        `.MuiPickersInputBase-root input[name="${name}"]`,
      );
      if (!input) throw new Error(`no picker for ${name} yet`);
      return input;
    },
    { timeout: 15_000 }, // the pickers load with the first one shown
  );

test('Chinese: year first; English: month first; the stored values are the same', async () => {
  const record = { day: '2026-05-01', at: '2026-05-01T01:02:03.000Z' };
  form('zh-CN', record);
  expect((await box('day')).value).toBe('2026-05-01');
  cleanup();
  form('en-US', record);
  expect((await box('day')).value).toBe('05/01/2026');
});

test('the calendar speaks the interface language', async () => {
  form('en-US', { day: '2026-05-01' });
  await box('day');
  fireEvent.click(screen.getAllByRole('button', { name: /choose date/i })[0]);
  expect(await screen.findByText(/May 2026/)).toBeTruthy();
  cleanup();
  form('zh-CN', { day: '2026-05-01' });
  await box('day');
  fireEvent.click(screen.getAllByRole('button', { name: /选择日期/ })[0]);
  expect(await screen.findByText('2026年5月')).toBeTruthy();
});

test('a typed day is kept as YYYY-MM-DD, a typed time as an ISO instant', async () => {
  const onSubmit = form('en-US', { day: null, at: null });
  fireEvent.change(await box('day'), { target: { value: '12/24/2026' } });
  fireEvent.change(await box('at'), { target: { value: '12/24/2026 08:00:30' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(onSubmit).toHaveBeenCalled());
  expect(onSubmit.mock.calls[0][0]).toMatchObject({
    day: '2026-12-24',
    at: new Date(2026, 11, 24, 8, 0, 30).toISOString(), // the browser's clock, as the native input had it
  });
});

/** Empties one part of a picker's field with the keyboard, as an operator deleting it would (the rest stays). */
async function clearPart(part: number) {
  await box('day');
  const section = document.querySelectorAll<HTMLElement>('[role="spinbutton"]')[part];
  fireEvent.mouseDown(section);
  section.focus();
  fireEvent.click(section);
  await act(() => new Promise((r) => setTimeout(r, 100))); // the picker selects the part focused
  const focused = document.activeElement ?? section;
  fireEvent.keyDown(focused, { key: 'Backspace' });
  fireEvent.input(focused, { target: { textContent: '' } }); // the part's text, deleted
}

test('a half-typed date shows an error in the interface language, stays as typed and is not saved', async () => {
  for (const [locale, part, shown, message, save] of [
    ['en-US', 2, '05/01/YYYY', 'Not a complete date: finish it or clear it', 'Save'],
    ['zh-CN', 0, 'YYYY-05-01', '日期不完整：请填完整或清空', '保存'],
  ] as const) {
    const onSubmit = form(locale, { day: '2026-05-01', at: null });
    await clearPart(part); // the year: last in English (month first), first in Chinese
    await waitFor(() =>
      expect(document.querySelector<HTMLInputElement>('input[name="day"]')?.value).toBe(shown),
    );
    fireEvent.blur(document.activeElement ?? document.body); // leaving the field, as the click on save does
    fireEvent.click(screen.getByRole('button', { name: save }));
    expect(await screen.findByText(message, {}, { timeout: 5000 })).toBeTruthy();
    expect((await box('day')).value).toBe(shown);
    expect(onSubmit).not.toHaveBeenCalled();
    cleanup();
  }
}, 60_000);

test('no screen uses a native date input or react-admin’s (they follow the browser’s language)', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
    );
  const offenders = files('src').filter(
    (f) =>
      !f.startsWith(join('src', 'components', 'dates')) &&
      /\b(DateInput|DateTimeInput|TimeInput)\b|type="(date|datetime-local|time)"|'datetime-local'/.test(
        readFileSync(f, 'utf8'),
      ),
  );
  expect(offenders).toEqual([]);
});
