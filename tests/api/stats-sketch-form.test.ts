import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrate, rowsOf } from '../../server/db/migrate';
import type { Database } from '../../server/db/types';
import {
  add,
  emptyRegisters,
  encode,
  estimate,
  estimateStored,
  M,
  storedSketch,
} from '../../server/modules/statistics/sketch';
import { databaseBefore } from './harness';

/**
 * One stored sketch form: a database whose agents' block sketches were written in the former gap form (the byte 0x80,
 * then 2 bytes a register: `gap << 6 | rank`, distances past 1,023 spent in units of rank 0) reads the same
 * registers and counts once migrated, now in the form `encode` and `zg_hll_pack` write.
 */
const hash64 = (s: string) =>
  BigInt.asIntN(64, BigInt(`0x${createHash('md5').update(s).digest('hex').slice(0, 16)}`));

/** The former gap form of registers, as the agents' block sketches held it (dense when not shorter, '' for none). */
function oldGapForm(r: Uint8Array): Uint8Array {
  const out: number[] = [0x80];
  let prev = -1;
  for (let i = 0; i < M; i++) {
    if (!r[i]) continue;
    let gap = i - prev;
    prev = i;
    for (; gap > 1023; gap -= 1023) out.push(0xff, 0xc0);
    out.push(gap >> 2, ((gap & 3) << 6) | r[i]);
  }
  if (out.length === 1) return new Uint8Array(0);
  return out.length >= M ? r.slice() : Uint8Array.from(out);
}

const FIRST_NEW = '0210';
let database: Database;
beforeAll(async () => {
  // The database as it stood before: every migration up to the one that converts the sketches.
  database = await databaseBefore(FIRST_NEW);
}, 120_000);
afterAll(() => database?.close());

test('block sketches stored in the gap form read the same registers and counts after migrating', async () => {
  const sets: Uint8Array[] = [];
  for (const n of [0, 1, 40, 700, 5000, 9000, 40_000]) {
    const r = emptyRegisters();
    for (let i = 0; i < n; i++) add(r, hash64(`form-${n}-${i}`));
    sets.push(r);
  }
  const far = emptyRegisters(); // two registers 16,383 apart: sixteen units of rank 0 between them
  far[0] = 5;
  far[M - 1] = 9;
  sets.push(far);
  for (const [i, r] of sets.entries()) {
    const old = oldGapForm(r);
    await database.db.execute(sql`insert into stat_attributed_block_sketches (tenant, channel, level, start, visitors, addresses)
      values (2, ${`c${i}`}, 1, '2026-01-02', ${old}::bytea, ${encode(r)}::bytea)`);
  }
  const before = rowsOf<{ channel: string; n: number }>(
    await database.db.execute(sql`select channel, (select count(*) from zg_hll_unpack(visitors))::int as n
      from stat_attributed_block_sketches order by channel`),
  );
  expect(await migrate(database.db)).toContain('0210_stat_sketch_one_form');
  const rows = rowsOf<{ channel: string; visitors: unknown; addresses: unknown }>(
    await database.db.execute(sql`select channel, visitors, addresses from stat_attributed_block_sketches`),
  );
  expect(rows).toHaveLength(sets.length);
  for (const row of rows) {
    const r = sets[Number(row.channel.slice(1))];
    const visitors = storedSketch(row.visitors) ?? new Uint8Array(0);
    expect(Buffer.from(visitors), row.channel).toEqual(Buffer.from(encode(r)));
    expect(Buffer.from(storedSketch(row.addresses) ?? []), row.channel).toEqual(Buffer.from(encode(r)));
    expect(estimateStored([visitors])).toBe(estimate(r));
    const registers = r.filter((x) => x > 0).length;
    expect(before.find((b) => b.channel === row.channel)?.n).toBe(registers);
  }
  // The rebuild writes the one form too (the level-1 block holding 2 January starts on the 1st).
  await database.db.execute(sql`insert into stat_attributed_daily (tenant, day, channel, visitors, addresses)
    values (2, '2026-01-02', 'c1', ${encode(sets[3])}::bytea, ${encode(sets[2])}::bytea)`);
  await database.db.execute(sql`select zg_attributed_rebuild()`);
  const [rebuilt] = rowsOf<{ visitors: unknown }>(
    await database.db.execute(sql`select visitors from stat_attributed_block_sketches
      where channel = 'c1' and level = 1 and start = '2026-01-01'`),
  );
  expect(Buffer.from(storedSketch(rebuilt.visitors) ?? [])).toEqual(Buffer.from(encode(sets[3])));
});
