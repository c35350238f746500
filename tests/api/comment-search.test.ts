import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { COUNT_CAP } from '../../common/paging';
import { containsPattern } from '../../server/core/shared';
import { rowsOf } from '../../server/db/migrate';
import { startApi, type TestApi } from './harness';

/**
 * Issue #18, the comments list at scale: a page is read in one statement (titles and reply counts with it), a content
 * search finds exactly what ILIKE finds while testing less (the grams alone for one or two characters, LIKE for
 * text without case), and a search matching many comments reads its page by walking the sort index.
 */
let api: TestApi;
let admin: string;
const C = '/app/admin/comment/comments';

/** The statements the API runs while `run` runs (Drizzle's logger on the database's session). */
async function statementsOf(run: () => Promise<unknown>) {
  const session = (api.database.db as any).session;
  const before = session.logger;
  const seen: string[] = [];
  session.logger = { logQuery: (q: string) => seen.push(q) };
  try {
    await run();
  } finally {
    session.logger = before;
  }
  return seen;
}

const list = async (query: string) => {
  const r = await api.call('GET', `${C}?${query}`, { token: admin });
  expect(r.body.code, JSON.stringify(r.body)).toBe(20000);
  return r.body.data;
};

const insert = (
  rows: { content: string; status?: string; type?: string; target?: number; parent?: number }[],
) =>
  Promise.all(
    rows.map((r) =>
      api.query(sql`insert into comments (tenant, target_type, target_id, parent_id, content, status)
        values (2, ${r.type ?? 'movie'}, ${r.target ?? 1}, ${r.parent ?? null}, ${r.content}, ${r.status ?? 'online'})`),
    ),
  );

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
});
afterAll(() => api?.close());

describe('the comments page', () => {
  test('is read in one statement with its targets’ titles and reply counts, then its total', async () => {
    const [m] = await api.query<{ id: number }>(sql`insert into movies (title) values ('片一') returning id`);
    const [n] = await api.query<{ id: number }>(
      sql`insert into novels (title, author) values ('书一', '某') returning id`,
    );
    const [a] = await api.query<{ id: number }>(
      sql`insert into actresses (name) values ('演员一') returning id`,
    );
    const [p] = await api.query<{
      id: number;
    }>(sql`insert into comments (tenant, target_type, target_id, content)
      values (2, 'movie', ${m.id}, '页面父') returning id`);
    await insert([
      { content: '页面回复一', target: m.id, parent: p.id },
      { content: '页面回复二', target: m.id, parent: p.id },
      { content: '页面书', type: 'novel', target: n.id },
      { content: '页面演员', type: 'actress', target: a.id },
      { content: '页面章节', type: 'chapter', target: 999_999 },
    ]);
    let data: any;
    const statements = await statementsOf(async () => {
      data = await list('q=页面&pageSize=10&sort=id&order=asc');
    });
    const byContent = Object.fromEntries(data.list.map((c: any) => [c.content, c]));
    expect(byContent.页面父).toMatchObject({ targetTitle: '片一', replyCount: 2 });
    expect(byContent.页面回复一).toMatchObject({ targetTitle: '片一', replyCount: 0, parentId: p.id });
    expect(byContent.页面书.targetTitle).toBe('书一');
    expect(byContent.页面演员.targetTitle).toBe('演员一');
    expect(byContent.页面章节.targetTitle).toBeNull(); // a target gone
    expect(data).toMatchObject({ total: 6, totalExact: true });
    // The search's kept total (none: terms.ts), the highest id (the buckets to search), the capped total (a search
    // counts first), then the page: no statement per target type nor for the replies (before: the page's ids, their
    // rows, one per target type, the reply counts, the total).
    expect(statements.filter((s) => !s.includes('"sessions"'))).toHaveLength(4);
    const one = await api.call('GET', `${C}/${p.id}`, { token: admin });
    expect(one.body.data).toMatchObject({ id: p.id, targetTitle: '片一', replyCount: 2 });
    // Without a search: the page, and no count for a short first page.
    expect(
      (await statementsOf(() => list(`parentId=${p.id}`))).filter((s) => !s.includes('"sessions"')),
    ).toHaveLength(1);
  });
});

describe('the content search', () => {
  const tricky = [
    'The ENDING was great',
    'no end in sight',
    'ÉCOLE et école',
    '100% 好看',
    '50_50 看好',
    'a\\b 路径',
    '好 看 分开',
    '强烈推荐，好看',
    '强烈 推荐 不连着',
    '推荐强烈',
    'İstanbul',
    'Ⓐ 圈字',
  ];
  const queries = [
    '好看',
    '好',
    'ending',
    'END',
    'é',
    'École',
    '%',
    '_',
    '\\',
    '0%',
    '强烈推荐',
    '推荐',
    '看 分',
    'i̇',
    'İ',
    'ⓐ',
    '，好',
  ];

  test('finds exactly the comments whose content ILIKE finds, alone and with a status', async () => {
    await api.query(sql`delete from comments`);
    await insert(tricky.map((content, i) => ({ content, status: i % 2 ? 'pending' : 'online' })));
    for (const q of queries)
      for (const status of [undefined, 'pending']) {
        const expected = await api.query<{ content: string }>(
          sql`select content from comments where content ilike ${containsPattern(q)}
            ${status ? sql`and status = ${status}` : sql``} order by id`,
        );
        const data = await list(
          `q=${encodeURIComponent(q)}${status ? `&status=${status}` : ''}&sort=id&order=asc&pageSize=20`,
        );
        expect(
          data.list.map((c: any) => c.content),
          `q=${q} status=${status}`,
        ).toEqual(expected.map((r) => r.content));
        expect(data.total).toBe(expected.length);
      }
  });

  test('tests no more than it must: the grams alone for one or two characters, LIKE for text without case', async () => {
    const search = async (q: string) =>
      (await statementsOf(() => list(`q=${encodeURIComponent(q)}`))).filter((s) => s.includes('comments'));
    for (const q of ['好看', '好', '%', 'ab']) {
      const statements = await search(q);
      expect(
        statements.some((s) => s.includes('zg_bucket_query')),
        q,
      ).toBe(true);
      for (const s of statements) expect(s, q).not.toMatch(/\blike\b/i);
    }
    const tests = async (q: string) => (await search(q)).join('\n').match(/"content" i?like /g);
    expect(await tests('强烈推荐')).toEqual(['"content" like ']);
    expect(await tests('ending')).toEqual(['"content" ilike ']);
    expect(await tests('İ')).toEqual(['"content" ilike ']); // lower-cased it is longer
    expect(await tests('Ⓐ圈字')).toEqual(['"content" ilike ']); // a symbol with a case
  });

  test('the total’s statement sorts the page’s ids up to COUNT_CAP matches; beyond, the page walks the sort index', async () => {
    await api.query(sql`delete from comments`);
    const N = COUNT_CAP + 1_200; // one in ten a story, the rest "the ending": 10,080 endings, 1,120 stories
    await api.query(sql`insert into comments (tenant, target_type, target_id, content, created_at)
      select 2, 'movie', 1, case when i % 10 = 0 then 'a story #' else 'the ending #' end || i,
        timestamp '2026-01-01' + i * interval '1 minute'
      from generate_series(1, ${N}) as i`);
    const newest = 'sort=createdAt&order=desc&pageSize=20';
    const walk = (s: string[]) => s.find((x) => x.includes('in (select "id" from "comments"'));
    let data: any;
    // Beyond the cap: the total by the grams, the page by testing each comment along the sort index (with a target
    // type beside it: alone, the search would learn its total, comment-search-terms.test.ts).
    const many = await statementsOf(async () => {
      data = await list(`${newest}&targetType=movie&q=ending&page=2`);
    });
    expect(data).toMatchObject({ total: COUNT_CAP, totalExact: false });
    expect(data.list.map((c: any) => c.content).slice(0, 2)).toEqual([
      `the ending #${N - 23}`, // page 2 starts at the 21st newest ending: N - 1 … N - 9 are endings, N - 10 not
      `the ending #${N - 24}`,
    ]);
    expect(many.find((x) => x.includes('count(*)'))).toContain('zg_bucket_query');
    expect(walk(many)).not.toContain('zg_bucket_query');
    expect(walk(many)).toMatch(/"content" ilike /);
    // Under it: the page's ids come with the total, sorted from the matches it gathered (1,120 here).
    const exact = await statementsOf(async () => {
      data = await list(`${newest}&q=story&page=2`);
    });
    expect(data).toMatchObject({ total: 1_120, totalExact: true });
    expect(data.list.map((c: any) => c.content).slice(0, 2)).toEqual([
      `a story #${N - 200}`,
      `a story #${N - 210}`,
    ]);
    expect(walk(exact)).toBeUndefined();
    expect(exact.filter((x) => !x.includes('"sessions"'))).toHaveLength(4);
    const byId = await list(`sort=id&order=asc&pageSize=10&q=${encodeURIComponent('#1100')}`);
    expect(byId.list.map((c: any) => c.content)).toEqual([
      'a story #1100',
      ...Array.from({ length: 9 }, (_, i) => `${i ? 'the ending' : 'a story'} #1100${i}`),
    ]);
    expect(byId).toMatchObject({ total: 11, totalExact: true });
    // Past the end of an exact total: no page to read.
    const past = await statementsOf(async () => {
      data = await list('sort=createdAt&order=desc&q=story&pageSize=100&page=20');
    });
    expect(data).toMatchObject({ list: [], total: 1_120, totalExact: true });
    expect(past.filter((x) => !x.includes('"sessions"'))).toHaveLength(3);
  });

  test('with a member, an address, a target or a thread, the search only tests their comments', async () => {
    const [u] = await api.query<{ id: number }>(
      sql`insert into site_users (tenant, account) values (2, 'searcher') returning id`,
    );
    await api.query(sql`insert into comments (tenant, target_type, target_id, user_id, content)
      values (2, 'movie', 1, ${u.id}, '会员的跨桶评论'), (2, 'movie', 1, ${u.id}, '别的')`);
    const statements = await statementsOf(async () => {
      const data = await list(`userId=${u.id}&q=${encodeURIComponent('跨桶')}`);
      expect(data.list.map((c: any) => c.content)).toEqual(['会员的跨桶评论']);
      expect(data).toMatchObject({ total: 1, totalExact: true });
    });
    const own = statements.filter((x) => !x.includes('"sessions"'));
    expect(own).toHaveLength(1); // the page, short: its own total
    expect(own[0]).not.toContain('zg_bucket_query');
    expect(own[0]).toMatch(/"content" like /);
  });

  test('the id buckets of the index (131,072 ids each) together find every match', async () => {
    await api.query(sql`delete from comments`);
    const ids = [1, 131_071, 131_072, 262_143, 262_144, 400_000, 1_000_000];
    for (const [i, id] of ids.entries())
      await api.query(sql`insert into comments (id, tenant, target_type, target_id, content, created_at)
        values (${id}, 2, 'movie', 1, ${`桶${i} 跨桶搜索 Bucket`}, ${new Date(Date.UTC(2026, 0, 1 + i))})`);
    for (const q of ['跨桶', '跨桶搜索', 'bucket', '索'])
      expect(
        (await list(`q=${encodeURIComponent(q)}&sort=id&order=desc`)).list.map((c: any) => c.id),
        q,
      ).toEqual([...ids].reverse());
    expect(await api.query(sql`select zg_bucket_grams('Ab', 131072) as g`)).toEqual([
      { g: ['1:a', '1:ab', '1:b'] },
    ]);
    expect(await api.query(sql`select zg_bucket_query('aBc', 7) as g`)).toEqual([{ g: ['7:ab', '7:bc'] }]);
  });

  test('each bucket’s total is read by the bucketed index', async () => {
    const plan = await api.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const r = await tx.execute(
        sql`explain select id from comments where zg_bucket_grams(content, id) @> zg_bucket_query('跨桶', 7)`,
      );
      return rowsOf<Record<string, string>>(r)
        .map((row) => Object.values(row)[0])
        .join('\n');
    });
    expect(plan).toContain('comments_content_buckets');
  });
});
