import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startApi, type TestApi } from './harness';
import { createMovie, type MovieFixture, makeFixture, okData } from './movies-helpers';

/** Issue #3: columns (tree, deletion guard, move items), tags (merge), video sources (URL built at read time). */
let api: TestApi;
let admin: string;
let fx: MovieFixture;

const C = '/app/admin/movie/columns';
const T = '/app/admin/movie/tags';
const S = '/app/admin/movie/sources';
const M = '/app/admin/movie/movies';
const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  api.call(method, path, { token: admin, body, headers });
const get = (path: string) => okData(call('GET', path), path);

/** The invariant behind every list total and deletion guard: stored counts equal real counts. */
async function expectCountsRight() {
  const wrong = await api.query(sql`
    select 'column' as kind, c.id, c.item_count, (select count(*) from movies m where m.column_id = c.id)::int as real
      from movie_columns c
    union all
    select 'tag', t.id, t.item_count, (select count(*) from movie_tag_links l where l.tag_id = t.id)::int
      from movie_tags t`);
  expect(wrong.length).toBeGreaterThan(3);
  expect(wrong.filter((r: any) => r.item_count !== r.real)).toEqual([]);
}

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  fx = await makeFixture(api, admin);
});
afterAll(() => api.close());

describe('columns', () => {
  test('names are unique among siblings (top level included), not across parents', async () => {
    const dup = await call('POST', C, { name: '电影' });
    expect(dup.body.code).toBe(40900);
    expect(dup.body.msg).toBe('名称：已被其他记录使用，请换一个');
    expect((await call('POST', C, { name: '动作', parentId: fx.columns.movies })).body.code).toBe(40900);
    const other = await okData(call('POST', C, { name: '动作', parentId: fx.columns.series }));
    expect(other).toMatchObject({ parentId: fx.columns.series, itemCount: 0, visible: true, version: 1 });
    const missing = await call('POST', C, { name: 'x', parentId: 99999 });
    expect(missing.body.code).toBe(40000);
    expect(missing.body.data.fields).toHaveProperty('parentId');
  });

  test('a column cannot move under itself or a descendant; stale versions are refused', async () => {
    const self = await call('PUT', `${C}/${fx.columns.movies}`, { parentId: fx.columns.movies, version: 1 });
    expect(self.body.code).toBe(40000);
    expect(self.body.msg).toBe('上级：不能把栏目移到它自己或它的子栏目下');
    const down = await call('PUT', `${C}/${fx.columns.movies}`, { parentId: fx.columns.action, version: 1 });
    expect(down.body.code).toBe(40000);
    const ok = await okData(call('PUT', `${C}/${fx.columns.empty}`, { sort: 9, visible: false, version: 1 }));
    expect(ok).toMatchObject({ sort: 9, visible: false, version: 2 });
    expect((await call('PUT', `${C}/${fx.columns.empty}`, { sort: 1, version: 1 })).body.code).toBe(40900);
    const top = await okData(call('GET', `${C}?parentId=root&sort=sort&pageSize=50`));
    expect(top.list.map((c: any) => c.name)).toEqual(['电影', '剧集', '空栏目']);
    const kids = await okData(call('GET', `${C}?parentId=${fx.columns.movies}`));
    expect(kids.list.map((c: any) => c.name)).toEqual(['动作']);
    expect((await okData(call('GET', `${C}?visible=false`))).total).toBe(1);
    expect((await call('GET', `${C}?parent=1`)).body.data.fields).toHaveProperty('parent');
    expect((await call('GET', `${C}?sort=item_count`)).body.code).toBe(40000);
  });

  test('a column with items or sub-columns cannot be deleted (40900 saying how many); move the items, then it can', async () => {
    const col = await okData(call('POST', C, { name: '待删' }));
    const a = await createMovie(api, admin, { title: '甲', columnId: col.id });
    const b = await createMovie(api, admin, { title: '乙', columnId: col.id });
    expect((await get(`${C}/${col.id}`)).itemCount).toBe(2);
    const refused = await call('DELETE', `${C}/${col.id}`);
    expect(refused.body.code).toBe(40900);
    expect(refused.body.msg).toBe('该栏目下还有 2 个内容，请先把它们移到其他栏目');
    expect(refused.body.data).toEqual({ items: 2 });
    const en = await call('DELETE', `${C}/${col.id}`, undefined, { 'Accept-Language': 'en-US' });
    expect(en.body.msg).toBe('This column still holds 2 items; move them to another column first');
    const parent = await call('DELETE', `${C}/${fx.columns.movies}`);
    expect(parent.body.code).toBe(40900);
    expect(parent.body.msg).toBe('该栏目下还有 1 个子栏目，请先删除或移走它们');

    expect((await call('POST', `${C}/${col.id}/move-items`, { to: col.id })).body.code).toBe(40000);
    expect((await call('POST', `${C}/${col.id}/move-items`, { to: 99999 })).body.code).toBe(40000);
    expect((await call('POST', `${C}/99999/move-items`, { to: col.id })).body.code).toBe(40400);
    const before = (await get(`${C}/${fx.columns.empty}`)).itemCount;
    expect(await okData(call('POST', `${C}/${col.id}/move-items`, { to: fx.columns.empty }))).toEqual({
      changed: 2,
    });
    expect((await get(`${C}/${fx.columns.empty}`)).itemCount).toBe(before + 2);
    expect((await get(`${M}/${a.id}`)).version).toBe(2);
    expect((await get(`${M}/${b.id}`)).columnName).toBe('空栏目');
    expect(await okData(call('DELETE', `${C}/${col.id}`))).toMatchObject({ id: col.id, itemCount: 0 });
    expect((await call('DELETE', `${C}/${col.id}`)).body.code).toBe(40400);
    await expectCountsRight();
  });
});

describe('tags', () => {
  test('names are unique; edit with version; list by group and hot', async () => {
    const dup = await call('POST', T, { name: '热门' });
    expect(dup.body.code).toBe(40900);
    const t = await okData(call('PUT', `${T}/${fx.tags.hot}`, { hot: true, version: 1 }));
    expect(t).toMatchObject({ hot: true, version: 2, name: '热门' });
    expect((await call('PUT', `${T}/${fx.tags.new}`, { name: '热门', version: 1 })).body.code).toBe(40900);
    expect((await call('PUT', `${T}/${fx.tags.hot}`, { hot: false, version: 1 })).body.code).toBe(40900);
    expect((await okData(call('GET', `${T}?group=quality`))).total).toBe(2);
    expect((await okData(call('GET', `${T}?hot=true`))).list.map((x: any) => x.name)).toEqual(['热门']);
    expect((await okData(call('GET', `${T}?q=高清`))).total).toBe(2);
  });

  test('merge moves every item to the survivor in one transaction; counts follow; the merged tags are gone', async () => {
    const a = await createMovie(api, admin, { title: '合并甲', tagIds: [fx.tags.hd] });
    const b = await createMovie(api, admin, { title: '合并乙', tagIds: [fx.tags.dup] });
    const c = await createMovie(api, admin, { title: '合并丙', tagIds: [fx.tags.hd, fx.tags.dup] });
    const extra = await okData(call('POST', T, { name: '蓝光' }));
    const d = await createMovie(api, admin, { title: '合并丁', tagIds: [extra.id] });
    expect((await get(`${T}/${fx.tags.hd}`)).itemCount).toBe(2);

    expect((await call('POST', `${T}/${fx.tags.hd}/merge`, { ids: [fx.tags.hd] })).body.code).toBe(40000);
    const missing = await call('POST', `${T}/${fx.tags.hd}/merge`, { ids: [fx.tags.dup, 99999] });
    expect(missing.body.code).toBe(40400);
    expect((await get(`${T}/${fx.tags.dup}`)).itemCount).toBe(2); // nothing happened
    expect((await call('POST', `${T}/99999/merge`, { ids: [fx.tags.dup] })).body.code).toBe(40400);

    const merged = await okData(call('POST', `${T}/${fx.tags.hd}/merge`, { ids: [fx.tags.dup, extra.id] }));
    expect(merged).toMatchObject({ id: fx.tags.hd, itemCount: 4, moved: 3 });
    for (const m of [a, b, c, d]) expect((await get(`${M}/${m.id}`)).tagIds).toEqual([fx.tags.hd]);
    expect((await get(`${M}/${b.id}`)).version).toBe(2);
    expect((await call('GET', `${T}/${fx.tags.dup}`)).body.code).toBe(40400);
    expect((await okData(call('GET', `${M}?tagId=${fx.tags.hd}`))).total).toBe(4);
    await expectCountsRight();
  });

  test('deleting a tag removes its links', async () => {
    const t = await okData(call('POST', T, { name: '临时', group: 'g' }));
    const m = await createMovie(api, admin, { title: '临时片', tagIds: [t.id, fx.tags.new] });
    expect(await okData(call('DELETE', `${T}/${t.id}`))).toMatchObject({ id: t.id, itemCount: 1 });
    expect((await get(`${M}/${m.id}`)).tagIds).toEqual([fx.tags.new]);
    await expectCountsRight();
  });
});

describe('video sources', () => {
  test('codes are unique; base URLs are http(s) or site paths; type is hls or mp4', async () => {
    expect((await call('POST', S, { name: 'x', code: 'cdn1', baseUrl: 'https://x' })).body.code).toBe(40900);
    for (const body of [
      { name: 'x', code: 'ok1', baseUrl: 'javascript:alert(1)' },
      { name: 'x', code: 'ok1', baseUrl: 'ftp://x' },
      { name: 'x', code: 'a b', baseUrl: 'https://x' },
      { name: 'x', code: 'ok1', baseUrl: 'https://x', type: 'flv' },
    ]) {
      const r = await call('POST', S, body);
      expect(r.body.code, JSON.stringify(body)).toBe(40000);
    }
    const local = await okData(
      call('POST', S, { name: '本站', code: 'local', baseUrl: '/media', enabled: false }),
    );
    expect(local).toMatchObject({ type: 'hls', enabled: false, priority: 0 });
    expect((await okData(call('GET', `${S}?enabled=false`))).list.map((s: any) => s.code)).toEqual(['local']);
    expect((await okData(call('GET', `${S}?sort=priority&order=desc`))).list[0].code).toBe('cdn2');
  });

  test("switching a source's base URL changes every play URL at once (built at read time)", async () => {
    const m = await createMovie(api, admin, {
      title: '换线路',
      plays: [
        { sourceId: fx.sources.cdn1, path: 'x/index.m3u8' },
        { sourceId: fx.sources.cdn1, path: 'https://elsewhere.example/abs.m3u8' },
      ],
    });
    expect(m.plays.map((p: any) => p.url)).toEqual([
      'https://v1.example.com/hls/x/index.m3u8',
      'https://elsewhere.example/abs.m3u8',
    ]);
    const src = await get(`${S}/${fx.sources.cdn1}`);
    await okData(
      call('PUT', `${S}/${fx.sources.cdn1}`, { baseUrl: 'https://new-cdn.example/v/', version: src.version }),
    );
    const after = await get(`${M}/${m.id}`);
    expect(after.plays[0].url).toBe('https://new-cdn.example/v/x/index.m3u8');
    expect(after.version).toBe(1); // the movie itself did not change
    const stored = await api.query<{ path: string }>(
      sql`select path from movie_plays where movie_id = ${m.id} order by sort`,
    );
    expect(stored[0].path).toBe('x/index.m3u8');
  });

  test('a source in use cannot be deleted (40900 with the count); an unused one can', async () => {
    const inUse = await call('DELETE', `${S}/${fx.sources.cdn1}`);
    expect(inUse.body.code).toBe(40900);
    expect(inUse.body.msg).toMatch(/^该视频源仍被 \d+ 个播放条目使用，不能删除$/);
    expect(await okData(call('DELETE', `${S}/${fx.sources.cdn2}`))).toMatchObject({ code: 'cdn2' });
    expect((await call('DELETE', `${S}/${fx.sources.cdn2}`)).body.code).toBe(40400);
  });
});
