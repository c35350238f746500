// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, type DataProvider, ListContextProvider, testDataProvider } from 'react-admin';
import { afterEach, expect, onTestFinished, test, vi } from 'vitest';
import { formatInstant, utcOffsetLabel } from '../../common/period';
import { ExportCsvButton, toCsv } from '../../src/components/ExportCsvButton';
import { createI18nProvider } from '../../src/i18n';
import { envelope, stubFetch } from './api-fetch-stub';

/** Issue #17, lists: readable exports. */

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

test('an instant on a time zone wall clock, and the zone offset written UTC±hh:mm', () => {
  const t = new Date('2026-11-23T17:32:04.674Z');
  expect(formatInstant(t, 'Asia/Shanghai')).toBe('2026-11-24 01:32:04');
  expect(formatInstant(t, 'America/New_York')).toBe('2026-11-23 12:32:04');
  expect(utcOffsetLabel(t, 'Asia/Shanghai')).toBe('UTC+08:00');
  expect(utcOffsetLabel(t, 'Asia/Kolkata')).toBe('UTC+05:30');
  expect(utcOffsetLabel(t, 'America/New_York')).toBe('UTC-05:00');
});

test('CSV: instants on the tenant clock with the zone in their header; days, numbers, booleans readable', () => {
  const translate = createI18nProvider('zh-CN').translate as (k: string, a?: object) => string;
  const csv = toCsv(
    [
      { id: 1, at: '2026-11-23T17:32:04.674Z', day: '2026-11-23', on: true },
      { id: 2, at: null, day: '2026-11-22', on: false },
    ],
    [
      { label: 'resources.movie/onlinectx.fields.id', value: (r) => r.id },
      { label: 'resources.movie/onlinectx.fields.publishedAt', value: (r) => r.at },
      { label: 'resources.movie/onlinectx.fields.releaseDate', value: (r) => r.day },
      { label: 'resources.movie/onlinectx.fields.recommended', value: (r) => r.on },
    ],
    translate,
    'Asia/Shanghai',
  );
  const [header, ...rows] = csv.slice(1).split('\r\n');
  expect(header).toBe('ID,上线时间（Asia/Shanghai UTC+08:00）,发行日期,推荐');
  expect(rows).toEqual(['1,2026-11-24 01:32:04,2026-11-23,是', '2,,2026-11-22,否']);
  expect(csv).not.toMatch(/T\d\d:\d\d:\d\d/);
});

test('the export button reads the tenant time zone from the stats meta and writes times on that clock', async () => {
  const seen = stubFetch(envelope({ timeZone: 'America/New_York', today: '2026-11-23', earliest: null }));
  const getList = vi.fn(async () => ({
    data: [{ id: 7, at: '2026-11-23T17:32:04.674Z' }],
    total: 1,
  }));
  const blobs: Blob[] = [];
  const original = URL.createObjectURL;
  URL.createObjectURL = (b: Blob) => {
    blobs.push(b);
    return 'blob:x';
  };
  onTestFinished(() => {
    URL.createObjectURL = original;
  });
  render(
    <AdminContext
      dataProvider={testDataProvider({ getList } as Partial<DataProvider>)}
      i18nProvider={createI18nProvider('en-US')}
    >
      <ListContextProvider
        value={{ resource: 'x', filterValues: {}, sort: { field: 'id', order: 'ASC' }, total: 1 } as never}
      >
        <ExportCsvButton columns={[{ label: 'When', value: (r) => r.at }]} filename="x" />
      </ListContextProvider>
    </AdminContext>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Export' }));
  await waitFor(() => expect(blobs).toHaveLength(1));
  expect(seen[0].url).toContain('/app/admin/stats/meta');
  const text = (await blobs[0].text()).replace(/^\uFEFF/, '');
  expect(text).toBe('When (America/New_York UTC-05:00)\r\n2026-11-23 12:32:04');
});
