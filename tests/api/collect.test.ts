import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runImages } from '../../server/modules/collect/covers';
import { readAnswer } from '../../server/modules/collect/reader';
import {
  claimDueSource,
  RUN_CLAIM_SECONDS,
  reapInterrupted,
  runClaim,
  runScheduled,
} from '../../server/modules/collect/run';
import { createGuardedFetch } from '../../server/node/outbound';
import { type FixtureSite, runToEnd, startFixtureSite } from './collect-helpers';
import { startApi, type TestApi, USER_PASSWORD } from './harness';

/**
 * Issue #49 (collection): the reader against recorded answers (JSON and XML), sources and bindings, dry and real
 * runs into the review queue, matching by remote id and by title + year, the locked-field rule, trust, cancel, the
 * schedule's single runner, hostile sites, roles and bad input. The sites are served on 127.0.0.1 and every fetch
 * goes through the real outbound guard (its time cap shortened so the slow site is quick to give up on).
 */
let api: TestApi;
let admin: string;
let user: string;
let site: FixtureSite;
let movieCol: number;
let seriesCol: number;

const guard = createGuardedFetch();
const C = '/app/admin/collect';
const call = (
  method: string,
  path: string,
  body?: unknown,
  token = admin,
  headers?: Record<string, string>,
) => api.call(method, `${C}${path}`, { token, body, headers }).then((r) => r.body);
const base = (kind: string) => `http://127.0.0.1:${site.port}/${kind}/api.php/provide/vod/`;
const count = async (table: string) =>
  Number((await api.query<{ n: number }>(sql.raw(`select count(*)::int as n from ${table}`)))[0].n);
const allow = (list: string[]) =>
  api.call('POST', '/app/admin/sys/updateSetting', { token: admin, body: { outboundAllow: list } });

async function addSource(name: string, kind: string, extra: Record<string, unknown> = {}) {
  const r = await call('POST', '/sources', { name, url: base(kind), ...extra });
  expect(r.code, JSON.stringify(r)).toBe(20000);
  return r.data.id as number;
}

/** Starts a run and waits for its end (the route answers at once; the run goes on). */
const run = (body: Record<string, unknown>, token = admin) => runToEnd(api, token, body);

async function bindDefaults(sourceId: number) {
  const r = await call('PUT', `/sources/${sourceId}/bindings`, {
    bindings: [
      { remoteTypeId: 1, remoteTypeName: '电影', columnId: movieCol, skipped: false },
      { remoteTypeId: 2, remoteTypeName: '电视剧', columnId: seriesCol, skipped: false },
    ],
  });
  expect(r.code, JSON.stringify(r)).toBe(20000);
}

beforeAll(async () => {
  site = await startFixtureSite();
  api = await startApi(
    {},
    { outbound: (url, o) => guard(url, { ...o, timeoutMs: Math.min(o.timeoutMs, 1500) }) },
  );
  admin = await api.login();
  await api.createOperator(admin, { account: 'clerk', nickname: '小李' });
  user = await api.login('clerk', USER_PASSWORD);
  const col = async (name: string) =>
    (await api.call('POST', '/app/admin/movie/columns', { token: admin, body: { name } })).body.data
      .id as number;
  movieCol = await col('采集电影');
  seriesCol = await col('采集剧集');
  await allow(['127.0.0.1']);
});
afterAll(async () => {
  await api?.close();
  await site?.close();
});

describe('the reader', () => {
  test('JSON: items, classes, paging; XML: CDATA, entities, lines from <dd flag>', async () => {
    const { readFileSync } = await import('node:fs');
    const f = (n: string) => readFileSync(new URL(`../fixtures/collect/${n}`, import.meta.url), 'utf8');
    const json = readAnswer(f('page1.json'), 'json');
    expect(json).toMatchObject({ page: 1, pageCount: 2, total: 8 });
    expect(json.items.map((i) => i.remoteId).slice(0, 4)).toEqual([101, 102, 103, 104]);
    expect(Number.isNaN(json.items[4].remoteId)).toBe(true);
    expect(readAnswer(f('list.json'), 'json').classes).toEqual([
      { typeId: 1, typeName: '电影' },
      { typeId: 2, typeName: '电视剧' },
      { typeId: 3, typeName: '综艺' },
    ]);
    const xml = readAnswer(f('page1.xml'), 'xml');
    expect(xml.items).toHaveLength(2);
    expect(xml.items[0]).toMatchObject({ remoteId: 301, title: '霸王别姬', typeId: 1, year: '1993' });
    expect(xml.items[0].playFrom).toBe('m3u8$$$mp4');
    expect(xml.items[0].description).toContain('</video>'); // CDATA kept whole, not cut at a tag inside it
    expect(xml.items[1].title).toBe('鬼吹灯 & 精绝古城');
    expect(readAnswer(f('list.xml'), 'xml').classes[2]).toEqual({ typeId: 3, typeName: '综艺 & 晚会' });
    expect(() => readAnswer('<html></html>', 'json')).toThrow(/notJson/);
    expect(() => readAnswer('{"code":1}', 'json')).toThrow(/shape/);
    expect(() => readAnswer('<rss><list><video><id>1</id>', 'xml')).toThrow(/notXml/);
  });
});

describe('sources and bindings', () => {
  test('bad input names the field in both languages; sources and trust are the admin’s', async () => {
    const bad = await call('POST', '/sources', { name: '', url: 'ftp://x/' });
    expect(bad.code).toBe(40000);
    expect(Object.keys(bad.data.fields).sort()).toEqual(['name', 'url']);
    const en = await call('POST', '/sources', { name: 'x', url: 'javascript:alert(1)' }, admin, {
      'Accept-Language': 'en-US',
    });
    expect(en.data.fields.url).toMatch(/http\(s\) API address/);
    expect(
      (await call('POST', '/sources', { name: 'x', url: base('good'), format: 'csv' })).data.fields,
    ).toHaveProperty('format');
    expect((await call('POST', '/sources', { name: 'u', url: base('good') }, user)).code).toBe(40300);
    expect((await call('GET', '/sources', undefined, user)).code).toBe(20000);
  });

  test('the test button lists the types and total; unbound types are listed first', async () => {
    const id = await addSource('测试站', 'good');
    const t = await call('POST', `/sources/${id}/test`);
    expect(t.data).toMatchObject({ ok: true, total: 8 });
    expect(t.data.classes).toHaveLength(3);
    expect((await call('POST', `/sources/${id}/test`, undefined, user)).code).toBe(40300);
    await call('PUT', `/sources/${id}/bindings`, {
      bindings: [{ remoteTypeId: 1, columnId: movieCol, skipped: false }],
    });
    const b = (await call('GET', `/sources/${id}/bindings`)).data;
    expect(b.unbound).toBe(2);
    expect(b.list.map((x: any) => [x.remoteTypeId, x.bound])).toEqual([
      [2, false],
      [3, false],
      [1, true],
    ]);
    const wrong = await call('PUT', `/sources/${id}/bindings`, {
      bindings: [{ remoteTypeId: 2, columnId: 999999, skipped: false }],
    });
    expect(wrong.code).toBe(40000);
    const both = await call('PUT', `/sources/${id}/bindings`, {
      bindings: [{ remoteTypeId: 2, columnId: movieCol, skipped: true }],
    });
    expect(Object.keys(both.data.fields)).toEqual(['bindings.0.columnId']);
  });

  test('XML source: the test reads ac=list with at=xml', async () => {
    const id = await addSource('XML站', 'xml', { format: 'xml' });
    const t = await call('POST', `/sources/${id}/test`);
    expect(t.data.classes.map((c: any) => c.typeName)).toEqual(['电影', '电视剧', '综艺 & 晚会']);
    expect(site.requests.at(-1)?.get('at')).toBe('xml');
  });
});

describe('runs', () => {
  let src: number;
  beforeAll(async () => {
    src = await addSource('主站', 'good');
    await call('POST', `/sources/${src}/test`);
    await bindDefaults(src);
  });

  test('a dry run reports what it would do and writes nothing', async () => {
    const before = await Promise.all(['movies', 'movie_plays', 'collect_items', 'video_sources'].map(count));
    const r = await run({ sourceId: src, kind: 'hours', hours: 24, dryRun: true });
    expect(r.status).toBe('done');
    expect(r).toMatchObject({ pagesDone: 2, pageCount: 2, added: 4, skipped: 2, failed: 2, updated: 0 });
    const reasons = Object.fromEntries(
      r.log.filter((e: any) => e.reason).map((e: any) => [e.remoteId ?? 'none', e.reason]),
    );
    expect(reasons).toMatchObject({
      103: 'typeNotBound',
      104: 'noEpisodes',
      none: 'badId',
      203: 'duplicate',
    });
    expect(await Promise.all(['movies', 'movie_plays', 'collect_items', 'video_sources'].map(count))).toEqual(
      before,
    );
    expect(site.requests.at(-1)?.get('h')).toBe('24');
    // nothing collected: the source's last collection is still none
    expect((await call('GET', `/sources/${src}`)).data.lastRunAt).toBeNull();
  });

  test('a real run writes into the review queue (pending), with lines, episodes and sanitized text', async () => {
    const r = await run({ sourceId: src, kind: 'hours', hours: 24 });
    expect(r).toMatchObject({ status: 'done', added: 4, skipped: 2, failed: 2, startedByName: '管理员' });
    // an operator's run is the source's last collection, as a scheduled one is
    expect((await call('GET', `/sources/${src}`)).data).toMatchObject({
      lastRunAt: expect.any(String),
      lastError: '',
      lastErrorText: '',
    });
    // 203 is 102 again (the same title and year, on the next page): matched, not added twice.
    expect(r.log.find((e: any) => e.remoteId === 203)).toMatchObject({
      outcome: 'skipped',
      reason: 'unchanged',
    });
    const rows = await api.query<any>(sql`
      select m.id, m.title, m.status, m.description, m.cover, m.column_id, i.remote_id from collect_items i
      join movies m on m.id = i.movie_id where i.source_id = ${src} order by i.remote_id`);
    expect(rows.map((x) => [x.remote_id, x.title, x.status])).toEqual([
      [101, '流浪地球', 'pending'],
      [102, '三体', 'pending'],
      [201, '星际穿越', 'pending'],
      [202, '名字带$号', 'pending'],
      [203, '三体', 'pending'],
    ]);
    // Each item that became (or matched) a movie names it in the log: the history links there.
    const movieOf = new Map(rows.map((x) => [x.remote_id, x.id]));
    const named = r.log.filter((e: any) => e.outcome === 'added' || e.reason === 'unchanged');
    expect(named.map((e: any) => e.remoteId).sort()).toEqual([101, 102, 201, 202, 203]);
    for (const e of named) expect(e.movieId, String(e.remoteId)).toBe(movieOf.get(e.remoteId));
    expect(r.log.filter((e: any) => e.outcome === 'failed').every((e: any) => !e.movieId)).toBe(true);
    const santi = rows.find((x) => x.remote_id === 102);
    expect(santi.description).toBe('好看');
    expect(santi.cover).toBe('https://img.example.com/102.jpg');
    expect(santi.column_id).toBe(seriesCol);
    const detail = (await api.call('GET', `/app/admin/movie/movies/${santi.id}`, { token: admin })).body.data;
    expect(detail.plays.map((p: any) => p.name)).toEqual(['第01集', '第02集', '第03集', '第04集']);
    expect(detail.plays[0].url).toBe('https://cdn-a.example.com/v/102/1.m3u8');
    const earth = rows.find((x) => x.remote_id === 101);
    const e = (await api.call('GET', `/app/admin/movie/movies/${earth.id}`, { token: admin })).body.data;
    expect(e.plays.map((p: any) => [p.line, p.sourceName, p.name])).toEqual([
      [0, 'm3u8', '正片'],
      [1, 'mp4', 'HD'],
    ]);
    const dollar = rows.find((x) => x.remote_id === 202);
    const n = (await api.call('GET', `/app/admin/movie/movies/${dollar.id}`, { token: admin })).body.data;
    expect(n.plays.map((p: any) => p.name)).toEqual(['第1集$上', '第2集']);
    // The review queue shows them.
    const queue = (
      await api.call('GET', '/app/admin/movie/movies?status=pending&pageSize=50', { token: admin })
    ).body.data;
    expect(queue.list.map((m: any) => m.title)).toContain('流浪地球');
  });

  test('every video source stored by collection (and as the MacCMS move makes them) saves back unchanged', async () => {
    // The MacCMS move makes a source per line code as collection does, from codes such as these.
    await api.query(sql`
      insert into video_sources (name, code, base_url) select c, c, '' from unnest(array['qq.com', '腾讯视频']) as c
      on conflict (code) do nothing`);
    const stored = await api.query<{ id: number; code: string; base_url: string }>(
      sql`select id, code, base_url from video_sources order by id`,
    );
    expect(stored.map((x) => [x.code, x.base_url])).toEqual(
      expect.arrayContaining([
        ['m3u8', ''],
        ['mp4', ''],
        ['qq.com', ''],
      ]),
    );
    for (const { id } of stored) {
      const got = (await api.call('GET', `/app/admin/movie/sources/${id}`, { token: admin })).body.data;
      const { name, code, baseUrl, type, priority, enabled, version } = got;
      const put = await api.call('PUT', `/app/admin/movie/sources/${id}`, {
        token: admin,
        body: { name, code, baseUrl, type, priority, enabled, version },
      });
      expect(put.body.code, `${code}: ${JSON.stringify(put.body)}`).toBe(20000);
      expect(put.body.data).toMatchObject({ name, code, baseUrl, version: version + 1 });
    }
    // What the notation cannot carry is still refused.
    const bad = await api.call('POST', '/app/admin/movie/sources', {
      token: admin,
      body: { name: '坏', code: 'a$b', baseUrl: 'ftp://x' },
    });
    expect(Object.keys(bad.body.data.fields).sort()).toEqual(['baseUrl', 'code']);
  });

  test('running it again matches by remote id: nothing duplicated, unchanged items skipped', async () => {
    const before = await count('movies');
    const r = await run({ sourceId: src, kind: 'pages', pageFrom: 1, pageTo: 2 });
    expect(r).toMatchObject({ status: 'done', added: 0, updated: 0 });
    expect(r.log.filter((e: any) => e.reason === 'unchanged')).toHaveLength(5);
    expect(await count('movies')).toBe(before);
  });

  test('a field edited by hand is locked; the others follow the site', async () => {
    const [m] = await api.query<any>(sql`
      select m.id, m.version from collect_items i join movies m on m.id = i.movie_id
      where i.source_id = ${src} and i.remote_id = 101`);
    const detail = (await api.call('GET', `/app/admin/movie/movies/${m.id}`, { token: admin })).body.data;
    const put = await api.call('PUT', `/app/admin/movie/movies/${m.id}`, {
      token: admin,
      body: { title: '流浪地球（导演剪辑版）', version: detail.version },
    });
    expect(put.body.code).toBe(20000);
    const r = await run({ sourceId: src, kind: 'ids', ids: [101] });
    const entry = r.log.find((e: any) => e.remoteId === 101);
    expect(entry.locked).toEqual(['title']);
    const [after] = await api.query<any>(sql`select title from movies where id = ${m.id}`);
    expect(after.title).toBe('流浪地球（导演剪辑版）');
    expect(site.requests.at(-1)?.get('ids')).toBe('101');
  });

  test('a changed site value updates an untouched field', async () => {
    const [m] = await api.query<any>(sql`
      select m.id from collect_items i join movies m on m.id = i.movie_id where i.source_id = ${src} and i.remote_id = 201`);
    // As if the last collection had written another description: ours still equals what it wrote.
    await api.query(sql`update movies set description = '旧简介' where id = ${m.id}`);
    const { fieldHash } = await import('../../server/modules/collect/run');
    await api.query(sql`update collect_items set hashes = jsonb_set(hashes, '{description}', to_jsonb(${fieldHash('旧简介')}::text))
      where source_id = ${src} and remote_id = 201`);
    const r = await run({ sourceId: src, kind: 'pages', pageFrom: 2 });
    const entry = r.log.find((e: any) => e.remoteId === 201);
    expect(entry).toMatchObject({ outcome: 'updated' });
    const [after] = await api.query<any>(sql`select description, version from movies where id = ${m.id}`);
    expect(after.description).toBe('穿越虫洞');
  });

  test('another source matches by title + year, and fills only what is empty here', async () => {
    const other = await addSource('镜像站', 'good', { trusted: true });
    await bindDefaults(other);
    const before = await count('movies');
    const r = await run({ sourceId: other, kind: 'pages', pageFrom: 1, pageTo: 2 });
    // Only 101 is new to us: its title here was edited by hand, so it no longer matches.
    expect(r.log.filter((e: any) => e.outcome === 'added').map((e: any) => e.remoteId)).toEqual([101]);
    expect(await count('movies')).toBe(before + 1);
    const santi = r.log.find((e: any) => e.remoteId === 102);
    expect(santi.locked).toEqual(expect.arrayContaining(['title', 'plays']));
  });

  test('a trusted source’s new items go straight online', async () => {
    const t = await addSource('可信站', 'xml', { format: 'xml', trusted: true });
    await bindDefaults(t);
    const r = await run({ sourceId: t, kind: 'keyword', keyword: '霸王' });
    expect(r.added).toBe(2);
    const rows = await api.query<any>(sql`
      select m.status, m.published_at from collect_items i join movies m on m.id = i.movie_id where i.source_id = ${t}`);
    expect(rows.every((x) => x.status === 'online' && x.published_at)).toBe(true);
    expect(site.requests.at(-1)?.get('wd')).toBe('霸王');
  });

  test('a user may run and cancel; one run per source at a time; bad run input names the field', async () => {
    const r = await run({ sourceId: src, kind: 'hours', dryRun: true }, user);
    expect(r.startedByName).toBe('小李');
    expect((await call('POST', '/runs', { sourceId: src, kind: 'pages' })).data.fields).toHaveProperty(
      'pageFrom',
    );
    expect(
      (await call('POST', '/runs', { sourceId: src, kind: 'pages', pageFrom: 5, pageTo: 2 })).data.fields,
    ).toHaveProperty('pageTo');
    expect((await call('POST', '/runs', { sourceId: 999999, kind: 'hours' })).data.fields).toHaveProperty(
      'sourceId',
    );
    expect((await call('POST', '/runs', { sourceId: src, kind: 'ids', ids: [0] })).code).toBe(40000);
    // Cancel: asked before the first page is written, the run stops there.
    const started = await call('POST', '/runs', { sourceId: src, kind: 'hours' });
    const busy = await call('POST', '/runs', { sourceId: src, kind: 'hours' });
    expect([40900, 20000]).toContain(busy.code);
    await call('POST', `/runs/${started.data.id}/cancel`, undefined, user);
    let r2: any;
    for (let i = 0; i < 200; i++) {
      r2 = (await call('GET', `/runs/${started.data.id}`)).data;
      if (r2.status !== 'running') break;
      await new Promise((res) => setTimeout(res, 25));
    }
    expect(['cancelled', 'done']).toContain(r2.status);
    expect((await call('POST', `/runs/${started.data.id}/cancel`)).code).toBe(40900);
    const list = (await call('GET', `/runs?sourceId=${src}`, undefined, user)).data;
    expect(list.list[0].id).toBe(started.data.id);
  });

  test('a cancel asked before the run starts stops it with nothing written', async () => {
    const before = await count('movies');
    const [row] = await api.query<any>(sql`
      insert into collect_runs (source_id, kind, params, cancel_requested) values (${src}, 'hours', '{}', true) returning id`);
    const { executeRun } = await import('../../server/modules/collect/run');
    await executeRun(
      {
        db: api.database.db,
        outbound: guard,
        now: () => new Date(),
        tenant: api.config.defaultTenant,
        images: runImages(api),
      },
      Number(row.id),
    );
    const [r] = await api.query<any>(sql`select status from collect_runs where id = ${row.id}`);
    expect(r.status).toBe('cancelled');
    expect(await count('movies')).toBe(before);
  });
});

describe('hostile sites fail the run readably and write nothing', () => {
  const cases: [string, RegExp, RegExp][] = [
    ['html', /不是 JSON/, /did not answer JSON/],
    ['wrong', /格式不对/, /not in the expected format/],
    ['refuse', /接口已关闭/, /refused the request/],
    ['endless', /1000000000 页/, /1000000000 pages/],
    ['huge', /太大/, /larger than allowed/],
    ['slow', /超时/, /took too long/],
  ];
  for (const [kind, zh, en] of cases)
    test(kind, async () => {
      const id = await addSource(`坏站-${kind}`, kind);
      await bindDefaults(id);
      const before = await Promise.all(['movies', 'movie_plays', 'collect_items'].map(count));
      const r = await run({ sourceId: id, kind: 'hours' });
      expect(r.status).toBe('failed');
      expect(r.errorText).toMatch(zh);
      const again = await call('GET', `/runs/${r.id}`, undefined, admin, { 'Accept-Language': 'en-US' });
      expect(again.data.errorText).toMatch(en);
      expect(await Promise.all(['movies', 'movie_plays', 'collect_items'].map(count))).toEqual(before);
      // the source list says the failure too, in the reader's language, never as a message key
      const source = (await call('GET', `/sources/${id}`)).data;
      expect(source.lastError).toMatch(/^collect\.fail\.\w+$/);
      expect(source.lastErrorText).toMatch(zh);
      expect(source.lastRunAt).not.toBeNull();
      const enSource = await call('GET', `/sources/${id}`, undefined, admin, { 'Accept-Language': 'en-US' });
      expect(enSource.data.lastErrorText).toMatch(en);
    });

  test('without the allow-list a site on 127.0.0.1 is refused, and so is a redirect to it', async () => {
    const id = await addSource('内网站', 'good');
    await allow([]);
    try {
      const t = await call('POST', `/sources/${id}/test`, undefined, admin, { 'Accept-Language': 'en-US' });
      expect(t.data).toMatchObject({ ok: false });
      expect(t.data.error).toMatch(/private, loopback or reserved/);
      const r = await run({ sourceId: id, kind: 'hours' });
      expect(r.status).toBe('failed');
      expect(r.errorText).toMatch(/内网、本机/);
    } finally {
      await allow(['127.0.0.1']);
    }
    // A site allowed by name that redirects to an address not allowed is refused at that hop.
    const named = createGuardedFetch({
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    await expect(
      named(`http://collect.test:${site.port}/redirect/api.php/provide/vod/?ac=list`, {
        timeoutMs: 1500,
        maxBytes: 1 << 20,
        allowHosts: ['collect.test'],
      }),
    ).rejects.toMatchObject({ reason: 'address' });
  });
});

describe('the schedule', () => {
  test('of two runners on one database one claims a due source; a failure backs off', async () => {
    const id = await addSource('定时站', 'good', { scheduleMinutes: 60, scheduleHours: 6 });
    await bindDefaults(id);
    await api.query(
      sql`update collect_sources set next_run_at = now() - interval '1 minute' where id = ${id}`,
    );
    const now = new Date();
    const [a, b] = await Promise.all([
      claimDueSource(api.database.db, now),
      claimDueSource(api.database.db, now),
    ]);
    const claimed = [a, b].filter((s) => s?.id === id);
    expect(claimed).toHaveLength(1);
    expect(await claimDueSource(api.database.db, now)).toBeNull();
    const runId = await runScheduled(
      {
        db: api.database.db,
        outbound: guard,
        now: () => new Date(),
        tenant: api.config.defaultTenant,
        images: runImages(api),
      },
      claimed[0] as NonNullable<typeof a>,
    );
    const [r] = await api.query<any>(
      sql`select status, started_by, params from collect_runs where id = ${runId}`,
    );
    expect(r.status).toBe('done');
    expect(r.started_by).toBeNull();
    const [s] = await api.query<any>(
      sql`select fail_count, claimed_until, extract(epoch from next_run_at - now())::int as wait from collect_sources where id = ${id}`,
    );
    expect(s.fail_count).toBe(0);
    expect(s.claimed_until).toBeNull();
    expect(s.wait).toBeGreaterThan(50 * 60);
    // A failing site: retried after 1 minute, then 2.
    await api.query(
      // A minute back: `now()` has microseconds, the claim's JavaScript clock only milliseconds, and within one
      // millisecond the source would not be due yet.
      sql`update collect_sources set url = ${base('html')}, next_run_at = now() - interval '1 minute' where id = ${id}`,
    );
    const failing = (await claimDueSource(api.database.db, new Date())) as NonNullable<typeof a>;
    await runScheduled(
      {
        db: api.database.db,
        outbound: guard,
        now: () => new Date(),
        tenant: api.config.defaultTenant,
        images: runImages(api),
      },
      failing,
    );
    const [f] = await api.query<any>(
      sql`select fail_count, last_error, extract(epoch from next_run_at - now())::int as wait from collect_sources where id = ${id}`,
    );
    expect(f.fail_count).toBe(1);
    expect(f.last_error).toMatch(/^collect\.fail\.notJson\t/);
    expect(f.wait).toBeLessThanOrEqual(60);
  });
});

describe('a run left running by a process that stopped', () => {
  /** As a process killed mid-run leaves its run: running, its claim last renewed at `at`. */
  const deadRun = async (sourceId: number, at: Date, scheduled = false) => {
    const [row] = await api.query<{ id: number }>(sql`
      insert into collect_runs (source_id, kind, params, started_by, started_at, claimed_until)
      values (${sourceId}, 'hours', '{}', ${scheduled ? null : 1}, ${at}, ${runClaim(at)}) returning id`);
    return Number(row.id);
  };
  const status = async (runId: number) =>
    (await api.query<{ status: string }>(sql`select status from collect_runs where id = ${runId}`))[0].status;

  test('its lapsed claim marks it interrupted, by one of two instances; the schedule takes its source up again', async () => {
    const id = await addSource('中断站', 'many', { scheduleMinutes: 60 });
    await bindDefaults(id);
    const t0 = api.clock.now();
    // The schedule had claimed the source and started the run when the process died.
    await api.query(sql`
      update collect_sources set next_run_at = ${new Date(t0.getTime() - 60_000)},
        claimed_until = ${new Date(t0.getTime() + 30 * 60_000)} where id = ${id}`);
    const runId = await deadRun(id, t0, true);
    // While its claim holds the run counts as alive: left alone, the source busy.
    expect(await reapInterrupted(api.database.db, t0, id)).toEqual([]);
    expect((await call('POST', '/runs', { sourceId: id, kind: 'hours' })).code).toBe(40900);
    expect(await claimDueSource(api.database.db, t0)).toBeNull();
    api.clock.advance((RUN_CLAIM_SECONDS + 1) * 1000);
    const later = api.clock.now();
    const [a, b] = await Promise.all([
      reapInterrupted(api.database.db, later, id),
      reapInterrupted(api.database.db, later, id),
    ]);
    expect([...a, ...b]).toEqual([runId]);
    const zh = (await call('GET', `/runs/${runId}`)).data;
    expect(zh).toMatchObject({ status: 'failed', error: 'collect.fail.interrupted' });
    expect(zh.errorText).toMatch(/已中断/);
    expect(zh.finishedAt).toBe(later.toISOString());
    const en = await call('GET', `/runs/${runId}`, undefined, admin, { 'Accept-Language': 'en-US' });
    expect(en.data.errorText).toMatch(/^Interrupted: the server stopped/);
    // The source's schedule claim went with the run.
    const claimed = await claimDueSource(api.database.db, later);
    expect(claimed?.id).toBe(id);
    await api.query(
      sql`update collect_sources set claimed_until = null, schedule_minutes = 0 where id = ${id}`,
    );
  });

  test('starting a run on the source marks its interrupted run; a live run elsewhere is not touched', async () => {
    const deadSrc = await addSource('中断站2', 'many');
    const liveSrc = await addSource('运行站', 'many');
    await bindDefaults(deadSrc);
    const t0 = api.clock.now();
    const dead = await deadRun(deadSrc, t0);
    api.clock.advance((RUN_CLAIM_SECONDS + 1) * 1000);
    // A run on another source renewed its claim just now: alive.
    const live = await deadRun(liveSrc, api.clock.now());
    const r = await run({ sourceId: deadSrc, kind: 'pages', pageFrom: 1, pageTo: 1 });
    expect(r.status).toBe('done');
    expect(await status(dead)).toBe('failed');
    expect(await reapInterrupted(api.database.db, api.clock.now())).not.toContain(live);
    expect(await status(live)).toBe('running');
    // The timer's look (every instance's next tick) marks it once its claim has lapsed too.
    api.clock.advance((RUN_CLAIM_SECONDS + 1) * 1000);
    expect(await reapInterrupted(api.database.db, api.clock.now())).toContain(live);
    expect(await status(live)).toBe('failed');
  });
});
