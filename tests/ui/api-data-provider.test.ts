// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDataProvider } from '../../src/api/dataProvider';
import { envelope, queryOf, stubFetch } from './api-fetch-stub';

const dp = createDataProvider({ operators: 'admin/operators', stats: '/admin/stats/' });
const rows = [
  { id: 1, account: 'a', version: 1 },
  { id: 2, account: 'b', version: 4 },
];
const path = (url: string) => url.split('?')[0];

afterEach(() => vi.unstubAllGlobals());

describe('createDataProvider', () => {
  it('getList maps pagination, sort and filters and returns {data, total}', async () => {
    const seen = stubFetch(envelope({ list: rows, total: 42 }));
    const result = await dp.getList('operators', {
      pagination: { page: 3, perPage: 20 },
      sort: { field: 'createdAt', order: 'DESC' },
      filter: { q: 'li', role: ['admin', 'user'], disabled: false, empty: '', none: null, gone: undefined },
    });
    expect(result).toEqual({ data: rows, total: 42 });
    expect(seen[0].method).toBe('GET');
    expect(path(seen[0].url)).toBe('/app/admin/operators');
    expect(queryOf(seen[0].url)).toEqual({
      page: '3',
      pageSize: '20',
      sort: 'createdAt',
      order: 'desc',
      q: 'li',
      role: 'admin,user',
      disabled: 'false',
    });
  });

  it('getList of more rows than the API pages (an export of 10,000) reads pages of 100 until the list ends', async () => {
    const many = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from + i }));
    const seen = stubFetch((req) => {
      const page = Number(queryOf(req.url).page);
      return envelope({ list: page < 3 ? many((page - 1) * 100 + 1, 100) : many(201, 30), total: 230 });
    });
    const result = await dp.getList('operators', {
      pagination: { page: 1, perPage: 10000 },
      sort: { field: 'id', order: 'ASC' },
      filter: { q: 'x' },
    });
    expect(result.total).toBe(230);
    expect(result.data.map((r) => r.id)).toEqual(many(1, 230).map((r) => r.id));
    expect(seen.map((r) => [queryOf(r.url).page, queryOf(r.url).pageSize, queryOf(r.url).q])).toEqual([
      ['1', '100', 'x'],
      ['2', '100', 'x'],
      ['3', '100', 'x'],
    ]);
  });

  it('getList passes a capped total on as meta.totalExact = false', async () => {
    stubFetch(envelope({ list: rows, total: 1000, totalExact: false }));
    const capped = await dp.getList('operators', {
      pagination: { page: 1, perPage: 20 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    expect(capped).toEqual({ data: rows, total: 1000, meta: { totalExact: false } });
    stubFetch(envelope({ list: rows, total: 2, totalExact: true }));
    const exact = await dp.getList('operators', {
      pagination: { page: 1, perPage: 20 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    expect(exact).toEqual({ data: rows, total: 2 });
  });

  it('getList on a report keys rows by `key` and passes totals, previous totals and series as meta', async () => {
    const report = {
      list: [
        { key: '仙侠', searches: 9, previous: { searches: 3 } },
        { key: '12', label: 'Movie 12', searches: 2 },
      ],
      total: 7,
      totals: { searches: 30 },
      previousTotals: { searches: 12 },
      series: [{ date: '2026-11-22', searches: 30 }],
    };
    const seen = stubFetch(envelope(report), envelope({ ...report, previousTotals: undefined }));
    const params = {
      pagination: { page: 1, perPage: 20 },
      sort: { field: 'searches', order: 'DESC' as const },
      filter: { from: '2026-11-22', to: '2026-11-22', compare: true },
    };
    const result = await dp.getList('stats', params);
    expect(result).toEqual({
      data: [
        { id: '仙侠', key: '仙侠', searches: 9, previous: { searches: 3 } },
        { id: '12', key: '12', label: 'Movie 12', searches: 2 },
      ],
      total: 7,
      meta: { totals: { searches: 30 }, previousTotals: { searches: 12 }, series: report.series },
    });
    expect(queryOf(seen[0].url)).toMatchObject({ from: '2026-11-22', to: '2026-11-22', compare: 'true' });
    expect((await dp.getList('stats', params)).meta).toEqual({
      totals: { searches: 30 },
      series: report.series,
    });
  });

  it('getList on a report with a capped total passes meta.totalExact = false beside its totals', async () => {
    const report = { list: [{ key: '12', label: 'Movie 12' }], total: 10_000, totals: {}, series: [] };
    stubFetch(envelope({ ...report, totalExact: false }), envelope({ ...report, totalExact: true }));
    const params = {
      pagination: { page: 1, perPage: 20 },
      sort: { field: 'key', order: 'DESC' as const },
      filter: { type: 'movie' },
    };
    expect((await dp.getList('stats', params)).meta).toEqual({ totals: {}, series: [], totalExact: false });
    expect((await dp.getList('stats', params)).meta).toEqual({ totals: {}, series: [] });
  });

  it('getList sends order=asc and trims slashes of the API path', async () => {
    const seen = stubFetch(envelope({ list: [], total: 0 }));
    await dp.getList('stats', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    expect(path(seen[0].url)).toBe('/app/admin/stats');
    expect(queryOf(seen[0].url)).toMatchObject({ sort: 'id', order: 'asc' });
  });

  it('getOne GETs /{id}', async () => {
    const seen = stubFetch(envelope(rows[0]));
    await expect(dp.getOne('operators', { id: 1 })).resolves.toEqual({ data: rows[0] });
    expect(seen[0].url).toBe('/app/admin/operators/1');
  });

  it('getMany GETs ?ids=1,2', async () => {
    const seen = stubFetch(envelope({ list: rows, total: 2 }));
    await expect(dp.getMany('operators', { ids: [1, 2] })).resolves.toEqual({ data: rows });
    expect(seen[0].url).toBe('/app/admin/operators?ids=1%2C2');
  });

  it('getManyReference GETs ?<target>={id} with pagination', async () => {
    const seen = stubFetch(envelope({ list: rows, total: 2 }));
    const result = await dp.getManyReference('operators', {
      target: 'agentId',
      id: 9,
      pagination: { page: 1, perPage: 5 },
      sort: { field: 'id', order: 'ASC' },
      filter: { q: 'x' },
    });
    expect(result).toEqual({ data: rows, total: 2 });
    expect(queryOf(seen[0].url)).toEqual({
      agentId: '9',
      page: '1',
      pageSize: '5',
      sort: 'id',
      order: 'asc',
      q: 'x',
    });
  });

  it('create POSTs the data', async () => {
    const seen = stubFetch(envelope({ id: 3, account: 'c' }));
    const data = { account: 'c', password: 'pw12345678', nickname: 'C', role: 'user' };
    await expect(dp.create('operators', { data })).resolves.toEqual({ data: { id: 3, account: 'c' } });
    expect(seen[0]).toMatchObject({ url: '/app/admin/operators', method: 'POST', body: data });
  });

  it('update PUTs /{id} with the version taken from previousData when data lacks it', async () => {
    const seen = stubFetch(envelope({ ...rows[1], nickname: 'B', version: 5 }));
    const result = await dp.update('operators', {
      id: 2,
      data: { nickname: 'B' },
      previousData: rows[1],
    });
    expect(result.data.version).toBe(5);
    expect(seen[0]).toMatchObject({ url: '/app/admin/operators/2', method: 'PUT' });
    expect(seen[0].body).toEqual({ nickname: 'B', version: 4 });
  });

  it("update keeps the data's own version", async () => {
    const seen = stubFetch(envelope(rows[1]));
    await dp.update('operators', { id: 2, data: { nickname: 'B', version: 7 }, previousData: rows[1] });
    expect(seen[0].body).toEqual({ nickname: 'B', version: 7 });
  });

  it('delete DELETEs /{id} and returns the previous record when the API answers null', async () => {
    const seen = stubFetch(envelope(null));
    await expect(dp.delete('operators', { id: 1, previousData: rows[0] })).resolves.toEqual({
      data: rows[0],
    });
    expect(seen[0]).toMatchObject({ url: '/app/admin/operators/1', method: 'DELETE' });
  });

  it("deleteMany POSTs /batch {action: 'delete', ids}", async () => {
    const seen = stubFetch(envelope({ changed: 2 }));
    await expect(dp.deleteMany('operators', { ids: [1, 2] })).resolves.toEqual({ data: [1, 2] });
    expect(seen[0]).toMatchObject({ url: '/app/admin/operators/batch', method: 'POST' });
    expect(seen[0].body).toEqual({ action: 'delete', ids: [1, 2] });
  });

  it("updateMany POSTs /batch {action: 'update', ids, data}", async () => {
    const seen = stubFetch(envelope({ changed: 2 }));
    await expect(dp.updateMany('operators', { ids: [1, 2], data: { role: 'user' } })).resolves.toEqual({
      data: [1, 2],
    });
    expect(seen[0].body).toEqual({ action: 'update', ids: [1, 2], data: { role: 'user' } });
  });

  it('action POSTs /{id}/{name} with the body and resolves with data', async () => {
    const seen = stubFetch(envelope(null), envelope({ ok: true }));
    await dp.action('operators', 4, 'disable');
    await expect(dp.action('operators', 4, 'reset-password', { password: 'pw' })).resolves.toEqual({
      ok: true,
    });
    expect(seen.map((s) => [s.method, s.url, s.body])).toEqual([
      ['POST', '/app/admin/operators/4/disable', {}],
      ['POST', '/app/admin/operators/4/reset-password', { password: 'pw' }],
    ]);
  });

  it('batch POSTs /batch {action, ids, ...body} and resolves with data', async () => {
    const seen = stubFetch(envelope({ changed: 3 }));
    await expect(dp.batch('operators', 'disable', [1, 2, 3])).resolves.toEqual({ changed: 3 });
    expect(seen[0]).toMatchObject({ url: '/app/admin/operators/batch', method: 'POST' });
    expect(seen[0].body).toEqual({ action: 'disable', ids: [1, 2, 3] });
  });

  it('refuses a resource with no declared API path', async () => {
    stubFetch(envelope(null));
    await expect(dp.getOne('nowhere', { id: 1 })).rejects.toThrow(/nowhere/);
  });

  it('passes the abort signal of react-query through', async () => {
    const controller = new AbortController();
    const seen = stubFetch(envelope({ list: [], total: 0 }));
    await dp.getList('operators', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
      signal: controller.signal,
    });
    expect(seen[0].signal).toBe(controller.signal);
  });
});
