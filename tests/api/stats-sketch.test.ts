import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrate, rowsOf } from '../../server/db/migrate';
import type { Database } from '../../server/db/types';
import {
  add,
  decodeInto,
  emptyRegisters,
  encode,
  estimate,
  estimateFramed,
  estimateStored,
  M,
  merge,
  mergeStored,
  registerOf,
  SketchArena,
  storedSketch,
  toHex,
  Union,
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
  // A fixed amount of work (1.26 million hashes): the limit only guards against a hang, on a busy machine too.
}, 180_000);

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
      fc.integer({ min: 0, max: 9000 }),
      fc.integer({ min: 0, max: 9000 }),
      fc.integer({ min: 0, max: 5000 }),
      (n, k, shift) => {
        const a = emptyRegisters();
        const b = emptyRegisters();
        for (let i = 0; i < n; i++) add(a, hash64(`m-${i}`));
        for (let i = 0; i < k; i++) add(b, hash64(`m-${i + shift}`));
        const [x, y] = [encode(a), encode(b)];
        expect(Buffer.from(mergeStored(x, y))).toEqual(Buffer.from(encode(merge([x, y]))));
        expect(Buffer.from(mergeStored(y, undefined))).toEqual(Buffer.from(encode(b)));
      },
    ),
    { numRuns: 25 },
  );
  // Triples out of index order (not as stored) are merged all the same.
  const unsorted = Uint8Array.from([0, 9, 3, 0, 2, 5]);
  const want = emptyRegisters();
  want[2] = 7;
  want[9] = 3;
  expect(Buffer.from(mergeStored(unsorted, Uint8Array.from([0, 2, 7])))).toEqual(Buffer.from(encode(want)));
  expect(mergeStored(undefined, null).length).toBe(0);
  expect(mergeStored(undefined, encode(emptyRegisters())).length).toBe(0);
  expect(M).toBe(16_384);
});

test("every reader takes every form: merge, estimate over a mix, a bytea's hex text", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 3000 }), fc.constantFrom('sparse', 'dense')), {
        minLength: 1,
        maxLength: 6,
      }),
      (parts) => {
        const stored = parts.map(([n, form], j) => {
          const r = emptyRegisters();
          for (let i = 0; i < n; i++) add(r, hash64(`x-${j}-${i % 2000}`));
          return form === 'sparse' ? encode(r) : r.slice();
        });
        const union = emptyRegisters();
        for (const s of stored) {
          const one = merge([s]);
          for (let i = 0; i < M; i++) union[i] = Math.max(union[i], one[i]);
        }
        expect(merge(stored)).toEqual(union);
        expect(estimateStored(stored)).toBe(estimate(union));
        const text = stored.map((s) => storedSketch(`\\x${Buffer.from(s).toString('hex')}`));
        expect(estimateStored(text)).toBe(estimate(union));
        // Framed as the reports' SQL sends a group's sketches (`int4send(length(s)) || s`, concatenated).
        const framed = Buffer.concat(
          stored.flatMap((s) => {
            const length = Buffer.alloc(4);
            length.writeUInt32BE(s.length);
            return [length, Buffer.from(s)];
          }),
        );
        expect(new Union().addFramed(framed).estimate()).toBe(estimate(union));
        expect(estimateFramed(framed)).toBe(estimate(union));
      },
    ),
    { numRuns: 20 },
  );
  expect(storedSketch('')).toBeNull();
  expect(storedSketch(null)).toBeNull();
  expect(Buffer.from(storedSketch('\\x000102') ?? [])).toEqual(Buffer.from([0, 1, 2]));
  expect(storedSketch('AAEC')).toBeNull(); // not a bytea's text
});

test('a union estimates what merge() does, kept and estimated again with more sketches, in every form', () => {
  const union = new Union();
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 7000 }), fc.constantFrom('sparse', 'dense')), {
        minLength: 1,
        maxLength: 6,
      }),
      fc.integer({ min: 0, max: 5 }),
      (parts, cut) => {
        const stored = parts.map(([n, form], j) => {
          const r = emptyRegisters();
          for (let i = 0; i < n; i++) add(r, hash64(`u-${j}-${i % 4000}`));
          return form === 'sparse' ? encode(r) : r.slice();
        });
        const whole = estimate(merge(stored));
        for (const s of stored) union.add(s);
        expect(union.estimate()).toBe(whole);
        // The same union once more (estimate() left it empty), from one arena the sketches' bytes were read into, as
        // a binary COPY's rows give them; it grows past its first size.
        const arena = new SketchArena();
        const at = stored.map((s) => {
          const start = arena.put(s);
          return [start, arena.length];
        });
        for (const [start, end] of at) union.add(arena.bytes, start, end);
        expect(union.estimate()).toBe(whole);
        // Kept after the first `cut` sketches, the rest added later (the agents' older days, then the last ones).
        for (const s of stored.slice(0, cut)) union.add(s);
        const kept = union.merged();
        expect(kept.counts.reduce((a, b) => a + b, 0)).toBe(M);
        // Each run of 64 register indexes starts where the indexes below it end.
        for (let b = 0; b < kept.starts.length; b++)
          expect(kept.starts[b]).toBe(kept.indexes.filter((i) => i < 64 * b).length);
        for (const s of stored.slice(cut)) union.add(s);
        expect(union.estimateWith(kept)).toBe(whole);
        expect(union.estimateWith(kept)).toBe(estimate(merge(stored.slice(0, cut))));
        expect(union.estimateWith(undefined)).toBe(0);
      },
    ),
    { numRuns: 40 },
  );
});

/** Sketches framed as the reports' SQL sends a group's (`int4send(length(s)) || s`, concatenated). */
const framed = (sketches: Uint8Array[]) => {
  const out = new Uint8Array(sketches.reduce((n, s) => n + 4 + s.length, 0));
  let o = 0;
  for (const s of sketches) {
    new DataView(out.buffer).setUint32(o, s.length);
    out.set(s, o + 4);
    o += 4 + s.length;
  }
  return out;
};

test('a union kept full (a third of its registers set or more) estimates what merge() does, whatever is added after', () => {
  // Registers drawn directly (hashing tens of thousands of values per case would be slow): `fill` of them set.
  const drawn = (seed: number, fill: number) => {
    let x = seed || 1;
    const next = () => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return (x >>> 0) / 2 ** 32;
    };
    const r = emptyRegisters();
    for (let i = 0; i < M; i++) if (next() < fill) r[i] = 1 + Math.floor(next() * 12);
    return r;
  };
  const union = new Union();
  fc.assert(
    fc.property(
      fc.array(
        fc.tuple(
          fc.integer({ min: 1, max: 2 ** 31 }),
          fc.constantFrom(0.002, 0.05, 0.4, 0.9),
          fc.constantFrom('sparse', 'dense'),
        ),
        { minLength: 2, maxLength: 5 },
      ),
      fc.integer({ min: 1, max: 4 }),
      (parts, cut) => {
        const regs = parts.map(([seed, fill]) => drawn(seed, fill));
        const stored = regs.map((r, j) => {
          const form = parts[j][2];
          return form === 'sparse' ? encode(r) : r.slice();
        });
        const head = stored.slice(0, cut);
        const whole = estimate(merge(stored));
        for (const s of head) union.add(s);
        const kept = union.merged();
        const set = M - kept.counts[0];
        // Full when a third or more of the registers are set; its histogram either way.
        expect(kept.dense !== undefined).toBe(set * 3 >= M);
        expect(kept.counts.reduce((a, b) => a + b, 0)).toBe(M);
        if (kept.dense) expect(kept.dense).toEqual(merge(head));
        for (const s of stored.slice(cut)) union.add(s);
        expect(union.estimateWith(kept)).toBe(whole);
        // The rest as one framed value (as the reports' SQL sends them) over the kept union: one full sketch alone
        // over a full union is counted in one pass (`estimateFramedWith`), anything else added first.
        expect(union.estimateFramedWith(framed(stored.slice(cut)), kept)).toBe(whole);
        const last = stored[stored.length - 1];
        expect(union.estimateFramedWith(framed([last]), kept)).toBe(estimate(merge([...head, last])));
        // Kept again with a framed value folded in (a late day over the older days'): the same union, kept; nothing
        // folded in keeps the same sketch.
        const again = union.mergedWithFramed(framed([last]), kept);
        const both = merge([...head, last]);
        if (kept.dense) expect(again.dense).toEqual(both);
        expect([...again.counts]).toEqual(
          Array.from(again.counts, (_, k) => both.reduce((n, r) => n + (r === k ? 1 : 0), 0)),
        );
        expect(union.estimateWith(again)).toBe(estimate(both));
        expect(union.mergedWithFramed(null, kept)).toBe(kept);
        // Folded into a union (with a sparse sketch first, then after a full one), then estimated.
        for (const s of stored.slice(cut)) union.add(s);
        expect(union.addMerged(kept).estimate()).toBe(whole);
        expect(union.estimateWith(kept)).toBe(estimate(merge(head)));
      },
    ),
    { numRuns: 60 },
  );
});

test("a bytea's hex text decodes the same with Node and with the plain loop of the browser", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
      const hex = `\\x${Buffer.from(bytes).toString('hex')}`;
      for (const plain of [true, false]) {
        const out = new Uint8Array(bytes.length + 4);
        const n = decodeInto(hex, out, plain);
        expect(out.subarray(0, n)).toEqual(bytes);
      }
    }),
    { numRuns: 200 },
  );
});

test('bytes encode to the same hex with Node and with the plain loop of the browser (the rollup writes sketches so)', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
      const want = Buffer.from(bytes).toString('hex');
      expect(toHex(bytes, true)).toBe(want);
      expect(toHex(bytes, false)).toBe(want);
      expect(toHex(bytes.subarray(1), true)).toBe(want.slice(2)); // a view into a larger buffer
    }),
    { numRuns: 200 },
  );
});

test('a framed value: none, empty sketches, and a last frame cut short are read without error', () => {
  expect(new Union().addFramed(null).estimate()).toBe(0);
  expect(new Union().addFramed(new Uint8Array(0)).estimate()).toBe(0);
  const r = emptyRegisters();
  for (let i = 0; i < 50; i++) add(r, hash64(`f-${i}`));
  const one = encode(r);
  const frame = (s: Uint8Array, length = s.length) => {
    const b = Buffer.alloc(4 + s.length);
    b.writeUInt32BE(length);
    b.set(s, 4);
    return b;
  };
  const empty = frame(new Uint8Array(0));
  expect(new Union().addFramed(Buffer.concat([empty, frame(one), empty])).estimate()).toBe(estimate(r));
  // A length past the end: what is there is read (whole entries only), nothing past it.
  const cut = frame(one, one.length + 100);
  expect(new Union().addFramed(cut).estimate()).toBe(estimate(r));
});
