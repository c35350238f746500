import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { decryptImage, hasMarker, imageCipher } from '../../server/modules/images/cipher';
import { sniffImage } from '../../server/modules/images/format';
import { isImagePath } from '../../server/modules/images/paths';
import { seed } from '../../server/seed';
import { generateMovies, seedMovies } from '../../server/seed/movies';
import { startApi, type TestApi } from './harness';
import { okData } from './movies-helpers';

/** Issue #3: the seed generator is deterministic, batched, and leaves the counts right. */
let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

test('the same seed gives the same movies; another seed gives others', () => {
  const now = new Date('2026-06-01T00:00:00Z');
  const a = [...generateMovies(7, 50, now)];
  expect([...generateMovies(7, 50, now)]).toEqual(a);
  expect([...generateMovies(8, 50, now)].map((m) => m.title)).not.toEqual(a.map((m) => m.title));
  expect(new Set(a.map((m) => m.status))).toEqual(new Set(['online', 'offline', 'pending', 'rejected']));
});

test('seed() makes 200 demo movies with their links; counts match; a second run does nothing', async () => {
  const first = await seed(api.database.db, api.config, { seed: 42, modules: [] }); // movies only: no module's sample data
  expect(first).toEqual({ seeded: true });
  const [{ n }] = await api.query<{ n: number }>(sql`select count(*)::int as n from movies`);
  expect(n).toBe(200);
  const wrong = await api.query(sql`
    select c.id from movie_columns c
      where c.item_count <> (select count(*) from movies m where m.column_id = c.id)
    union all
    select t.id from movie_tags t
      where t.item_count <> (select count(*) from movie_tag_links l where l.tag_id = t.id)`);
  expect(wrong).toEqual([]);
  const [{ plays }] = await api.query<{ plays: number }>(
    sql`select count(*)::int as plays from movies m where not exists (select 1 from movie_plays p where p.movie_id = m.id)`,
  );
  expect(plays).toBe(0);
  expect(await seedMovies(api.database.db, { movies: 10, batchSize: 3 })).toEqual({ seeded: 0 });

  const token = await api.login();
  const review = await okData(api.call('GET', '/app/admin/movie/movies?view=review&pageSize=10', { token }));
  const online = await okData(api.call('GET', '/app/admin/movie/movies?view=online&pageSize=10', { token }));
  expect(review.total + online.total).toBe(200);
  expect(review.total).toBeGreaterThan(20);
  const search = await okData(api.call('GET', '/app/admin/movie/movies?q=夏日', { token }));
  expect(search.total).toBeGreaterThan(0);
  for (const m of search.list) expect(m.title).toContain('夏日');
  const one = await okData(api.call('GET', `/app/admin/movie/movies/${online.list[0].id}`, { token }));
  expect(one.plays[0].url).toMatch(/^https:\/\/cdn1\.example\.com\/hls\/v\/42\/\d+\/index\.m3u8$/);
});

test('batches: a small batch size gives the same data as one big batch', async () => {
  const other = await startApi();
  try {
    await seedMovies(other.database.db, { seed: 42, movies: 37, batchSize: 5 });
    const rows = await other.query<{ title: string }>(sql`select title from movies order by id`);
    expect(rows.map((r) => r.title)).toEqual(
      [...generateMovies(42, 37, new Date('2026-06-01T00:00:00Z'))].map((m) => m.title),
    );
  } finally {
    await other.close();
  }
});

test('with an image store, seeded movies get covers stored encrypted like uploads, served under /img, decrypting to PNGs', async () => {
  const other = await startApi();
  try {
    await seed(other.database.db, other.config, {
      seed: 42,
      movies: 30,
      actresses: 3,
      images: other.images,
      modules: [],
    });
    const rows = (await other.database.db.execute(sql`select cover from movies`)) as any;
    const covers: string[] = (rows.rows ?? rows).map((r: { cover: string }) => r.cover);
    expect(covers).toHaveLength(30);
    expect(covers.every((c) => isImagePath(c))).toBe(true);
    expect(new Set(covers).size).toBe(12);
    const stored = await other.images.get(covers[0]);
    expect(hasMarker(stored!)).toBe(true);
    const plain = await decryptImage(imageCipher(other.config), stored!);
    expect(sniffImage(plain)).toMatchObject({ ext: 'png', width: 128, height: 72 });
    const served = await other.app.request(`/img${covers[0]}`);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(stored);
  } finally {
    await other.close();
  }
});
