// The timing runner every list benchmark shares (movies, users, comments, domains, ads): each query goes through the
// API in-process (app.request, no HTTP) WARMUP times, then RUNS times, one after another; when the bench gives the
// database's raw query function and a capture of Drizzle's logger, the statements the first request ran are also
// replayed on one connection, so API − SQL is the API's own cost. It prints one Markdown table per database: the
// query, its total ("10,000+" when capped), the rows of the page, p50 / p95 / p99 in ms, the shared buffers its
// statements touch (EXPLAIN ANALYZE BUFFERS: a cost that does not move with the machine's load), and the worst p95
// against the target.
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

export const RUNS = Number(process.env.BENCH_RUNS ?? 100);
export const WARMUP = 5;
/** Every list query's p95 target (issue #18), its total included. */
export const TARGET_MS = 15;

/**
 * The p-th percentile of some figures, by nearest rank: the smallest figure that at least p % of them do not exceed.
 * Of 20 figures the p95 is the 19th smallest, not the largest; the p50 of an even number is the lower middle one.
 * Every bench reads its percentiles here.
 */
export function percentile(xs, p) {
  return ofSorted(ascending(xs), p);
}
const ascending = (xs) => [...xs].sort((a, b) => a - b);
const ofSorted = (s, p) => s[Math.max(0, Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1))];

/** p50 / p95 / p99 of some durations (ms), sorted once. */
export function stats(xs) {
  const s = ascending(xs);
  return { p50: ofSorted(s, 50), p95: ofSorted(s, 95), p99: ofSorted(s, 99) };
}

/** p50 / p95 / p99 of `runs` sequential calls of `fn` after `warmup` unmeasured ones (ms). */
export async function timeRuns(fn, runs = RUNS, warmup = 3, before = undefined) {
  for (let i = 0; i < warmup; i++) {
    await before?.();
    await fn();
  }
  const xs = [];
  for (let i = 0; i < runs; i++) {
    await before?.(); // not timed
    const t0 = performance.now();
    await fn();
    xs.push(performance.now() - t0);
  }
  return stats(xs);
}

const f = (x) => x.toFixed(1);
export const fmtStats = (s) => `${f(s.p50)} / ${f(s.p95)} / ${f(s.p99)}`;

/**
 * A fixed piece of single-threaded JavaScript (integer hashing and a sort, no I/O), median of five runs in ms after three: this
 * virtual machine's speed varies within minutes (by up to 1.9× seen), so a figure is read beside the yardstick
 * taken with it.
 */
export function yardstick() {
  const runs = [];
  const xs = new Float64Array(100_000);
  for (let r = 0; r < 8; r++) {
    const t0 = performance.now();
    let h = 2166136261;
    for (let i = 0; i < 1_000_000; i++) h = Math.imul(h ^ i, 16777619) >>> 0;
    for (let i = 0; i < xs.length; i++) {
      h = Math.imul(h ^ i, 16777619) >>> 0;
      xs[i] = h;
    }
    xs.sort();
    if (r >= 3) runs.push(performance.now() - t0); // the first three warm the JIT
  }
  return runs.sort((a, b) => a - b)[2];
}

/** "load average 1.2 0.9 0.7 on 2 cores, CPU yardstick 9.8 ms" */
export const loadLine = () =>
  `load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} on ${cpus().length} cores, CPU yardstick ${yardstick().toFixed(1)} ms`;

/**
 * CPU time (user + system, seconds) used so far by processes, from Linux's /proc (undefined elsewhere): `pid` one
 * process, or every process whose command is `name` (PostgreSQL's backends and workers, when it runs on this
 * machine). A bench reads it before and after a phase: where the machine's two cores went, whatever its speed.
 * Clock ticks are taken at 100 a second (Linux's USER_HZ on every common build).
 */
export function cpuSeconds({ pid, name }) {
  const ticks = (stat, children) => {
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // after "pid (comm) ": state is field 0
    // utime, stime; with `children` also cutime, cstime: the children that ended and were waited for
    return Number(fields[11]) + Number(fields[12]) + (children ? Number(fields[13]) + Number(fields[14]) : 0);
  };
  try {
    if (pid !== undefined) return ticks(readFileSync(`/proc/${pid}/stat`, 'utf8'), false) / 100;
    // By name, the ended processes count too (a server's connections come and go): their time moves to their
    // parent's children's time when it waits for them, so the sum never falls between two readings.
    let sum = 0;
    for (const p of readdirSync('/proc')) {
      if (!/^\d+$/.test(p)) continue;
      try {
        const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
        if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === name) sum += ticks(stat, true);
      } catch {} // ended meanwhile
    }
    return sum / 100;
  } catch {
    return undefined;
  }
}

/**
 * A Drizzle logger that records the statements run while capturing: pass `logger` to `drizzle(…, { logger })`,
 * `start()` before a request, `stop()` after it for its select statements.
 */
export function statementCapture() {
  let captured = null;
  return {
    logger: { logQuery: (q, p) => captured?.push([q, p]) },
    start() {
      captured = [];
    },
    stop() {
      const out = (captured ?? []).filter(([q]) => /^\s*(select|with)\b/i.test(q));
      captured = null;
      return out;
    },
  };
}

/**
 * The statements of a request, sent one after another on one connection. A statement setting planner options
 * (set_config(…, true), local to a transaction: movie/totals.ts readPlanned, users/list.ts) runs with the next one in
 * a transaction, as in the API.
 */
export async function replay(statements, rawQuery) {
  for (let i = 0; i < statements.length; i++) {
    const [q, p] = statements[i];
    if (q.includes('set_config(') && i + 1 < statements.length) {
      await rawQuery('begin');
      await rawQuery(q, p);
      await rawQuery(...statements[++i]);
      await rawQuery('commit');
    } else await rawQuery(q, p);
  }
}

/** Shared buffers (hit + read) one statement touches, from EXPLAIN (ANALYZE, BUFFERS): a cost no load changes. */
async function buffersOf(rawQuery, q, p) {
  const rows = await rawQuery(`explain (analyze, buffers, format json) ${q}`, p);
  let plan = rows[0]['QUERY PLAN'];
  if (typeof plan === 'string') plan = JSON.parse(plan);
  const top = plan[0].Plan;
  return (top['Shared Hit Blocks'] ?? 0) + (top['Shared Read Blocks'] ?? 0);
}

/** The buffers a request's statements touch, summed (planner settings applied as in replay). */
export async function requestBuffers(statements, rawQuery) {
  let n = 0;
  for (let i = 0; i < statements.length; i++) {
    const [q, p] = statements[i];
    if (q.includes('set_config(') && i + 1 < statements.length) {
      await rawQuery('begin');
      await rawQuery(q, p);
      n += await buffersOf(rawQuery, ...statements[++i]);
      await rawQuery('commit');
    } else n += await buffersOf(rawQuery, q, p);
  }
  return n;
}

/**
 * Times each `[name, query]` of `queries` through `call(query)` (answers the list's `data`); with `capture` and
 * `rawQuery`, also the same SQL. Prints the table under `title` and answers the rows (for a summary); `target: null`
 * for queries without one.
 *
 *   title: what and where ("PostgreSQL 15, 1,000,000 movies"); path: shown in the query list (`/app/admin/…?`)
 */
export async function timeList({
  title,
  path,
  queries,
  call,
  capture,
  rawQuery,
  runs = RUNS,
  target = TARGET_MS,
}) {
  const rows = [];
  for (const [name, query] of queries) {
    capture?.start();
    const data = await call(query);
    const statements = capture?.stop() ?? [];
    for (let i = 0; i < WARMUP; i++) await call(query);
    const api = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await call(query);
      api.push(performance.now() - t0);
    }
    let sql;
    if (rawQuery && statements.length) {
      const raw = [];
      for (let i = 0; i < WARMUP + runs; i++) {
        const t0 = performance.now();
        await replay(statements, rawQuery);
        if (i >= WARMUP) raw.push(performance.now() - t0);
      }
      sql = stats(raw);
    }
    const buffers = rawQuery && statements.length ? await requestBuffers(statements, rawQuery) : undefined;
    const total =
      data.total === undefined
        ? ''
        : `${data.total.toLocaleString('en')}${data.totalExact === false ? '+' : ''}`;
    const pageRows = Array.isArray(data.list)
      ? data.list.length
      : Array.isArray(data.rows)
        ? data.rows.length
        : '';
    rows.push({ name, query, total, pageRows, api: stats(api), sql, n: statements.length, buffers });
  }
  printTable(title, rows, { path, runs, target });
  return rows;
}

function printTable(title, rows, { path, runs, target }) {
  const withSql = rows.some((r) => r.sql);
  console.log(
    `\n${title} — ${runs} sequential requests per query after ${WARMUP} warm-up; ms (${loadLine()})`,
  );
  console.log(
    withSql
      ? '| query | total | rows | API p50 / p95 / p99 | same SQL p50 / p95 / p99 | API − SQL p50 | statements | buffers |\n|---|---:|---:|---:|---:|---:|---:|---:|'
      : '| query | total | rows | API p50 / p95 / p99 |\n|---|---:|---:|---:|',
  );
  for (const r of rows) {
    const over = target !== null && r.api.p95 > target ? ' **over**' : '';
    const cells = [r.name, r.total, r.pageRows, `${fmtStats(r.api)}${over}`];
    if (withSql)
      cells.push(
        r.sql ? fmtStats(r.sql) : '',
        r.sql ? f(r.api.p50 - r.sql.p50) : '',
        r.n,
        r.buffers?.toLocaleString('en') ?? '',
      );
    console.log(`| ${cells.join(' | ')} |`);
  }
  if (!rows.length) {
    console.log('no query picked (BENCH_QUERIES)');
    return;
  }
  const worst = rows.reduce((w, r) => (r.api.p95 > w.api.p95 ? r : w), rows[0]);
  const overCount = rows.filter((r) => target !== null && r.api.p95 > target).length;
  console.log(
    `worst API p95 ${f(worst.api.p95)} ms (${worst.name})${target === null ? '' : `; ${overCount} of ${rows.length} over the ${target} ms target`}`,
  );
  // The API's own cost (routing, session, validation, query building, JSON): the median over the queries of API p50
  // minus the same SQL's p50 (issue #18: under 2 ms on a simple page).
  const overheads = rows
    .filter((r) => r.sql)
    .map((r) => r.api.p50 - r.sql.p50)
    .sort((a, b) => a - b);
  if (overheads.length)
    console.log(
      `API overhead (API p50 − same SQL p50): median ${f(overheads[Math.floor(overheads.length / 2)])} ms over ${overheads.length} queries${rows[0].sql ? `; ${rows[0].name}: ${f(rows[0].api.p50 - rows[0].sql.p50)} ms` : ''}`,
    );
  if (path) {
    console.log('\nqueries:');
    for (const r of rows) console.log(`  ${r.name}: GET ${path}${r.query}`);
  }
}
