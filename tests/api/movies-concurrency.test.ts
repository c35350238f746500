import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startApi, type TestApi } from './harness';
import { createMovie, type MovieFixture, makeFixture, okData } from './movies-helpers';

/** Issue #3 under concurrent requests (truly parallel on PostgreSQL, serialized on PGlite): rules and counts hold. */
let api: TestApi;
let admin: string;
let fx: MovieFixture;
const M = '/app/admin/movie/movies';
/** Anything the API logged as an unhandled error (a deadlock that escaped the retry would land here). */
const serverErrors: unknown[] = [];

beforeAll(async () => {
  api = await startApi({}, { logger: { info() {}, warn() {}, error: (o) => serverErrors.push(o) } });
  admin = await api.login();
  fx = await makeFixture(api, admin);
});
afterAll(() => api.close());

test('eight simultaneous approvals of one item: exactly one succeeds, the others are 40900', async () => {
  const m = await createMovie(api, admin, { title: '并发审核' });
  const answers = await Promise.all(
    Array.from({ length: 8 }, () => api.call('POST', `${M}/${m.id}/approve`, { token: admin })),
  );
  const codes = answers.map((a) => a.body.code).sort();
  expect(codes).toEqual([20000, ...Array(7).fill(40900)]);
  expect((await okData(api.call('GET', `${M}/${m.id}`, { token: admin }))).version).toBe(2);
});

test('criss-crossing column moves and tag changes at once leave every count right', async () => {
  const { movies: a, series: b } = fx.columns;
  const ids: number[] = [];
  for (let i = 0; i < 12; i++)
    ids.push(
      (await createMovie(api, admin, { title: `交叉${i}`, columnId: i % 2 ? a : b, tagIds: [fx.tags.hot] }))
        .id,
    );
  const batch = (body: unknown) => api.call('POST', `${M}/batch`, { token: admin, body });
  const answers = await Promise.all([
    batch({ action: 'setColumn', ids: ids.slice(0, 6), columnId: a }),
    batch({ action: 'setColumn', ids: ids.slice(6), columnId: b }),
    batch({ action: 'setColumn', ids: ids.filter((_, i) => i % 3 === 0), columnId: fx.columns.empty }),
    batch({ action: 'addTags', ids, tagIds: [fx.tags.new, fx.tags.hd] }),
    batch({ action: 'removeTags', ids: ids.slice(3, 9), tagIds: [fx.tags.hot, fx.tags.new] }),
    api.call('PUT', `${M}/${ids[0]}`, {
      token: admin,
      body: { columnId: b, tagIds: [fx.tags.dup], version: 1 },
    }),
  ]);
  for (const r of answers) expect([20000, 40900]).toContain(r.body.code);
  const wrong = await api.query(sql`
    select c.id from movie_columns c where c.item_count <> (select count(*) from movies m where m.column_id = c.id)
    union all
    select t.id from movie_tags t where t.item_count <> (select count(*) from movie_tag_links l where l.tag_id = t.id)`);
  expect(wrong).toEqual([]);
  expect(serverErrors).toEqual([]);
});
