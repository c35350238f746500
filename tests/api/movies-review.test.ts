import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startApi, type TestApi, USER_PASSWORD } from './harness';
import { createMovie, type MovieFixture, makeFixture, okData } from './movies-helpers';

/** Issue #3, review and publishing: transitions on the server, batch atomicity, optimistic locking, roles. */
let api: TestApi;
let admin: string;
let user: string;
let fx: MovieFixture;

const M = '/app/admin/movie/movies';
const act = (token: string, id: number, action: string, body?: unknown) =>
  api.call('POST', `${M}/${id}/${action}`, { token, body });
const batch = (token: string, body: unknown) => api.call('POST', `${M}/batch`, { token, body });
const statusOf = async (id: number) => (await okData(api.call('GET', `${M}/${id}`, { token: admin }))).status;

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  await api.createOperator(admin, { account: 'editor', role: 'user' });
  user = await api.login('editor', USER_PASSWORD);
  fx = await makeFixture(api, admin);
});
afterAll(() => api.close());

describe('create, read, update', () => {
  test('a created movie is pending, carries its links, and plays get URLs from their sources', async () => {
    const actress = async (name: string) =>
      (await okData(api.call('POST', '/app/admin/actresses', { token: user, body: { name } }))).id as number;
    const [a7, a3] = [await actress('甲'), await actress('乙')];
    const m = await createMovie(api, user, {
      title: '  夏日的视频  ',
      description: 'd',
      columnId: fx.columns.action,
      tagIds: [fx.tags.hot, fx.tags.hd, fx.tags.hot],
      actressIds: [a7, a3, a7],
      platforms: [2, 4],
      duration: 5400,
      releaseDate: '2024-02-29',
      plays: [
        { sourceId: fx.sources.cdn1, path: '/a/index.m3u8' },
        { sourceId: fx.sources.cdn2, path: 'b.mp4' },
      ],
    });
    expect(m).toMatchObject({
      title: '夏日的视频',
      status: 'pending',
      columnId: fx.columns.action,
      columnName: '动作',
      tagIds: [fx.tags.hot, fx.tags.hd].sort((a, b) => a - b),
      actressIds: [a7, a3].sort((a, b) => a - b),
      platforms: [2, 4],
      releaseDate: '2024-02-29',
      version: 1,
      publishedAt: null,
      reviewedBy: null,
    });
    expect(m.plays.map((p: any) => p.url)).toEqual([
      'https://v1.example.com/hls/a/index.m3u8',
      'https://v2.example.com/b.mp4',
    ]);
    expect(m.plays[1]).toMatchObject({ sourceName: '线路二', sourceType: 'mp4', sourceEnabled: true });
  });

  test('references must exist: column, tags, sources, platform keys from the settings (40000 naming the field)', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ columnId: 99999 }, 'columnId'],
      [{ tagIds: [fx.tags.hot, 99999] }, 'tagIds'],
      [{ plays: [{ sourceId: 99999, path: 'x' }] }, 'plays'],
      [{ platforms: [2, 3] }, 'platforms.1'],
      [{ releaseDate: '2023-02-29' }, 'releaseDate'],
      [{ releaseDate: '0000-01-01' }, 'releaseDate'],
      [{ releaseDate: '2023-1-1' }, 'releaseDate'],
      [{ title: '   ' }, 'title'],
      [{ duration: -1 }, 'duration'],
      [{ title: 'x'.repeat(201) }, 'title'],
    ];
    for (const [patch, field] of cases) {
      const r = await api.call('POST', M, { token: user, body: { title: 'ok', ...patch } });
      expect(r.body.code, JSON.stringify(patch)).toBe(40000);
      expect(Object.keys(r.body.data.fields), JSON.stringify(patch)).toEqual([field]);
    }
    const r = await api.call('POST', M, { token: user, body: { title: 'x', platforms: [3] } });
    expect(r.body.msg).toBe('平台 · 第 1 项：不存在');
    const en = await api.call('POST', M, {
      token: user,
      body: { title: 'x', platforms: [3] },
      headers: { 'Accept-Language': 'en-US' },
    });
    expect(en.body.msg).toBe('Platforms › item 1: Does not exist');
  });

  test('update with the current version bumps it; a stale version is 40900 and nothing is written', async () => {
    const m = await createMovie(api, user, { title: '锁定测试', tagIds: [fx.tags.hot] });
    const first = await okData(
      api.call('PUT', `${M}/${m.id}`, {
        token: user,
        body: { ...m, title: '锁定测试 2', tagIds: [fx.tags.new], version: 1 },
      }),
    );
    expect(first).toMatchObject({ title: '锁定测试 2', version: 2, tagIds: [fx.tags.new] });
    const stale = await api.call('PUT', `${M}/${m.id}`, {
      token: admin,
      body: { title: 'overwrite', tagIds: [], version: 1 },
    });
    expect(stale.body.code).toBe(40900);
    expect(stale.body.msg).toBe('数据已被他人修改，请刷新后重试');
    const now = await okData(api.call('GET', `${M}/${m.id}`, { token: admin }));
    expect(now).toMatchObject({ title: '锁定测试 2', version: 2, tagIds: [fx.tags.new] });
    expect((await api.call('PUT', `${M}/999999`, { token: admin, body: { version: 1 } })).body.code).toBe(
      40400,
    );
    const noVersion = await api.call('PUT', `${M}/${m.id}`, { token: admin, body: { title: 'x' } });
    expect(noVersion.body.code).toBe(40000);
    expect(noVersion.body.data.fields).toHaveProperty('version');
  });

  test('a batch or an action bumps the version too, so an edit form opened before is stale', async () => {
    const m = await createMovie(api, user, { title: '先开表单' });
    await okData(act(user, m.id, 'approve'));
    const r = await api.call('PUT', `${M}/${m.id}`, { token: user, body: { title: 'late', version: 1 } });
    expect(r.body.code).toBe(40900);
  });
});

describe('transitions', () => {
  test('approve publishes (online, published and reviewed time, reviewer); approving twice is 40900', async () => {
    const m = await createMovie(api, user, { title: '待审' });
    api.clock.advance(60_000);
    const approved = await okData(act(user, m.id, 'approve'));
    expect(approved).toMatchObject({ status: 'online', version: 2, rejectReason: '' });
    expect(approved.publishedAt).toBe(api.clock.now().toISOString());
    expect(approved.reviewedAt).toBe(api.clock.now().toISOString());
    expect(approved.reviewedBy).toBeGreaterThan(0);
    const again = await act(user, m.id, 'approve');
    expect(again.body.code).toBe(40900);
    expect(again.body.msg).toBe('该内容当前为「已上线」，不能审核通过');
    expect(again.body.data).toMatchObject({ status: 'online', action: 'approve' });
    const en = await api.call('POST', `${M}/${m.id}/approve`, {
      token: user,
      headers: { 'Accept-Language': 'en' },
    });
    expect(en.body.msg).toBe('This item is online; it cannot be approved');
  });

  test('reject needs a reason; a rejected item can be approved later but not rejected again', async () => {
    const m = await createMovie(api, user, { title: '驳回' });
    for (const body of [undefined, {}, { reason: '   ' }]) {
      const r = await act(user, m.id, 'reject', body);
      expect(r.body.code, JSON.stringify(body)).toBe(40000);
    }
    const noReason = await act(user, m.id, 'reject', {});
    expect(noReason.body.data.fields).toHaveProperty('reason');
    expect(await statusOf(m.id)).toBe('pending');
    const rejected = await okData(act(user, m.id, 'reject', { reason: '画质太差' }));
    expect(rejected).toMatchObject({ status: 'rejected', rejectReason: '画质太差', publishedAt: null });
    expect((await act(user, m.id, 'reject', { reason: 'again' })).body.code).toBe(40900);
    expect((await act(user, m.id, 'offline')).body.code).toBe(40900);
    const approved = await okData(act(user, m.id, 'approve'));
    expect(approved).toMatchObject({ status: 'online', rejectReason: '' });
  });

  test('offline and online only from the other; pending cannot go online directly', async () => {
    const m = await createMovie(api, user, { title: '上下线' });
    expect((await act(user, m.id, 'online')).body.code).toBe(40900);
    expect((await act(user, m.id, 'offline')).body.code).toBe(40900);
    await okData(act(user, m.id, 'approve'));
    const published = (await okData(api.call('GET', `${M}/${m.id}`, { token: user }))).publishedAt;
    expect((await act(user, m.id, 'online')).body.code).toBe(40900);
    api.clock.advance(60_000);
    expect((await okData(act(user, m.id, 'offline'))).status).toBe('offline');
    expect((await act(user, m.id, 'offline')).body.code).toBe(40900);
    expect((await act(user, m.id, 'approve')).body.code).toBe(40900);
    const back = await okData(act(user, m.id, 'online'));
    expect(back).toMatchObject({ status: 'online', publishedAt: published });
  });

  test('an action with a stale version is 40900; with the current one it passes; unknown id is 40400', async () => {
    const m = await createMovie(api, user, { title: '版本动作' });
    expect((await act(user, m.id, 'approve', { version: 5 })).body.code).toBe(40900);
    expect(await statusOf(m.id)).toBe('pending');
    expect((await okData(act(user, m.id, 'approve', { version: 1 }))).status).toBe('online');
    expect((await act(user, 999999, 'approve')).body.code).toBe(40400);
    expect((await act(user, 999999, 'reject', { reason: 'x' })).body.code).toBe(40400);
  });
});

describe('batch', () => {
  test('batch approve: one invalid item changes nothing (40900 naming it); all valid answers {changed}', async () => {
    const a = await createMovie(api, user, { title: '批量甲' });
    const b = await createMovie(api, user, { title: '批量乙' });
    const c = await createMovie(api, user, { title: '批量丙' });
    await okData(act(user, c.id, 'approve'));
    const r = await batch(user, { action: 'approve', ids: [a.id, b.id, c.id] });
    expect(r.body.code).toBe(40900);
    expect(r.body.msg).toBe(`内容 #${c.id} 当前为「已上线」，不能审核通过；本批未做任何修改`);
    expect([await statusOf(a.id), await statusOf(b.id)]).toEqual(['pending', 'pending']);
    const missing = await batch(user, { action: 'approve', ids: [a.id, 999999] });
    expect(missing.body.code).toBe(40400);
    expect(missing.body.msg).toContain('999999');
    expect(await statusOf(a.id)).toBe('pending');
    expect(await okData(batch(user, { action: 'approve', ids: [a.id, b.id, a.id] }))).toEqual({ changed: 2 });
    expect([await statusOf(a.id), await statusOf(b.id)]).toEqual(['online', 'online']);
  });

  test('batch reject needs a reason; offline / online / recommend / unrecommend', async () => {
    const a = await createMovie(api, user, { title: '批驳甲' });
    const b = await createMovie(api, user, { title: '批驳乙' });
    const noReason = await batch(user, { action: 'reject', ids: [a.id, b.id] });
    expect(noReason.body.code).toBe(40000);
    expect(noReason.body.data.fields).toHaveProperty('reason');
    expect(await okData(batch(user, { action: 'reject', ids: [a.id, b.id], reason: '重复' }))).toEqual({
      changed: 2,
    });
    expect((await okData(api.call('GET', `${M}/${b.id}`, { token: user }))).rejectReason).toBe('重复');
    await okData(batch(user, { action: 'approve', ids: [a.id, b.id] }));
    expect(await okData(batch(user, { action: 'offline', ids: [a.id, b.id] }))).toEqual({ changed: 2 });
    expect((await batch(user, { action: 'offline', ids: [a.id] })).body.code).toBe(40900);
    expect(await okData(batch(user, { action: 'online', ids: [a.id] }))).toEqual({ changed: 1 });
    expect(await okData(batch(user, { action: 'recommend', ids: [a.id] }))).toEqual({ changed: 1 });
    // Already recommended: nothing to change, and that is not an error.
    expect(await okData(batch(user, { action: 'recommend', ids: [a.id, b.id] }))).toEqual({ changed: 1 });
    expect(await okData(batch(user, { action: 'unrecommend', ids: [a.id, b.id] }))).toEqual({ changed: 2 });
  });

  test('setColumn, addTags, removeTags keep the counts of columns and tags right', async () => {
    const before = await okData(
      api.call('GET', `/app/admin/movie/columns/${fx.columns.series}`, { token: user }),
    );
    const a = await createMovie(api, user, { title: '栏目甲', columnId: fx.columns.movies });
    const b = await createMovie(api, user, { title: '栏目乙' });
    const bad = await batch(user, { action: 'setColumn', ids: [a.id, b.id], columnId: 99999 });
    expect(bad.body.code).toBe(40000);
    expect(bad.body.data.fields).toHaveProperty('columnId');
    expect((await batch(user, { action: 'setColumn', ids: [a.id] })).body.data.fields).toHaveProperty(
      'columnId',
    );
    expect(
      await okData(batch(user, { action: 'setColumn', ids: [a.id, b.id], columnId: fx.columns.series })),
    ).toEqual({ changed: 2 });
    const after = await okData(
      api.call('GET', `/app/admin/movie/columns/${fx.columns.series}`, { token: user }),
    );
    expect(after.itemCount).toBe(before.itemCount + 2);

    const tag = async () =>
      (await okData(api.call('GET', `/app/admin/movie/tags/${fx.tags.new}`, { token: user }))).itemCount;
    const t0 = await tag();
    expect(
      await okData(batch(user, { action: 'addTags', ids: [a.id, b.id], tagIds: [fx.tags.new] })),
    ).toEqual({
      changed: 2,
    });
    expect(
      await okData(batch(user, { action: 'addTags', ids: [a.id, b.id], tagIds: [fx.tags.new] })),
    ).toEqual({
      changed: 0,
    });
    expect(await tag()).toBe(t0 + 2);
    const missingTag = await batch(user, { action: 'addTags', ids: [a.id], tagIds: [fx.tags.new, 99999] });
    expect(missingTag.body.code).toBe(40000);
    expect(await okData(batch(user, { action: 'removeTags', ids: [a.id], tagIds: [fx.tags.new] }))).toEqual({
      changed: 1,
    });
    expect(await tag()).toBe(t0 + 1);
    expect((await okData(api.call('GET', `${M}/${b.id}`, { token: user }))).tagIds).toEqual([fx.tags.new]);
  });

  test('the largest batch (1,000 movies × 50 tags) runs as one statement', async () => {
    const movieIds = (
      await api.query<{ id: number }>(sql`
        insert into movies (title) select 'bulk ' || g from generate_series(1, 1000) as g returning id`)
    ).map((r) => r.id);
    const tagIds: number[] = [];
    for (let i = 0; i < 50; i++)
      tagIds.push(
        (await okData(api.call('POST', '/app/admin/movie/tags', { token: admin, body: { name: `b${i}` } })))
          .id,
      );
    expect(await okData(batch(user, { action: 'addTags', ids: movieIds, tagIds }))).toEqual({
      changed: 1000,
    });
    const [{ n }] = await api.query<{ n: number }>(
      sql`select count(*)::int as n from movie_tag_links where movie_id = any(${sql.param(movieIds)}::integer[])`,
    );
    expect(n).toBe(50_000);
    expect(
      (await okData(api.call('GET', `/app/admin/movie/tags/${tagIds[7]}`, { token: user }))).itemCount,
    ).toBe(1000);
    expect(await okData(batch(user, { action: 'removeTags', ids: movieIds, tagIds }))).toEqual({
      changed: 1000,
    });
    expect(
      (await okData(api.call('GET', `/app/admin/movie/tags/${tagIds[7]}`, { token: user }))).itemCount,
    ).toBe(0);
    expect(await okData(batch(admin, { action: 'delete', ids: movieIds }))).toEqual({ changed: 1000 });
  });

  test('bad batch bodies are 40000 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ action: 'publish', ids: [1] }, 'action'],
      [{ action: 'approve', ids: [] }, 'ids'],
      [{ action: 'approve', ids: ['1'] }, 'ids.0'],
      [{ action: 'approve', ids: [1.5] }, 'ids.0'],
      [{ action: 'approve' }, 'ids'],
      [{ action: 'approve', ids: Array.from({ length: 1001 }, (_, i) => i + 1) }, 'ids'],
      [{ action: 'reject', ids: [1], reason: 'x'.repeat(501) }, 'reason'],
    ];
    for (const [body, field] of cases) {
      const r = await batch(user, body);
      expect(r.body.code, JSON.stringify(body).slice(0, 80)).toBe(40000);
      expect(Object.keys(r.body.data.fields)[0]).toBe(field);
    }
  });
});

describe('delete and roles', () => {
  test('a user may review and edit but not delete; an admin deletes, and counts follow', async () => {
    const m = await createMovie(api, user, {
      title: '删除',
      columnId: fx.columns.empty,
      tagIds: [fx.tags.dup],
    });
    const col = async () =>
      (await okData(api.call('GET', `/app/admin/movie/columns/${fx.columns.empty}`, { token: user })))
        .itemCount;
    expect(await col()).toBe(1);
    expect((await api.call('DELETE', `${M}/${m.id}`, { token: user })).body.code).toBe(40300);
    expect((await batch(user, { action: 'delete', ids: [m.id] })).body.code).toBe(40300);
    expect(await statusOf(m.id)).toBe('pending');
    expect(await okData(api.call('DELETE', `${M}/${m.id}`, { token: admin }))).toEqual({ id: m.id });
    expect((await api.call('GET', `${M}/${m.id}`, { token: admin })).body.code).toBe(40400);
    expect((await api.call('DELETE', `${M}/${m.id}`, { token: admin })).body.code).toBe(40400);
    expect(await col()).toBe(0);
    const links = await api.query(sql`select * from movie_tag_links where movie_id = ${m.id}`);
    expect(links).toEqual([]);
    const b = await createMovie(api, user, { title: '批量删除', columnId: fx.columns.empty });
    expect((await batch(admin, { action: 'delete', ids: [b.id, 999999] })).body.code).toBe(40400);
    expect(await col()).toBe(1);
    expect(await okData(batch(admin, { action: 'delete', ids: [b.id] }))).toEqual({ changed: 1 });
    expect(await col()).toBe(0);
  });

  test('without a session every movies route is 50008; a user cannot manage columns, tags or sources', async () => {
    for (const [method, path] of [
      ['GET', M],
      ['POST', M],
      ['POST', `${M}/1/approve`],
      ['POST', `${M}/batch`],
      ['GET', '/app/admin/movie/columns'],
      ['GET', '/app/admin/movie/tags'],
      ['GET', '/app/admin/movie/sources'],
    ]) {
      const r = await api.call(method, path, { body: method === 'POST' ? {} : undefined });
      expect(r.body.code, `${method} ${path}`).toBe(50008);
    }
    for (const [method, path, body] of [
      ['POST', '/app/admin/movie/columns', { name: 'u' }],
      ['PUT', `/app/admin/movie/columns/${fx.columns.empty}`, { name: 'u', version: 1 }],
      ['DELETE', `/app/admin/movie/columns/${fx.columns.empty}`, undefined],
      ['POST', `/app/admin/movie/columns/${fx.columns.movies}/move-items`, { to: fx.columns.empty }],
      ['POST', '/app/admin/movie/tags', { name: 'u' }],
      ['PUT', `/app/admin/movie/tags/${fx.tags.hot}`, { name: 'u', version: 1 }],
      ['DELETE', `/app/admin/movie/tags/${fx.tags.hot}`, undefined],
      ['POST', `/app/admin/movie/tags/${fx.tags.hot}/merge`, { ids: [fx.tags.dup] }],
      ['POST', '/app/admin/movie/sources', { name: 'u', code: 'u', baseUrl: 'https://u' }],
      ['PUT', `/app/admin/movie/sources/${fx.sources.cdn1}`, { baseUrl: 'https://evil', version: 1 }],
      ['DELETE', `/app/admin/movie/sources/${fx.sources.cdn2}`, undefined],
    ] as const) {
      const r = await api.call(method, path, { token: user, body });
      expect(r.body.code, `${method} ${path}`).toBe(40300);
    }
    // A user may read them all (filters and forms need them).
    for (const path of ['/app/admin/movie/columns', '/app/admin/movie/tags', '/app/admin/movie/sources'])
      expect((await api.call('GET', path, { token: user })).body.code).toBe(20000);
  });
});
