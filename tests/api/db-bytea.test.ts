import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { byteaFromText, byteaToText } from '../../server/db/bytea';
import { rowsOf } from '../../server/db/migrate';
import type { Database } from '../../server/db/types';
import { freshDatabase } from './harness';

/** bytea values read and written through the database (PGlite with bytea.ts's parser and serializer) come back whole. */
let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database?.close());

const none = () => {
  throw new Error('fallback');
};

test('text and bytes convert both ways, any case of hex digit', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
      const text = byteaToText(bytes);
      expect(text).toBe(`\\x${Buffer.from(bytes).toString('hex')}`);
      expect([...byteaFromText(text, none)]).toEqual([...bytes]);
      expect([...byteaFromText(text.toUpperCase().replace('\\X', '\\x'), none)]).toEqual([...bytes]);
    }),
  );
});

test('text that is not hex goes to the fallback', () => {
  const fallback = () => new Uint8Array([7]);
  for (const text of ['abc', '\\x0', '\\x0g', '\\xé0', '\\\\000'])
    expect([...byteaFromText(text, fallback)]).toEqual([7]);
  expect([...byteaFromText('\\x', none)]).toEqual([]);
});

test('a sketch-sized value and every byte value make the trip through the database', async () => {
  const bytes = new Uint8Array(16_384 + 256);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 131 + (i >> 8)) & 255;
  for (let i = 0; i < 256; i++) bytes[16_384 + i] = i;
  const [row] = rowsOf<{ back: Uint8Array; hex: string; n: number }>(
    await database.db.execute(
      sql`select ${bytes}::bytea as back, encode(${bytes}::bytea, 'hex') as hex, length(${bytes}::bytea) as n`,
    ),
  );
  expect(Number(row.n)).toBe(bytes.length);
  expect(row.hex).toBe(Buffer.from(bytes).toString('hex'));
  expect(Buffer.from(row.back).equals(Buffer.from(bytes))).toBe(true);
  const [empty] = rowsOf<{ v: Uint8Array }>(await database.db.execute(sql`select ''::bytea as v`));
  expect(empty.v.length).toBe(0);
});
