// The domain store at scale (issue #15), through the API in-process (app.request, no HTTP, an admin token):
//   1. import 10,000 hostnames (validate, dedupe against the paste and the store, insert in one statement): the dry
//      run and the import, BENCH_IMPORT_RUNS times into a growing store;
//   2. the store grown to BENCH_DOMAINS (100,000) domains in 100 pools, mixed states (SQL, not timed);
//   3. the site's resolve endpoint (Site-Key, weighted sticky pick): random visitors over every pool, warm cache, and
//      right after a change (the version bumped: the pool is read again);
//   4. the store list under each filter, page 1 with its total.
// Targets: import ≤ 2 s; resolve p95 ≤ 5 ms; store list p95 ≤ 15 ms. PGlite on a data directory (as `npm start`),
// then PostgreSQL at BENCH_DATABASE_URL when reachable (its own database zg_bench_domains).
//
//   npm run bench -- domains
//   BENCH_DOMAINS=100000  BENCH_RUNS=100  BENCH_IMPORT_RUNS=3  BENCH_ONLY=pglite|postgres
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { serverModules } from './_server.mjs';
import { fmtStats, loadLine, RUNS, stats, timeList } from './_timing.mjs';

const TOTAL = Number(process.env.BENCH_DOMAINS ?? 100_000);
const IMPORT_RUNS = Number(process.env.BENCH_IMPORT_RUNS ?? 3);
const ONLY = process.env.BENCH_ONLY;
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN_PASSWORD = 'bench-admin-1';

const { load, close: closeModules } = await serverModules();
const { createApp } = await load('/server/app.ts');
const { loadConfig } = await load('/server/config.ts');
const { systemClock } = await load('/server/core/clock.ts');
const { silentLogger } = await load('/server/core/logger.ts');
const { memoryImageStorage } = await load('/server/core/image-storage.ts');
const { migrate } = await load('/server/db/migrate.ts');
const { openPglite } = await load('/server/db/pglite.ts');
const { openPostgres } = await load('/server/node/postgres.ts');
const { ensureFirstAdmin } = await load('/server/modules/operators/index.ts');
const { sql } = await load('drizzle-orm');

const fmt = (xs) => fmtStats(stats(xs));

/** Deterministic hostnames: word + number + TLD, the number keeps them unique. */
const WORDS = ['kan', 'yue', 'hao', 'mei', 'xing', 'guang', 'tian', 'feng', 'yun', 'lan'];
const TLDS = ['com', 'net', 'cn', 'top', 'xyz'];
const hostname = (i) => `${WORDS[i % 10]}${WORDS[(i >> 3) % 10]}${i}.${TLDS[i % 5]}`;

async function run(label, database) {
  const config = loadConfig({ ADMIN_PASSWORD, PASSWORD_ITERATIONS: '1000', LOG_LEVEL: 'silent' });
  await migrate(database.db);
  await ensureFirstAdmin(database.db, config);
  const app = createApp({
    db: database.db,
    config,
    clock: systemClock,
    logger: silentLogger,
    clientAddress: () => 'bench',
    images: memoryImageStorage(),
  });
  const call = async (path, init = {}) => {
    const res = await app.request(path, {
      ...init,
      headers: { 'content-type': 'application/json', ...(init.headers ?? {}) },
    });
    const body = await res.json();
    if (body.code !== 20000) throw new Error(`${path}: ${JSON.stringify(body).slice(0, 300)}`);
    return body.data;
  };
  const { token } = await call('/app/admin/login', {
    method: 'POST',
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  const headers = { 'Admin-Token': token };
  const admin = (path, json, method = json === undefined ? 'GET' : 'POST') =>
    call(path, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
  const q = (s) => database.db.execute(s);

  console.log(`\n${label} — ${loadLine()}`);

  // 1. imports of 10,000 lines
  const pools = [];
  for (let i = 0; i < 100; i++)
    pools.push((await admin('/app/admin/domain/pools', { name: `pool-${i}` })).id);
  console.log('import of 10,000 hostnames (dry run, then the import in one transaction):');
  for (let r = 0; r < IMPORT_RUNS; r++) {
    const text = Array.from({ length: 10_000 }, (_, i) => hostname(r * 10_000 + i)).join('\n');
    let t = performance.now();
    const dry = await admin('/app/admin/domain/domains/import', { text, dryRun: true, poolId: pools[r] });
    const dryMs = performance.now() - t;
    t = performance.now();
    const done = await admin('/app/admin/domain/domains/import', {
      text,
      poolId: pools[r],
      status: 'active',
    });
    const ms = performance.now() - t;
    if (dry.valid !== 10_000 || done.saved !== 10_000) throw new Error('import did not take 10,000');
    console.log(
      `  run ${r + 1}: dry run ${dryMs.toFixed(0)} ms, import ${ms.toFixed(0)} ms (store ${r * 10_000} → ${(r + 1) * 10_000})`,
    );
  }

  // 2. the rest of the store by SQL: 100 pools, mixed states, channels, expiry dates
  const have = IMPORT_RUNS * 10_000;
  const tenant = config.defaultTenant;
  const t2 = performance.now();
  await q(sql`
    insert into domains (tenant, hostname, registrable, role, pool_id, weight, status, registrar, channel,
                         expires_on, cert_expires_on, retired_at)
    select ${tenant}, 'h' || g || '.fill' || (g % 97) || '.com', 'fill' || (g % 97) || '.com',
           (array['main','landing','channel','backup'])[1 + g % 4],
           (${sql.param(pools)}::int[])[1 + g % 100],
           1 + g % 10,
           (array['active','standby','standby','blocked','expired','retired','active','active'])[1 + (g / 100) % 8],
           (array['阿里云','GoDaddy','Namecheap','腾讯云'])[1 + g % 4],
           case when g % 4 = 2 then 'ag' || (g % 500) end,
           current_date + (g % 400) - 30, current_date + (g % 90),
           case when (g / 100) % 8 = 5 then now() - ((g % 30) || ' days')::interval end
    from generate_series(${have}::int, ${TOTAL - 1}::int) g`);
  await q(
    sql`update domains set status = 'standby' where id % 3 = 0 and status = 'active' and pool_id = ${pools[0]}`,
  );
  // What autovacuum does within a minute of a bulk insert on PostgreSQL 13+ (the insert threshold): the visibility
  // map lets a count read an index alone, as the comments and members benches measure it too.
  await q(sql`vacuum analyze domains`);
  await q(sql`update domain_settings set resolve_version = resolve_version + 1`);
  console.log(
    `store grown to ${TOTAL.toLocaleString()} domains in ${((performance.now() - t2) / 1000).toFixed(1)} s`,
  );

  // 3. resolve
  const { key } = await admin('/app/admin/setting/site-key/regenerate', {});
  const resolve = async (pool, visitor) => {
    const res = await app.request(`/app/site/domains/resolve?pool=${pool}&visitor=${visitor}`, {
      headers: { 'Site-Key': key },
    });
    const body = await res.json();
    if (body.code !== 20000) throw new Error(`resolve: ${JSON.stringify(body)}`);
  };
  for (const p of pools) await resolve(p, 'warm');
  const warm = [];
  for (let i = 0; i < RUNS * 10; i++) {
    const t = performance.now();
    await resolve(pools[(i * 37) % 100], `v${i * 7919}`);
    warm.push(performance.now() - t);
  }
  const cold = [];
  for (let i = 0; i < RUNS; i++) {
    await q(sql`update domain_settings set resolve_version = resolve_version + 1`);
    const t = performance.now();
    await resolve(pools[i % 100], `c${i}`);
    cold.push(performance.now() - t);
  }
  console.log('resolve (ms, p50 / p95 / p99):');
  console.log(`  warm cache, ${RUNS * 10} random visitors over 100 pools: ${fmt(warm)}`);
  console.log(
    `  right after a change (the pool read again, ~${Math.round(TOTAL / 100)} domains): ${fmt(cold)}`,
  );

  // 4. store list per filter
  const filters = [
    ['page 1 (newest first)', 'sort=id&order=desc'],
    ['page 100', 'sort=id&order=desc&page=100'],
    ['status=active', 'status=active&sort=id&order=desc'],
    ['one pool', `poolId=${pools[42]}&sort=id&order=desc`],
    ['role=channel', 'role=channel&sort=id&order=desc'],
    ['one channel', 'channel=ag42'],
    ['registrar', 'registrar=GoDaddy&sort=id&order=desc'],
    ['hostname starts with', 'q=kanyue1'],
    ['registrable domain', 'q=fill42.com'],
    ['expiring in 30 days', 'expiringWithin=30'],
    ['certificate in 7 days', 'certExpiringWithin=7'],
    ['checkOk=false', 'checkOk=false'],
    ['sorted by hostname', 'sort=hostname'],
    ['pool + status', `poolId=${pools[7]}&status=standby`],
  ];
  await timeList({
    title: `${label}: store list, page 1 of 20 with its total`,
    path: '/app/admin/domain/domains?',
    queries: filters,
    call: (query) => admin(`/app/admin/domain/domains?${query}`),
  });
}

if (ONLY !== 'postgres') {
  const dir = mkdtempSync(join(tmpdir(), 'zhanggui-bench-domains-'));
  try {
    const database = await openPglite(dir);
    await run(`PGlite (data directory), ${TOTAL.toLocaleString()} domains`, database);
    await database.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (ONLY !== 'pglite') {
  const admin = new pg.Client({ connectionString: PG_URL });
  const reachable = await admin.connect().then(
    () => true,
    () => false,
  );
  if (!reachable) console.log(`\nPostgreSQL at ${PG_URL} not reachable: skipped`);
  else {
    await admin.query('drop database if exists zg_bench_domains with (force)');
    await admin.query('create database zg_bench_domains');
    const url = new URL(PG_URL);
    url.pathname = '/zg_bench_domains';
    const database = await openPostgres(url.toString());
    try {
      await run(`PostgreSQL, ${TOTAL.toLocaleString()} domains`, database);
    } finally {
      await database.close();
      await admin.query('drop database if exists zg_bench_domains with (force)');
      await admin.end();
    }
  }
}
await closeModules();
