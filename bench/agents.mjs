// The agents' stat at scale (issue #16): 1,000 agents × 90 days of attributed rollup rows on PostgreSQL (each day
// with sketches of some 40 visitors and addresses per agent, a third of the agents with a settled month), seeded once
// with SQL (the blocks and day totals the rollup keeps built from them by `zg_attributed_rebuild`, migration 0072)
// and reused while the size and the seed are the same. It prints p50 / p95 / p99 of
// - the all-agents stat over 90 days computed from nothing kept (allAgentsStat alone: every piece read and merged),
// - what the rollup timer's warm-up of that read costs (warm-reads.ts: it reads again what operators read, after each
//   run) after a rollup of an older day (computed from nothing, as after a start or the day's turn) and of today,
// - the same through the API once the warm-up is done, after a rollup of an older day and of today (what an
//   operator's read costs while the timer runs),
// - the same through the API right after a rollup of today, before the warm-up (a read made in between: the answer
//   is computed again, the older days' figures kept by the route are reused, period-figures.ts),
// - the same through the API again (GET /app/admin/agents/stat: answers kept between reads until a day is rolled up),
// - one agent day by day over 90 days through the API.
// Target: the all-agents stat over 1,000 agents and 90 days at p95 ≤ 50 ms.
//
//   npm run bench -- agents
//   BENCH_DATABASE_URL=postgres://… (default postgres://postgres@127.0.0.1:5432/postgres; its own database
//   zg_bench_agents)  BENCH_AGENTS=1000  BENCH_DAYS=90  BENCH_RUNS=30  BENCH_QUERIES=<regex on the query names>
import { createHash } from 'node:crypto';
import { benchDatabase, markSeeded } from './_pg.mjs';
import { inProcessApi, serverModules } from './_server.mjs';
import { fmtStats, loadLine, timeRuns } from './_timing.mjs';

const AGENTS = Number(process.env.BENCH_AGENTS ?? 1000);
const DAYS = Number(process.env.BENCH_DAYS ?? 90);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const BENCH_DB = 'zg_bench_agents';
const ADMIN_PASSWORD = 'bench-admin-1';
const TARGET_MS = 50;
const PICK = process.env.BENCH_QUERIES ? new RegExp(process.env.BENCH_QUERIES) : null;

const { load, close: closeModules } = await serverModules();
const { loadConfig } = await load('/server/config.ts');
const { migrate } = await load('/server/db/migrate.ts');
const { databaseOver } = await load('/server/node/postgres.ts');
const { ensureFirstAdmin } = await load('/server/modules/operators/index.ts');
const { allAgentsStat } = await load('/server/modules/agents/stat.ts');
const { warmReads } = await load('/server/modules/statistics/warm-reads.ts');
const { addDays, dayOf } = await load('/common/period.ts');

const config = loadConfig({ ADMIN_PASSWORD, PASSWORD_ITERATIONS: '1000', LOG_LEVEL: 'silent' });
const today = dayOf(new Date(), 'Asia/Shanghai');
const from = addDays(today, -(DAYS - 1));

const SEED_SQL = `
  insert into agents (tenant, name, channel, model, rate)
  select 2, '代理 ' || i, 'ag' || i, (array['share','signup','payer'])[1 + i % 3],
    case when i % 3 = 0 then 30 else 2.5 end
  from generate_series(1, $1::int) i;
  insert into stat_attributed_daily (tenant, day, channel, page_views, signups, payers, recharges, recharge_amount,
    shared_address, shared_device, idle, retained, visitors, addresses)
  select 2, d.day, 'ag' || a.i, 100 + (a.i * 7 + d.n) % 300, (a.i + d.n) % 9, (a.i + d.n) % 4, (a.i + d.n) % 6,
    ((a.i * 13 + d.n * 7) % 500)::numeric, (a.i + d.n) % 2, 0, (a.i + d.n) % 5, (a.i + d.n) % 3,
    (select zg_hll_pack(string_agg(zg_hll_entry(r >> 6, r & 63), ''::bytea order by r >> 6)) from (
      select max(zg_hll_reg(zg_hash64(a.i || ':' || ((d.n * 17 + v) % 400)))) as r
      from generate_series(1, 40) v group by zg_hll_reg(zg_hash64(a.i || ':' || ((d.n * 17 + v) % 400))) >> 6) x),
    (select zg_hll_pack(string_agg(zg_hll_entry(r >> 6, r & 63), ''::bytea order by r >> 6)) from (
      select max(zg_hll_reg(zg_hash64('ip' || a.i || ':' || ((d.n * 11 + v) % 300)))) as r
      from generate_series(1, 40) v group by zg_hll_reg(zg_hash64('ip' || a.i || ':' || ((d.n * 11 + v) % 300))) >> 6) x)
  from generate_series(1, $1::int) a(i),
    (select n, ($2::date + n)::date as day from generate_series(0, $3::int - 1) n) d;
  insert into agent_settlements (tenant, agent_id, from_day, to_day, model, rate, signups, payers, recharges,
    recharge_amount, commission)
  select 2, id, $2::date, $2::date + 29, model, rate, 0, 0, 0, 0, 0 from agents where tenant = 2 and id % 3 = 0;
  insert into agent_settled_days (tenant, agent_id, day, settlement_id, signups, payers, recharges, recharge_amount,
    commission)
  select 2, s.agent_id, r.day, s.id, r.signups, r.payers, r.recharges, r.recharge_amount, r.signups
  from agent_settlements s join agents a on a.id = s.agent_id
  join stat_attributed_daily r on r.tenant = 2 and r.channel = a.channel and r.day between s.from_day and s.to_day;
  select zg_attributed_rebuild()`;

const key = () =>
  createHash('sha256').update(`${AGENTS}\n${DAYS}\n${from}\n${SEED_SQL}`).digest('hex').slice(0, 12);

const opened = await benchDatabase(BENCH_DB, key());
if (!opened) {
  await closeModules();
  process.exit(0);
}
const { pool, reuse } = opened;
const db = databaseOver(pool); // as the server opens it (server/node/postgres.ts)
await migrate(db);
await ensureFirstAdmin(db, config);
if (reuse) console.log(`PostgreSQL: reusing ${BENCH_DB}${process.env.BENCH_DB_SUFFIX ?? ''} (key ${key()})`);
else {
  const t0 = performance.now();
  const client = await pool.connect();
  // The sizes and the first day are numbers and a day: written into the statements, which run one by one.
  const sql = SEED_SQL.replaceAll('$1', String(AGENTS))
    .replaceAll('$2', `'${from}'`)
    .replaceAll('$3', String(DAYS));
  for (const statement of sql.split(';').filter((x) => x.trim())) await client.query(statement);
  await client.query('vacuum analyze');
  await markSeeded(client, key());
  client.release();
  console.log(
    `PostgreSQL: seeded ${AGENTS} agents × ${DAYS} days in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}

const { call } = await inProcessApi(load, { db, config, password: ADMIN_PASSWORD });

const period = `from=${from}&to=${today}`;
const [{ id: one }] = (await pool.query("select id from agents where channel = 'ag7'")).rows;
// What a rollup of today leaves behind for the reads (markRolled): today's sums and sketches, and the sums of the
// days before it whose idle and retained counts it rewrites, marked rolled; kept answers over them are stale.
const rollupOfToday = () =>
  pool.query(
    `insert into stat_rolled_days (tenant, day, gen, day_gen)
      select 2, d::date, txid_current(), txid_current() from generate_series($1::date - 7, $1::date, '1 day') d
      on conflict (tenant, day) do update set gen = excluded.gen,
        day_gen = case when excluded.day = $1::date then excluded.day_gen else stat_rolled_days.day_gen end`,
    [today],
  );
// A rollup of an older day: the kept parts over the period's older days are stale, as after a start or the day's turn.
const rollupOfOlderDay = () =>
  pool.query(
    `insert into stat_rolled_days (tenant, day, gen, day_gen) values (2, $1::date, txid_current(), txid_current())
      on conflict (tenant, day) do update set gen = excluded.gen, day_gen = excluded.day_gen`,
    [addDays(today, -40)],
  );
// What the rollup timer does after its run (warm-reads.ts): reads again what operators read (this one, remembered by
// the route at its first read below).
const warm = async () => {
  const r = await warmReads(db, new Date());
  if (r.failed.length || !r.warmed) throw new Error(`warm-up: ${JSON.stringify(r)}`);
};
const rows = [
  [
    'all agents, 90 days, computed from nothing kept',
    () => allAgentsStat(db, { tenant: 2, period: { from, to: today }, today }),
  ],
  [
    "the timer's warm-up after a rollup of an older day (or a start, or the day's turn: computed from nothing)",
    warm,
    rollupOfOlderDay,
  ],
  ["the timer's warm-up after a rollup of today", warm, rollupOfToday],
  [
    'all agents, 90 days, API, first read after a rollup of an older day, warmed by the timer',
    () => call(`/app/admin/agents/stat?${period}&pageSize=20`),
    async () => {
      await rollupOfOlderDay();
      await warm();
    },
  ],
  [
    'all agents, 90 days, API, first read after a rollup of today, warmed by the timer',
    () => call(`/app/admin/agents/stat?${period}&pageSize=20`),
    async () => {
      await rollupOfToday();
      await warm();
    },
  ],
  [
    'all agents, 90 days, API, first read after a rollup of today, before the warm-up',
    () => call(`/app/admin/agents/stat?${period}&pageSize=20`),
    rollupOfToday,
  ],
  ['all agents, 90 days, API (kept)', () => call(`/app/admin/agents/stat?${period}&pageSize=20`)],
  [
    'all agents, 90 days, API, by signups, flagged only',
    () => call(`/app/admin/agents/stat?${period}&sort=signups&flagged=true`),
  ],
  ['one agent, 90 days, API', () => call(`/app/admin/agents/stat/daily?agentId=${one}&${period}`)],
];
const check = await allAgentsStat(db, { tenant: 2, period: { from, to: today }, today });
await call(`/app/admin/agents/stat?${period}&pageSize=20`); // an operator's read, remembered for the warm-up
console.log(
  `\n${loadLine()}; ${check.total} agents, ${DAYS} days (${from} – ${today}); totals: ${check.totals.signups} signups, commission ${check.totals.commission}\n`,
);
console.log('| query | p50 / p95 / p99 ms |');
console.log('|---|---|');
let worst = 0;
for (const [name, fn, before] of rows) {
  if (PICK && !PICK.test(name)) continue;
  const s = await timeRuns(fn, RUNS, 3, before);
  if (name.includes('API') && !name.includes('before the warm-up')) worst = Math.max(worst, s.p95);
  console.log(`| ${name} | ${fmtStats(s)} |`);
}
console.log(
  `\nworst p95 of the reads through the API with the rollup timer's warm-up ${worst.toFixed(1)} ms (target ${TARGET_MS} ms for the all-agents stat); a read made between a rollup and its warm-up is the line "before the warm-up"`,
);
await pool.end();
await closeModules();
