import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrate, rowsOf } from '../../server/db/migrate';
import type { Database } from '../../server/db/types';
import {
  add,
  emptyRegisters,
  encode,
  estimate,
  M,
  merge,
  mergeStored,
  registerOf,
} from '../../server/modules/statistics/sketch';
import { freshDatabase } from './harness';

/** Issue #12: the HyperLogLog sketch — its error, its merge, and the SQL half agreeing with the TypeScript half. */

/** The same 64-bit hash as `zg_hash64` in SQL: the first 16 hex digits of the MD5. */
const hash64 = (s: string) =>
  BigInt.asIntN(64, BigInt(`0x${createHash('md5').update(s).digest('hex').slice(0, 16)}`));

let database: Database;
beforeAll(async () => {
  database = await freshDatabase({ migrated: true });
  await migrate(database.db); // PostgreSQL's fresh database starts empty; on PGlite this finds nothing to do
});
afterAll(() => database?.close());

test('the estimate is within 2 % from ten to a million distinct values', () => {
  for (const n of [10, 100, 1_000, 10_000, 50_000, 200_000, 1_000_000]) {
    const r = emptyRegisters();
    for (let i = 0; i < n; i++) add(r, hash64(`visitor-${n}-${i}`));
    const e = estimate(r);
    expect(Math.abs(e - n) / n, `n=${n} estimate=${e}`).toBeLessThanOrEqual(0.02);
  }
});

test('duplicates do not count, an empty sketch is 0, and small sets are exact', () => {
  const r = emptyRegisters();
  expect(estimate(r)).toBe(0);
  for (let k = 0; k < 3; k++) for (let i = 0; i < 50; i++) add(r, hash64(`dup-${i}`));
  expect(estimate(r)).toBe(50);
});

test('merging sketches equals the sketch of the union, in either stored form', () => {
  fc.assert(
    fc.property(
      fc.array(fc.array(fc.integer({ min: 0, max: 20_000 }), { maxLength: 3000 }), {
        minLength: 1,
        maxLength: 5,
      }),
      (sets) => {
        const parts = sets.map((s) => {
          const r = emptyRegisters();
          for (const v of s) add(r, hash64(`m${v}`));
          return encode(r);
        });
        const union = emptyRegisters();
        for (const s of sets) for (const v of s) add(union, hash64(`m${v}`));
        expect(merge(parts)).toEqual(union);
      },
    ),
    { numRuns: 30 },
  );
  const dense = emptyRegisters();
  for (let i = 0; i < 20_000; i++) add(dense, hash64(`d${i}`));
  expect(encode(dense).length).toBe(M); // past a third of the registers, the dense form is shorter
});

test('SQL builds the same registers and the same stored sketch as TypeScript', async () => {
  const values = Array.from({ length: 3000 }, (_, i) => `sql-${i}`);
  const rows = rowsOf<{ v: string; h: string; reg: number }>(
    await database.db.execute(
      sql`select v, zg_hash64(v)::text as h, zg_hll_reg(zg_hash64(v)) as reg from unnest(${sql.param(values)}::text[]) as v`,
    ),
  );
  for (const r of rows) {
    expect(BigInt(r.h)).toBe(hash64(r.v));
    const { index, rank } = registerOf(BigInt(r.h));
    expect(Number(r.reg)).toBe((index << 6) | rank);
  }
  for (const n of [0, 1, 700, 9000]) {
    const vs = Array.from({ length: n }, (_, i) => `pack-${i}`);
    const [row] = rowsOf<{ s: Uint8Array | null }>(
      await database.db.execute(sql`
        with r as (select zg_hll_reg(zg_hash64(v)) as g from unnest(${sql.param(vs)}::text[]) as v),
        x as (select g >> 6 as idx, max(g & 63) as rk from r group by 1)
        select zg_hll_pack(string_agg(zg_hll_entry(idx, rk), ''::bytea order by idx)) as s from x`),
    );
    const r = emptyRegisters();
    for (const v of vs) add(r, hash64(v));
    expect(new Uint8Array(row.s ?? new Uint8Array())).toEqual(n ? encode(r) : new Uint8Array());
  }
});

test('mergeStored gives the bytes of encode(merge()): sparse, turning dense, dense, empty (the attribution blocks)', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 7000 }),
      fc.integer({ min: 0, max: 7000 }),
      fc.integer({ min: 0, max: 5000 }),
      (n, k, shift) => {
        const a = emptyRegisters();
        const b = emptyRegisters();
        for (let i = 0; i < n; i++) add(a, hash64(`m-${i}`));
        for (let i = 0; i < k; i++) add(b, hash64(`m-${i + shift}`));
        const [x, y] = [encode(a), encode(b)];
        expect(Buffer.from(mergeStored(x, y))).toEqual(Buffer.from(encode(merge([x, y]))));
        expect(Buffer.from(mergeStored(y, undefined))).toEqual(Buffer.from(y));
      },
    ),
    { numRuns: 25 },
  );
  // Triples out of index order (not as stored) are merged all the same.
  const unsorted = Uint8Array.from([0, 9, 3, 0, 2, 5]);
  expect(Buffer.from(mergeStored(unsorted, Uint8Array.from([0, 2, 7])))).toEqual(
    Buffer.from(Uint8Array.from([0, 2, 7, 0, 9, 3])),
  );
  expect(mergeStored(undefined, null).length).toBe(0);
  expect(mergeStored(undefined, encode(emptyRegisters())).length).toBe(0);
  expect(M).toBe(16_384);
});
