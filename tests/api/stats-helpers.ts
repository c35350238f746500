import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { expect } from 'vitest';
import { rowsOf } from '../../server/db/migrate';
import type { Db, Executor } from '../../server/db/types';
import { ingest } from '../../server/modules/statistics/ingest';
import type { TestApi } from './harness';
import { siteDoor } from './site-door';

let n = 0;
/** A valid event (a page view at the harness clock's time), fields overridable. */
export function event(over: Record<string, unknown> = {}): Record<string, unknown> {
  n++;
  return {
    id: `evt-${process.pid}-${n.toString().padStart(6, '0')}`,
    type: 'pageview',
    time: '2026-06-01T07:30:00Z',
    domain: 'a.example.com',
    path: '/',
    visitor: `v${n % 7}`,
    ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    ip: '120.24.78.68',
    ...over,
  };
}

/**
 * Makes a site key and server secret and returns a sender of batches to POST /app/site/events, signed by the site's
 * server (the events of `event()` carry `ip`, which only it may send).
 */
export async function siteSender(api: TestApi, adminToken: string) {
  const door = await siteDoor(api, adminToken);
  return (events: unknown[], headers: Record<string, string> = {}) =>
    door.signed('/app/site/events', { events }, headers);
}

export async function rollup(api: TestApi, adminToken: string) {
  const r = await api.call('POST', '/app/admin/stats/rollup', { token: adminToken });
  if (r.body.code !== 20000) throw new Error(`rollup failed: ${JSON.stringify(r.body)}`);
  return r.body.data;
}

export async function report(api: TestApi, token: string, name: string, query: Record<string, string> = {}) {
  const qs = new URLSearchParams(query).toString();
  return api.call('GET', `/app/admin/stats/reports/${name}${qs ? `?${qs}` : ''}`, { token });
}

/**
 * `handle` with each statement it runs through `execute` passed to `around` (which runs it with `run`), a transaction's
 * handle too.
 */
export function aroundExecute<T extends object>(
  handle: T,
  around: (q: SQL, run: () => Promise<unknown>) => Promise<unknown>,
): T {
  return new Proxy(handle, {
    get(target: any, key) {
      if (key === 'execute') return (q: SQL) => around(q, () => target.execute(q));
      if (key === 'transaction')
        return (run: (tx: unknown) => unknown, ...rest: unknown[]) =>
          target.transaction((tx: object) => run(aroundExecute(tx, around)), ...rest);
      const v = Reflect.get(target, key);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/**
 * The database handle with every statement run through `execute` recorded (text and parameters), for tests that
 * watch what a read reads. A handle of its own: what reports keep per database handle starts empty for it.
 */
export function watchedDb(db: Db) {
  const seen: { sql: string; params: unknown[] }[] = [];
  const dialect = new PgDialect();
  const watched = aroundExecute(db, (q, run) => {
    seen.push(dialect.sqlToQuery(q));
    return run();
  });
  return { db: watched, seen };
}

/** The site-wide page views rolled up in `db`, every tenant and day. */
export async function rolledPageViews(db: Executor) {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(
      sql`select coalesce(sum(page_views), 0)::int as n from stat_domain_daily where domain = ''`,
    ),
  );
  return Number(row.n);
}

/** Waits (up to 30 s, polling) until `what` holds, and fails if it never does. */
export async function until(what: () => Promise<boolean> | boolean) {
  for (let i = 0; i < 300 && !(await what()); i++) await new Promise((r) => setTimeout(r, 100));
  expect(await what()).toBe(true);
}

let visitorSeq = 0;
/** Ingests `n` page views now, each of a new visitor, on a.test (for tests of the rollup timer). */
export async function newVisitors(db: Db, tenant: number, n: number) {
  const r = await ingest(
    db,
    tenant,
    Array.from({ length: n }, () => ({
      id: `visitor-event-${process.pid}-${++visitorSeq}`,
      type: 'pageview',
      time: new Date().toISOString(),
      domain: 'a.test',
      path: '/',
      visitor: `v${visitorSeq}`,
    })),
    { now: new Date(), clientAddress: '10.0.0.1' },
  );
  expect(r.accepted).toBe(n);
}
