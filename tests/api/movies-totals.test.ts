import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  COUNT_CAP,
  counterOf,
  gramCounted,
  searchAlone,
  statusWalkPays,
  WALK_FROM,
  walkPays,
} from '../../server/modules/movie/totals';
import { countDrift } from '../../server/seed/bulk';
import { startApi, type TestApi } from './harness';
import { createMovie, type MovieFixture, makeFixture, okData } from './movies-helpers';

/**
 * Issue #3, totals at scale (docs/sections.md "Totals at scale"): the counters a list total is read from stay equal to
 * count(*) through every kind of write, the API's totals are exact where it says so, and a capped total says so.
 */
let api: TestApi;
let admin: string;
let fx: MovieFixture;
const M = '/app/admin/movie/movies';

const call = (method: string, path: string, body?: unknown) => api.call(method, path, { token: admin, body });
const list = (query: string) => okData(call('GET', `${M}?${query}`), query);

/** Every kept count (movie_counts, column and tag item counts) equals the count recomputed from the rows. */
async function expectCountsExact() {
  expect(await countDrift(api.database.db)).toEqual([]);
}

/**
 * The filters a counter answers for, in both lists, each checked against the rows themselves: the total of a
 * full first page (10 rows, so the total is read from a counter) equals the number of rows all its pages list.
 */
async function expectTotalsExact() {
  const queries: string[] = [];
  for (const view of [
    'view=all',
    'view=review',
    'view=online',
    'status=online',
    'view=review&status=pending',
  ]) {
    queries.push(view);
    for (const c of Object.values(fx.columns)) queries.push(`${view}&columnId=${c}`);
    for (const t of Object.values(fx.tags)) queries.push(`${view}&tagId=${t}`);
    for (const p of [1, 2, 4]) queries.push(`${view}&platform=${p}`);
    for (const f of ['free=true', 'free=false', 'recommended=true', 'recommended=false'])
      queries.push(`${view}&${f}`);
  }
  for (const q of queries) {
    expect(counterOf(Object.fromEntries(new URLSearchParams(q)))).toBeDefined();
    const first = await list(`${q}&pageSize=10`);
    let rows = 0;
    for (let page = 1; ; page++) {
      const p = await list(`${q}&pageSize=100&page=${page}`);
      rows += p.list.length;
      if (p.list.length < 100) break;
    }
    expect({ q, total: first.total, exact: first.totalExact }).toEqual({ q, total: rows, exact: true });
  }
}

let seq = 0;
async function make(n: number, o: { columnId?: number; tagIds?: number[]; platforms?: number[] } = {}) {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const m = await createMovie(api, admin, {
      title: `计数影片 ${++seq}`,
      columnId: o.columnId ?? null,
      tagIds: o.tagIds ?? [],
      platforms: o.platforms ?? [],
    });
    ids.push(m.id);
  }
  return ids;
}

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  fx = await makeFixture(api, admin);
});
afterAll(() => api.close());

describe('kept counts equal count(*) through every write', () => {
  let a: number[];
  let b: number[];
  let c: number[];

  test('creates (single, with links, duplicate platforms)', async () => {
    a = await make(14, {
      columnId: fx.columns.movies,
      tagIds: [fx.tags.hot, fx.tags.new],
      platforms: [2, 4],
    });
    b = await make(12, { columnId: fx.columns.action, tagIds: [fx.tags.hd], platforms: [2, 2, 1] });
    c = await make(11, { tagIds: [fx.tags.hot] });
    await expectCountsExact();
    await expectTotalsExact();
  });

  test('transitions one by one and in batches, with their tags', async () => {
    await okData(
      call('POST', `${M}/batch`, { action: 'approve', ids: [...a.slice(0, 12), ...b.slice(0, 11)] }),
    );
    await okData(call('POST', `${M}/${a[0]}/offline`));
    await okData(call('POST', `${M}/batch`, { action: 'offline', ids: b.slice(0, 4) }));
    await okData(call('POST', `${M}/batch`, { action: 'online', ids: b.slice(1, 3) }));
    await okData(call('POST', `${M}/${c[0]}/reject`, { reason: '不合规' }));
    await okData(call('POST', `${M}/batch`, { action: 'reject', ids: c.slice(1, 5), reason: '不合规' }));
    await okData(call('POST', `${M}/${c[1]}/approve`));
    await expectCountsExact();
    await expectTotalsExact();
  });

  test('edits of column, tags and platforms; batch column and tag changes', async () => {
    const m = await okData(call('GET', `${M}/${a[1]}`));
    await okData(
      call('PUT', `${M}/${a[1]}`, {
        version: m.version,
        columnId: fx.columns.series,
        tagIds: [fx.tags.hd],
        platforms: [1, 4, 4],
      }),
    );
    await okData(
      call('POST', `${M}/batch`, { action: 'setColumn', ids: c.slice(0, 8), columnId: fx.columns.series }),
    );
    await okData(
      call('POST', `${M}/batch`, {
        action: 'addTags',
        ids: [...b, ...c],
        tagIds: [fx.tags.new, fx.tags.dup],
      }),
    );
    await okData(
      call('POST', `${M}/batch`, { action: 'removeTags', ids: a.slice(0, 10), tagIds: [fx.tags.hot] }),
    );
    // A new title: its grams move (movie_gram_counts, migration 0112); not free; recommended (migration 0114).
    const t = await okData(call('GET', `${M}/${a[3]}`));
    await okData(call('PUT', `${M}/${a[3]}`, { version: t.version, title: '改名 City 视频', free: false }));
    await okData(
      call('POST', `${M}/batch`, { action: 'recommend', ids: [...a.slice(0, 6), ...b.slice(0, 3)] }),
    );
    await okData(call('POST', `${M}/batch`, { action: 'unrecommend', ids: a.slice(0, 2) }));
    await expectCountsExact();
    await expectTotalsExact();
  });

  test('tag merge, column move, tag delete', async () => {
    await okData(call('POST', `/app/admin/movie/tags/${fx.tags.hd}/merge`, { ids: [fx.tags.dup] }));
    delete fx.tags.dup;
    await okData(
      call('POST', `/app/admin/movie/columns/${fx.columns.action}/move-items`, { to: fx.columns.empty }),
    );
    const extra = await okData(call('POST', '/app/admin/movie/tags', { name: '临时', group: 'x' }));
    await okData(call('POST', `${M}/batch`, { action: 'addTags', ids: a, tagIds: [extra.id] }));
    await expectCountsExact();
    await okData(call('DELETE', `/app/admin/movie/tags/${extra.id}`));
    await expectCountsExact();
    await expectTotalsExact();
  });

  test('deletes, single and batch, take their tag counts with them', async () => {
    await okData(call('DELETE', `${M}/${a[2]}`));
    await okData(call('POST', `${M}/batch`, { action: 'delete', ids: [...b.slice(0, 5), ...c.slice(0, 3)] }));
    await expectCountsExact();
    await expectTotalsExact();
  });

  test('raw SQL writes keep them too (statement triggers): a multi-row update, a delete', async () => {
    await api.query(
      sql`update movies set status = 'offline', platforms = array[6, 1] where status = 'online'`,
    );
    await api.query(sql`update movie_tag_links set tag_id = ${fx.tags.new} where tag_id = ${fx.tags.hot}
      and movie_id not in (select movie_id from movie_tag_links where tag_id = ${fx.tags.new})`);
    await api.query(sql`delete from movies where id in (select id from movies order by id limit 3)`);
    await expectCountsExact();
    // Titles and statuses at once, a title alone, a status alone, and an update that changes neither.
    await api.query(sql`update movies set title = title || '视', status = 'pending' where id % 3 = 0`);
    await api.query(sql`update movies set title = upper(title) where id % 3 = 1`);
    await api.query(sql`update movies set status = 'rejected' where id % 3 = 2`);
    await api.query(sql`update movies set free = not free, recommended = (id % 2 = 0) where id % 4 = 1`);
    await api.query(sql`update movies set views = views + 1`);
    await expectTotalsExact();
  });

  test('zg_movie_counts_rebuild() repairs a drifted count', async () => {
    await api.query(sql`update movie_counts set n = n + 5 where dim = 'all'`);
    await api.query(sql`update movie_tags set item_count = 99`);
    await api.query(sql`update movie_gram_counts set n = n + 1 where gram = '视'`);
    expect((await countDrift(api.database.db)).length).toBeGreaterThan(0);
    await api.query(sql`select zg_movie_counts_rebuild()`);
    await expectCountsExact();
  });
});

describe('how a long title search reads its page', () => {
  test('walking the sort index pays for the first pages of a common word, not for deep pages of a rarer one', () => {
    const page = (n: number) => ({ offset: (n - 1) * 20, pageSize: 20 });
    // 4,703 matches among 299,393 movies (the bench's "city" in the review queue): page 1 walks about 1,300 movies.
    expect(walkPays(page(1), 4_703, 299_393)).toBe(true);
    // Page 50 would walk about 64,000 movies; the bitmap reads the 4,703 matches.
    expect(walkPays(page(50), 4_703, 299_393)).toBe(false);
    // A capped count (10,000+) among a million: the first pages walk, page 50 reads the matches.
    expect(walkPays(page(1), COUNT_CAP, 1_000_000)).toBe(true);
    expect(walkPays(page(50), COUNT_CAP, 1_000_000)).toBe(false);
    // Few matches never walk.
    expect(walkPays(page(1), WALK_FROM, 1_000_000)).toBe(false);
  });
});

describe('how a title search alone reads its page', () => {
  test('walking each status pays unless its walks would test many more movies than a bitmap reads matches', () => {
    // Review queue (300,000), 25,000 matches: page 50 walks about 24,000 entries, well under 20 × 25,000.
    expect(statusWalkPays({ offset: 980, pageSize: 20 }, 25_000, 300_000, 2)).toBe(true);
    // 4,700 matches: page 1 walks 2,500; page 50 would walk 127,000, over 94,000.
    expect(statusWalkPays({ offset: 0, pageSize: 20 }, 4_700, 300_000, 2)).toBe(true);
    expect(statusWalkPays({ offset: 980, pageSize: 20 }, 4_700, 300_000, 2)).toBe(false);
    // A walk never tests more than the rows: 30 matches in 60.
    expect(statusWalkPays({ offset: 980, pageSize: 20 }, 30, 60, 4)).toBe(true);
    expect(statusWalkPays({ offset: 0, pageSize: 20 }, 0, 300_000, 2)).toBe(false);
  });

  test('a kept gram count answers one or two characters in a view or status, alone or within a column', () => {
    expect(gramCounted({ view: 'review', q: '视频', page: 3, sort: 'createdAt' })).toBe(true);
    expect(gramCounted({ view: 'all', status: 'online', q: 'c' })).toBe(true);
    expect(gramCounted({ view: 'all', q: 'city' })).toBe(false);
    expect(gramCounted({ view: 'online', q: '视频', columnId: 3 })).toBe(true);
    expect(gramCounted({ view: 'all', q: '视频', tagId: 3 })).toBe(false);
    expect(gramCounted({ view: 'all', q: '视频', columnId: 3, free: true })).toBe(false);
    expect(gramCounted({ view: 'all', q: '视频片', columnId: 3 })).toBe(false);
    expect(gramCounted({ view: 'all', q: '' })).toBe(false);
    expect(searchAlone({ view: 'all', q: 'city', order: 'asc' })).toBe(true);
    expect(searchAlone({ view: 'all', q: 'city', free: true })).toBe(false);
  });
});

describe('which totals are exact', () => {
  test('a view or status with at most one of column, tag, platform maps onto a counter; anything else does not', () => {
    expect(counterOf({ view: 'online', page: 2, pageSize: 20, sort: 'views', order: 'desc' })).toEqual({
      dim: 'all',
      key: 0,
    });
    expect(counterOf({ view: 'review', status: 'pending', columnId: 3 })).toEqual({ dim: 'column', key: 3 });
    expect(counterOf({ view: 'all', tagId: 4 })).toEqual({ dim: 'tag', key: 4 });
    expect(counterOf({ view: 'all', platform: 2, q: '' })).toEqual({ dim: 'platform', key: 2 });
    expect(counterOf({ view: 'all', columnId: 3, tagId: 4 })).toBeUndefined();
    expect(counterOf({ view: 'all', q: '视频' })).toBeUndefined();
    expect(counterOf({ view: 'all', recommended: false })).toEqual({ dim: 'recommended', key: 0 });
    expect(counterOf({ view: 'online', free: 'true' })).toEqual({ dim: 'free', key: 1 });
    expect(counterOf({ view: 'all', free: false, columnId: 3 })).toBeUndefined();
    expect(counterOf({ view: 'all', viewsMin: 0 })).toBeUndefined();
    expect(counterOf({ view: 'all', createdFrom: '2026-01-01' })).toBeUndefined();
    expect(counterOf({ view: 'all', ids: [1, 2] })).toBeUndefined();
    expect(counterOf({ view: 'all', someFutureFilter: 1 })).toBeUndefined(); // a new filter falls back to counting
  });

  test(`over ${COUNT_CAP.toLocaleString('en')} matches a filtered total is capped and says so; under, it is exact`, async () => {
    await api.query(sql`insert into movies (title, status, column_id, views)
      select '批量视频 ' || i, 'pending', ${fx.columns.series}, i from generate_series(1, ${COUNT_CAP + 5}) as i`);
    await expectCountsExact();
    // A filter no counter knows beside the search (alone, a long search learns its count: movies-search-terms).
    const capped = await list(`q=${encodeURIComponent('批量视频')}&viewsMin=1&pageSize=10`);
    expect(capped).toMatchObject({ total: COUNT_CAP, totalExact: false });
    expect(capped.list).toHaveLength(10);
    // Over the cap the page walks the sort index (totals.ts readPlanned): the same rows, in the same order.
    const byViews = await list(
      `q=${encodeURIComponent('批量视频')}&sort=views&order=desc&pageSize=10&page=2`,
    );
    const top = COUNT_CAP + 5 - 10; // the first on page 2
    expect(byViews.list.map((m: any) => m.views)).toEqual(Array.from({ length: 10 }, (_, i) => top - i));
    // Deep, the matches are read through the title index and sorted instead (walkPays): the same order.
    const deep = await list(
      `q=${encodeURIComponent('批量视频')}&sort=views&order=desc&pageSize=100&page=100`,
    );
    expect(deep.list.map((m: any) => m.views)).toEqual(Array.from({ length: 100 }, (_, i) => 105 - i));
    const byTitle = await list(`q=${encodeURIComponent('批量视频')}&sort=title&order=asc&pageSize=10`);
    expect(byTitle.list.map((m: any) => m.title).slice(0, 3)).toEqual([
      '批量视频 1',
      '批量视频 10',
      '批量视频 100',
    ]);
    // The same set through a counter: exact.
    const all = (
      await api.query<{ n: number }>(sql`select count(*)::int as n from movies where status = 'pending'`)
    )[0].n;
    expect(await list('view=review&status=pending&pageSize=10')).toMatchObject({
      total: all,
      totalExact: true,
    });
    expect(await list(`view=review&columnId=${fx.columns.series}&pageSize=10`)).toMatchObject({
      totalExact: true,
    });
    // Issue #18: 1,500 matches (over the old cap of 1,000) are counted exactly.
    expect(await list(`q=${encodeURIComponent('批量视频')}&viewsMax=1500&pageSize=10`)).toMatchObject({
      total: 1500,
      totalExact: true,
    });
    // Issue #18: a search of one or two characters in a view or status alone reads its kept gram count: exact over
    // the cap, in any letter case.
    const grams = async (q: string, where: string) =>
      (
        await api.query<{ n: number }>(
          sql.raw(
            `select count(*)::int as n from movies where lower(title) like '%${q.toLowerCase()}%' ${where}`,
          ),
        )
      )[0].n;
    const shorts = [
      ['批量', ''],
      ['视', "and status in ('pending', 'rejected')", 'view=review'],
      ['量视', "and status = 'pending'", 'view=review&status=pending'],
      ['批', "and status in ('online', 'offline')", 'view=online'],
    ];
    for (const [q, where, view = ''] of shorts) {
      const n = await grams(q, where);
      expect(await list(`${view}&q=${encodeURIComponent(q)}&pageSize=10`), q).toMatchObject({
        total: n,
        totalExact: true,
      });
    }
    expect(await grams('批量', '')).toBeGreaterThan(COUNT_CAP);
    expect(await list(`q=${encodeURIComponent('批量')}&pageSize=10&sort=createdAt`)).toMatchObject({
      total: await grams('批量', ''),
    });
    // Within a column too (migration 0118): exact over the cap, and the page read walks the sort index as above.
    const inColumn = await grams('批量', `and column_id = ${fx.columns.series}`);
    expect(inColumn).toBeGreaterThan(COUNT_CAP);
    const columnPage = await list(
      `view=review&q=${encodeURIComponent('批量')}&columnId=${fx.columns.series}&sort=views&order=desc&pageSize=10`,
    );
    expect(columnPage).toMatchObject({ total: inColumn, totalExact: true });
    expect(columnPage.list.map((m: any) => m.views)).toEqual(
      Array.from({ length: 10 }, (_, i) => COUNT_CAP + 5 - i),
    );
    for (const [q, column, view] of [
      ['视', fx.columns.series, 'view=online'],
      ['计数', fx.columns.action, 'view=all'],
      ['计', fx.columns.empty, 'view=review&status=rejected'],
    ] as const) {
      const statuses = {
        'view=online': "('online', 'offline')",
        'view=all': "('pending', 'rejected', 'online', 'offline')",
        'view=review&status=rejected': "('rejected')",
      }[view];
      const n = await grams(q, `and column_id = ${column} and status in ${statuses}`);
      expect(
        await list(`${view}&q=${encodeURIComponent(q)}&columnId=${column}&pageSize=10`),
        q,
      ).toMatchObject({
        total: n,
        totalExact: true,
      });
    }
    // With another filter the gram's count does not hold: capped.
    expect(await list(`q=${encodeURIComponent('批量')}&free=true&pageSize=10`)).toMatchObject({
      total: COUNT_CAP,
      totalExact: false,
    });
    // A filter without a counter under the cap: counted exactly.
    expect(await list('viewsMin=100&viewsMax=199&pageSize=10')).toMatchObject({
      total: 100,
      totalExact: true,
    });
    const [{ n1000 }] = await api.query<{ n1000: number }>(
      sql`select count(*)::int as n1000 from movies where title like '%批量视频 10%'`,
    );
    expect(n1000).toBeGreaterThan(10);
    expect(await list(`q=${encodeURIComponent('批量视频 10')}&pageSize=10`)).toMatchObject({
      total: n1000,
      totalExact: true,
    });
    // Two counted filters at once have no counter either: capped count, exact here.
    const both = await list(`columnId=${fx.columns.series}&platform=6&pageSize=10`);
    const [{ n }] = await api.query<{ n: number }>(
      sql`select count(*)::int as n from movies where column_id = ${fx.columns.series} and platforms @> array[6]`,
    );
    expect(both).toMatchObject({ total: n, totalExact: true });
  });

  test('a short page gives its own total; a page past the end still answers the total', async () => {
    // 批量视频 100, 1000…1009, 10000…10005: 17 titles, 7 on the second page.
    const few = await list(`q=${encodeURIComponent('批量视频 100')}&pageSize=10&page=2`);
    expect(few.list).toHaveLength(7);
    expect(few).toMatchObject({ total: 17, totalExact: true });
    const past = await list('view=review&status=rejected&pageSize=100&page=500');
    expect(past.list).toEqual([]);
    const [{ n }] = await api.query<{ n: number }>(
      sql`select count(*)::int as n from movies where status = 'rejected'`,
    );
    expect(past).toMatchObject({ total: n, totalExact: true });
  });
});
