import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { rowsOf } from '../../server/db/migrate';
import { ListQuery, readMovieList } from '../../server/modules/movie/list';
import { titleContains } from '../../server/modules/movie/model';
import { startApi, type TestApi, USER_PASSWORD } from './harness';
import { createMovie, type MovieFixture, makeFixture, okData } from './movies-helpers';
import { watchedDb } from './stats-helpers';

/** Issue #3, the review and online lists: views, filters, sorts and page sizes allow-listed, title search. */
let api: TestApi;
let admin: string;
let user: string;
let fx: MovieFixture;
const ids: Record<string, number> = {};
const idOf = (title: string) => ids[title];

const M = '/app/admin/movie/movies';
const list = async (query: string) => okData(api.call('GET', `${M}?${query}`, { token: user }), query);
const titles = async (query: string) => ((await list(query)).list as { title: string }[]).map((m) => m.title);
const sorted = (a: string[]) => [...a].sort();

const TITLES: [string, Record<string, unknown>][] = [
  ['视频合集', { columnId: 'movies', tags: ['hot'], platforms: [2], views: 100 }],
  ['短视频精选', { columnId: 'action', tags: ['hot', 'new'], platforms: [2, 4], views: 5000 }],
  ['视觉盛宴', { columnId: 'series', tags: ['new'], platforms: [4], views: 50 }],
  ['频道视角', { columnId: 'series', platforms: [1], views: 0 }],
  ['Video Star', { columnId: 'movies', tags: ['hd'], platforms: [5], views: 700 }],
  ['the VIDEO night', { columnId: 'action', platforms: [6], views: 20 }],
  ['超级视频 HD', { tags: ['hd'], views: 1_000_000 }],
  ['100%_好片', { views: 3 }],
  ['1000 好片', { views: 4 }],
];

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  await api.createOperator(admin, { account: 'lister' });
  user = await api.login('lister', USER_PASSWORD);
  fx = await makeFixture(api, admin);
  for (const [title, o] of TITLES) {
    api.clock.advance(86_400_000); // one a day, from 2026-06-02
    const m = await createMovie(api, user, {
      title,
      columnId: o.columnId ? fx.columns[o.columnId as string] : null,
      tagIds: ((o.tags as string[]) ?? []).map((t) => fx.tags[t]),
      platforms: o.platforms ?? [],
    });
    ids[title] = m.id;
    await api.query(sql`update movies set views = ${o.views as number} where id = ${m.id}`);
  }
  // Online: the first five (published on 2026-06-11); offline: one of them; rejected: 频道视角; the rest pending.
  api.clock.advance(86_400_000);
  const approve = ['视频合集', '短视频精选', '视觉盛宴', 'Video Star', 'the VIDEO night'].map((t) => ids[t]);
  await okData(api.call('POST', `${M}/batch`, { token: user, body: { action: 'approve', ids: approve } }));
  await okData(api.call('POST', `${M}/${idOf('the VIDEO night')}/offline`, { token: user }));
  await okData(
    api.call('POST', `${M}/${idOf('频道视角')}/reject`, { token: user, body: { reason: '标题' } }),
  );
  await okData(
    api.call('POST', `${M}/batch`, { token: user, body: { action: 'recommend', ids: [idOf('Video Star')] } }),
  );
});
afterAll(() => api.close());

describe('views', () => {
  test('review = pending + rejected, online = online + offline, all by default', async () => {
    expect(sorted(await titles('view=review&pageSize=50'))).toEqual(
      sorted(['频道视角', '超级视频 HD', '100%_好片', '1000 好片']),
    );
    expect(sorted(await titles('view=online&pageSize=50'))).toEqual(
      sorted(['视频合集', '短视频精选', '视觉盛宴', 'Video Star', 'the VIDEO night']),
    );
    expect((await list('')).total).toBe(TITLES.length);
    expect(await titles('view=review&status=rejected')).toEqual(['频道视角']);
    expect(await titles('view=online&status=offline')).toEqual(['the VIDEO night']);
  });

  test('a status outside the view is 40000 naming status and the allowed values', async () => {
    const r = await api.call('GET', `${M}?view=review&status=online`, { token: user });
    expect(r.body.code).toBe(40000);
    expect(r.body.msg).toBe('状态：请从以下取值中选择一个：待审核（pending）、已驳回（rejected）');
  });
});

describe('title search', () => {
  test('two Chinese characters find exactly the titles containing them', async () => {
    expect(sorted(await titles('q=视频&pageSize=50'))).toEqual(
      sorted(['视频合集', '短视频精选', '超级视频 HD']),
    );
    expect(await titles('q=频道')).toEqual(['频道视角']);
    expect(await titles('q=视频合')).toEqual(['视频合集']);
    expect(await titles('q=频视')).toEqual([]); // both bigram characters present, not adjacent
    expect(sorted(await titles('q=视&pageSize=50'))).toEqual(
      sorted(['视频合集', '短视频精选', '视觉盛宴', '频道视角', '超级视频 HD']),
    );
    expect(await titles(`q=${encodeURIComponent('视频')}&view=review`)).toEqual(['超级视频 HD']);
  });

  test('Latin search is case-insensitive; LIKE wildcards are literal', async () => {
    expect(sorted(await titles('q=video'))).toEqual(sorted(['Video Star', 'the VIDEO night']));
    expect(sorted(await titles('q=ViDeO%20N'))).toEqual(['the VIDEO night']);
    expect(await titles('q=hd')).toEqual(['超级视频 HD']);
    expect(await titles(`q=${encodeURIComponent('0%')}`)).toEqual(['100%_好片']);
    expect(await titles(`q=${encodeURIComponent('%_')}`)).toEqual(['100%_好片']);
    expect(await titles('q=_')).toEqual(['100%_好片']);
    expect((await list('q=%20%20')).total).toBe(TITLES.length); // blank is no filter
  });

  test('the search can be served by the GIN index over the title grams (no sequential scan needed)', async () => {
    const plan = await api.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const r = await tx.execute(sql`explain select id from movies where ${titleContains('视频')}`);
      return rowsOf<Record<string, string>>(r)
        .map((row) => Object.values(row)[0])
        .join('\n');
    });
    expect(plan).toContain('movies_title_grams');
    const grams = await api.query<{ g: string[] }>(sql`select zg_query_grams('视频合') as g`);
    expect(sorted(grams[0].g)).toEqual(['视频', '频合']);
  });
});

describe('filters', () => {
  test('column, tag, platform, recommended, free, views range', async () => {
    expect(sorted(await titles(`columnId=${fx.columns.series}`))).toEqual(sorted(['视觉盛宴', '频道视角']));
    expect(sorted(await titles(`tagId=${fx.tags.new}`))).toEqual(sorted(['短视频精选', '视觉盛宴']));
    expect(sorted(await titles('platform=4'))).toEqual(sorted(['短视频精选', '视觉盛宴']));
    expect(await titles('platform=3')).toEqual([]);
    expect(await titles('recommended=true')).toEqual(['Video Star']);
    expect((await list('recommended=false')).total).toBe(TITLES.length - 1);
    expect(sorted(await titles('viewsMin=100&viewsMax=5000'))).toEqual(
      sorted(['视频合集', '短视频精选', 'Video Star']),
    );
    expect(await titles('viewsMin=1000000')).toEqual(['超级视频 HD']);
    expect(await titles(`tagId=${fx.tags.hd}&view=online&q=star`)).toEqual(['Video Star']);
  });

  test('created and published date ranges (days inclusive)', async () => {
    // Created one a day from 2026-06-02; published all on 2026-06-11.
    expect(await titles('createdFrom=2026-06-02&createdTo=2026-06-02')).toEqual(['视频合集']);
    expect((await list('createdFrom=2026-06-03&createdTo=2026-06-05')).total).toBe(3);
    expect((await list('createdFrom=2026-06-05T00:00:00%2B08:00&createdTo=2026-06-05')).total).toBe(1);
    expect((await list('publishedFrom=2026-06-11&publishedTo=2026-06-11')).total).toBe(5);
    expect((await list('publishedTo=2026-06-10')).total).toBe(0);
  });

  test('ids (getMany)', async () => {
    const r = await list(`ids=${idOf('视觉盛宴')},${idOf('Video Star')}`);
    expect(sorted(r.list.map((m: any) => m.title))).toEqual(sorted(['视觉盛宴', 'Video Star']));
  });
});

describe('sorts and pages', () => {
  test('sort by views desc, by createdAt asc; ties break on id; page and pageSize', async () => {
    const byViews = await titles('sort=views&order=desc&pageSize=10');
    expect(byViews.slice(0, 3)).toEqual(['超级视频 HD', '短视频精选', 'Video Star']);
    expect(await titles('sort=createdAt&pageSize=10')).toEqual(TITLES.map(([t]) => t));
    const p2 = await list('sort=createdAt&pageSize=10&page=2');
    expect(p2).toEqual({ list: [], total: TITLES.length, totalExact: true });
    const page = await list('sort=id&order=desc&pageSize=10');
    expect(page.list[0].title).toBe('1000 好片');
    expect(page.list[0]).toHaveProperty('tagIds');
    expect(page.list[0]).not.toHaveProperty('plays');
    const published = await titles('view=online&sort=publishedAt&order=desc');
    expect(published).toHaveLength(5);
  });

  test('unknown sorts, filters, page sizes and malformed values are 40000 naming the field', async () => {
    const cases: [string, string][] = [
      ['sort=title_grams', 'sort'],
      ['sort=password', 'sort'],
      ['order=up', 'order'],
      ['pageSize=1000', 'pageSize'],
      ['pageSize=15', 'pageSize'],
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['view=deleted', 'view'],
      ['status=published', 'status'],
      ['columnId=-1', 'columnId'],
      ['columnId=1e3', 'columnId'],
      ['tagId=99999999999', 'tagId'],
      ['platform=x', 'platform'],
      ['recommended=yes', 'recommended'],
      ['viewsMin=10&viewsMax=5', 'viewsMax'],
      ['createdFrom=2026-13-01', 'createdFrom'],
      ['createdFrom=yesterday', 'createdFrom'],
      ['createdFrom=0000-01-01', 'createdFrom'],
      ['createdTo=9999-12-31', 'createdTo'],
      ['publishedTo=9998-12-31T23:59:59-14:00', 'publishedTo'],
      ['publishedFrom=2026-06-05T25:00:00Z', 'publishedFrom'],
      ['createdFrom=2026-06-05&createdTo=2026-06-01', 'createdTo'],
      [`q=${'长'.repeat(65)}`, 'q'],
      ['titleGrams=视频', 'titleGrams'],
      ['colunmId=1', 'colunmId'],
      ['ids=1,,2', 'ids'],
    ];
    for (const [query, field] of cases) {
      const r = await api.call('GET', `${M}?${query}`, { token: user });
      expect(r.status, query).toBe(200);
      expect(r.body.code, `${query} → ${JSON.stringify(r.body)}`).toBe(40000);
      expect(Object.keys(r.body.data.fields), query).toEqual([field]);
    }
    const en = await api.call('GET', `${M}?colunmId=1`, {
      token: user,
      headers: { 'Accept-Language': 'en-US' },
    });
    expect(en.body.msg).toBe('colunmId: Unsupported field');
  });
});

/** `(s1, s2, …)`, the statuses as an SQL list. */
const statusList = (statuses: readonly string[]) =>
  sql`(${sql.join(
    statuses.map((x) => sql`${x}`),
    sql`, `,
  )})`;

/**
 * Every page (10 rows) of the list `query`, sorted by creation and by publication, each both ways: the same movies in
 * the same order as one sorted read of the movies `where` holds (more than `atLeast` of them), with their exact total.
 */
async function expectEveryPage(query: string, where: ReturnType<typeof sql>, label: string, atLeast: number) {
  for (const [sort, col] of [
    ['createdAt', 'created_at'],
    ['publishedAt', 'published_at'],
  ] as const)
    for (const order of ['desc', 'asc'] as const) {
      const nulls = order === 'desc' ? 'nulls last' : 'nulls first';
      const expected = rowsOf<{ id: number }>(
        await api.query(
          sql`select id from movies where ${where} order by ${sql.raw(`${col} ${order} ${nulls}, id ${order}`)}`,
        ),
      ).map((r) => Number(r.id));
      expect(expected.length, label).toBeGreaterThan(atLeast);
      const got: number[] = [];
      for (let page = 1; page <= Math.ceil(expected.length / 10); page++) {
        const q = `${query}&sort=${sort}&order=${order}&pageSize=10&page=${page}`;
        const body = await list(q);
        expect(body, q).toMatchObject({ total: expected.length, totalExact: true });
        got.push(...body.list.map((m: { id: number }) => m.id));
      }
      expect(got, `${label} ${sort} ${order}`).toEqual(expected);
    }
}

describe('a view of several statuses', () => {
  test('its page merges one walk per status: the same movies in the same order as one sorted read, on every page', async () => {
    // 46 more movies over the four statuses, in runs of equal creation times (ties break on id) and with no
    // publication time for every third (NULLS LAST / FIRST as the indexes hold them).
    await api.query(sql`insert into movies (title, status, created_at, published_at)
      select 'merge ' || i, (array['pending', 'rejected', 'online', 'offline'])[1 + (i * 7) % 4],
        timestamptz '2026-07-01' + ((i / 3) || ' hours')::interval,
        case when i % 3 = 0 then null else timestamptz '2026-08-01' + ((i % 11) || ' hours')::interval end
      from generate_series(1, 46) as i`);
    try {
      const cases = [
        ['review', ['pending', 'rejected']],
        ['online', ['online', 'offline']],
      ] as const;
      for (const [view, statuses] of cases)
        await expectEveryPage(`view=${view}`, sql`status in ${statusList(statuses)}`, view, 20);
      // How the page was read: one walk per status of the view; with another filter, or one status, a single read.
      const statements = async (query: Record<string, string>) => {
        const { db, seen } = watchedDb(api.database.db);
        await readMovieList(db, ListQuery.parse(query));
        return seen.filter((s) => s.sql.includes('union all'));
      };
      const merged = await statements({
        view: 'review',
        sort: 'createdAt',
        order: 'desc',
        page: '3',
        pageSize: '10',
      });
      expect(merged).toHaveLength(1);
      expect(merged[0].params).toEqual(expect.arrayContaining(['pending', 'rejected', 30, 10, 20]));
      expect(
        await statements({
          view: 'review',
          status: 'pending',
          sort: 'createdAt',
          order: 'desc',
          pageSize: '10',
        }),
      ).toEqual([]);
      expect(
        await statements({
          view: 'online',
          columnId: String(fx.columns.movies),
          sort: 'publishedAt',
          pageSize: '10',
        }),
      ).toEqual([]);
      expect(await statements({ view: 'online', sort: 'views', pageSize: '10' })).toEqual([]);
    } finally {
      await api.query(sql`delete from movies where title like 'merge %'`);
    }
  });

  test('a title search alone walks each status, testing the title in its index: the same movies in the same order as one sorted read, on every page', async () => {
    // 60 more movies over the four statuses, with ties and missing publication times as above; two in three have
    // 视频 in the title, three in five "Video" in some letter case.
    await api.query(sql`insert into movies (title, status, created_at, published_at)
      select 'walk ' || case when i % 3 <> 0 then '视频 ' else '' end || case when i % 5 < 3 then 'ViDeO ' else '' end || i,
        (array['pending', 'rejected', 'online', 'offline'])[1 + (i * 7) % 4],
        timestamptz '2026-07-01' + ((i / 3) || ' hours')::interval,
        case when i % 3 = 0 then null else timestamptz '2026-08-01' + ((i % 11) || ' hours')::interval end
      from generate_series(1, 60) as i`);
    try {
      const cases = [
        ['view=review', ['pending', 'rejected']],
        ['view=online', ['online', 'offline']],
        ['view=all', ['pending', 'rejected', 'online', 'offline']],
        ['view=review&status=rejected', ['rejected']],
      ] as const;
      for (const search of ['视频', 'vi', 'V', 'video 2'])
        for (const [view, statuses] of cases)
          await expectEveryPage(
            `${view}&q=${encodeURIComponent(search)}`,
            sql`status in ${statusList(statuses)} and lower(title) like ${`%${search.toLowerCase()}%`}`,
            `${search} ${view}`,
            0,
          );
      // How the page was read: one walk per status testing the title; with another filter, or sorted by a column
      // without a status-led index, not.
      const walks = async (query: Record<string, string>) => {
        const { db, seen } = watchedDb(api.database.db);
        await readMovieList(db, ListQuery.parse({ pageSize: '10', ...query }));
        return seen.filter((s) => s.sql.includes('union all') && s.sql.includes('like'));
      };
      const walked = await walks({ view: 'review', q: '视频', sort: 'createdAt', order: 'desc' });
      expect(walked).toHaveLength(1);
      expect(walked[0].sql.match(/ like /g)).toHaveLength(2);
      expect(walked[0].params).toEqual(expect.arrayContaining(['pending', 'rejected', '%视频%']));
      expect(
        await walks({ view: 'all', q: 'video 2', sort: 'publishedAt', order: 'asc' }).then((w) => w.length),
      ).toBe(1);
      expect(
        await walks({ view: 'review', q: '视频', columnId: String(fx.columns.movies), sort: 'createdAt' }),
      ).toEqual([]);
      expect(await walks({ view: 'review', q: '视频', sort: 'views' })).toEqual([]);
    } finally {
      await api.query(sql`delete from movies where title like 'walk %'`);
    }
  });

  test('the walk reads the lowered title from the status-led index instead of lowering each title (migration 0119)', async () => {
    for (const [index, column] of [
      ['movies_status_created', 'created_at'],
      ['movies_status_published', 'published_at'],
    ]) {
      const [{ def }] = await api.query<{ def: string }>(
        sql`select pg_get_indexdef(${index}::regclass) as def`,
      );
      expect(def).toContain(
        `(status, ${column} DESC NULLS LAST, id DESC, lower((title)::text)) INCLUDE (title)`,
      );
      const plan = await api.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        await tx.execute(sql`set local enable_bitmapscan = off`);
        // The table holds a few rows: without this, another status-led index and a sort of its one row may cost the
        // same, and which one the planner takes follows the table's statistics of the moment.
        await tx.execute(sql`set local enable_sort = off`);
        const r = await tx.execute(
          sql.raw(`explain select id from movies where status = 'pending' and lower(title) like '%视频%'
            order by ${column} desc nulls last, id desc limit 10`),
        );
        return rowsOf<Record<string, string>>(r)
          .map((row) => Object.values(row)[0])
          .join('\n');
      });
      expect(plan).toContain(`Index Only Scan using ${index}`);
    }
  });
});
