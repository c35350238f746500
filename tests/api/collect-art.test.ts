import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { OutboundFetch } from '../../server/core/outbound';
import { readAnswer } from '../../server/modules/collect/reader';
import { createGuardedFetch } from '../../server/node/outbound';
import { type FixtureSite, runToEnd, startFixtureSite } from './collect-helpers';
import { startApi, type TestApi } from './harness';

/**
 * Collection of articles and performers (MacCMS `provide/art`, `provide/actor`): the reader against recorded answers
 * (JSON, XML, hostile), the source's kind, bindings to novel columns (none for performers), dry and real runs into
 * the novels' review queue with chapters and into the actresses' list, matching by remote id then by name, the
 * locked-field rule, trust; and one instance collecting the articles another instance serves.
 */
let api: TestApi;
let admin: string;
let site: FixtureSite;
let xuan: number;
let dushi: number;

const guard = createGuardedFetch();
const C = '/app/admin/collect';
const call = (method: string, path: string, body?: unknown, token = admin) =>
  api.call(method, `${C}${path}`, { token, body }).then((r) => r.body);
const base = (kind: string, what = 'art') => `http://127.0.0.1:${site.port}/${kind}/api.php/provide/${what}/`;
const count = async (table: string, where = '') =>
  Number((await api.query<{ n: number }>(sql.raw(`select count(*)::int as n from ${table} ${where}`)))[0].n);
const fixture = (n: string) => readFileSync(new URL(`../fixtures/collect/${n}`, import.meta.url), 'utf8');

async function addSource(name: string, kind: 'vod' | 'art' | 'actor', path: string, extra = {}) {
  const r = await call('POST', '/sources', { name, kind, url: base(path, kind), ...extra });
  expect(r.code, JSON.stringify(r)).toBe(20000);
  return r.data.id as number;
}

const run = (body: Record<string, unknown>, on = api, token = admin) => runToEnd(on, token, body);

const bindArt = (sourceId: number) =>
  call('PUT', `/sources/${sourceId}/bindings`, {
    bindings: [
      { remoteTypeId: 11, remoteTypeName: '玄幻', columnId: xuan, skipped: false },
      { remoteTypeId: 12, remoteTypeName: '都市', columnId: dushi, skipped: false },
    ],
  });

beforeAll(async () => {
  site = await startFixtureSite();
  api = await startApi(
    {},
    { outbound: (url, o) => guard(url, { ...o, timeoutMs: Math.min(o.timeoutMs, 1500) }) },
  );
  admin = await api.login();
  const col = async (name: string) =>
    (await api.call('POST', '/app/admin/novel/columns', { token: admin, body: { name } })).body.data
      .id as number;
  xuan = await col('玄幻小说');
  dushi = await col('都市小说');
  await api.call('POST', '/app/admin/sys/updateSetting', {
    token: admin,
    body: { outboundAllow: ['127.0.0.1'] },
  });
});
afterAll(async () => {
  await api?.close();
  await site?.close();
});

describe('the reader', () => {
  test('articles: MacCMS art_* fields in JSON, our <art> XML; CDATA kept whole', () => {
    const json = readAnswer(fixture('art-page1.json'), 'json', 'art');
    expect(json).toMatchObject({ page: 1, pageCount: 1, total: 5 });
    expect(json.items[0]).toMatchObject({
      remoteId: 501,
      title: '凡人修仙传',
      typeId: 11,
      author: '忘语',
      description: '一个普通山村少年<b>韩立</b>的修仙之路',
      pageTitles: '第一章 山边小村$$$第二章 青牛镇',
      tags: '修真,凡人流，仙侠',
    });
    expect(readAnswer(fixture('art-list.json'), 'json', 'art').classes).toEqual([
      { typeId: 11, typeName: '玄幻' },
      { typeId: 12, typeName: '都市' },
    ]);
    const xml = readAnswer(fixture('art-page1.xml'), 'xml', 'art');
    expect(xml.items[0]).toMatchObject({
      remoteId: 601,
      title: '遮天 & 神墓',
      author: '辰东',
      description: '冰冷与黑暗并存的宇宙深处 </art>',
      content: '<p>一</p>$$$<p>二 &amp; 三</p>',
    });
  });

  test('performers: actor_* fields, the blurb when the content is empty; XML <actor>', () => {
    const json = readAnswer(fixture('actor-page1.json'), 'json', 'actor');
    expect(json.items[0]).toMatchObject({
      remoteId: 701,
      title: '三上悠亜',
      aliases: '鬼头桃菜,三上悠亞',
      area: '日本',
      height: '159',
      birthday: '1993-08-16',
    });
    expect(json.items[1].description).toBe('只有简介');
    expect(readAnswer(fixture('actor-page1.xml'), 'xml', 'actor').items[0]).toMatchObject({
      remoteId: 801,
      title: '林志玲',
      area: '台湾',
    });
  });

  test('hostile answers: a video list read as articles has no ids; too many items, wrong shapes, bad XML fail', () => {
    const vodAsArt = readAnswer(fixture('page1.json'), 'json', 'art');
    expect(vodAsArt.items.every((i) => Number.isNaN(i.remoteId))).toBe(true);
    const many = JSON.stringify({ code: 1, list: Array.from({ length: 201 }, (_, i) => ({ art_id: i })) });
    expect(() => readAnswer(many, 'json', 'art')).toThrow(/shape/);
    expect(() => readAnswer('{"code":1,"list":{"art_id":1}}', 'json', 'art')).toThrow(/shape/);
    expect(() => readAnswer('<rss><list><art><id>1</id>', 'xml', 'art')).toThrow(/notXml/);
    expect(() => readAnswer('<html>维护中</html>', 'json', 'actor')).toThrow(/notJson/);
    // a huge field is cut, not kept whole
    const huge = JSON.stringify({ code: 1, list: [{ actor_id: 1, actor_name: 'x'.repeat(100_000) }] });
    expect(readAnswer(huge, 'json', 'actor').items[0].title.length).toBeLessThanOrEqual(400);
  });
});

describe('sources of articles and performers', () => {
  test('the kind is chosen when added and kept; the test reads ac=list; article types bind to novel columns', async () => {
    const src = await addSource('小说站', 'art', 'art');
    const read = (await call('GET', `/sources/${src}`)).data;
    expect(read.kind).toBe('art');
    const edited = await call('PUT', `/sources/${src}`, { ...read, kind: 'actor', name: '小说站2' });
    expect(edited.code, JSON.stringify(edited)).toBe(20000);
    expect(edited.data).toMatchObject({ kind: 'art', name: '小说站2' });
    const t = (await call('POST', `/sources/${src}/test`)).data;
    expect(t).toMatchObject({ ok: true, total: 4 });
    expect(site.requests.at(-1)?.get('ac')).toBe('list');
    const bound = await bindArt(src);
    expect(bound.code, JSON.stringify(bound)).toBe(20000);
    expect(bound.data.list.map((b: any) => [b.remoteTypeId, b.columnName])).toEqual([
      [11, '玄幻小说'],
      [12, '都市小说'],
    ]);
    // a movie column is not a novel column
    const movieCol = (
      await api.call('POST', '/app/admin/movie/columns', { token: admin, body: { name: '电影栏目' } })
    ).body.data.id;
    const wrong = await call('PUT', `/sources/${src}/bindings`, {
      bindings: [{ remoteTypeId: 11, columnId: movieCol + 1000, skipped: false }],
    });
    expect(wrong.code).toBe(40000);
    const bad = await call('POST', '/sources', { name: 'x', kind: 'manga', url: base('art') });
    expect(Object.keys(bad.data.fields)).toEqual(['kind']);
    await call('DELETE', `/sources/${src}`);
  });

  test('a performer site binds nothing: its test lists the types without keeping them; bindings are refused', async () => {
    const src = await addSource('演员站', 'actor', 'actor');
    await call('POST', `/sources/${src}/test`);
    expect((await call('GET', `/sources/${src}/bindings`)).data.list).toEqual([]);
    const r = await call('PUT', `/sources/${src}/bindings`, {
      bindings: [{ remoteTypeId: 8, columnId: null, skipped: true }],
    });
    expect(r.code).toBe(40000);
    expect(r.data.fields.bindings).toContain('演员');
    await call('DELETE', `/sources/${src}`);
  });
});

describe('article runs', () => {
  let src: number;
  beforeAll(async () => {
    src = await addSource('文章站', 'art', 'art');
    await call('POST', `/sources/${src}/test`);
    await bindArt(src);
  });

  test('a dry run reports and writes nothing; pages are asked with ac=detail', async () => {
    const tables = ['novels', 'novel_chapters', 'collect_items'];
    const before = await Promise.all(tables.map((t) => count(t)));
    const r = await run({ sourceId: src, kind: 'hours', hours: 24, dryRun: true });
    expect(r).toMatchObject({ status: 'done', sourceKind: 'art', added: 3, skipped: 1, failed: 1 });
    expect(site.requests.at(-1)?.get('ac')).toBe('detail');
    expect(await Promise.all(tables.map((t) => count(t)))).toEqual(before);
  });

  test('a real run adds pending novels with sanitized chapters; the log names each novel', async () => {
    const r = await run({ sourceId: src, kind: 'hours', hours: 24 });
    expect(r).toMatchObject({ status: 'done', added: 3, skipped: 1, failed: 1 });
    const reasons = Object.fromEntries(
      r.log.filter((e: any) => e.reason).map((e: any) => [e.remoteId, e.reason]),
    );
    expect(reasons).toEqual({ 504: 'noChapters', 505: 'typeNotBound' });
    const rows = await api.query<any>(sql`
      select n.id, n.title, n.author, n.status, n.cover, n.column_id, n.tags, n.description, n.chapter_count,
        i.remote_id from collect_items i join novels n on n.id = i.novel_id where i.source_id = ${src}
      order by i.remote_id`);
    expect(rows.map((x) => [x.remote_id, x.title, x.status, x.chapter_count])).toEqual([
      [501, '凡人修仙传', 'pending', 2],
      [502, '都市小记', 'pending', 1],
      [503, '旧版分页', 'pending', 2],
    ]);
    const fanren = rows[0];
    expect(fanren).toMatchObject({
      author: '忘语',
      column_id: xuan,
      cover: 'https://img.example.com/art/501.jpg',
      description: '一个普通山村少年韩立的修仙之路',
      tags: ['修真', '凡人流', '仙侠'],
    });
    expect(rows[1]).toMatchObject({ cover: '', column_id: dushi });
    const chapters = await api.query<any>(
      sql`select number, title, content, word_count from novel_chapters where novel_id = ${fanren.id} order by number`,
    );
    expect(chapters.map((c) => [c.number, c.title, c.content])).toEqual([
      [1, '第一章 山边小村', '二愣子睁大着双眼。\n直直望着茅草和烂泥糊成的屋顶。'],
      [2, '第二章 青牛镇', '青牛镇是一个小镇。'],
    ]);
    expect(chapters[0].word_count).toBeGreaterThan(10);
    const v8 = await api.query<any>(
      sql`select title, content from novel_chapters where novel_id = ${rows[2].id} order by number`,
    );
    expect(v8).toEqual([
      { title: '旧版分页 (1)', content: '上篇' },
      { title: '旧版分页 (2)', content: '下篇' },
    ]);
    const byRemote = new Map(rows.map((x) => [x.remote_id, x.id]));
    for (const e of r.log.filter((x: any) => x.outcome === 'added'))
      expect(e.novelId, String(e.remoteId)).toBe(byRemote.get(e.remoteId));
    // the novels' review queue shows them
    const queue = (await api.call('GET', '/app/admin/novel/novels?status=pending', { token: admin })).body
      .data;
    expect(queue.list.map((n: any) => n.title)).toContain('凡人修仙传');
  });

  test('again: matched by remote id, nothing duplicated; a field edited by hand is locked, the rest follow', async () => {
    const before = await count('novels');
    const again = await run({ sourceId: src, kind: 'hours', hours: 24 });
    expect(again).toMatchObject({ added: 0, updated: 0 });
    expect(again.log.filter((e: any) => e.reason === 'unchanged')).toHaveLength(3);
    expect(await count('novels')).toBe(before);
    const [n] = await api.query<any>(sql`select id from novels where title = '凡人修仙传'`);
    await api.query(sql`update novels set author = '手改的作者' where id = ${n.id}`);
    await api.query(sql`update novel_chapters set title = '手改' where novel_id = ${n.id} and number = 1`);
    // the site changes its blurb: an untouched field follows it
    await api.query(sql`update collect_items set hashes = hashes || '{"description":"stale"}'::jsonb
      where novel_id = ${n.id}`);
    const third = await run({ sourceId: src, kind: 'hours', hours: 24 });
    const entry = third.log.find((e: any) => e.remoteId === 501);
    expect(entry).toMatchObject({ outcome: 'skipped', reason: 'unchanged', novelId: n.id });
    expect(entry.locked.sort()).toEqual(['author', 'chapters', 'description']);
    const [after] = await api.query<any>(sql`select author, chapter_count from novels where id = ${n.id}`);
    expect(after).toEqual({ author: '手改的作者', chapter_count: 2 });
  });

  test('another article site matches by name and fills only what is empty here; a trusted one goes online', async () => {
    await api.query(sql`insert into novels (title, author) values ('遮天 & 神墓', '')`);
    const other = await addSource('XML文章站', 'art', 'artxml', { format: 'xml', trusted: true });
    await call('PUT', `/sources/${other}/bindings`, {
      bindings: [{ remoteTypeId: 11, columnId: xuan, skipped: false }],
    });
    const r = await run({ sourceId: other, kind: 'hours', hours: 24 });
    expect(r).toMatchObject({ status: 'done', added: 0, updated: 1 });
    const [n] = await api.query<any>(
      sql`select id, author, status, chapter_count, column_id from novels where title = '遮天 & 神墓'`,
    );
    // the one here was pending, empty but for its title: its author, column and chapters come from the site
    expect(n).toMatchObject({ author: '辰东', status: 'pending', chapter_count: 2, column_id: xuan });
    expect(await count('novels', `where title = '遮天 & 神墓'`)).toBe(1);
    await api.query(sql`delete from novels where id = ${n.id}`);
    const fresh = await run({ sourceId: other, kind: 'hours', hours: 24 });
    expect(fresh.added).toBe(1);
    const [added] = await api.query<any>(
      sql`select status, published_at from novels where title = '遮天 & 神墓'`,
    );
    expect(added.status).toBe('online');
    expect(added.published_at).not.toBeNull();
  });
});

describe('performer runs', () => {
  test('into the actresses’ list: hidden until shown (untrusted), fields read and checked, matched by name', async () => {
    await api.query(sql`insert into actresses (name, height) values ('林志玲', 180)`);
    const src = await addSource('演员资源', 'actor', 'actor');
    const dry = await run({ sourceId: src, kind: 'hours', hours: 24, dryRun: true });
    expect(dry).toMatchObject({ status: 'done', added: 2, failed: 1 });
    expect(await count('actresses')).toBe(1);
    const r = await run({ sourceId: src, kind: 'ids', ids: [701, 702] });
    expect(r).toMatchObject({ status: 'done', added: 2, failed: 1 });
    expect(r.log.find((e: any) => e.outcome === 'failed').reason).toBe('badId');
    const rows = await api.query<any>(sql`
      select a.id, a.name, a.aliases, a.region, a.height, a.birthday::text as birthday, a.biography, a.visible,
        a.avatar, i.remote_id from collect_items i join actresses a on a.id = i.actress_id
      where i.source_id = ${src} order by i.remote_id`);
    expect(rows[0]).toMatchObject({
      name: '三上悠亜',
      aliases: ['鬼头桃菜', '三上悠亞'],
      region: 'jp',
      height: 159,
      birthday: '1993-08-16',
      biography: '日本女演员。',
      visible: false,
      avatar: 'https://img.example.com/actor/701.jpg',
    });
    expect(rows[1]).toMatchObject({
      name: '无名演员',
      region: null,
      height: null,
      birthday: null,
      biography: '只有简介',
    });
    expect(r.log.find((e: any) => e.remoteId === 701).actressId).toBe(rows[0].id);
    expect(site.requests.at(-1)?.get('ids')).toBe('701,702');
    // a second run adds nobody again
    expect((await run({ sourceId: src, kind: 'hours', hours: 24 })).added).toBe(0);
    // the XML site's 林志玲 matches the one here by name: what is set here (name, height) stays, the empty fields
    // fill in
    const xml = await addSource('演员XML', 'actor', 'actorxml', { format: 'xml', trusted: true });
    const x = await run({ sourceId: xml, kind: 'hours', hours: 24 });
    expect(x).toMatchObject({ added: 0, updated: 1 });
    const [lin] = await api.query<any>(
      sql`select height, region, aliases, visible from actresses where name = '林志玲'`,
    );
    expect(lin).toEqual({ height: 180, region: 'tw', aliases: ['志玲姐姐'], visible: true });
    expect(x.log[0].locked).toEqual(['name', 'height']);
  });
});

describe('one instance collects the articles another serves', () => {
  let remote: TestApi;
  afterAll(() => remote?.close());

  test('its online novels, chapters and all, arrive in our review queue', async () => {
    remote = await startApi();
    const remoteAdmin = await remote.login();
    const col = Number(
      (
        await remote.query<{ id: number }>(
          sql`insert into novel_columns (name) values ('远端玄幻') returning id`,
        )
      )[0].id,
    );
    const [book] = await remote.query<{ id: number }>(sql`
      insert into novels (title, author, column_id, status, description, tags)
      values ('远端的书', '远端作者', ${col}, 'online', '远端简介', '{甲,乙}') returning id`);
    await remote.query(sql`
      insert into novel_chapters (novel_id, number, title, content) values
        (${book.id}, 1, '第一章', ${'第一段 & <不是标签>\n第二段'}), (${book.id}, 2, '第二章 $$$', '结尾')`);
    await remote.query(sql`insert into novels (title, status) values ('远端待审', 'pending')`);
    await remote.call('POST', '/app/admin/sys/updateSetting', {
      token: remoteAdmin,
      body: { provideOpen: true, provideKey: 'remote-key' },
    });
    // Our instance reaches the other through its app (an in-process server: no port, the same answers).
    const viaRemote: OutboundFetch = async (url, o) => {
      const u = new URL(url);
      const res = await remote.app.request(`${u.pathname}${u.search}`, { headers: o.headers });
      return {
        status: res.status,
        headers: res.headers,
        body: new Uint8Array(await res.arrayBuffer()),
        url,
        ms: 1,
      };
    };
    const ours = await startApi({}, { outbound: viaRemote });
    try {
      const token = await ours.login();
      const c = (method: string, path: string, body?: unknown) =>
        ours.call(method, `${C}${path}`, { token, body }).then((r) => r.body);
      const ourCol = (await ours.call('POST', '/app/admin/novel/columns', { token, body: { name: '玄幻' } }))
        .body.data.id;
      for (const format of ['json', 'xml'] as const) {
        const src = (
          await c('POST', '/sources', {
            name: `远端${format}`,
            kind: 'art',
            format,
            url: 'https://remote.example/api.php/provide/art/?key=remote-key',
          })
        ).data.id;
        const t = (await c('POST', `/sources/${src}/test`)).data;
        expect(t, format).toMatchObject({
          ok: true,
          total: 1,
          classes: [{ typeId: col, typeName: '远端玄幻' }],
        });
        await c('PUT', `/sources/${src}/bindings`, {
          bindings: [{ remoteTypeId: col, columnId: ourCol, skipped: false }],
        });
        const r = await run({ sourceId: src, kind: 'hours', hours: 24 }, ours, token);
        expect(r, format).toMatchObject({ status: 'done', added: format === 'json' ? 1 : 0 });
      }
      const [n] = await ours.query<any>(
        sql`select id, title, author, status, tags, description, column_id from novels`,
      );
      expect(n).toMatchObject({
        title: '远端的书',
        author: '远端作者',
        status: 'pending',
        tags: ['甲', '乙'],
        description: '远端简介',
        column_id: ourCol,
      });
      const chapters = await ours.query<any>(
        sql`select title, content from novel_chapters where novel_id = ${n.id} order by number`,
      );
      expect(chapters).toEqual([
        { title: '第一章', content: '第一段 & <不是标签>\n第二段' },
        { title: '第二章 $$ $', content: '结尾' },
      ]);
    } finally {
      await ours.close();
    }
  });
});
