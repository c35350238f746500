import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { countWords } from '../../common/words';
import { startApi, type TestApi } from './harness';
import { addChapter, COL, createNovel, expectCountsRight, N, okData } from './novels-helpers';

/** Issue #4: novels — fields, the review list's filters and sorts, transitions, batches, columns. */
let api: TestApi;
let admin: string;
let user: string;
const col: Record<string, number> = {};
const ids: Record<string, number> = {};

const call = (
  method: string,
  path: string,
  body?: unknown,
  token = admin,
  headers?: Record<string, string>,
) => api.call(method, path, { token, body, headers });
const get = (path: string) => okData(call('GET', path), path);
const titles = async (query: string) =>
  (await get(`${N}?${query}${query ? '&' : ''}pageSize=100&sort=id`)).list.map((n: any) => n.title);

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  await api.createOperator(admin, { account: 'editor' });
  user = await api.login('editor', 'user-pass-1');
  col.xuanhuan = (await okData(call('POST', COL, { name: '玄幻' }))).id;
  col.dushi = (await okData(call('POST', COL, { name: '都市' }))).id;
  col.xiuzhen = (await okData(call('POST', COL, { name: '修真', parentId: col.xuanhuan }))).id;
  api.clock.set(new Date('2026-05-01T10:00:00Z'));
  ids.a = (
    await createNovel(api, user, {
      title: '剑来',
      author: '烽火戏诸侯',
      columnId: col.xuanhuan,
      tags: ['热血', '升级', '热血', ' 仙侠 '],
      serialStatus: 'completed',
    })
  ).id;
  api.clock.set(new Date('2026-05-10T10:00:00Z'));
  ids.b = (
    await createNovel(api, admin, {
      title: '都市之王',
      author: '唐家三少',
      columnId: col.dushi,
      tags: ['都市'],
    })
  ).id;
  ids.c = (await createNovel(api, admin, { title: 'The Long Night', author: 'Anna Lee', tags: ['悬疑'] })).id;
  ids.d = (
    await createNovel(api, admin, { title: '剑道独尊', author: '剑游太虚', columnId: col.xiuzhen })
  ).id;
  for (const [key, words] of [
    ['a', '一二三四五'],
    ['b', '一二'],
    ['c', 'one two three four five six seven'],
  ] as const)
    await addChapter(api, admin, ids[key], '第一章', words);
});
afterAll(() => api.close());

describe('novels', () => {
  test('create: defaults, tags trimmed and deduplicated, pending; bad input is 40000 naming the field', async () => {
    const a = await get(`${N}/${ids.a}`);
    expect(a).toMatchObject({
      title: '剑来',
      author: '烽火戏诸侯',
      columnId: col.xuanhuan,
      columnName: '玄幻',
      tags: ['热血', '升级', '仙侠'],
      serialStatus: 'completed',
      status: 'pending',
      freeChapters: 0,
      chapterCount: 1,
      wordCount: 5,
      views: 0,
      version: 1,
      createdAt: '2026-05-01T10:00:00.000Z',
    });
    for (const [body, field] of [
      [{ title: '' }, 'title'],
      [{ title: 'x', columnId: 999999 }, 'columnId'],
      [{ title: 'x', serialStatus: 'paused' }, 'serialStatus'],
      [{ title: 'x', freeChapters: -1 }, 'freeChapters'],
      [{ title: 'x', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags'],
      [{ title: 'x', tags: ['x'.repeat(33)] }, 'tags.0'],
    ] as const) {
      const r = await call('POST', N, body);
      expect(r.body.code, JSON.stringify(body)).toBe(40000);
      expect(r.body.data.fields).toHaveProperty(field);
    }
    // Read-only fields sent back by a form are ignored.
    const n = await okData(
      call('POST', N, { title: '只读', status: 'online', wordCount: 99, chapterCount: 9 }),
    );
    expect(n).toMatchObject({ status: 'pending', wordCount: 0, chapterCount: 0 });
    await okData(call('DELETE', `${N}/${n.id}`));
  });

  test('update with a stale version is 40900 and changes nothing', async () => {
    const d = await get(`${N}/${ids.d}`);
    const saved = await okData(
      call('PUT', `${N}/${ids.d}`, { description: '简介', version: d.version }, user),
    );
    expect(saved.version).toBe(d.version + 1);
    const stale = await call('PUT', `${N}/${ids.d}`, { description: '覆盖', version: d.version });
    expect(stale.body.code).toBe(40900);
    expect((await get(`${N}/${ids.d}`)).description).toBe('简介');
    expect((await call('PUT', `${N}/999999`, { title: 'x', version: 1 })).body.code).toBe(40400);
  });

  test('search: two Chinese characters of a title or an author, Latin in any case, longer strings rechecked', async () => {
    expect(await titles(`q=${encodeURIComponent('剑')}`)).toEqual(['剑来', '剑道独尊']);
    expect(await titles(`q=${encodeURIComponent('剑道')}`)).toEqual(['剑道独尊']);
    expect(await titles(`q=${encodeURIComponent('三少')}`)).toEqual(['都市之王']); // the author
    expect(await titles(`q=${encodeURIComponent('戏诸侯')}`)).toEqual(['剑来']);
    expect(await titles(`q=${encodeURIComponent('来剑')}`)).toEqual([]); // not a substring
    expect(await titles('q=NIGHT')).toEqual(['The Long Night']);
    expect(await titles(`q=${encodeURIComponent('anna l')}`)).toEqual(['The Long Night']);
    // Grams never cross title and author: 尊剑 is the end of one and the start of the other.
    expect(await titles(`q=${encodeURIComponent('尊剑')}`)).toEqual([]);
    expect(await titles(`q=${encodeURIComponent('%')}`)).toEqual([]);
    expect(await titles(`author=${encodeURIComponent('唐家三少')}`)).toEqual(['都市之王']);
  });

  test('filters: column, tag, status, serial status, created range; unknown filters, sorts and sizes are 40000', async () => {
    expect(await titles(`columnId=${col.xuanhuan}`)).toEqual(['剑来']);
    expect(await titles(`tag=${encodeURIComponent('热血')}`)).toEqual(['剑来']);
    expect(await titles('serialStatus=completed')).toEqual(['剑来']);
    expect(await titles('status=pending')).toHaveLength(4);
    expect(await titles('createdFrom=2026-05-02')).toEqual(['都市之王', 'The Long Night', '剑道独尊']);
    expect(await titles('createdTo=2026-05-01')).toEqual(['剑来']);
    expect(await titles('createdFrom=2026-05-01T09:00:00Z&createdTo=2026-05-01T11:00:00Z')).toEqual(['剑来']);
    for (const q of [
      'state=online',
      'status=published',
      'serialStatus=paused',
      'sort=description',
      'pageSize=25',
      'createdFrom=2026-13-01',
      'createdFrom=2026-05-03&createdTo=2026-05-02',
      'columnId=abc',
    ]) {
      const r = await call('GET', `${N}?${q}`);
      expect(r.body.code, q).toBe(40000);
    }
    const byWords = await get(`${N}?sort=wordCount&order=desc&pageSize=10`);
    expect(byWords.list.map((n: any) => n.wordCount)).toEqual([7, 5, 2, 0]);
    expect(byWords.total).toBe(4);
    const page2 = await get(`${N}?sort=id&order=asc&page=2&pageSize=10`);
    expect(page2).toMatchObject({ list: [], total: 4 });
    const many = await get(`${N}?ids=${ids.a},${ids.c}`);
    expect(many.list.map((n: any) => n.id).sort()).toEqual([ids.a, ids.c].sort());
  });

  test('transitions are checked here: approve needs chapters, reject needs a reason, the rest as movies', async () => {
    const empty = await call('POST', `${N}/${ids.d}/approve`, {});
    expect(empty.body.code).toBe(40900);
    expect(empty.body.msg).toBe('该小说还没有章节，不能上线');
    const noReason = await call('POST', `${N}/${ids.b}/reject`, { reason: ' ' });
    expect(noReason.body.code).toBe(40000);
    const stale = await call('POST', `${N}/${ids.b}/approve`, { version: 99 });
    expect(stale.body.code).toBe(40900);
    api.clock.set(new Date('2026-05-20T00:00:00Z'));
    const online = await okData(call('POST', `${N}/${ids.b}/approve`, { version: 1 }, user));
    expect(online).toMatchObject({
      status: 'online',
      publishedAt: '2026-05-20T00:00:00.000Z',
      reviewedAt: '2026-05-20T00:00:00.000Z',
      version: 2,
    });
    expect(online.reviewedBy).toBeGreaterThan(0);
    const again = await call('POST', `${N}/${ids.b}/reject`, { reason: '重复' });
    expect(again.body.code).toBe(40900);
    expect(again.body.msg).toBe('该小说当前为「已上线」，不能驳回');
    const en = await call('POST', `${N}/${ids.b}/online`, {}, admin, { 'Accept-Language': 'en-US' });
    expect(en.body.msg).toBe('This novel is online; it cannot be put online');
    expect((await okData(call('POST', `${N}/${ids.b}/offline`, {}))).status).toBe('offline');
    expect((await okData(call('POST', `${N}/${ids.b}/online`, {}))).status).toBe('online');
    const rejected = await okData(call('POST', `${N}/${ids.c}/reject`, { reason: '内容不符' }));
    expect(rejected).toMatchObject({ status: 'rejected', rejectReason: '内容不符' });
    const approved = await okData(call('POST', `${N}/${ids.c}/approve`, {}));
    expect(approved).toMatchObject({ status: 'online', rejectReason: '' });
    expect((await call('POST', `${N}/999999/approve`, {})).body.code).toBe(40400);
  });

  test('batches are one transaction: one novel that may not change stops them all', async () => {
    const e = await createNovel(api, admin, { title: '批量一' });
    const f = await createNovel(api, admin, { title: '批量二' });
    await addChapter(api, admin, e.id, '第一章', '文');
    const refused = await call('POST', `${N}/batch`, { action: 'approve', ids: [e.id, f.id] });
    expect(refused.body.code).toBe(40900);
    expect(refused.body.msg).toBe(`小说 #${f.id} 还没有章节，不能上线；本批未做任何修改`);
    expect((await get(`${N}/${e.id}`)).status).toBe('pending');
    await addChapter(api, admin, f.id, '第一章', '文');
    const mixed = await call('POST', `${N}/batch`, { action: 'reject', ids: [e.id, ids.b], reason: '不行' });
    expect(mixed.body.code).toBe(40900);
    expect(mixed.body.data).toMatchObject({ id: ids.b, status: 'online', action: 'reject' });
    expect((await get(`${N}/${e.id}`)).status).toBe('pending');
    expect(
      (await call('POST', `${N}/batch`, { action: 'reject', ids: [e.id] })).body.data.fields,
    ).toHaveProperty('reason');
    const missing = await call('POST', `${N}/batch`, { action: 'approve', ids: [e.id, 999999] });
    expect(missing.body.code).toBe(40400);
    expect((await get(`${N}/${e.id}`)).status).toBe('pending');
    const done = await okData(call('POST', `${N}/batch`, { action: 'approve', ids: [e.id, f.id] }, user));
    expect(done.changed).toBe(2);
    const moved = await okData(
      call('POST', `${N}/batch`, { action: 'setColumn', ids: [e.id, f.id, ids.a], columnId: col.dushi }),
    );
    expect(moved.changed).toBe(3);
    expect((await get(`${COL}/${col.dushi}`)).itemCount).toBe(4);
    expect(
      (await call('POST', `${N}/batch`, { action: 'setColumn', ids: [e.id], columnId: 999999 })).body.code,
    ).toBe(40000);
    expect((await call('POST', `${N}/batch`, { action: 'delete', ids: [e.id] }, user)).body.code).toBe(40300);
    expect((await call('POST', `${N}/batch`, { action: 'publish', ids: [e.id] })).body.code).toBe(40000);
    expect((await okData(call('POST', `${N}/batch`, { action: 'delete', ids: [e.id, f.id] }))).changed).toBe(
      2,
    );
    expect((await call('GET', `${N}/${e.id}`)).body.code).toBe(40400);
    await expectCountsRight(api, countWords);
  });

  test('columns: a tree with item counts, guarded delete and move-items; admins only change it', async () => {
    expect((await get(`${COL}/${col.xuanhuan}`)).itemCount).toBe(0); // 剑来 moved to 都市 above
    expect((await get(`${COL}/${col.xiuzhen}`)).itemCount).toBe(1);
    expect((await call('POST', COL, { name: '新栏目' }, user)).body.code).toBe(40300);
    expect((await call('POST', COL, { name: '都市' })).body.code).toBe(40900);
    const cycle = await call('PUT', `${COL}/${col.xuanhuan}`, { parentId: col.xiuzhen, version: 1 });
    expect(cycle.body.msg).toBe('上级：不能把栏目移到它自己或它的子栏目下');
    const blocked = await call('DELETE', `${COL}/${col.xiuzhen}`);
    expect(blocked.body).toMatchObject({ code: 40900, data: { items: 1 } });
    expect((await call('DELETE', `${COL}/${col.xuanhuan}`)).body.data).toEqual({ children: 1 });
    const d = await get(`${N}/${ids.d}`);
    expect((await okData(call('POST', `${COL}/${col.xiuzhen}/move-items`, { to: col.dushi }))).changed).toBe(
      1,
    );
    expect((await get(`${N}/${ids.d}`)).version).toBe(d.version + 1);
    await okData(call('DELETE', `${COL}/${col.xiuzhen}`));
    const top = await get(`${COL}?parentId=root&sort=name`);
    expect(top.list.map((c: any) => c.name).sort()).toEqual(['玄幻', '都市'].sort());
    await expectCountsRight(api, countWords);
  });
});
