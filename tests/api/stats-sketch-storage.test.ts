import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { rowsOf } from '../../server/db/migrate';
import type { Database } from '../../server/db/types';
import { M } from '../../server/modules/statistics/sketch';
import { freshDatabase } from './harness';

/**
 * A domain's full sketches are stored uncompressed (migration 0265): a report reading hundreds of them would otherwise
 * decompress each, and a rollup compress each again. Other sketch columns keep PostgreSQL's default.
 */
let database: Database;
beforeAll(async () => {
  database = await freshDatabase({ migrated: true });
});
afterAll(() => database?.close());

test("a domain's full sketches, daily and in blocks, are stored as they are; a visit's are compressed", async () => {
  // a full sketch whose ranks repeat, as pglz compresses them
  const full = new Uint8Array(M).map((_, i) => 1 + (i % 7));
  const db = database.db;
  await db.execute(sql`insert into stat_domain_daily (tenant, day, domain, visitors, addresses)
    values (1, '2026-06-01', 'a.example.com', ${full}, ${full})`);
  await db.execute(sql`insert into stat_domain_blocks (tenant, domain, level, start, visitors, addresses)
    values (1, 'a.example.com', 1, '2026-06-01', ${full}, ${full})`);
  await db.execute(sql`insert into stat_visit_daily (tenant, day, domain, dimension, key, visitors)
    values (1, '2026-06-01', 'a.example.com', 'path', '/', ${full})`);
  const forms = rowsOf<{ t: string; c: string | null; size: number }>(
    await db.execute(sql`
      select 'daily visitors' as t, pg_column_compression(visitors) as c, pg_column_size(visitors) as size from stat_domain_daily
      union all select 'daily addresses', pg_column_compression(addresses), pg_column_size(addresses) from stat_domain_daily
      union all select 'blocks visitors', pg_column_compression(visitors), pg_column_size(visitors) from stat_domain_blocks
      union all select 'blocks addresses', pg_column_compression(addresses), pg_column_size(addresses) from stat_domain_blocks
      union all select 'visit visitors', pg_column_compression(visitors), pg_column_size(visitors) from stat_visit_daily`),
  );
  expect(forms.map((r) => [r.t, r.c, Number(r.size) >= M])).toEqual([
    ['daily visitors', null, true],
    ['daily addresses', null, true],
    ['blocks visitors', null, true],
    ['blocks addresses', null, true],
    ['visit visitors', 'pglz', false],
  ]);
});
