import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { seed } from '../../server/seed';
import { generateActresses } from '../../server/seed/actresses';
import { startApi, type TestApi, USER_PASSWORD } from './harness';
import { createMovie, okData } from './movies-helpers';

/**
 * Issue #4, actresses and movies: linking and unlinking in one transaction, the movie count kept exact through
 * every path (links, movie edits, movie deletes, batches), the delete guard and its forced unlink, and the movie
 * API refusing actresses that do not exist.
 */
let api: TestApi;
let admin: string;
let user: string;

const A = '/app/admin/actresses';
const M = '/app/admin/movie/movies';
const get = async (path: string, token = user) => okData(api.call('GET', path, { token }), path);
const post = async (path: string, body: unknown, token = user) =>
  okData(api.call('POST', path, { token, body }), `${path} ${JSON.stringify(body)}`);
const newActress = async (name: string) => (await post(A, { name })).id as number;
const newMovie = async (title: string, actressIds: number[] = []) =>
  (await createMovie(api, user, { title, actressIds })).id as number;
const countOf = async (id: number) => (await get(`${A}/${id}`)).movieCount as number;
const versionOf = async (movieId: number) => (await get(`${M}/${movieId}`)).version as number;

/** Every actress's movie_count equals her links: the invariant every test ends on. */
async function expectCountsExact() {
  const wrong = await api.query(sql`
    select a.id, a.movie_count, (select count(*) from movie_actresses l where l.actress_id = a.id)::int as links
    from actresses a where a.movie_count <> (select count(*) from movie_actresses l where l.actress_id = a.id)`);
  expect(wrong).toEqual([]);
}

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  await api.createOperator(admin, { account: 'linker' });
  user = await api.login('linker', USER_PASSWORD);
});
afterAll(() => api.close());

describe('linking', () => {
  test('link: every movie must exist or nothing is linked; repeats are no-ops; the count is exact', async () => {
    const her = await newActress('白语嫣');
    const m1 = await newMovie('第一部');
    const m2 = await newMovie('第二部');
    const v1 = await versionOf(m1);

    const bad = await api.call('POST', `${A}/${her}/movies`, {
      token: user,
      body: { movieIds: [m1, 999999] },
    });
    expect(bad.body.code).toBe(40000);
    expect(Object.keys(bad.body.data.fields)).toEqual(['movieIds']);
    expect(await countOf(her)).toBe(0);
    expect((await get(`${M}/${m1}`)).actressIds).toEqual([]);

    expect(await post(`${A}/${her}/movies`, { movieIds: [m1, m2, m1] })).toEqual({
      changed: 2,
      movieCount: 2,
    });
    expect(await post(`${A}/${her}/movies`, { movieIds: [m2] })).toEqual({ changed: 0, movieCount: 2 });
    expect((await get(`${M}/${m1}`)).actressIds).toEqual([her]);
    // An open movie form is now stale: the link changed the movie.
    expect(await versionOf(m1)).toBe(v1 + 1);

    const missing = await api.call('POST', `${A}/999999/movies`, { token: user, body: { movieIds: [m1] } });
    expect(missing.body.code).toBe(40400);
    const empty = await api.call('POST', `${A}/${her}/movies`, { token: user, body: { movieIds: [] } });
    expect(empty.body.code).toBe(40000);

    expect(await post(`${A}/${her}/unlink-movies`, { movieIds: [m1, 999999] })).toEqual({
      changed: 1,
      movieCount: 1,
    });
    expect((await get(`${M}/${m1}`)).actressIds).toEqual([]);
    expect(await versionOf(m1)).toBe(v1 + 2);
    expect(await post(`${A}/${her}/unlink-movies`, { movieIds: [m1] })).toEqual({
      changed: 0,
      movieCount: 1,
    });
    await expectCountsExact();
  });

  test('her movies: paged, sorted (allow-listed), searchable by title; a missing actress is 40400', async () => {
    const her = await newActress('顾梦瑶');
    const titles = ['夏日来信', '午夜列车', 'Summer Road', '夏日往事', '星空之歌'];
    const movieIds: number[] = [];
    for (const t of titles) {
      api.clock.advance(60_000);
      movieIds.push(await newMovie(t, [her]));
    }
    await newMovie('别人的片子');
    const page1 = await get(`${A}/${her}/movies?pageSize=10&sort=createdAt&order=desc`);
    expect(page1.total).toBe(5);
    expect(page1.list.map((m: any) => m.title)).toEqual([...titles].reverse());
    expect(page1.list[0]).toMatchObject({ status: 'pending', cover: '', publishedAt: null });
    expect(Object.keys(page1.list[0]).sort()).toEqual(
      ['cover', 'createdAt', 'id', 'publishedAt', 'releaseDate', 'status', 'title', 'views'].sort(),
    );
    const small = await get(`${A}/${her}/movies?pageSize=10&page=1&sort=id`);
    expect(small.list.map((m: any) => m.id)).toEqual(movieIds);
    const found = await get(`${A}/${her}/movies?q=${encodeURIComponent('夏日')}`);
    expect(found.list.map((m: any) => m.title).sort()).toEqual(['夏日来信', '夏日往事'].sort());
    await post(`${M}/${movieIds[1]}/approve`, {});
    expect((await get(`${A}/${her}/movies?status=online`)).list.map((m: any) => m.title)).toEqual([
      '午夜列车',
    ]);
    for (const q of ['sort=cover', 'pageSize=3', 'status=gone', 'actressId=1']) {
      const r = await api.call('GET', `${A}/${her}/movies?${q}`, { token: user });
      expect(r.body.code, q).toBe(40000);
    }
    expect((await api.call('GET', `${A}/999999/movies`, { token: user })).body.code).toBe(40400);
  });
});

describe('the count stays exact', () => {
  test('through movie create, edit (actressIds replaced), delete and batch delete', async () => {
    const a = await newActress('唐婉清');
    const b = await newActress('许芷若');
    const m1 = await newMovie('片一', [a, b]);
    const m2 = await newMovie('片二', [a]);
    const m3 = await newMovie('片三', [b]);
    expect([await countOf(a), await countOf(b)]).toEqual([2, 2]);

    const v = await versionOf(m1);
    await okData(api.call('PUT', `${M}/${m1}`, { token: user, body: { version: v, actressIds: [b] } }));
    expect([await countOf(a), await countOf(b)]).toEqual([1, 2]);
    await okData(
      api.call('PUT', `${M}/${m1}`, {
        token: user,
        body: { version: v + 1, title: '片一改', actressIds: [b] },
      }),
    );
    expect([await countOf(a), await countOf(b)]).toEqual([1, 2]);

    await okData(api.call('DELETE', `${M}/${m2}`, { token: admin }));
    expect([await countOf(a), await countOf(b)]).toEqual([0, 2]);
    await okData(api.call('POST', `${M}/batch`, { token: admin, body: { action: 'delete', ids: [m1, m3] } }));
    expect([await countOf(a), await countOf(b)]).toEqual([0, 0]);
    await expectCountsExact();
  });

  test('the movie API refuses actresses that do not exist (create and edit), writing nothing', async () => {
    const a = await newActress('秦诗涵');
    const r = await api.call('POST', M, { token: user, body: { title: '无名', actressIds: [a, 999999] } });
    expect(r.body.code).toBe(40000);
    expect(Object.keys(r.body.data.fields)).toEqual(['actressIds']);
    const [{ n }] = await api.query<{ n: number }>(
      sql`select count(*)::int as n from movies where title = '无名'`,
    );
    expect(n).toBe(0);
    const m = await newMovie('有名', [a]);
    const u = await api.call('PUT', `${M}/${m}`, {
      token: user,
      body: { version: await versionOf(m), title: '改名', actressIds: [999998] },
    });
    expect(u.body.code).toBe(40000);
    expect(Object.keys(u.body.data.fields)).toEqual(['actressIds']);
    expect(await get(`${M}/${m}`)).toMatchObject({ title: '有名', actressIds: [a] });
    expect(await countOf(a)).toBe(1);
  });
});

describe('deleting an actress', () => {
  test('with linked movies: refused saying how many, unless forced; then unlinked and deleted at once', async () => {
    const her = await newActress('宋晓月');
    const m1 = await newMovie('甲片', [her]);
    const m2 = await newMovie('乙片', [her]);
    const v1 = await versionOf(m1);

    const refused = await api.call('DELETE', `${A}/${her}`, { token: admin });
    expect(refused.body).toMatchObject({ code: 40900, data: { movieCount: 2 } });
    expect(refused.body.msg).toBe('该女优关联了 2 部影片；确认删除会同时解除这些关联');
    const en = await api.call('DELETE', `${A}/${her}?force=false`, {
      token: admin,
      headers: { 'Accept-Language': 'en-US' },
    });
    expect(en.body.msg).toBe('She is linked to 2 movie(s); confirm the deletion to unlink them as well');
    expect(await countOf(her)).toBe(2);
    expect((await api.call('DELETE', `${A}/${her}?force=true`, { token: user })).body.code).toBe(40300);
    expect((await api.call('DELETE', `${A}/${her}?force=1`, { token: admin })).body.code).toBe(40000);
    expect((await api.call('DELETE', `${A}/${her}?cascade=true`, { token: admin })).body.code).toBe(40000);

    expect(await okData(api.call('DELETE', `${A}/${her}?force=true`, { token: admin }))).toEqual({
      id: her,
      unlinked: 2,
    });
    expect((await api.call('GET', `${A}/${her}`, { token: user })).body.code).toBe(40400);
    expect((await get(`${M}/${m1}`)).actressIds).toEqual([]);
    expect((await get(`${M}/${m2}`)).actressIds).toEqual([]);
    expect(await versionOf(m1)).toBe(v1 + 1);
    expect((await api.call('DELETE', `${A}/${her}`, { token: admin })).body.code).toBe(40400);

    const alone = await newActress('叶静怡');
    expect(await okData(api.call('DELETE', `${A}/${alone}`, { token: admin }))).toEqual({
      id: alone,
      unlinked: 0,
    });
    await expectCountsExact();
  });

  test('the database itself refuses to delete a linked actress (no cascade behind the API’s back)', async () => {
    const her = await newActress('沈可馨');
    await newMovie('丙片', [her]);
    await expect(api.query(sql`delete from actresses where id = ${her}`)).rejects.toThrow();
    expect(await countOf(her)).toBe(1);
  });

  test('batch delete: refused with the total of links and nothing deleted, unless forced', async () => {
    const a = await newActress('林语嫣');
    const b = await newActress('苏婉清');
    const c = await newActress('白晓月');
    const m = await newMovie('丁片', [a, b]);
    await newMovie('戊片', [b]);
    const body = { action: 'delete', ids: [a, b, c] };
    const refused = await api.call('POST', `${A}/batch`, { token: admin, body });
    expect(refused.body).toMatchObject({ code: 40900, data: { movieCount: 3 } });
    expect(refused.body.msg).toContain('3');
    for (const id of [a, b, c])
      expect((await api.call('GET', `${A}/${id}`, { token: user })).body.code).toBe(20000);

    const v = await versionOf(m);
    expect(await post(`${A}/batch`, { ...body, force: true }, admin)).toEqual({ changed: 3 });
    for (const id of [a, b, c])
      expect((await api.call('GET', `${A}/${id}`, { token: user })).body.code).toBe(40400);
    expect((await get(`${M}/${m}`)).actressIds).toEqual([]);
    expect(await versionOf(m)).toBe(v + 1);
    await expectCountsExact();
  });
});

describe('concurrency', () => {
  test('links written at once from both sides (movie edits, link and unlink routes) leave the counts exact', async () => {
    const a = await newActress('并发甲');
    const b = await newActress('并发乙');
    const ms: number[] = [];
    for (let i = 0; i < 8; i++) ms.push(await newMovie(`并发${i}`, i % 2 ? [a] : []));
    const versions = await Promise.all(ms.map(versionOf));
    const calls: Promise<{ body: any }>[] = [];
    for (const [i, m] of ms.entries()) {
      calls.push(
        api.call('PUT', `${M}/${m}`, {
          token: user,
          body: { version: versions[i], actressIds: i % 3 ? [b, a] : [] },
        }),
      );
      calls.push(api.call('POST', `${A}/${a}/movies`, { token: user, body: { movieIds: [m] } }));
      calls.push(
        api.call('POST', `${A}/${b}/movies`, { token: user, body: { movieIds: [...ms].reverse() } }),
      );
      if (i % 3 === 0)
        calls.push(api.call('POST', `${A}/${b}/unlink-movies`, { token: user, body: { movieIds: [m] } }));
    }
    const results = await Promise.all(calls);
    for (const r of results) expect([20000, 40900]).toContain(r.body.code);
    await expectCountsExact();
  });
});

test('seed(): actresses with movies linked to them; the counts match; the same seed gives the same people', async () => {
  const other = await startApi();
  try {
    await seed(other.database.db, other.config, { seed: 42, movies: 120, modules: [] });
    const [{ n, linked, links }] = await other.query<{ n: number; linked: number; links: number }>(sql`
      select (select count(*)::int from actresses) as n,
        (select count(*)::int from actresses where movie_count > 0) as linked,
        (select count(*)::int from movie_actresses) as links`);
    expect(n).toBe(60);
    expect(linked).toBeGreaterThan(20);
    expect(links).toBeGreaterThan(30);
    const wrong = await other.query(
      sql`select id from actresses a where movie_count <> (select count(*) from movie_actresses l where l.actress_id = a.id)`,
    );
    expect(wrong).toEqual([]);
    const now = new Date('2026-06-01T00:00:00Z');
    expect(generateActresses(42, 60, now)).toEqual(generateActresses(42, 60, now));
    expect(new Set(generateActresses(42, 60, now).map((a) => a.name)).size).toBe(60);
  } finally {
    await other.close();
  }
});
