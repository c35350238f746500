import { createRequire } from 'node:module';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { artChapters } from '../../common/art-pages';
import { COUNT_CAP } from '../../server/core/totals';
import { readAnswer } from '../../server/modules/collect/reader';
import { startApi, type TestApi } from './harness';

/**
 * Our novels and actresses served as MacCMS's articles and performers (`/api.php/provide/art/`, `/provide/actor/`):
 * the same switch, key, parameters, paging and totals as `/provide/vod/`, MacCMS's JSON field names, and our XML
 * (MacCMS serves these two as JSON only) that our own reader reads back.
 */

// jsdom parses the XML as a collector would; it ships no types, so its one use is typed here.
const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
  JSDOM: new () => { window: { DOMParser: typeof DOMParser } };
};
const parseXml = (text: string) => new new JSDOM().window.DOMParser().parseFromString(text, 'text/xml');

let api: TestApi;
let admin: string;
const ids: Record<string, number> = {};

const get = (kind: string, query: string) => api.call('GET', `/api.php/provide/${kind}/?${query}`);
const getText = async (kind: string, query: string) =>
  (await api.app.request(`/api.php/provide/${kind}/?${query}`)).text();
const setProvide = (body: Record<string, unknown>) =>
  api.call('POST', '/app/admin/sys/updateSetting', { token: admin, body });
const one = async <T>(q: ReturnType<typeof sql>) => (await api.query<T>(q))[0];

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  const col = await one<{ id: number }>(
    sql`insert into novel_columns (name) values ('玄幻小说') returning id`,
  );
  ids.col = Number(col.id);
  const novel = async (title: string, status: string, at: string, extra = sql``) =>
    Number(
      (
        await one<{ id: number }>(sql`
          insert into novels (title, author, column_id, status, description, tags, serial_status, updated_at)
          values (${title}, '作者甲', ${ids.col}, ${status}, '简介 <b>不是HTML</b>', '{仙侠,修真}', 'completed',
            ${at}::timestamptz) ${extra} returning id`)
      ).id,
    );
  ids.old = await novel('旧书', 'online', '2026-05-01T00:00:00Z');
  ids.book = await novel('凡人修仙 ]]> & <传>', 'online', '2026-06-01T07:00:00Z');
  ids.pending = await novel('待审的书', 'pending', '2026-06-01T07:30:00Z');
  await api.query(sql`
    insert into novel_chapters (novel_id, number, title, content, word_count) values
      (${ids.book}, 1, '第一章 山村', ${'少年韩立\n出身山村 & 贫寒 <不是标签>'}, 10),
      (${ids.book}, 2, '第二章 $$$ 入门', '七玄门', 3),
      (${ids.old}, 1, '序', '旧', 1)`);
  const actress = async (name: string, visible: boolean, at: string) =>
    Number(
      (
        await one<{ id: number }>(sql`
          insert into actresses (name, aliases, region, height, birthday, biography, visible, updated_at)
          values (${name}, '{小A,A酱}', 'jp', 160, '1995-03-04', ${'第一行\n第二行 <i>x</i>'}, ${visible},
            ${at}::timestamptz) returning id`)
      ).id,
    );
  ids.a1 = await actress('演员甲', true, '2026-06-01T06:00:00Z');
  ids.hidden = await actress('隐藏演员', false, '2026-06-01T07:00:00Z');
});
afterAll(() => api?.close());

describe('the switch and the key hold for articles and performers too', () => {
  test('closed: not found; a key: refused without it', async () => {
    for (const kind of ['art', 'actor']) expect((await get(kind, 'ac=list')).status).toBe(404);
    await setProvide({ provideOpen: true, provideKey: 'k-art' });
    for (const kind of ['art', 'actor']) {
      expect((await get(kind, 'ac=list')).body).toEqual({ code: 0, msg: '接口密钥错误' });
      expect((await get(kind, 'ac=list&key=k-art')).body.code).toBe(1);
    }
    await setProvide({ provideKey: '' });
    expect((await get('art', 'ac=list&pg=0')).body.code).toBe(0);
  });
});

describe('provide/art', () => {
  beforeAll(() => setProvide({ provideOpen: true, provideKey: '' }));

  test('ac=list: only online novels, last changed first, MacCMS field names, class[] of novel columns', async () => {
    const r = (await get('art', 'ac=list')).body;
    expect(r).toMatchObject({ code: 1, page: 1, pagecount: 1, limit: '20', total: 2 });
    expect(r.list.map((a: any) => a.art_id)).toEqual([ids.book, ids.old]);
    expect(Object.keys(r.list[0])).toEqual([
      'art_id',
      'art_name',
      'type_id',
      'type_name',
      'art_en',
      'art_time',
      'art_author',
      'art_from',
      'art_remarks',
      'art_pic',
    ]);
    expect(r.list[0]).toMatchObject({
      art_name: '凡人修仙 ]]> & <传>',
      type_id: ids.col,
      type_name: '玄幻小说',
      art_author: '作者甲',
      art_time: '2026-06-01 15:00:00',
      art_remarks: '完结',
    });
    expect(r.class).toEqual([{ type_id: ids.col, type_pid: 0, type_name: '玄幻小说' }]);
  });

  test('ac=detail: chapters as pages joined by $$$, escaped HTML, read back into the same chapters', async () => {
    const r = (await get('art', `ac=detail&ids=${ids.book},${ids.pending}`)).body;
    expect(r.class).toBeUndefined();
    expect(r.list).toHaveLength(1);
    const [a] = r.list;
    expect(a.art_title).toBe('第一章 山村$$$第二章 $$ $ 入门');
    expect(a.art_content).toBe('<p>少年韩立</p><p>出身山村 &amp; 贫寒 &lt;不是标签&gt;</p>$$$<p>七玄门</p>');
    expect(a.art_tag).toBe('仙侠,修真');
    expect(artChapters(a.art_name, a.art_content, a.art_title).map((c) => [c.title, c.content])).toEqual([
      ['第一章 山村', '少年韩立\n出身山村 & 贫寒 <不是标签>'],
      ['第二章 $$ $ 入门', '七玄门'],
    ]);
  });

  test('filters: t, wd, h, ids; paging and pagesize', async () => {
    expect((await get('art', `ac=list&t=${ids.col + 1}`)).body.total).toBe(0);
    expect((await get('art', `ac=list&wd=${encodeURIComponent('凡人')}`)).body.list).toHaveLength(1);
    expect((await get('art', 'ac=list&h=2')).body.list.map((a: any) => a.art_id)).toEqual([ids.book]);
    const p2 = (await get('art', 'ac=list&pagesize=1&pg=2')).body;
    expect(p2).toMatchObject({ page: 2, pagecount: 2, limit: '1', total: 2 });
    expect(p2.list.map((a: any) => a.art_id)).toEqual([ids.old]);
  });

  test('at=xml: well-formed, CDATA kept whole, read back by our reader as the JSON is', async () => {
    const body = await getText('art', `ac=detail&at=xml&ids=${ids.book}`);
    const doc = parseXml(body);
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    expect(doc.querySelector('art > name')?.textContent).toBe('凡人修仙 ]]> & <传>');
    const fromXml = readAnswer(body, 'xml', 'art');
    const fromJson = readAnswer(await getText('art', `ac=detail&ids=${ids.book}`), 'json', 'art');
    expect(fromXml.items).toEqual(fromJson.items);
    expect(fromXml.items[0]).toMatchObject({
      remoteId: ids.book,
      title: '凡人修仙 ]]> & <传>',
      author: '作者甲',
    });
    const list = readAnswer(await getText('art', 'ac=list&at=xml'), 'xml', 'art');
    expect(list.classes).toEqual([{ typeId: ids.col, typeName: '玄幻小说' }]);
    expect(list.total).toBe(2);
  });
});

describe('provide/actor', () => {
  beforeAll(() => setProvide({ provideOpen: true, provideKey: '' }));

  test('visible actresses only, MacCMS actor fields; detail adds height, birthday and the biography', async () => {
    const r = (await get('actor', 'ac=list')).body;
    expect(r).toMatchObject({ code: 1, total: 1, class: [] });
    expect(r.list[0]).toEqual({
      actor_id: ids.a1,
      actor_name: '演员甲',
      type_id: 0,
      type_name: '',
      actor_en: '',
      actor_area: '日本',
      actor_time: '2026-06-01 14:00:00',
      actor_alias: '小A,A酱',
      actor_sex: '女',
      actor_pic: '',
    });
    const d = (await get('actor', 'ac=detail')).body.list[0];
    expect(d).toMatchObject({
      actor_height: '160',
      actor_birthday: '1995-03-04',
      actor_content: '<p>第一行</p><p>第二行 &lt;i&gt;x&lt;/i&gt;</p>',
    });
    // actresses have no types: a type filter matches none
    expect((await get('actor', 'ac=list&t=1')).body.total).toBe(0);
    const xml = readAnswer(await getText('actor', 'ac=detail&at=xml'), 'xml', 'actor');
    expect(xml.items[0]).toMatchObject({
      remoteId: ids.a1,
      title: '演员甲',
      aliases: '小A,A酱',
      area: '日本',
    });
  });
});

describe('totals beyond the cap', () => {
  test('exact up to 10,000; beyond, a floor a page ahead of each full page', async () => {
    await api.query(sql`
      insert into novels (title, status, updated_at)
      select '批量' || g, 'online', '2026-01-01T00:00:00Z'::timestamptz - make_interval(secs => g)
      from generate_series(1, ${COUNT_CAP}) g`);
    const first = (await get('art', 'ac=list&pagesize=100')).body;
    expect(first.total).toBe(COUNT_CAP);
    expect(first.pagecount).toBe(COUNT_CAP / 100);
    // 10,002 online novels: page 101 of 100 is the last, short one, and its total is exact
    const last = (await get('art', 'ac=list&pagesize=100&pg=101')).body;
    expect(last.list).toHaveLength(2);
    expect(last.total).toBe(COUNT_CAP + 2);
    const full = (await get('art', 'ac=list&pagesize=100&pg=100')).body;
    expect(full.pagecount).toBe(101);
  });
});

describe('a detail page is bounded', () => {
  test('chapters past MAX_PROVIDED_CHAPTER_BYTES are refused with the size and what to ask instead', async () => {
    const big = Number(
      (
        await one<{ id: number }>(
          sql`insert into novels (title, status, updated_at) values ('长篇', 'online', now()) returning id`,
        )
      ).id,
    );
    // 15 chapters of 200,000 three-byte characters: about 8.6 MB, past the 8 MB a page may carry
    await api.query(sql`
      insert into novel_chapters (novel_id, number, title, content, word_count)
      select ${big}, g, '第' || g || '章', repeat('字', 200000), 200000 from generate_series(1, 15) g`);
    const refused = (await get('art', `ac=detail&ids=${big}`)).body;
    expect(refused.code).toBe(0);
    expect(refused.msg).toBe('本页章节共 8.6 MB，超过上限 8.0 MB：请减小 pagesize，或按 ids 少量采集');
    expect(refused.list).toBeUndefined();
    // the same novel listed (no chapters) and a small one in detail are served as before
    expect((await get('art', `ac=list&ids=${big}`)).body.list).toHaveLength(1);
    expect((await get('art', `ac=detail&ids=${ids.book}`)).body.list[0].art_id).toBe(ids.book);
    // one chapter fewer fits
    await api.query(sql`delete from novel_chapters where novel_id = ${big} and number > 13`);
    const served = (await get('art', `ac=detail&ids=${big}`)).body;
    expect(served.code).toBe(1);
    expect(served.list[0].art_content.length).toBeGreaterThan(13 * 200_000);
  });
});
