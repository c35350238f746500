import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Counter, counterOf, viewPageStart, weekStart } from '../../server/modules/movie/totals';
import { countDrift } from '../../server/seed/bulk';
import { startApi, type TestApi } from './harness';
import { type MovieFixture, makeFixture, okData } from './movies-helpers';

/**
 * Issue #18: a deep page of a view or status with no other filter starts its walk at the week that holds its first
 * row (migration 0122 movie_count_weeks, totals.ts viewPageStart): the same rows as the table's order, whatever the
 * view, sort and direction, and the weeks kept exact through writes.
 */
let api: TestApi;
let admin: string;
let fx: MovieFixture;
const M = '/app/admin/movie/movies';
const list = (query: string) => okData(api.call('GET', `${M}?${query}`, { token: admin }), query);

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  // 3,000 movies over 200 days in four statuses; the online and offline published a day later, a few pending too;
  // some made at the same moment (ties broken by id).
  await api.query(sql`insert into movies (title, status, created_at, published_at)
    select '周片 ' || i, s.status, timestamptz '2025-09-01 00:00Z' + (i / 3) * interval '4 hours 48 minutes',
      case when s.status in ('online', 'offline') or i % 17 = 0
        then timestamptz '2025-09-02 00:00Z' + (i / 2) * interval '3 hours 12 minutes' end
    from generate_series(1, 3000) as i,
      lateral (select (array['pending', 'rejected', 'online', 'online', 'offline'])[1 + i % 5] as status) as s`);
  // A column, a tag (through its links), platforms and the flags on some of them.
  fx = await makeFixture(api, admin);
  await api.query(sql`update movies set column_id = ${fx.columns.series} where id % 3 = 0`);
  await api.query(sql`insert into movie_tag_links (movie_id, tag_id) select id, ${fx.tags.hot} from movies
    where id % 4 = 1`);
  await api.query(sql`update movies set platforms = array[2, 2, 4], recommended = (id % 5 = 0), free = (id % 2 = 0)
    where id % 2 = 0`);
});
afterAll(() => api?.close());

describe('deep pages of a view start at their week', () => {
  test('where a page starts: the week that holds its first row, the rows before it, the undated apart', () => {
    const weeks = [
      { week: '2026-03-09', n: 30 },
      { week: '2026-03-02', n: 25 },
      { week: '2026-02-23', n: 40 },
    ];
    const page = (offset: number) => ({ offset, pageSize: 20 });
    // Descending: the first week's pages start where they are; then at the week holding the offset.
    expect(weekStart(weeks, 95, true, page(0))).toBeUndefined();
    expect(weekStart(weeks, 95, true, page(29))).toBeUndefined();
    expect(weekStart(weeks, 95, true, page(30))).toEqual({ week: '2026-03-02', before: 30 });
    expect(weekStart(weeks, 95, true, page(60))).toEqual({ week: '2026-02-23', before: 55 });
    // 10 undated come last: a page reaching them starts from the beginning.
    expect(weekStart(weeks, 105, true, page(75))).toEqual({ week: '2026-02-23', before: 55 });
    expect(weekStart(weeks, 105, true, page(76))).toBeUndefined();
    // Ascending (weeks oldest first), the undated come first and count before every week.
    const asc = [...weeks].reverse();
    expect(weekStart(asc, 105, false, page(9))).toBeUndefined();
    expect(weekStart(asc, 105, false, page(10))).toEqual({ week: '2026-02-23', before: 10 });
    expect(weekStart(asc, 105, false, page(50))).toEqual({ week: '2026-03-02', before: 50 });
  });

  test('the same rows as the table gives, for each view, status, sort and direction', async () => {
    const hot = `id in (select movie_id from movie_tag_links where tag_id = ${fx.tags.hot})`;
    const cases = [
      ['view=all', 'true'],
      ['view=review', "status in ('pending', 'rejected')"],
      ['view=online', "status in ('online', 'offline')"],
      ['view=online&status=offline', "status = 'offline'"],
      ['view=review&status=pending', "status = 'pending'"],
      [`view=review&tagId=${fx.tags.hot}`, `status in ('pending', 'rejected') and ${hot}`],
      [
        `view=online&columnId=${fx.columns.series}`,
        `status in ('online', 'offline') and column_id = ${fx.columns.series}`,
      ],
      ['view=all&platform=4', 'platforms @> array[4]'],
      ['view=online&recommended=true', "status in ('online', 'offline') and recommended"],
      ['view=review&status=rejected&free=false', "status = 'rejected' and not free"],
    ];
    let started = 0;
    for (const [view, where] of cases)
      for (const [sort, column] of [
        ['createdAt', 'created_at'],
        ['publishedAt', 'published_at'],
      ])
        for (const order of ['desc', 'asc']) {
          const [{ n }] = await api.query<{ n: number }>(
            sql.raw(`select count(*)::int as n from movies where ${where}`),
          );
          const last = Math.ceil(n / 20);
          for (const page of new Set([2, 9, Math.ceil(last / 2), last - 1, last].filter((p) => p >= 1))) {
            const query = `${view}&sort=${sort}&order=${order}&pageSize=20&page=${page}`;
            const nulls = order === 'desc' ? 'nulls last' : 'nulls first';
            const expected = await api.query<{ id: number }>(
              sql.raw(`select id from movies where ${where}
                order by ${column} ${order} ${nulls}, id ${order} limit 20 offset ${(page - 1) * 20}`),
            );
            const got = await list(query);
            expect({ query, ids: got.list.map((m: any) => m.id) }).toEqual({
              query,
              ids: expected.map((r) => r.id),
            });
            const params = Object.fromEntries(new URLSearchParams(view));
            const statuses = params.status
              ? [params.status]
              : {
                  all: ['pending', 'rejected', 'online', 'offline'],
                  review: ['pending', 'rejected'],
                  online: ['online', 'offline'],
                }[params.view as 'all'];
            const start = await viewPageStart(
              api.database.db,
              statuses as any,
              counterOf(params) as Counter,
              sort === 'createdAt' ? 'created' : 'published',
              order === 'desc',
              { offset: (page - 1) * 20, pageSize: 20 },
            );
            if (start) started++;
          }
        }
    // Most of these pages started at a week (the rest: the first week's, or reaching the unpublished).
    expect(started).toBeGreaterThan(100);
  });

  test('the weeks follow every write', async () => {
    await api.query(
      sql`update movies set status = 'online', published_at = now() where status = 'pending' and id % 7 = 0`,
    );
    await api.query(sql`update movies set created_at = created_at - interval '20 days' where id % 9 = 0`);
    await api.query(sql`update movies set published_at = null where status = 'offline' and id % 4 = 0`);
    await api.query(sql`delete from movies where id % 13 = 0`);
    await api.query(sql`update movies set views = views + 1`);
    // Counted fields: a column, the flags, platforms, and tags through their links.
    await api.query(sql`update movies set column_id = ${fx.columns.action} where id % 11 = 0`);
    await api.query(
      sql`update movies set recommended = not recommended, platforms = array[4] where id % 6 = 0`,
    );
    await api.query(sql`delete from movie_tag_links where movie_id % 8 = 1`);
    await api.query(sql`insert into movie_tag_links (movie_id, tag_id) select id, ${fx.tags.new} from movies
      where id % 10 = 3`);
    expect(await countDrift(api.database.db)).toEqual([]);
    await api.query(sql`update movie_count_weeks set n = n + 1 where sort = 'created'`);
    expect((await countDrift(api.database.db)).length).toBeGreaterThan(0);
    await api.query(sql`select zg_movie_counts_rebuild()`);
    expect(await countDrift(api.database.db)).toEqual([]);
    const got = await list('view=review&sort=createdAt&order=desc&pageSize=20&page=30');
    const expected = await api.query<{ id: number }>(
      sql`select id from movies where status in ('pending', 'rejected') order by created_at desc, id desc
        limit 20 offset 580`,
    );
    expect(got.list.map((m: any) => m.id)).toEqual(expected.map((r) => r.id));
  });
});
