import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrate, rowsOf } from '../../server/db/migrate';
import type { Database } from '../../server/db/types';
import { foldDomainDay, MAX_LEVEL } from '../../server/modules/statistics/blocks';
import { add, emptyRegisters, encode, estimateStored } from '../../server/modules/statistics/sketch';
import { freshDatabase } from './harness';

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
