import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startApi, type TestApi, USER_PASSWORD } from './harness';
import { event, report, rollup, siteSender } from './stats-helpers';

/**
 * Issue #12: the report API over the rollups — every report's figures, totals, series and comparison; sort, pages and
 * filters; the demand gap and its adopt action; the meta route; bad input and roles on every route.
 * The harness clock is 2026-06-01 16:00 in Shanghai; events go on 05-31 and 06-01.
 */
let api: TestApi;
let admin: string;
let user: string;
let send: Awaited<ReturnType<typeof siteSender>>;
let movieA: number;
let movieB: number;
let movieOff: number;
let tagX: number;
let novel: number;
let actress: number;

const D1 = '2026-05-31';
const D2 = '2026-06-01';
const at = (day: string, hour: number) =>
  new Date(Date.parse(`${day}T00:00:00+08:00`) + hour * 3_600_000).toISOString();

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  await api.createOperator(admin, { account: 'viewer' });
  user = await api.login('viewer', USER_PASSWORD);
  send = await siteSender(api, admin);
  const ids = await api.query<{ id: number }>(
    sql`insert into movies (title, status, published_at) values ('Alpha', 'online', '2026-05-01'), ('Beta', 'online', '2026-05-02'), ('Gamma', 'online', '2026-05-03') returning id`,
  );
  [movieA, movieB, movieOff] = ids.map((r) => Number(r.id));
  [{ id: tagX }] = await api.query<{ id: number }>(
    sql`insert into movie_tags (name) values ('tagx'), ('lonely') returning id`,
  );
  await api.query(sql`insert into movie_tag_links (movie_id, tag_id) values (${movieA}, ${tagX})`);
  [{ id: novel }] = await api.query<{ id: number }>(
    sql`insert into novels (title) values ('N') returning id`,
  );
  [{ id: actress }] = await api.query<{ id: number }>(
    sql`insert into actresses (name) values ('A') returning id`,
  );

  const r = await send([
    // 05-31: a.test 2 views by v1, 1 by v2; searches
    event({ time: at(D1, 9), domain: 'a.test', visitor: 'v1', object: { type: 'movie', id: movieA } }),
    event({ time: at(D1, 9), domain: 'a.test', visitor: 'v1', path: '/p' }),
    event({ time: at(D1, 10), domain: 'a.test', visitor: 'v2', referrer: 'https://www.google.com/?q=x' }),
    event({ time: at(D1, 10), type: 'search', keyword: 'love', results: 5, visitor: 'v1' }),
    event({ time: at(D1, 10), type: 'search', keyword: 'gap', results: 0, visitor: 'v1' }),
    // 06-01: a.test 1 view v3 at 09h, b.test 3 views (v1 twice, v4)
    event({ time: at(D2, 9), domain: 'a.test', visitor: 'v3', object: { type: 'movie', id: movieA } }),
    event({
      time: at(D2, 9),
      type: 'play',
      domain: 'a.test',
      visitor: 'v3',
      object: { type: 'movie', id: movieA },
    }),
    event({ time: at(D2, 11), domain: 'b.test', visitor: 'v1', object: { type: 'movie', id: movieB } }),
    event({ time: at(D2, 11), domain: 'b.test', visitor: 'v1', channel: 'ag1' }),
    event({ time: at(D2, 12), domain: 'b.test', visitor: 'v4', channel: 'ag1' }),
    event({ time: at(D2, 12), type: 'search', keyword: 'love', results: 1, visitor: 'v2' }),
    event({ time: at(D2, 12), type: 'search', keyword: 'love', results: 0, visitor: 'v3' }),
    event({ time: at(D2, 13), type: 'search', keyword: 'gap', results: 0, visitor: 'v4' }),
    event({ time: at(D2, 13), type: 'search', keyword: 'gap', results: 0, visitor: 'v4' }),
    event({ time: at(D2, 13), type: 'search', keyword: 'Other', results: 0, visitor: 'v5' }),
  ]);
  expect(r.body.data.accepted).toBe(15);
  await rollup(api, admin);
});
afterAll(() => api.close());

describe('reports', () => {
  test('keywords: searches, searchers, average results, zero-result searches; totals and a daily series', async () => {
    const r = await report(api, user, 'keywords', { from: D1, to: D2 });
    expect(r.body.code).toBe(20000);
    const d = r.body.data;
    expect(d.total).toBe(3);
    expect(d.list).toEqual([
      { key: 'gap', searches: 3, searchers: 2, avgResults: 0, zeroResults: 3 },
      { key: 'love', searches: 3, searchers: 3, avgResults: 2, zeroResults: 1 },
      { key: 'other', searches: 1, searchers: 1, avgResults: 0, zeroResults: 1 },
    ]);
    expect(d.totals).toEqual({ searches: 7, searchers: 5, avgResults: 0.86, zeroResults: 5 });
    expect(d.series).toEqual([
      { date: D1, searches: 2, searchers: 1, avgResults: 2.5, zeroResults: 1 },
      { date: D2, searches: 5, searchers: 4, avgResults: 0.2, zeroResults: 4 },
    ]);
    expect(d.previousTotals).toBeUndefined();
  });

  test('keywords: sort by any figure, both ways, by pages; the q filter narrows rows and totals', async () => {
    const bySearchers = await report(api, user, 'keywords', {
      from: D1,
      to: D2,
      sort: 'searchers',
      order: 'asc',
    });
    expect(bySearchers.body.data.list.map((x: any) => x.key)).toEqual(['other', 'gap', 'love']);
    const page2 = await report(api, user, 'keywords', {
      from: D1,
      to: D2,
      sort: 'avgResults',
      order: 'desc',
      pageSize: '10',
      page: '1',
    });
    expect(page2.body.data.list[0].key).toBe('love');
    const q = await report(api, user, 'keywords', { from: D1, to: D2, q: 'LO' });
    expect(q.body.data.list.map((x: any) => x.key)).toEqual(['love']);
    expect(q.body.data.totals).toMatchObject({ searches: 3, searchers: 3 });
  });

  test('demand gap: keywords whose searches all found nothing, by searches; adopting one', async () => {
    const r = await report(api, user, 'keywords', { from: D1, to: D2, zeroOnly: 'true' });
    expect(r.body.data.list.map((x: any) => [x.key, x.searches])).toEqual([
      ['gap', 3],
      ['other', 1],
    ]);
    expect(r.body.data.totals).toMatchObject({ searches: 4, zeroResults: 4 });
    const today = await report(api, user, 'keywords', { from: D2, to: D2, zeroOnly: 'true' });
    expect(today.body.data.list.map((x: any) => x.key)).toEqual(['gap', 'other']);

    const adopt = (body: unknown, token = admin) =>
      api.call('POST', '/app/admin/stats/keywords/adopt', { token, body });
    expect((await adopt({ keyword: 'gap', target: 'movie', id: movieB, as: 'tag' })).body.code).toBe(20000);
    const tags = await api.query<{ name: string }>(
      sql`select t.name from movie_tag_links l join movie_tags t on t.id = l.tag_id where l.movie_id = ${movieB}`,
    );
    expect(tags.map((t) => t.name)).toEqual(['gap']);
    expect((await adopt({ keyword: 'gap', target: 'novel', id: novel, as: 'tag' })).body.code).toBe(20000);
    expect((await adopt({ keyword: 'gap', target: 'novel', id: novel, as: 'tag' })).body.code).toBe(20000);
    expect((await adopt({ keyword: 'other', target: 'actress', id: actress, as: 'alias' })).body.code).toBe(
      20000,
    );
    const [n] = await api.query<{ tags: string[] }>(sql`select tags from novels where id = ${novel}`);
    expect(n.tags).toEqual(['gap']);
    const [a] = await api.query<{ aliases: string[] }>(
      sql`select aliases from actresses where id = ${actress}`,
    );
    expect(a.aliases).toEqual(['other']);
    // Later searches for it that find results no longer count as zero-result: the keyword leaves the gap.
    await send([event({ time: at(D2, 15), type: 'search', keyword: 'gap', results: 2, visitor: 'v9' })]);
    await rollup(api, admin);
    const after = await report(api, user, 'keywords', { from: D2, to: D2, zeroOnly: 'true' });
    expect(after.body.data.list.map((x: any) => x.key)).toEqual(['other']);

    // bad input, roles, not found
    expect((await adopt({ keyword: 'gap', target: 'movie', id: movieB, as: 'tag' }, user)).body.code).toBe(
      40300,
    );
    const alias = await adopt({ keyword: 'gap', target: 'movie', id: movieB, as: 'alias' });
    expect(alias.body.code).toBe(40000);
    expect(Object.keys(alias.body.data.fields)).toEqual(['as']);
    expect((await adopt({ keyword: 'gap', target: 'movie', id: 999999, as: 'tag' })).body.code).toBe(40400);
    const bad = await adopt({ keyword: '', target: 'film', id: -1, as: 'tag', more: 1 });
    expect(bad.body.code).toBe(40000);
    const long = await adopt({ keyword: 'x'.repeat(40), target: 'movie', id: movieB, as: 'tag' });
    expect(Object.keys(long.body.data.fields)).toEqual(['keyword']);
  });

  test('movies and tags: views, plays, viewers (who played), play rate, titles; a tag counts its movies', async () => {
    const m = await report(api, user, 'movies', { from: D1, to: D2 });
    // Viewers are the visitors who played (issue #52: counting any event put them above the views): v3 alone; v1
    // only viewed the pages of Alpha and Beta.
    expect(m.body.data.list).toEqual([
      { key: String(movieA), label: 'Alpha', views: 2, plays: 1, viewers: 1, playRate: 0.5 },
      { key: String(movieB), label: 'Beta', views: 1, plays: 0, viewers: 0, playRate: 0 },
    ]);
    expect(m.body.data.totals).toEqual({ views: 3, plays: 1, viewers: 1, playRate: 0.3333 });
    // (q: the demand-gap test may have tagged a movie meanwhile; its tag then counts from the next rollup on)
    const t = await report(api, user, 'tags', { from: D1, to: D2, q: 'tagx' });
    expect(t.body.data.list).toEqual([
      { key: String(tagX), label: 'tagx', views: 2, plays: 1, viewers: 1, playRate: 0.5 },
    ]);
    // The tag of one movie has that movie's viewers, register for register (its only events are views and plays).
    const sketches = await api.query<{ day: string; movie: string; tag: string }>(
      sql`select m.day::text as day, encode(m.viewers, 'hex') as movie, encode(t.viewers, 'hex') as tag
        from stat_object_daily m join stat_object_daily t on t.day = m.day and t.object_type = 'tag'
          and t.object_id = ${tagX}
        where m.object_type = 'movie' and m.object_id = ${movieA} order by m.day`,
    );
    expect(sketches.map((s) => s.day)).toEqual([D1, D2]);
    for (const s of sketches) expect(s.tag).toBe(s.movie);
    const unseen = await report(api, user, 'unseen', { from: D1, to: D2, type: 'movie' });
    expect(unseen.body.data.list).toEqual([
      { key: String(movieOff), label: 'Gamma', publishedAt: '2026-05-03T00:00:00.000Z' },
    ]);
    expect(unseen.body.data.total).toBe(1);
    const unseenTags = await report(api, user, 'unseen', { from: D2, to: D2, type: 'tag' });
    const unseenLabels = unseenTags.body.data.list.map((x: any) => x.label);
    expect(unseenLabels).toContain('lonely');
    expect(unseenLabels).not.toContain('tagx');
  });

  test('domains: page views, visitors, addresses, new visitors, bounce rate; compare with the previous period', async () => {
    const r = await report(api, user, 'domains', { from: D2, to: D2, compare: 'true' });
    const d = r.body.data;
    expect(d.list).toEqual([
      {
        key: 'b.test',
        pageViews: 3,
        visitors: 2,
        addresses: 1,
        newVisitors: 2,
        bounceRate: 0.5,
        previous: { pageViews: 0, visitors: 0, addresses: 0, newVisitors: 0, bounceRate: 0 },
      },
      {
        key: 'a.test',
        pageViews: 1,
        visitors: 1,
        addresses: 1,
        newVisitors: 1,
        bounceRate: 1,
        previous: { pageViews: 3, visitors: 2, addresses: 1, newVisitors: 2, bounceRate: 0.5 },
      },
    ]);
    // v1 was seen on 05-31 (a.test): new to b.test, not to the site
    expect(d.totals).toEqual({ pageViews: 4, visitors: 3, addresses: 1, newVisitors: 2, bounceRate: 0.6667 });
    expect(d.previousTotals).toEqual({
      pageViews: 3,
      visitors: 2,
      addresses: 1,
      newVisitors: 2,
      bounceRate: 0.5,
    });
  });

  test('domain-hours: one domain hour by hour (24 rows a day) with its series', async () => {
    const r = await report(api, user, 'domain-hours', { from: D2, to: D2, domain: 'B.test' });
    const d = r.body.data;
    expect(d.list).toHaveLength(24);
    expect(d.list[11]).toEqual({
      key: `${D2} 11:00`,
      pageViews: 2,
      visitors: 1,
      addresses: 1,
      newVisitors: 1,
      bounceRate: 0,
    });
    expect(d.list[12]).toMatchObject({ key: `${D2} 12:00`, pageViews: 1, visitors: 1, bounceRate: 1 });
    expect(d.series[11]).toMatchObject({ date: `${D2} 11:00`, pageViews: 2 });
    expect(d.totals).toMatchObject({ pageViews: 3, visitors: 2 });
  });

  test('domain-hours: sorted by any figure (ties in hour order), or by hour either way', async () => {
    const hours = async (q: Record<string, string>) =>
      (await report(api, user, 'domain-hours', { from: D2, to: D2, domain: 'B.test', ...q })).body.data;
    const busiest = await hours({ sort: 'pageViews', order: 'desc' });
    expect(busiest.list.slice(0, 3).map((h: any) => [h.key, h.pageViews])).toEqual([
      [`${D2} 11:00`, 2],
      [`${D2} 12:00`, 1],
      [`${D2} 00:00`, 0],
    ]);
    expect(busiest.series[0].date).toBe(`${D2} 00:00`); // the chart keeps the hours' order
    const bounce = await hours({ sort: 'bounceRate', order: 'desc' });
    expect(bounce.list.slice(0, 3).map((h: any) => [h.key, h.bounceRate])).toEqual([
      [`${D2} 12:00`, 1],
      [`${D2} 00:00`, 0],
      [`${D2} 01:00`, 0],
    ]);
    expect((await hours({ sort: 'key', order: 'desc' })).list[0].key).toBe(`${D2} 23:00`);
    expect((await hours({})).list[0].key).toBe(`${D2} 00:00`);
    const bad = await report(api, user, 'domain-hours', { from: D2, to: D2, domain: 'B.test', sort: 'nope' });
    expect(bad.body.code).toBe(40000);
  });

  test('visits: paths, referrers, devices, regions and channels of one domain with their share', async () => {
    const path = await report(api, user, 'visits', { from: D1, to: D1, domain: 'a.test', dimension: 'path' });
    expect(path.body.data.list).toEqual([
      { key: '/', pageViews: 2, visitors: 2, share: 0.6667 },
      { key: '/p', pageViews: 1, visitors: 1, share: 0.3333 },
    ]);
    expect(path.body.data.totals).toEqual({ pageViews: 3, visitors: 2, share: 1 });
    const ref = await report(api, user, 'visits', {
      from: D1,
      to: D1,
      domain: 'a.test',
      dimension: 'referrer',
    });
    expect(ref.body.data.list.map((x: any) => [x.key, x.pageViews])).toEqual([
      ['', 2],
      ['www.google.com', 1],
    ]);
    const dev = await report(api, user, 'visits', {
      from: D1,
      to: D2,
      domain: 'a.test',
      dimension: 'device',
    });
    expect(dev.body.data.list).toEqual([{ key: 'mobile', pageViews: 4, visitors: 3, share: 1 }]);
    const ch = await report(api, user, 'visits', {
      from: D2,
      to: D2,
      domain: 'b.test',
      dimension: 'channel',
    });
    expect(ch.body.data.list.map((x: any) => [x.key, x.share])).toEqual([
      ['ag1', 0.6667],
      ['', 0.3333],
    ]);
    const region = await report(api, user, 'visits', {
      from: D2,
      to: D2,
      domain: 'b.test',
      dimension: 'region',
    });
    expect(region.body.data.list).toEqual([{ key: 'unknown', pageViews: 3, visitors: 2, share: 1 }]);
  });

  test('meta: the time zone (a tenant setting), today there, the first rolled-up day', async () => {
    const m = await api.call('GET', '/app/admin/stats/meta', { token: user });
    expect(m.body.data).toEqual({ timeZone: 'Asia/Shanghai', today: D2, earliest: D1 });
    const bad = await api.call('POST', '/app/admin/sys/updateSetting', {
      token: admin,
      body: { timeZone: 'Mars/Base' },
    });
    expect(bad.body.code).toBe(40000);
    expect(Object.keys(bad.body.data.fields)).toEqual(['timeZone']);
    await api.call('POST', '/app/admin/sys/updateSetting', {
      token: admin,
      body: { timeZone: 'America/New_York' },
    });
    const ny = await api.call('GET', '/app/admin/stats/meta', { token: user });
    expect(ny.body.data).toMatchObject({ timeZone: 'America/New_York', today: D2 });
    await api.call('POST', '/app/admin/sys/updateSetting', {
      token: admin,
      body: { timeZone: 'Asia/Shanghai' },
    });
  });
});

describe('bad input and roles on every route', () => {
  const routes: [string, Record<string, string>][] = [
    ['keywords', {}],
    ['movies', {}],
    ['tags', {}],
    ['unseen', { type: 'movie' }],
    ['domains', {}],
    ['domain-hours', { domain: 'a.test' }],
    ['visits', { domain: 'a.test', dimension: 'path' }],
  ];

  test.each(
    routes,
  )('%s: answers with defaults, refuses bad dates, periods, sorts, sizes and unknown filters', async (name, base) => {
    expect((await report(api, user, name, base)).body.code).toBe(20000);
    const cases: [Record<string, string>, string][] = [
      [{ from: '2026-02-30' }, 'from'],
      [{ from: D2, to: D1 }, 'to'],
      [{ from: '2024-01-01', to: '2026-01-01' }, 'to'],
      [{ sort: 'nope' }, 'sort'],
      [{ order: 'up' }, 'order'],
      [{ pageSize: '7' }, 'pageSize'],
      [{ page: '0' }, 'page'],
      [{ compare: 'yes' }, 'compare'],
      [{ bogus: '1' }, 'bogus'],
    ];
    for (const [q, field] of cases) {
      const r = await report(api, user, name, { ...base, ...q });
      expect(r.status, `${name} ${JSON.stringify(q)}`).toBe(200);
      expect(r.body.code, `${name} ${JSON.stringify(q)}`).toBe(40000);
      expect(Object.keys(r.body.data.fields), `${name} ${JSON.stringify(q)}`).toEqual([field]);
    }
    const anon = await api.call('GET', `/app/admin/stats/reports/${name}`);
    expect(anon.body.code).toBe(50008);
  });

  test('required filters: a visits report needs its domain and dimension, unseen its type', async () => {
    const v = await report(api, user, 'visits', { dimension: 'color', domain: 'a.test' });
    expect(Object.keys(v.body.data.fields)).toEqual(['dimension']);
    const missing = await report(api, user, 'visits', {});
    expect(missing.body.code).toBe(40000);
    const u = await report(api, user, 'unseen', { type: 'novel' });
    expect(Object.keys(u.body.data.fields)).toEqual(['type']);
    const h = await report(api, user, 'domain-hours', {
      domain: 'a.test',
      from: '2026-01-01',
      to: '2026-03-01',
    });
    expect(Object.keys(h.body.data.fields)).toEqual(['to']);
  });

  test('the rollup route is for admins', async () => {
    expect((await api.call('POST', '/app/admin/stats/rollup', { token: user })).body.code).toBe(40300);
    const r = await api.call('POST', '/app/admin/stats/rollup', { token: admin });
    expect(r.body).toMatchObject({ code: 20000, data: { ran: true, days: 0 } });
  });
});
