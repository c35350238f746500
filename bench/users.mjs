// The members list at scale (issue #14): 1,000,000 site users on PostgreSQL, seeded once with one SQL statement
// (generate_series) and reused while the size and the migrations are the same. Each query goes through the API
// in-process (app.request) and, beside it, the same SQL statements the request ran, replayed on one connection
// (bench/_timing.mjs). Target: p95 ≤ 15 ms for each query, its total included (issue #18).
//
//   npm run bench -- users
//   BENCH_DATABASE_URL=postgres://… (default postgres://postgres@127.0.0.1:5432/postgres; its own database
//   zg_bench_users)  BENCH_USERS=1000000  BENCH_RUNS=100
import { createHash } from 'node:crypto';
import { pgListBench } from './_pg.mjs';

const USERS = Number(process.env.BENCH_USERS ?? 1_000_000);

/** Deterministic members: accounts user0000001…, groups, statuses, VIPs (some expired), agents' codes. */
const SEED_SQL = `
  insert into site_users (tenant, account, nickname, phone, email, "group", vip_level, vip_expires_at, points, status,
    signup_at, signup_address, last_login_at, last_login_address, channel, inviter)
  select 2, 'user' || lpad(i::text, 7, '0'), '会员' || i, '1' || (30 + i % 70) || lpad((i::bigint * 7919 % 100000000)::text, 8, '0'),
    case when i % 3 = 0 then 'user' || i || '@example.com' else '' end,
    (array['normal','normal','normal','vip','svip','staff'])[1 + i % 6],
    case when i % 5 = 0 then 1 + i % 3 else 0 end,
    case when i % 5 = 0 then now() + ((i % 400) - 100) * interval '1 day' else null end,
    i * 37 % 10000,
    case when i % 50 = 0 then 'disabled' when i % 997 = 0 then 'banned' else 'active' end,
    now() - (i % 730) * interval '1 day' - (i % 86400) * interval '1 second',
    '10.' || (i % 256) || '.' || (i / 256 % 256) || '.' || (1 + i % 250),
    case when i % 10 = 0 then null else now() - (i % 90) * interval '1 day' end,
    '10.' || (i % 256) || '.' || (i / 256 % 256) || '.' || (1 + i % 250),
    case when i % 4 = 0 then 'A' || (1000 + i % 200) else '' end,
    case when i % 20 = 0 and i > 1 then i / 2 else null end
  from generate_series(1, $1::int) as i`;

const queries = [
  ['page 1 (newest)', 'sort=id&order=desc'],
  ['page 500', 'sort=id&order=desc&page=500'],
  ['status disabled', 'status=disabled&sort=id&order=desc'],
  ['sort by signup', 'sort=signupAt&order=desc'],
  ['sort by last login', 'sort=lastLoginAt&order=desc'],
  ['group svip', 'group=svip&sort=id&order=desc'],
  ['vip active', 'vip=active&sort=id&order=desc'],
  ['vip expired', 'vip=expired&sort=vipExpiresAt&order=desc'],
  ['channel A1100', 'channel=A1100&sort=id&order=desc'],
  ['account prefix user00012', 'q=user00012&sort=id&order=desc'],
  ['phone prefix 135', 'q=135&sort=id&order=desc'],
  ['signup in one month', 'signupFrom=2026-01-01&signupTo=2026-01-31&sort=signupAt&order=desc'],
];

await pgListBench({
  name: 'zg_bench_users',
  // The data depends on the size and the seed statement; later migrations are applied to a reused database.
  key: createHash('sha256').update(`${USERS}\n${SEED_SQL}`).digest('hex').slice(0, 12),
  what: `${USERS.toLocaleString('en')} members`,
  seed: async (pool) => {
    await pool.query(SEED_SQL, [USERS]);
    await pool.query('vacuum analyze site_users');
  },
  check: async (pool) => {
    const n = async (q) => (await pool.query(q)).rows[0].n;
    const kept = await n('select sum(n)::int as n from site_user_counts where tenant = 2');
    const counted = await n('select count(*)::int as n from site_users where tenant = 2');
    if (kept !== counted) throw new Error(`kept count ${kept} differs from count(*) ${counted}`);
    console.log(`  the kept per-status counts equal count(*) (${counted.toLocaleString('en')})`);
  },
  path: '/app/admin/users?',
  queries,
});
