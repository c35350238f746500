import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Logger } from '../../server/core/logger';
import type { Database, Db } from '../../server/db/types';
import { openPostgres } from '../../server/node/postgres';
import { startRollupTimer } from '../../server/node/rollup';
import { freshDatabase, onPostgres } from './harness';
import { newVisitors, rolledPageViews, until, watchedDb } from './stats-helpers';

/**
 * Issue #50: one rollup runner per cluster. Two instances on one database: only the one that holds the leader's lock
 * rolls up on its timer (the other runs no statement at all), and when the leader stops the other takes over.
 * PostgreSQL only: PGlite's data directory is one process's.
 */
const TENANT = 2;
let database: Database & { url?: string };
const instances: Database[] = [];
const stops: (() => void)[] = [];
beforeAll(async () => {
  database = await freshDatabase({ migrated: true });
});
afterAll(async () => {
  for (const stop of stops) stop();
  for (const i of instances) await i.close();
  await database?.close();
});

/** An instance: its own pool on the database, its statements watched, its log kept, its rollup timer started. */
async function instance() {
  const opened = onPostgres ? await openPostgres(database.url!, 4) : database;
  if (onPostgres) instances.push(opened);
  const watched = watchedDb(opened.db as Db);
  const log: string[] = [];
  const logger: Logger = {
    info: (_o: unknown, msg?: string) => void log.push(String(msg)),
    warn: (_o: unknown, msg?: string) => void log.push(String(msg)),
    error: (o: unknown, msg?: string) => void log.push(`${msg} ${JSON.stringify(o)}`),
  };
  const stop = startRollupTimer(watched.db, { seconds: 0.2, defaultTenant: TENANT, logger, parallel: true });
  stops.push(stop);
  return { watched, log, stop, leads: () => log.includes('statistics rollup: this instance leads') };
}

const pageViews = () => rolledPageViews(database.db);
const send = (n: number) => newVisitors(database.db, TENANT, n);

test.runIf(onPostgres)(
  'two instances on one database: one leads the timer rollups, the other idles, and takes over when the leader stops',
  async () => {
    const a = await instance();
    const b = await instance();
    await send(3);
    await until(async () => (await pageViews()) === 3);
    await until(() => a.leads() || b.leads());
    const [leader, other] = a.leads() ? [a, b] : [b, a];
    // Several more ticks of both timers: the other still never leads, nor runs a statement through its handle but
    // its start's warm-up (`warmAtStart`), which finds no report read lately.
    await send(2);
    await until(async () => (await pageViews()) === 5);
    await new Promise((r) => setTimeout(r, 1000));
    expect(other.leads()).toBe(false);
    expect(other.watched.seen.map((s) => s.sql)).toEqual([expect.stringMatching(/ from report_reads\s/)]);
    expect(leader.watched.seen.length).toBeGreaterThan(0);

    leader.stop();
    await send(4);
    await until(async () => (await pageViews()) === 9);
    expect(other.leads()).toBe(true);
    expect(other.watched.seen.length).toBeGreaterThan(0);
    other.stop();
  },
  60_000,
);
