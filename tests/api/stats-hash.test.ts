import { hash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { rowsOf } from '../../server/db/migrate';
import type { Database } from '../../server/db/types';
import { ingest } from '../../server/modules/statistics/ingest';
import { hexRegister } from '../../server/modules/statistics/sketch';
import { freshDatabase } from './harness';

/**
 * Issue #12: the server hashes visitors and addresses itself (`md5`, Node's `crypto.hash`), where demo mode and a
 * caller without it leave it to SQL (`zg_hash64`, `zg_hll_reg`): both must store the same hash and register, or a
 * visitor would count twice across the two (first-seen days, sketches, attribution).
 */
let database: Database;
beforeAll(async () => {
  database = await freshDatabase({ migrated: true });
});
afterAll(() => database?.close());

const md5 = (text: string) => hash('md5', text);

describe('hashing in JavaScript', () => {
  test('md5 and hexRegister are zg_hash64 and zg_hll_reg, for any text', async () => {
    const texts = fc.sample(
      fc.oneof(
        fc.string(),
        fc.string({ unit: 'grapheme' }),
        fc.constantFrom('', 'v1', '1.2.3.4', '::1', '访客'),
      ),
      300,
    );
    // Ranks past the high word's 18 bits (an index alone in it) are rare at random: texts chosen to reach them.
    for (let i = 0; texts.length < 400 && i < 2_000_000; i++) {
      const h = md5(`r${i}`);
      if ((Number.parseInt(h.slice(0, 8), 16) & 0x3ffff) === 0) texts.push(`r${i}`);
    }
    const rows = rowsOf<{ t: string; h: string; r: number }>(
      await database.db.execute(sql`select t, zg_hash64(t)::text as h, zg_hll_reg(zg_hash64(t)) as r
        from unnest(${sql.param(texts)}::text[]) as t`),
    );
    expect(rows.length).toBe(texts.length);
    for (const row of rows) {
      const hex = md5(row.t);
      expect({
        t: row.t,
        h: BigInt.asIntN(64, BigInt(`0x${hex.slice(0, 16)}`)).toString(),
        r: hexRegister(hex),
      }).toEqual({
        t: row.t,
        h: row.h,
        r: Number(row.r),
      });
    }
    expect(texts.length).toBeGreaterThan(300); // some of the rare ranks were found
  });

  test('events ingested with and without it are stored with the same hashes and registers', async () => {
    const now = new Date();
    const events = (prefix: string) =>
      Array.from({ length: 40 }, (_, i) => ({
        id: `${prefix}-hash-${i}`,
        type: 'pageview',
        time: new Date(now.getTime() - 60_000).toISOString(),
        domain: 'a.test',
        path: '/',
        visitor: `访客-${i % 7}`,
        ip: `10.0.${i % 3}.${i}`,
      }));
    const sqlSide = await ingest(database.db, 2, events('sql'), { now, clientAddress: '' });
    const jsSide = await ingest(database.db, 2, events('js'), { now, clientAddress: '', md5 });
    expect(sqlSide.accepted).toBe(40);
    expect(jsSide.accepted).toBe(40);
    const stored = rowsOf<{ id: string; v: string; vr: number; a: string; ar: number }>(
      await database.db.execute(sql`select id, visitor_hash::text as v, visitor_reg as vr, address_hash::text as a,
          address_reg as ar from stat_events where id like '%-hash-%' order by id`),
    );
    const by = (prefix: string) =>
      stored
        .filter((r) => r.id.startsWith(`${prefix}-`))
        .map((r) => ({ n: r.id.slice(prefix.length), v: r.v, vr: r.vr, a: r.a, ar: r.ar }));
    expect(by('js')).toEqual(by('sql'));
    expect(new Set(by('js').map((r) => r.v)).size).toBe(7);
  });

  test('a visitor that comes again is not hashed again, nor an address past its second event', async () => {
    const hashed: string[] = [];
    const counting = (text: string) => {
      hashed.push(text);
      return md5(text);
    };
    const now = new Date();
    const batch = (n: number) =>
      Array.from({ length: 6 }, (_, i) => ({
        id: `again-${n}-${i}`,
        type: 'pageview',
        time: new Date(now.getTime() - 60_000).toISOString(),
        domain: 'a.test',
        path: '/',
        visitor: `again-v${i % 2}`,
        ip: `10.9.0.${i % 3}`,
      }));
    for (const n of [1, 2])
      expect(
        (await ingest(database.db, 2, batch(n), { now, clientAddress: '', md5: counting })).accepted,
      ).toBe(6);
    // A visitor once; an address at its first event and its second, from which it is kept (most addresses of some
    // networks come once: ingest.ts addressesOf).
    expect(hashed.sort()).toEqual([
      '10.9.0.0',
      '10.9.0.0',
      '10.9.0.1',
      '10.9.0.1',
      '10.9.0.2',
      '10.9.0.2',
      'again-v0',
      'again-v1',
    ]);
    const stored = rowsOf<{ v: string; a: string }>(
      await database.db.execute(sql`select distinct visitor_hash::text as v, address_hash::text as a
        from stat_events where id like 'again-%'`),
    );
    // each visitor with each of its addresses, hashed as SQL hashes them
    const [{ n }] = rowsOf<{ n: number }>(
      await database.db.execute(sql`select count(*)::int as n from stat_events
        where id like 'again-%' and visitor_hash = zg_hash64(visitor) and address_hash = zg_hash64(address)`),
    );
    expect([stored.length, Number(n)]).toEqual([6, 12]);
  });
});
