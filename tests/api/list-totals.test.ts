import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { COUNT_CAP } from '../../common/paging';
import { startApi, type TestApi } from './harness';

/**
 * Issue #18: every list counts its matches exactly up to COUNT_CAP (10,000) and answers `totalExact: false` with
 * `total: 10000` beyond ("10,000+"): the novels, the actresses (own routes) and the domains (the shared resource
 * factory, as ad materials, tags, sources, notices, pools, promotion apps and the operators).
 */
let api: TestApi;
let admin: string;
const N = COUNT_CAP + 5;

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  // 1,500 of each set carry the mark 甲 / a-, the rest 乙 / b-.
  await api.query(sql`insert into novels (title, author)
    select case when i <= 1500 then '长篇甲 ' else '长篇乙 ' end || i, '作者' from generate_series(1, ${N}) as i`);
  await api.query(sql`insert into actresses (name)
    select case when i <= 1500 then '演员甲' else '演员乙' end || i from generate_series(1, ${N}) as i`);
  await api.query(sql`insert into domains (tenant, hostname, registrable)
    select 2, case when i <= 1500 then 'a' else 'b' end || i || '.example.com', 'example.com'
    from generate_series(1, ${N}) as i`);
}, 120_000);

afterAll(async () => {
  await api?.close();
});

async function total(path: string) {
  const { body } = await api.call('GET', path, { token: admin });
  expect(body.code, JSON.stringify(body)).toBe(20000);
  expect(body.data.list).toHaveLength(10);
  return { total: body.data.total, totalExact: body.data.totalExact };
}

const q = (s: string) => encodeURIComponent(s);

describe('totals up to 10,000 exact, "10,000+" beyond', () => {
  test('novels', async () => {
    expect(await total(`/app/admin/novel/novels?pageSize=10&q=${q('长篇甲')}`)).toEqual({
      total: 1500,
      totalExact: true,
    });
    expect(await total(`/app/admin/novel/novels?pageSize=10&q=${q('长篇')}`)).toEqual({
      total: COUNT_CAP,
      totalExact: false,
    });
  });

  test('actresses', async () => {
    expect(await total(`/app/admin/actresses?pageSize=10&q=${q('演员甲')}`)).toEqual({
      total: 1500,
      totalExact: true,
    });
    expect(await total(`/app/admin/actresses?pageSize=10&q=${q('演员')}`)).toEqual({
      total: COUNT_CAP,
      totalExact: false,
    });
  });

  test('domains (the resource factory)', async () => {
    expect(await total('/app/admin/domain/domains?pageSize=10&q=a')).toEqual({
      total: 1500,
      totalExact: true,
    });
    expect(await total('/app/admin/domain/domains?pageSize=10')).toEqual({
      total: COUNT_CAP,
      totalExact: false,
    });
    expect(await total('/app/admin/domain/domains?pageSize=10&q=b')).toEqual({
      total: N - 1500,
      totalExact: true,
    });
  });
});
