import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startApi, type TestApi } from './harness';
import { createMovie, type MovieFixture, makeFixture, okData } from './movies-helpers';

/**
 * Issue #18: each movie carries its tag ids (`movies.tag_ids`, migration 0100), kept from `movie_tag_links` by
 * triggers, so a screen's list tests a tag filter in its sort index. The column must equal the links after every
 * kind of link write (create, edit, batch, tag merge, tag delete, raw SQL), and the list's tag filter and the tag
 * ids it answers must follow the links.
 */
let api: TestApi;
let admin: string;
let fx: MovieFixture;
const M = '/app/admin/movie/movies';
const call = (method: string, path: string, body?: unknown) => api.call(method, path, { token: admin, body });

/** Movies whose kept tag_ids differ from their links (should be none). */
async function drift() {
  const res = await api.database.db.execute(sql`
    select m.id, m.tag_ids::text as kept, coalesce((select array_agg(tag_id order by tag_id) from movie_tag_links l
      where l.movie_id = m.id), '{}')::text as links
    from movies m
    where m.tag_ids is distinct from coalesce((select array_agg(tag_id order by tag_id) from movie_tag_links l
      where l.movie_id = m.id), '{}')`);
  return (res as unknown as { rows?: unknown[] }).rows ?? res;
}

const listIds = async (query: string) =>
  (await okData(call('GET', `${M}?pageSize=100&sort=publishedAt&order=desc&${query}`))).list.map(
    (m: { id: number }) => m.id,
  );

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  fx = await makeFixture(api, admin);
});
afterAll(() => api.close());

test('tag_ids follows the links through creates, edits, merges, deletes and raw SQL; the list filters by it', async () => {
  const { hot, new: fresh, hd, dup } = fx.tags;
  const a = await createMovie(api, admin, { title: '标签影片 甲', tagIds: [hd, hot] });
  const b = await createMovie(api, admin, { title: '标签影片 乙', tagIds: [dup] });
  const c = await createMovie(api, admin, { title: '标签影片 丙', tagIds: [] });
  expect(a.tagIds).toEqual([hot, hd].sort((x, y) => x - y));
  expect(await drift()).toEqual([]);

  // An edit replaces the links; the answer and the list read the kept ids.
  const edited = await okData(call('PUT', `${M}/${c.id}`, { tagIds: [fresh, hot], version: c.version }));
  expect(edited.tagIds).toEqual([hot, fresh].sort((x, y) => x - y));
  expect((await okData(call('GET', `${M}/${c.id}`))).tagIds).toEqual(edited.tagIds);
  expect((await listIds(`tagId=${hot}`)).sort()).toEqual([a.id, c.id].sort());
  expect(await listIds(`view=review&tagId=${fresh}`)).toEqual([c.id]);
  expect(await drift()).toEqual([]);

  // A merge moves b's link to hd (and a keeps one hd), then deletes dup with its links.
  await okData(call('POST', `/app/admin/movie/tags/${hd}/merge`, { ids: [dup] }));
  expect((await listIds(`tagId=${hd}`)).sort()).toEqual([a.id, b.id].sort());
  expect(await listIds(`tagId=${dup}`)).toEqual([]);
  expect(await drift()).toEqual([]);

  // Deleting a tag takes it off its movies.
  await okData(call('DELETE', `/app/admin/movie/tags/${hot}`));
  const page = await okData(call('GET', `${M}?pageSize=100&ids=${a.id},${c.id}`));
  for (const m of page.list) expect(m.tagIds).not.toContain(hot);
  expect(await drift()).toEqual([]);

  // Raw writes to the links, several movies in one statement, keep it too.
  await api.database.db.execute(
    sql`insert into movie_tag_links (movie_id, tag_id) values (${a.id}, ${fresh}), (${b.id}, ${fresh})`,
  );
  expect((await listIds(`tagId=${fresh}`)).sort()).toEqual([a.id, b.id, c.id].sort());
  await api.database.db.execute(sql`update movie_tag_links set tag_id = ${hd} where movie_id = ${c.id}`);
  await api.database.db.execute(sql`delete from movie_tag_links where movie_id = ${b.id}`);
  expect(await drift()).toEqual([]);
  expect((await okData(call('GET', `${M}/${b.id}`))).tagIds).toEqual([]);

  // A deleted movie's links go by cascade without touching it.
  await okData(call('DELETE', `${M}/${a.id}`));
  expect(await drift()).toEqual([]);
});
