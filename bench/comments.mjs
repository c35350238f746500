// The comments list at scale (issues #14, #18): 1,000,000 comments on PostgreSQL, seeded once with one SQL statement
// (generate_series) and reused while the size and the seed statement are the same (newer migrations are applied to
// it). Each query of the comments screen (src/resources/comment/CommentList.tsx: newest first, each filter alone,
// a deep page) goes through the API in-process beside the same SQL replayed on one connection (bench/_timing.mjs).
// Target: p95 ≤ 15 ms for each query, its total included.
//
//   npm run bench -- comments
//   BENCH_DATABASE_URL=postgres://… (default postgres://postgres@127.0.0.1:5432/postgres; its own database
//   zg_bench_comments)  BENCH_COMMENTS=1000000  BENCH_RUNS=100  BENCH_QUERIES=<regex on the query names>
import { createHash } from 'node:crypto';
import { pgListBench } from './_pg.mjs';

const COMMENTS = Number(process.env.BENCH_COMMENTS ?? 1_000_000);
const PICK = process.env.BENCH_QUERIES ? new RegExp(process.env.BENCH_QUERIES) : null;

/**
 * Deterministic comments of tenant 2 over a year: on movies (60 %), novels, chapters and actresses; every tenth a
 * reply to the comment five before it; 20 % pending, 5 % rejected, 5 % offline, the rest online; 2 % reported; a
 * member on two in three (members 1–20,000, seeded first), a guest otherwise; 5,000 addresses; the content from a
 * few dozen phrases, so a search for a common word matches many and a rare one few.
 */
const SEED_SQL = `
  with phrases as (select array['好看','剧情不错','画质清晰','支持一下','太长了','演员很用心','第二季什么时候出',
    'great movie','not bad','字幕有错','音乐很好听','看了三遍','节奏太慢','强烈推荐','一般般','结局意外',
    'the ending','老片重温','配音出戏','特效很赞'] as p)
  insert into comments (id, tenant, target_type, target_id, user_id, guest_name, parent_id, content, address, likes,
    reports, status, created_at, updated_at)
  select i, 2, (array['movie','movie','movie','novel','chapter','actress'])[1 + i % 6], 1 + (i::bigint * 7919) % 50000,
    case when i % 3 = 0 then null else 1 + (i * 31) % 20000 end,
    case when i % 3 = 0 then '游客' || (i % 1000) else '' end,
    case when i % 10 = 0 and i > 5 then i - 5 else null end,
    (select p[1 + (i * 13) % 20] || '，' || p[1 + (i * 17) % 20] || ' #' || i from phrases),
    '10.' || (i % 20) || '.' || (i / 20 % 250) || '.' || (i % 5000 / 20),
    (i * 37) % 200,
    case when i % 50 = 0 then 1 + i % 7 else 0 end,
    case when i % 20 in (1, 2, 3, 4) then 'pending' when i % 20 = 5 then 'rejected' when i % 20 = 6 then 'offline'
      else 'online' end,
    now() - interval '365 days' + (i::float / $1) * interval '365 days' + (i % 97) * interval '1 second',
    now()
  from generate_series(1, $1::int) as i`;
const USERS_SQL = `
  insert into site_users (tenant, account, nickname, signup_at)
  select 2, 'user' || lpad(i::text, 7, '0'), '会员' || i, now() - interval '400 days'
  from generate_series(1, 20000) as i`;

const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const base = 'sort=createdAt&order=desc&pageSize=20';
const queries = [
  ['newest first', base],
  ['page 50', `${base}&page=50`],
  ['page 1000', `${base}&page=1000`],
  ['status pending', `${base}&status=pending`],
  ['status pending, p.50', `${base}&status=pending&page=50`],
  ['status rejected', `${base}&status=rejected`],
  ['target type novel', `${base}&targetType=novel`],
  ['target type novel, p.50', `${base}&targetType=novel&page=50`],
  ['one movie', `${base}&targetType=movie&targetId=${1 + ((6 * 7919) % 50000)}`],
  ['reported', `${base}&reported=true`],
  ['reported, p.50', `${base}&reported=true&page=50`],
  ['not reported', `${base}&reported=false`],
  ['top level', `${base}&topLevel=true`],
  ['top level, p.50', `${base}&topLevel=true&page=50`],
  ['one member', `${base}&userId=32`],
  ['one address', `${base}&address=10.1.0.0`],
  ['content 好看 (common)', `${base}&q=${encodeURIComponent('好看')}`],
  ['content 好看, p.50', `${base}&q=${encodeURIComponent('好看')}&page=50`],
  ['content "ending"', `${base}&q=ending`],
  ['content rare (#123456)', `${base}&q=${encodeURIComponent('#123456')}`],
  ['created in the last 7 days', `${base}&createdFrom=${day(-7)}`],
  ['created in a month', `${base}&createdFrom=${day(-200)}&createdTo=${day(-170)}`],
  ['pending + novel', `${base}&status=pending&targetType=novel`],
  ['pending + 强烈推荐', `${base}&status=pending&q=${encodeURIComponent('强烈推荐')}`],
  ['sort by likes', 'sort=likes&order=desc&pageSize=20'],
  ['sort by reports', 'sort=reports&order=desc&pageSize=20'],
].filter(([name]) => !PICK || PICK.test(name));

await pgListBench({
  name: 'zg_bench_comments',
  key: createHash('sha256').update(`${COMMENTS}\n${USERS_SQL}\n${SEED_SQL}`).digest('hex').slice(0, 12),
  what: `${COMMENTS.toLocaleString('en')} comments`,
  seed: async (pool) => {
    await pool.query(USERS_SQL);
    await pool.query(SEED_SQL, [COMMENTS]);
    await pool.query(`select setval(pg_get_serial_sequence('comments', 'id'), $1)`, [COMMENTS]);
    await pool.query('vacuum analyze comments');
    await pool.query('vacuum analyze site_users');
  },
  // A content search over the cap learns its total on its first search (migration 0121): the kept terms are
  // forgotten here, so that each first search is timed apart, as an operator's first would be.
  first: async (call, pool) => {
    await pool.query('delete from comment_search_terms');
    await pool.query('delete from comment_search_counts');
    for (const [name, query] of queries.filter(
      ([n]) => /^content|强烈推荐/.test(n) && !/p\.50|rare/.test(n),
    )) {
      const t0 = performance.now();
      const data = await call(query);
      console.log(
        `  first search, ${name} (learns its total): ${(performance.now() - t0).toFixed(1)} ms, total ${data?.total}`,
      );
    }
  },
  path: '/app/admin/comment/comments?',
  queries,
});
