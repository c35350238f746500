// @vitest-environment jsdom

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import {
  AdminContext,
  memoryStore,
  ResourceContextProvider,
  SimpleForm,
  testDataProvider,
  useTranslate,
} from 'react-admin';
import { afterEach, expect, test, vi } from 'vitest';
import { DayInput, DayPicker, InstantInput } from '../../src/components/dates';
import { PeriodBar, useReportPeriod } from '../../src/components/ReportPeriod';
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
    }, // the pickers load with the first one shown
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
    expect(await screen.findByText(message)).toBeTruthy();
    expect((await box('day')).value).toBe(shown);
    expect(onSubmit).not.toHaveBeenCalled();
    cleanup();
  }
}, 60_000);

/**
 * A period as the settlement dialog has it (AgentStat's SettleButton): two day pickers outside a form, the end's
 * minimum being the start; each commits only a day within its bounds.
 */
function period(locale: 'zh-CN' | 'en-US') {
  const commits: [string, string][] = [];
  const MAX = '2026-11-30';
  function Period() {
    const translate = useTranslate();
    const [from, setFrom] = useState<string | null>(null);
    const [to, setTo] = useState<string | null>(null);
    return (
      <>
        <DayPicker
          label="Start"
          value={from ?? ''}
          max={MAX}
          onCommit={(d) => {
            commits.push(['from', d]);
            setFrom(d);
          }}
          invalidText={translate('report.period.invalid', { min: '—', max: MAX })}
        />
        <DayPicker
          label="End"
          value={to ?? ''}
          min={from ?? undefined}
          max={MAX}
          onCommit={(d) => {
            commits.push(['to', d]);
            setTo(d);
          }}
          invalidText={translate('report.period.invalid', { min: from ?? '—', max: MAX })}
        />
      </>
    );
  }
  render(
    <AdminContext dataProvider={testDataProvider()} i18nProvider={createI18nProvider(locale)}>
      <Period />
    </AdminContext>,
  );
  return commits;
}

/** The n-th picker's field and its value box (the hidden input: what the field shows, as one string). */
async function picker(n: number) {
  const root = await waitFor(() => {
    const r = document.querySelectorAll<HTMLElement>('.MuiPickersInputBase-root')[n];
    if (!r) throw new Error(`no picker ${n} yet`);
    return r;
  });
  return { root, box: root.querySelector('input') as HTMLInputElement };
}

/**
 * Types digits into a picker's field from its first part, a key at a time and `delay` ms apart, as an operator (or
 * playwright's `keyboard.type` with a delay) does: each key fills the focused part (the browser puts it in the part's
 * text and fires `input`, which MUI's field reads). Between keys the page's timers run: a loaded machine's key arrives
 * after them, and so does every key here, whatever the machine's load.
 */
async function typeDigits(n: number, digits: string, delay = 20, afterEach?: (typed: string) => void) {
  const { root } = await picker(n);
  const first = root.querySelector<HTMLElement>('[role="spinbutton"]') as HTMLElement;
  fireEvent.mouseDown(first);
  first.focus();
  fireEvent.click(first);
  await act(() => new Promise((r) => setTimeout(r, 50))); // the picker selects the part focused
  for (const key of digits) {
    const part = document.activeElement as HTMLElement;
    fireEvent.keyDown(part, { key });
    part.textContent = key;
    fireEvent.input(part);
    fireEvent.keyUp(part, { key });
    await act(() => new Promise((r) => setTimeout(r, delay)));
    afterEach?.(key);
  }
}

test('a day typed key by key through days out of bounds is kept whole and committed', async () => {
  // Typed digit by digit after a start of 2026-11-05, the end passes through 2026-11-02 (zh-CN: the day's first digit)
  // or 0002-11-29 (en-US: the year's), before its minimum; the field lost its other parts and kept "29" or "2026".
  for (const [locale, start, end, shownStart, shownEnd] of [
    ['zh-CN', '20261105', '20261129', '2026-11-05', '2026-11-29'],
    ['en-US', '11052026', '11292026', '11/05/2026', '11/29/2026'],
  ] as const) {
    const commits = period(locale);
    await typeDigits(0, start);
    await waitFor(() => expect(commits).toContainEqual(['from', '2026-11-05']));
    await typeDigits(1, end);
    expect((await picker(1)).box.value).toBe(shownEnd);
    expect((await picker(0)).box.value).toBe(shownStart);
    expect(commits.filter(([which]) => which === 'to')).toEqual([['to', '2026-11-29']]);
    expect(document.querySelector('.Mui-error')).toBeNull();
    cleanup();
  }
}, 60_000);

test('typing through a day out of bounds says nothing; a day left out of bounds is said once it stands, or at once when the field is left', async () => {
  for (const [locale, start, end, message] of [
    ['zh-CN', '20261105', '20261129', '请输入 2026-11-05 至 2026-11-30 之间的日期'],
    ['en-US', '11052026', '11292026', 'Enter a date between 2026-11-05 and 2026-11-30'],
  ] as const) {
    const commits = period(locale);
    await typeDigits(0, start);
    await waitFor(() => expect(commits).toContainEqual(['from', '2026-11-05']));
    // 2026-11-02 (zh-CN) or 0002-11-29 (en-US) on the way: no error flashes between the keys
    const flashed: string[] = [];
    await typeDigits(1, end, 20, (key) => {
      if (screen.queryByText(message) || document.querySelector('.Mui-error')) flashed.push(key);
    });
    expect(flashed).toEqual([]);
    expect(commits.filter(([which]) => which === 'to')).toEqual([['to', '2026-11-29']]);
    cleanup();
  }
  // typed and left out of bounds, then the field left: said at once
  const commits = period('en-US');
  await typeDigits(0, '11052026');
  await waitFor(() => expect(commits).toContainEqual(['from', '2026-11-05']));
  await typeDigits(1, '11022026');
  const { root } = await picker(1);
  fireEvent.blur(root.querySelector('[role="spinbutton"]') as HTMLElement);
  expect(screen.getByText('Enter a date between 2026-11-05 and 2026-11-30')).toBeTruthy();
  cleanup();
}, 60_000);

test('a day typed key by key out of bounds stays as typed, with the bounds in the interface language', async () => {
  for (const [locale, start, end, shownEnd, again, shownAgain, message] of [
    [
      'zh-CN',
      '20261105',
      '20261102',
      '2026-11-02',
      '20261106',
      '2026-11-06',
      '请输入 2026-11-05 至 2026-11-30 之间的日期',
    ],
    [
      'en-US',
      '11052026',
      '11022026',
      '11/02/2026',
      '11062026',
      '11/06/2026',
      'Enter a date between 2026-11-05 and 2026-11-30',
    ],
  ] as const) {
    const commits = period(locale);
    await typeDigits(0, start);
    await waitFor(() => expect(commits).toContainEqual(['from', '2026-11-05']));
    await typeDigits(1, end);
    expect(await screen.findByText(message)).toBeTruthy();
    expect((await picker(1)).box.value).toBe(shownEnd);
    expect(commits.filter(([which]) => which === 'to')).toEqual([]);
    // typed again within the bounds, it is committed and the error goes (typed over a day, the parts in between
    // may be committed too: in en-US 2026-11-06 once the day is typed, again once the year is)
    await typeDigits(1, again);
    await waitFor(() => expect(commits.at(-1)).toEqual(['to', '2026-11-06']));
    expect((await picker(1)).box.value).toBe(shownAgain);
    expect(screen.queryByText(message)).toBeNull();
    cleanup();
    // out of bounds again, then the start moved before it: the bounds now take it in and it is committed
    const more = period(locale);
    await typeDigits(0, start);
    await waitFor(() => expect(more).toContainEqual(['from', '2026-11-05']));
    await typeDigits(1, end);
    expect(await screen.findByText(message)).toBeTruthy();
    await typeDigits(0, locale === 'zh-CN' ? '20261101' : '11012026');
    // (typed over, the start passes through days before the end, 0002-11-05 …: the end may be committed then)
    await waitFor(() => expect(more.at(-1)).toEqual(['from', '2026-11-01']));
    expect(more.filter(([which]) => which === 'to').at(-1)).toEqual(['to', '2026-11-02']);
    expect((await picker(1)).box.value).toBe(shownEnd);
    expect((await picker(0)).box.value).toBe(locale === 'zh-CN' ? '2026-11-01' : '11/01/2026');
    expect(document.querySelector('.Mui-error')).toBeNull();
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

/** The period bar as the reports use it, reading the stored period it edits (issue #52). */
function bar(locale: 'zh-CN' | 'en-US') {
  const meta = { timeZone: 'Asia/Shanghai', today: '2026-12-06', earliest: '2026-11-07' };
  function Bar() {
    const state = useReportPeriod(meta.today);
    return (
      <>
        <PeriodBar state={state} meta={meta} />
        <output data-testid="read">{`${state.period.from}..${state.period.to}`}</output>
      </>
    );
  }
  render(
    <AdminContext
      dataProvider={testDataProvider()}
      i18nProvider={createI18nProvider(locale)}
      store={memoryStore()}
    >
      <Bar />
    </AdminContext>,
  );
  return () => screen.getByTestId('read').textContent;
}

test('a start refused where it is typed holds the end typed next: the report never reads a period nobody chose', async () => {
  for (const [locale, from, to, fixed, refusedText, kept] of [
    [
      'zh-CN',
      '20261101',
      '20261130',
      '20261107',
      '请输入 2026-11-07 至 2026-12-06 之间的日期',
      '有日期未生效，报表仍为 2026-11-30 至 2026-12-06',
    ],
    [
      'en-US',
      '11012026',
      '11302026',
      '11072026',
      'Enter a date between 2026-11-07 and 2026-12-06',
      'A date is not applied yet: the report still shows 2026-11-30 – 2026-12-06',
    ],
  ] as const) {
    const read = bar(locale);
    expect(read()).toBe('2026-11-30..2026-12-06'); // 近 7 天
    await typeDigits(0, from);
    expect(await screen.findByText(refusedText)).toBeTruthy();
    await typeDigits(1, to);
    // the start is refused: the end is held, the report keeps its period and says so; never 11-30 alone
    await act(() => new Promise((r) => setTimeout(r, 700)));
    expect(read()).toBe('2026-11-30..2026-12-06');
    expect(screen.getByText(kept)).toBeTruthy();
    expect(screen.getByText(refusedText)).toBeTruthy();
    // the start put right: the report reads it with the end that was held, as both boxes show
    await typeDigits(0, fixed);
    await waitFor(() => expect(read()).toBe('2026-11-07..2026-11-30'));
    expect((await picker(0)).box.value).toBe(locale === 'zh-CN' ? '2026-11-07' : '11/07/2026');
    expect((await picker(1)).box.value).toBe(locale === 'zh-CN' ? '2026-11-30' : '11/30/2026');
    expect(screen.queryByText(kept)).toBeNull();
    expect(document.querySelector('.Mui-error')).toBeNull();
    cleanup();
  }
}, 60_000);

test('an end typed before the start is refused where it is typed and held until the start moves before it', async () => {
  const read = bar('zh-CN');
  await typeDigits(1, '20261120');
  expect(await screen.findByText('开始日期不能晚于结束日期')).toBeTruthy();
  expect(read()).toBe('2026-11-30..2026-12-06');
  await typeDigits(0, '20261110');
  await waitFor(() => expect(read()).toBe('2026-11-10..2026-11-20'));
  expect((await picker(1)).box.value).toBe('2026-11-20');
  expect(screen.queryByText('开始日期不能晚于结束日期')).toBeNull();
}, 60_000);

test('a day picker whose code was loaded ahead shows at once, without a placeholder first', async () => {
  vi.resetModules(); // the pickers' code not yet asked, as on a page that shows none before the report screen
  const dates = await import('../../src/components/dates');
  await dates.preloadDayPicker();
  const placeholders: boolean[] = [];
  const observer = new MutationObserver(() =>
    placeholders.push(!!document.querySelector('[data-date-placeholder]')),
  );
  observer.observe(document.body, { subtree: true, childList: true });
  render(
    <AdminContext dataProvider={testDataProvider()} i18nProvider={createI18nProvider('zh-CN')}>
      <dates.DayPicker label="Day" value="2026-11-30" max="2026-12-06" onCommit={() => {}} invalidText="" />
    </AdminContext>,
  );
  await waitFor(() => expect(document.querySelector('.MuiPickersInputBase-root')).not.toBeNull());
  observer.disconnect();
  expect(placeholders).not.toContain(true);
});

test('while the pickers load, the box standing for a form’s day input is named as the input will be', async () => {
  vi.resetModules(); // the pickers' code not yet loaded, as on the first screen that shows one
  const dates = await import('../../src/components/dates');
  render(
    <AdminContext dataProvider={testDataProvider()} i18nProvider={createI18nProvider('zh-CN')}>
      <ResourceContextProvider value="actress/list">
        <SimpleForm record={{ id: 1, birthday: '1996-05-01' }} onSubmit={vi.fn()}>
          <dates.DayInput source="birthday" />
        </SimpleForm>
      </ResourceContextProvider>
      <dates.DayPicker
        label="起始日"
        value="2026-11-30"
        max="2026-12-06"
        onCommit={() => {}}
        invalidText=""
      />
    </AdminContext>,
  );
  const [box, picker] = document.querySelectorAll('[data-date-placeholder] input');
  expect(box).toBeDefined();
  expect(screen.getByLabelText('生日')).toBe(box);
  // A picker outside a form is named by its label.
  expect(screen.getByLabelText('起始日')).toBe(picker);
  await waitFor(() => expect(document.querySelectorAll('.MuiPickersInputBase-root')).toHaveLength(2));
});
