import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bulkSeedMovies, countDrift } from '../../server/seed/bulk';
import { seedMovies } from '../../server/seed/movies';
import { startApi, type TestApi } from './harness';
import { createMovie, okData } from './movies-helpers';

/**
 * Issue #3, the bulk seeder (server/seed/bulk.ts, used by `npm run bench -- movies`): COPY with the count triggers,
 * secondary indexes and foreign keys off, then everything rebuilt. It must write exactly what the normal seeder
 * writes through the normal INSERT path and leave the database as it found it.
 */
let normal: TestApi;
let bulk: TestApi;
const N = 1_300;

beforeAll(async () => {
  [normal, bulk] = await Promise.all([startApi(), startApi()]);
  await seedMovies(normal.database.db, { seed: 7, movies: N, batchSize: 500 });
  const result = await bulkSeedMovies(bulk.database.db, { seed: 7, movies: N, batchSize: 400 });
  expect(result.seeded).toBe(N);
}, 120_000);
afterAll(async () => {
  await Promise.all([normal?.close(), bulk?.close()]);
});

const both = async <T>(q: ReturnType<typeof sql>) =>
  [await normal.query<T>(q), await bulk.query<T>(q)] as const;

test('the same rows as the normal seeder: movies (title_grams included), links, plays, taxonomy', async () => {
  for (const q of [
    sql`select * from movies order by id`,
    sql`select * from movie_tag_links order by movie_id, tag_id`,
    sql`select * from movie_actresses order by movie_id, actress_id`,
    sql`select * from movie_plays order by id`,
    sql`select id, parent_id, name, sort, item_count from movie_columns order by id`,
    sql`select id, name, "group", hot, item_count from movie_tags order by id`,
    sql`select id, code, base_url from video_sources order by id`,
  ]) {
    const [a, b] = await both(q);
    expect(b.length).toBe(a.length);
    expect(b).toEqual(a);
  }
  const [[{ n }]] = await both<{ n: number }>(sql`select count(*)::int as n from movies`);
  expect(n).toBe(N);
  // title_grams is what the function of migration 0001 computes from the title, as on any insert.
  const [, wrong] = await both(sql`select id from movies where title_grams <> zg_title_grams(title)`);
  expect(wrong).toEqual([]);
});

test('the kept counts equal count(*) and the counts the triggers kept on the normal path', async () => {
  expect(await countDrift(bulk.database.db)).toEqual([]);
  expect(await countDrift(normal.database.db)).toEqual([]);
  const [a, b] = await both(sql`select * from movie_counts where n <> 0 order by dim, key, status`);
  expect(b).toEqual(a);
  expect(b.length).toBeGreaterThan(50);
});

test('indexes, foreign keys and triggers are back as they were; ANALYZE ran', async () => {
  const tables = sql`array['movies', 'movie_tag_links', 'movie_actresses', 'movie_plays']::regclass[]`;
  for (const q of [
    sql`select indexrelid::regclass::text as name, pg_get_indexdef(indexrelid) as def from pg_index
        where indrelid = any(${tables}) order by 1`,
    sql`select conrelid::regclass::text as t, conname, pg_get_constraintdef(oid) as def from pg_constraint
        where conrelid = any(${tables}) order by 1, 2`,
    sql`select tgrelid::regclass::text as t, tgname, tgenabled from pg_trigger
        where tgrelid = any(${tables}) and not tgisinternal order by 1, 2`,
  ]) {
    const [a, b] = await both(q);
    expect(b).toEqual(a);
  }
  const [, triggers] = await both<{ tgenabled: string }>(
    sql`select tgenabled from pg_trigger where tgrelid = 'movies'::regclass and not tgisinternal`,
  );
  expect(triggers.length).toBeGreaterThan(3);
  expect(new Set(triggers.map((t) => t.tgenabled))).toEqual(new Set(['O']));
  const [, [stats]] = await both<{ n: number }>(
    sql`select count(*)::int as n from pg_stats where tablename = 'movies' and attname = 'title_grams'`,
  );
  expect(stats.n).toBe(1);
});

test('after a bulk load the API writes on: new ids follow, counts stay right', async () => {
  const admin = await bulk.login();
  const [{ id: columnId }] = await bulk.query<{ id: number }>(
    sql`select id from movie_columns order by id limit 1`,
  );
  const [{ id: tagId }] = await bulk.query<{ id: number }>(
    sql`select id from movie_tags order by id limit 1`,
  );
  const m = await createMovie(bulk, admin, { title: '新片视频', columnId, tagIds: [tagId], platforms: [2] });
  expect(m.id).toBe(N + 1);
  await okData(bulk.call('POST', `/app/admin/movie/movies/${m.id}/approve`, { token: admin }));
  await okData(
    bulk.call('POST', '/app/admin/movie/movies/batch', {
      token: admin,
      body: { action: 'delete', ids: [1, 2, 3] },
    }),
  );
  expect(await countDrift(bulk.database.db)).toEqual([]);
  const list = await okData(
    bulk.call('GET', `/app/admin/movie/movies?view=online&columnId=${columnId}&pageSize=10`, {
      token: admin,
    }),
  );
  const [{ n }] = await bulk.query<{ n: number }>(
    sql`select count(*)::int as n from movies where column_id = ${columnId} and status in ('online', 'offline')`,
  );
  expect(list).toMatchObject({ total: n, totalExact: true });
  expect(await bulkSeedMovies(bulk.database.db, { movies: 10 })).toMatchObject({ seeded: 0 });
});
