import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrate, rowsOf } from '../../server/db/migrate';
import type { Database, Executor } from '../../server/db/types';
import { FOLD_KEYS, foldDomainDay, MAX_LEVEL } from '../../server/modules/statistics/blocks';
import { add, emptyRegisters, encode, estimateStored } from '../../server/modules/statistics/sketch';
import { freshDatabase } from './harness';
import { aroundExecute } from './stats-helpers';

/**
 * Issue #48, in small: a day of 6,000 domains folds into its blocks. Before, one statement carried
 * 8 × domains × 6 parameters (PostgreSQL refused it past 1,365 domains: "bind message has … parameter formats but 0
 * parameters") and building it overflowed the stack at about 5,000. stats-scale.test.ts rolls such a day up whole.
 */
const DOMAINS = 6_000;
const DAY = '2026-06-03';

let database: Database;
beforeAll(async () => {
  database = await freshDatabase({ migrated: true });
  await migrate(database.db);
});
afterAll(() => database?.close());

test('a day of 6,000 domains folds into every level of their blocks', async () => {
  const sketch = encode(add(emptyRegisters(), 0x1234_5678_9abc_def0n));
  await database.db.execute(sql`insert into stat_domain_daily (tenant, day, domain, page_views, visitors, addresses)
    select 2, ${DAY}::date, 'd' || g || '.test', 1, ${sketch}, ${sketch} from generate_series(1, ${DOMAINS}) g`);
  await database.db.transaction((tx) => foldDomainDay(tx, 2, DAY));
  const [{ n, levels }] = rowsOf<{ n: number; levels: number }>(
    await database.db.execute(
      sql`select count(*)::int as n, count(distinct level)::int as levels from stat_domain_blocks`,
    ),
  );
  expect([n, levels]).toEqual([DOMAINS * MAX_LEVEL, MAX_LEVEL]);
  const rows = rowsOf<{ visitors_n: number; b: Uint8Array }>(
    await database.db.execute(sql`select d.visitors_n, b.visitors as b from stat_domain_daily d
      join stat_domain_blocks b on b.domain = d.domain and b.level = ${MAX_LEVEL} where d.domain = 'd6000.test'`),
  );
  expect(rows.map((r) => [Number(r.visitors_n), estimateStored([new Uint8Array(r.b)])])).toEqual([[1, 1]]);
});

/**
 * A handle on `tx` that runs each statement first under EXPLAIN ANALYZE in a savepoint it rolls back, and records the
 * plan (JSON), then runs it.
 */
function explained(tx: Executor, plans: { text: string; plan: any }[]): Executor {
  const undo = new Error('rolled back');
  const dialect = new PgDialect();
  return aroundExecute(tx, async (q, run) => {
    await tx
      .transaction(async (sp) => {
        const [row] = rowsOf<Record<string, unknown>>(
          await sp.execute(sql`explain (analyze, format json) ${q}`),
        );
        const json = Object.values(row)[0];
        const [plan] = typeof json === 'string' ? JSON.parse(json) : (json as any[]);
        plans.push({ text: dialect.sqlToQuery(q).sql, plan: plan.Plan });
        throw undo;
      })
      .catch((err: unknown) => {
        if (err !== undo) throw err;
      });
    return run();
  });
}

/** The most rows any node of a plan produced or filtered out, over all its loops. */
function mostRows(node: any): number {
  const own = Math.max(
    (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1),
    (node['Rows Removed by Filter'] ?? 0) * (node['Actual Loops'] ?? 1),
  );
  return Math.max(own, ...(node.Plans ?? []).map(mostRows));
}

/** Domains of the busy first day below: each statement reading every domain of the day would read 40 chunks' rows. */
const BUSY = 4_000;

test("a busy first day folds chunk by chunk, each reading its own domains' rows, not every domain's", async () => {
  // Written in the fold's own transaction, as a rollup writes a day: the planner knows nothing of these rows.
  const plans: { text: string; plan: any }[] = [];
  const sketch = encode(add(emptyRegisters(), 0x0fed_cba9_8765_4321n));
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`insert into stat_domain_daily (tenant, day, domain, page_views, visitors, addresses)
      select 3, ${DAY}::date, 'd' || g || '.test', 1, ${sketch}, ${sketch} from generate_series(1, ${BUSY}) g`);
    await foldDomainDay(explained(tx, plans), 3, DAY);
  });
  const [{ n }] = rowsOf<{ n: number }>(
    await database.db.execute(sql`select count(*)::int as n from stat_domain_blocks where tenant = 3`),
  );
  expect(n).toBe(BUSY * MAX_LEVEL);
  // The statements run for each chunk (the day's keys are listed once, and the emptied blocks deleted once), each
  // reading at most a chunk's keys, each with its day and the day beside it, its blocks and their halves.
  const chunkRows = FOLD_KEYS * (2 + 2 * MAX_LEVEL - 1);
  const runs = new Map<string, number>();
  for (const p of plans) runs.set(p.text, (runs.get(p.text) ?? 0) + 1);
  const perChunk = plans.filter((p) => runs.get(p.text)! >= BUSY / FOLD_KEYS);
  expect(new Set(perChunk.map((p) => p.text)).size).toBeGreaterThanOrEqual(3); // the rows read, the estimates, the blocks
  const worst = perChunk.reduce((m, p) => (mostRows(p.plan) > mostRows(m.plan) ? p : m));
  expect({ rows: mostRows(worst.plan), statement: worst.text }).toEqual({
    rows: expect.toSatisfy((r: number) => r <= chunkRows),
    statement: worst.text,
  });
});
