import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parsePlayLines } from '../../common/episodes';
import { startApi, type TestApi } from './harness';
import { createMovie, type MovieFixture, makeFixture, okData } from './movies-helpers';

/** MacCMS's provide API served by us (issue #49): /api.php/provide/vod/ for other MacCMS sites to collect from. */

const P = '/api.php/provide/vod/';
const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/maccms/${name}`, import.meta.url), 'utf8');
// jsdom (the UI tests' DOM) parses the XML as a collector would; it ships no types, so its one use is typed here.
const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
  JSDOM: new () => { window: { DOMParser: typeof DOMParser } };
};
const parseXml = (text: string) => new new JSDOM().window.DOMParser().parseFromString(text, 'text/xml');

let api: TestApi;
let admin: string;
let fx: MovieFixture;
const online: Record<string, any> = {};
let pending: any;

const setProvide = async (body: Record<string, unknown>) =>
  okData(api.call('POST', '/app/admin/sys/updateSetting', { token: admin, body }));
const get = (query: string, headers?: Record<string, string>) =>
  api.call('GET', `${P}?${query}`, { headers });
const getText = async (query: string) => {
  const res = await api.app.request(`${P}?${query}`);
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
};

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  fx = await makeFixture(api, admin);
  const publish = async (key: string, body: Record<string, unknown>) => {
    const m = await createMovie(api, admin, body);
    online[key] = await okData(api.call('POST', `/app/admin/movie/movies/${m.id}/approve`, { token: admin }));
    api.clock.advance(60_000);
  };
  await publish('feature', {
    title: '单片电影',
    columnId: fx.columns.action,
    releaseDate: '2024-05-01',
    description: '一部电影',
    plays: [{ sourceId: fx.sources.cdn2, line: 0, name: '', path: 'feature.mp4', sort: 0 }],
  });
  await publish('series', {
    title: '连续剧集',
    columnId: fx.columns.series,
    plays: [
      { sourceId: fx.sources.cdn1, line: 0, name: '第1集', path: 'e1.m3u8', sort: 0 },
      { sourceId: fx.sources.cdn1, line: 0, name: '第2集', path: 'e2.m3u8', sort: 1 },
      {
        sourceId: fx.sources.cdn1,
        line: 0,
        name: '第3集',
        path: 'https://other.example/e3.m3u8?a=1#t=3',
        sort: 2,
      },
      { sourceId: fx.sources.cdn2, line: 1, name: '第1集', path: 'e1.mp4', sort: 0 },
    ],
  });
  await publish('hostile', {
    title: 'Evil ]]> <b>&amp; "q" \'s',
    columnId: fx.columns.movies,
    description: 'a ]]> b <script>x</script> & c',
    plays: [{ sourceId: fx.sources.cdn1, line: 0, name: 'A]]>B', path: 'h.m3u8', sort: 0 }],
  });
  pending = await createMovie(api, admin, {
    title: '待审核的片',
    plays: [{ sourceId: fx.sources.cdn1, line: 0, path: 'p.m3u8' }],
  });
});
afterAll(() => api.close());

describe('the switch and the key', () => {
  test('off by default: the path is not found, in the MacCMS refusal shape', async () => {
    const r = await get('ac=list');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: 0, msg: '本站未开放资源接口' });
    const en = await get('ac=list', { 'Accept-Language': 'en-US' });
    expect(en.body.msg).toBe('This site does not serve its catalogue to collectors');
  });

  test('on without a key: served; with a key: a missing or wrong key is refused, the right one served', async () => {
    await setProvide({ provideOpen: true, provideKey: '' });
    expect((await get('ac=list')).body.code).toBe(1);
    await setProvide({ provideKey: 's3cret-KEY' });
    for (const q of ['ac=list', 'ac=list&key=wrong', 'ac=list&key=s3cret-KE', 'ac=list&key=s3cret-KEYX']) {
      const r = await get(q);
      expect(r.status, q).toBe(200);
      expect(r.body, q).toEqual({ code: 0, msg: '接口密钥错误' });
    }
    expect((await get('ac=list&key=s3cret-KEY')).body.code).toBe(1);
    await setProvide({ provideKey: '' });
  });

  test('only an admin sets them, and a bad key is refused naming the field; an operator never reads the key', async () => {
    const userId = await api.createOperator(admin, { account: 'viewer' });
    expect(userId).toBeGreaterThan(0);
    const user = await api.login('viewer', 'user-pass-1');
    const r = await api.call('POST', '/app/admin/sys/updateSetting', {
      token: user,
      body: { provideOpen: false },
    });
    expect(r.body.code).toBe(40300);
    const bad = await api.call('POST', '/app/admin/sys/updateSetting', {
      token: admin,
      body: { provideKey: 'has space' },
    });
    expect(bad.body.code).toBe(40000);
    expect(Object.keys(bad.body.data.fields)).toEqual(['provideKey']);
    await setProvide({ provideKey: 'k1' });
    const seen = await okData(api.call('GET', '/app/admin/sys/getSetting', { token: user }));
    expect(seen.provideOpen).toBe(true);
    expect(seen).not.toHaveProperty('provideKey');
    const adminSees = await okData(api.call('GET', '/app/admin/sys/getSetting', { token: admin }));
    expect(adminSees.provideKey).toBe('k1');
    await setProvide({ provideKey: '' });
  });
});

describe('answers', () => {
  beforeAll(() => setProvide({ provideOpen: true, provideKey: '' }));

  test('ac=list: MacCMS shape (as the recorded sample), only online movies, newest first, with class[]', async () => {
    const r = await get('ac=list');
    const sample = JSON.parse(fixture('list.json'));
    expect(Object.keys(r.body)).toEqual(Object.keys(sample));
    expect(Object.keys(r.body.list[0]).sort()).toEqual(Object.keys(sample.list[0]).sort());
    expect(r.body).toMatchObject({ code: 1, msg: '数据列表', page: 1, pagecount: 1, limit: '20', total: 3 });
    expect(r.body.list.map((m: any) => m.vod_id)).toEqual([
      online.hostile.id,
      online.series.id,
      online.feature.id,
    ]);
    expect(r.body.list.map((m: any) => m.vod_id)).not.toContain(pending.id);
    const series = r.body.list[1];
    expect(series).toMatchObject({
      vod_name: '连续剧集',
      type_id: fx.columns.series,
      type_name: '剧集',
      vod_play_from: 'cdn1,cdn2',
      vod_remarks: '第3集',
    });
    expect(series.vod_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(r.body.class).toContainEqual({
      type_id: fx.columns.action,
      type_pid: fx.columns.movies,
      type_name: '动作',
    });
    expect(r.body.class).toContainEqual({ type_id: fx.columns.movies, type_pid: 0, type_name: '电影' });
  });

  test('ac=detail: every field; parsePlayLines on what we serve gives back the lines and episodes', async () => {
    const r = await get(`ac=detail&ids=${online.series.id},${online.feature.id},${pending.id}`);
    const sample = JSON.parse(fixture('detail.json'));
    expect(Object.keys(r.body).sort()).toEqual(Object.keys(sample).sort());
    expect(r.body).not.toHaveProperty('class');
    expect(r.body.list.map((m: any) => m.vod_id)).toEqual([online.series.id, online.feature.id]);
    for (const item of r.body.list)
      expect(Object.keys(item).sort()).toEqual(Object.keys(sample.list[0]).sort());
    const series = r.body.list[0];
    expect(series.vod_play_from).toBe('cdn1$$$cdn2');
    const { value, problems } = parsePlayLines(series.vod_play_from, series.vod_play_url);
    expect(problems).toEqual([]);
    expect(value).toEqual([
      {
        code: 'cdn1',
        episodes: [
          { name: '第1集', url: 'https://v1.example.com/hls/e1.m3u8' },
          { name: '第2集', url: 'https://v1.example.com/hls/e2.m3u8' },
          // A '#' inside a URL is encoded, so the episode list still reads as three episodes.
          { name: '第3集', url: 'https://other.example/e3.m3u8?a=1%23t=3' },
        ],
      },
      { code: 'cdn2', episodes: [{ name: '第1集', url: 'https://v2.example.com/e1.mp4' }] },
    ]);
    const feature = r.body.list[1];
    expect(feature).toMatchObject({ vod_year: '2024', vod_content: '一部电影', vod_remarks: '' });
    expect(parsePlayLines(feature.vod_play_from, feature.vod_play_url).value).toEqual([
      { code: 'cdn2', episodes: [{ name: '', url: 'https://v2.example.com/feature.mp4' }] },
    ]);
  });

  test('a disabled source’s lines are not served', async () => {
    const S = `/app/admin/movie/sources/${fx.sources.cdn2}`;
    const setEnabled = async (enabled: boolean) => {
      const { version } = await okData(api.call('GET', S, { token: admin }));
      await okData(api.call('PUT', S, { token: admin, body: { version, enabled } }));
    };
    await setEnabled(false);
    try {
      const r = await get(`ac=detail&ids=${online.series.id}`);
      expect(r.body.list[0].vod_play_from).toBe('cdn1');
    } finally {
      await setEnabled(true);
    }
  });

  test('paging: pagesize, pg, pagecount and total; a page past the end is empty', async () => {
    const p1 = await get('ac=list&pagesize=2&pg=1');
    expect(p1.body).toMatchObject({ page: 1, pagecount: 2, limit: '2', total: 3 });
    expect(p1.body.list).toHaveLength(2);
    const p2 = await get('ac=list&pagesize=2&pg=2');
    expect(p2.body.list.map((m: any) => m.vod_id)).toEqual([online.feature.id]);
    const past = await get('ac=list&pagesize=2&pg=9');
    expect(past.body).toMatchObject({ code: 1, page: 9, total: 3, list: [] });
  });

  test('filters: t (column), wd (title), h (changed within h hours), ids', async () => {
    const ids = async (q: string) => (await get(q)).body.list.map((m: any) => m.vod_id);
    expect(await ids(`ac=list&t=${fx.columns.series}`)).toEqual([online.series.id]);
    expect(await ids(`ac=list&t=${fx.columns.empty}`)).toEqual([]);
    expect(await ids('ac=list&wd=剧集')).toEqual([online.series.id]);
    expect(await ids('ac=list&wd=电')).toEqual([online.feature.id]);
    expect(await ids(`ac=list&ids=${online.feature.id},${pending.id}`)).toEqual([online.feature.id]);
    // The clock moved a minute after each publish: the last two changed within the hour two hours on, none later.
    api.clock.advance(2 * 3_600_000 - 150_000);
    const r = await get('ac=detail&h=2');
    expect(r.body.list.map((m: any) => m.vod_id)).toEqual([online.hostile.id, online.series.id]);
    expect(r.body).toMatchObject({ total: 2, pagecount: 1 });
    expect(await ids(`ac=list&h=2&t=${fx.columns.series}`)).toEqual([online.series.id]);
    api.clock.advance(3 * 3_600_000);
    expect(await ids('ac=list&h=2')).toEqual([]);
    expect(await ids('ac=list&h=24')).toHaveLength(3);
  });
});

describe('XML (at=xml)', () => {
  test('list: rss 5.1 with the list attributes, videos and class, as the recorded sample', async () => {
    const r = await getText('ac=list&at=xml');
    expect(r.type).toContain('text/xml');
    const doc = parseXml(r.text);
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    const sample = parseXml(fixture('list.xml'));
    const list = doc.querySelector('rss > list')!;
    expect(list.getAttributeNames().sort()).toEqual(
      sample.querySelector('rss > list')!.getAttributeNames().sort(),
    );
    expect(list.getAttribute('recordcount')).toBe('3');
    expect(list.getAttribute('pagesize')).toBe('20');
    const names = (v: Element) => [...v.children].map((c) => c.tagName);
    expect(names(doc.querySelector('video')!)).toEqual(names(sample.querySelector('video')!));
    expect([...doc.querySelectorAll('class > ty')].map((t) => t.getAttribute('id'))).toContain(
      String(fx.columns.series),
    );
  });

  test('detail: each line a <dd flag>; hostile titles, names and text read back exactly', async () => {
    const r = await getText(`ac=detail&at=xml&ids=${online.hostile.id},${online.series.id}`);
    const doc = parseXml(r.text);
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    const sample = parseXml(fixture('detail.xml'));
    const names = (v: Element) => [...v.children].map((c) => c.tagName);
    const videos = [...doc.querySelectorAll('video')];
    expect(names(videos[0])).toEqual(names(sample.querySelector('video')!));
    expect(videos[0].querySelector('name')!.textContent).toBe('Evil ]]> <b>&amp; "q" \'s');
    expect(videos[0].querySelector('des')!.textContent).toBe('a ]]> b <script>x</script> & c');
    const dds = [...videos[1].querySelectorAll('dl > dd')];
    expect(dds.map((d) => d.getAttribute('flag'))).toEqual(['cdn1', 'cdn2']);
    const from = dds.map((d) => d.getAttribute('flag')).join('$$$');
    const url = dds.map((d) => d.textContent).join('$$$');
    expect(parsePlayLines(from, url).value[0].episodes.map((e) => e.name)).toEqual([
      '第1集',
      '第2集',
      '第3集',
    ]);
    const hostileLine = videos[0].querySelector('dl > dd')!.textContent!;
    expect(parsePlayLines('cdn1', hostileLine).value[0].episodes[0].name).toBe('A]]>B');
  });
});

describe('bad parameters: MacCMS’s refusal naming the parameter, never a 500', () => {
  beforeAll(() => setProvide({ provideOpen: true, provideKey: '' }));

  const manyIds = Array.from({ length: 10_000 }, (_, i) => i + 1).join(',');
  test.each([
    ['pg=abc', 'ac=list&pg=abc', 'pg'],
    ['pg=0', 'ac=list&pg=0', 'pg'],
    ['h=-1', 'ac=list&h=-1', 'h'],
    ['t=x', 'ac=list&t=x', 't'],
    ['pagesize=1000', 'ac=list&pagesize=1000', 'pagesize'],
    ['ac=delete', 'ac=delete', 'ac'],
    ['at=html', 'ac=list&at=html', 'at'],
    ['wd of 65 characters', `ac=list&wd=${'长'.repeat(65)}`, 'wd'],
    ['10,000 ids', `ac=detail&ids=${manyIds}`, 'ids'],
    ['ids=1,,x', 'ac=list&ids=1,,x', 'ids'],
  ])('%s', async (_label, query, param) => {
    const r = await get(query);
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(0);
    expect(r.body.msg).toContain(param);
    const en = await get(query, { 'Accept-Language': 'en' });
    expect(en.body.msg).toMatch(/^Parameter /);
  });

  test('empty values count as absent, as in MacCMS', async () => {
    const r = await get('ac=list&t=&pg=&wd=&h=&ids=');
    expect(r.body).toMatchObject({ code: 1, page: 1, total: 3 });
  });
});

describe('what is served', () => {
  test('a movie taken offline is not served: not listed, not by ids, not in the total', async () => {
    const m = await createMovie(api, admin, {
      title: '已下架的片',
      columnId: fx.columns.series,
      plays: [{ sourceId: fx.sources.cdn1, line: 0, path: 'o.m3u8' }],
    });
    await okData(api.call('POST', `/app/admin/movie/movies/${m.id}/approve`, { token: admin }));
    expect((await get('ac=list')).body.total).toBe(4);
    await okData(api.call('POST', `/app/admin/movie/movies/${m.id}/offline`, { token: admin }));
    const ids = async (q: string) => (await get(q)).body.list.map((x: any) => x.vod_id);
    expect((await get('ac=list')).body.total).toBe(3);
    expect(await ids('ac=list')).not.toContain(m.id);
    expect(await ids(`ac=detail&ids=${m.id},${online.feature.id}`)).toEqual([online.feature.id]);
    expect(await ids(`ac=list&t=${fx.columns.series}`)).toEqual([online.series.id]);
    expect(await ids('ac=list&wd=下架')).toEqual([]);
    expect(await ids('ac=detail&h=24')).not.toContain(m.id);
  });
});
