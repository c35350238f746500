import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { countWords } from '../../common/words';
import { startApi, type TestApi } from './harness';
import { addChapter, CH, chapterOrder, createNovel, expectCountsRight, N, okData } from './novels-helpers';

/** Issue #4: chapters — numbering, counts kept in the change's transaction, move, reorder, batch delete. */
let api: TestApi;
let admin: string;
let user: string;

const call = (method: string, path: string, body?: unknown, token = admin) =>
  api.call(method, path, { token, body });
const novel = (id: number) => okData(call('GET', `${N}/${id}`));

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  await api.createOperator(admin, { account: 'editor' });
  user = await api.login('editor', 'user-pass-1');
});
afterAll(() => api.close());

describe('chapters', () => {
  test('a new chapter goes after the last; its words are counted here and the novel counts follow', async () => {
    const n = await createNovel(api, admin, { title: '章节测试' });
    expect(n).toMatchObject({ chapterCount: 0, wordCount: 0 });
    const a = await addChapter(api, user, n.id, '第一章 开端', '　　天色将晚，他推门而出。Hello world!');
    expect(a).toMatchObject({ number: 1, wordCount: 11, novelId: n.id, novelTitle: '章节测试', free: false });
    const b = await addChapter(api, user, n.id, '第二章', 'one two three');
    expect(b.number).toBe(2);
    expect(await novel(n.id)).toMatchObject({ chapterCount: 2, wordCount: 14, version: 1 });
    // The word count a client sends is ignored: the server counts.
    const edited = await okData(
      call('PUT', `${CH}/${b.id}`, { content: '一二三四五\r\nsix', wordCount: 999, version: b.version }),
    );
    expect(edited).toMatchObject({ content: '一二三四五\nsix', wordCount: 6, version: 2 });
    expect(await novel(n.id)).toMatchObject({ chapterCount: 2, wordCount: 17, version: 1 });
    await expectCountsRight(api, countWords);
  });

  test('a stale chapter version is 40900 and nothing changes; a missing novel is 40000 naming novelId', async () => {
    const n = await createNovel(api, admin, { title: '版本' });
    const ch = await addChapter(api, admin, n.id, '第一章', '原文');
    await okData(call('PUT', `${CH}/${ch.id}`, { title: '第一章 新', version: 1 }));
    const stale = await call('PUT', `${CH}/${ch.id}`, { content: '覆盖', version: 1 });
    expect(stale.body.code).toBe(40900);
    expect((await okData(call('GET', `${CH}/${ch.id}`))).content).toBe('原文');
    const orphan = await call('POST', CH, { novelId: 999999, title: 'x' });
    expect(orphan.body.code).toBe(40000);
    expect(orphan.body.data.fields).toHaveProperty('novelId');
    expect((await call('PUT', `${CH}/999999`, { title: 'x', version: 1 })).body.code).toBe(40400);
    const long = await call('POST', CH, { novelId: n.id, title: 'x', content: '字'.repeat(200_001) });
    expect(long.body.code).toBe(40000);
  });

  test('the list is by number with free/paid from the free chapters count; novelId is required; sorts are allow-listed', async () => {
    const n = await createNovel(api, admin, { title: '免费', freeChapters: 2 });
    for (const t of ['一', '二', '三']) await addChapter(api, admin, n.id, `第${t}章`, t.repeat(3));
    const page = await okData(call('GET', `${CH}?novelId=${n.id}`));
    expect(page.total).toBe(3);
    expect(page.list.map((c: any) => [c.number, c.free])).toEqual([
      [1, true],
      [2, true],
      [3, false],
    ]);
    expect(page.list[0]).not.toHaveProperty('content');
    const desc = await okData(call('GET', `${CH}?novelId=${n.id}&sort=number&order=desc&pageSize=10`));
    expect(desc.list.map((c: any) => c.number)).toEqual([3, 2, 1]);
    const found = await okData(call('GET', `${CH}?novelId=${n.id}&q=${encodeURIComponent('二')}`));
    expect(found.list.map((c: any) => c.title)).toEqual(['第二章']);
    expect((await call('GET', CH)).body.data.fields).toHaveProperty('novelId');
    expect((await call('GET', `${CH}?novelId=${n.id}&sort=content`)).body.code).toBe(40000);
    expect((await call('GET', `${CH}?novelId=${n.id}&chapter=1`)).body.data.fields).toHaveProperty('chapter');
    expect((await call('GET', `${CH}?novelId=${n.id}&pageSize=30`)).body.code).toBe(40000);
    // Changing the free count changes which chapters are free.
    await okData(call('PUT', `${N}/${n.id}`, { freeChapters: 0, version: 1 }));
    const none = await okData(call('GET', `${CH}?novelId=${n.id}`));
    expect(none.list.every((c: any) => c.free === false)).toBe(true);
  });

  test('move up and down swaps two chapters; the ends refuse with 40900; counts stay', async () => {
    const n = await createNovel(api, admin, { title: '移动' });
    const ids: number[] = [];
    for (const t of ['A', 'B', 'C']) ids.push((await addChapter(api, admin, n.id, t, `${t} text`)).id);
    const moved = await okData(call('POST', `${CH}/${ids[2]}/move`, { direction: 'up' }, user));
    expect(moved).toMatchObject({ id: ids[2], number: 2 });
    expect(await chapterOrder(api, admin, n.id)).toEqual([
      [1, 'A'],
      [2, 'C'],
      [3, 'B'],
    ]);
    await okData(call('POST', `${CH}/${ids[0]}/move`, { direction: 'down' }));
    expect((await chapterOrder(api, admin, n.id)).map((r: any) => r[1])).toEqual(['C', 'A', 'B']);
    const top = await call('POST', `${CH}/${ids[2]}/move`, { direction: 'up' });
    expect(top.body.code).toBe(40900);
    expect(top.body.msg).toBe('已经是第一章，不能再上移');
    const bottom = await call('POST', `${CH}/${ids[1]}/move`, { direction: 'down' }, undefined);
    expect(bottom.body.code).toBe(40900);
    expect((await call('POST', `${CH}/${ids[1]}/move`, { direction: 'left' })).body.code).toBe(40000);
    expect((await call('POST', `${CH}/999999/move`, { direction: 'up' })).body.code).toBe(40400);
    expect(await novel(n.id)).toMatchObject({ chapterCount: 3, wordCount: 6 });
    await expectCountsRight(api, countWords);
  });

  test('a full reorder takes exactly the novel’s chapters, each once, in one transaction', async () => {
    const n = await createNovel(api, admin, { title: '重排' });
    const other = await createNovel(api, admin, { title: '别的' });
    const foreign = (await addChapter(api, admin, other.id, 'X', 'x')).id;
    const ids: number[] = [];
    for (const t of ['一', '二', '三', '四']) ids.push((await addChapter(api, admin, n.id, t, t)).id);
    const r = await okData(
      call('POST', `${N}/${n.id}/chapters/reorder`, { ids: [ids[3], ids[1], ids[0], ids[2]] }, user),
    );
    expect(r.changed).toBe(3); // 二 keeps number 2
    expect((await chapterOrder(api, admin, n.id)).map((x: any) => x[1])).toEqual(['四', '二', '一', '三']);
    for (const bad of [
      [ids[0], ids[1], ids[2]], // one missing
      [ids[0], ids[1], ids[2], ids[3], foreign], // another novel's chapter
      [ids[0], ids[0], ids[1], ids[2], ids[3]], // twice
      [ids[0], ids[1], ids[2], foreign],
    ]) {
      const refused = await call('POST', `${N}/${n.id}/chapters/reorder`, { ids: bad });
      expect(refused.body.code, JSON.stringify(bad)).toBe(40900);
      expect(refused.body.data).toEqual({ chapterCount: 4 });
    }
    expect((await chapterOrder(api, admin, n.id)).map((x: any) => x[1])).toEqual(['四', '二', '一', '三']);
    expect((await call('POST', `${N}/999999/chapters/reorder`, { ids })).body.code).toBe(40400);
    await expectCountsRight(api, countWords);
  });

  test('deleting chapters renumbers the rest and keeps the counts; a batch is all or nothing', async () => {
    const n = await createNovel(api, admin, { title: '删除' });
    const m = await createNovel(api, admin, { title: '删除二' });
    const ids: number[] = [];
    for (const t of ['一', '二', '三', '四', '五'])
      ids.push((await addChapter(api, admin, n.id, t, t + t)).id);
    const mIds: number[] = [];
    for (const t of ['甲', '乙', '丙']) mIds.push((await addChapter(api, admin, m.id, t, t)).id);
    await okData(call('DELETE', `${CH}/${ids[1]}`, undefined, user));
    expect(await chapterOrder(api, admin, n.id)).toEqual([
      [1, '一'],
      [2, '三'],
      [3, '四'],
      [4, '五'],
    ]);
    expect(await novel(n.id)).toMatchObject({ chapterCount: 4, wordCount: 8 });
    // One missing id: nothing is deleted.
    const refused = await call('POST', `${CH}/batch`, { action: 'delete', ids: [ids[0], mIds[1], 999999] });
    expect(refused.body.code).toBe(40400);
    expect(refused.body.msg).toContain('999999');
    expect((await novel(n.id)).chapterCount).toBe(4);
    expect((await novel(m.id)).chapterCount).toBe(3);
    // Across two novels, one transaction; both are renumbered.
    const done = await okData(
      call('POST', `${CH}/batch`, { action: 'delete', ids: [ids[0], ids[3], mIds[1]] }, user),
    );
    expect(done.changed).toBe(3);
    expect(await chapterOrder(api, admin, n.id)).toEqual([
      [1, '三'],
      [2, '五'],
    ]);
    expect(await chapterOrder(api, admin, m.id)).toEqual([
      [1, '甲'],
      [2, '丙'],
    ]);
    expect(await novel(n.id)).toMatchObject({ chapterCount: 2, wordCount: 4 });
    expect((await call('POST', `${CH}/batch`, { action: 'publish', ids: [ids[2]] })).body.code).toBe(40000);
    expect((await call('DELETE', `${CH}/${ids[0]}`)).body.code).toBe(40400);
    await expectCountsRight(api, countWords);
  });

  test('deleting a novel takes its chapters; concurrent appends to one novel keep numbers and counts right', async () => {
    const n = await createNovel(api, admin, { title: '并发' });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call('POST', CH, { novelId: n.id, title: `第${i + 1}章`, content: `${'x'.repeat(i)} y` }),
      ),
    );
    expect(results.map((r) => r.body.code)).toEqual(Array(12).fill(20000));
    expect(results.map((r) => r.body.data.number).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    expect(await novel(n.id)).toMatchObject({ chapterCount: 12 });
    await expectCountsRight(api, countWords);
    expect((await call('DELETE', `${N}/${n.id}`, undefined, user)).body.code).toBe(40300);
    await okData(call('DELETE', `${N}/${n.id}`));
    const left = await api.query(sql`select count(*)::int as n from novel_chapters where novel_id = ${n.id}`);
    expect(left).toEqual([{ n: 0 }]);
    await expectCountsRight(api, countWords);
  });
});
