import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { expect, test } from 'vitest';
import { loadConfig } from '../../server/config';
import { migrate, migrations, rowsOf } from '../../server/db/migrate';
import { ensureFirstAdmin } from '../../server/modules/operators';
import { openPostgres } from '../../server/node/postgres';
import { freshDatabase, onPostgres } from './harness';

/** Issue #2 §2: migrations are applied at start; starting twice is harmless; two instances at once do not race. */

/** The core's tables; sections add their own, so the checks below ask for these at least. */
const CORE_TABLES = ['_migrations', 'login_failures', 'operators', 'sessions', 'system_settings'];

async function tables(db: Parameters<typeof migrate>[0]) {
  const r = await db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
  );
  return rowsOf<{ table_name: string }>(r)
    .map((row) => row.table_name)
    .sort();
}

test('migrate() applies every migration once; a second run returns [] and keeps the data', async () => {
  const database = await freshDatabase();
  try {
    const first = await migrate(database.db);
    expect(first).toEqual(migrations.map((m) => m.name));
    expect(first.length).toBeGreaterThan(0);
    expect(await tables(database.db)).toEqual(expect.arrayContaining(CORE_TABLES));
    // First start without ADMIN_PASSWORD: a random password, reported once.
    const created = await ensureFirstAdmin(database.db, loadConfig({ PASSWORD_ITERATIONS: '1000' }));
    expect(created).toMatchObject({ account: 'admin', generated: true });
    expect(created!.password).toMatch(/^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9]{16}$/);

    expect(await migrate(database.db)).toEqual([]);
    expect(await migrate(database.db)).toEqual([]);
    // The first admin is created once, whatever the number of starts (and ADMIN_PASSWORD changes nothing later).
    const config = loadConfig({ ADMIN_PASSWORD: 'admin-pass-1', PASSWORD_ITERATIONS: '1000' });
    expect(await ensureFirstAdmin(database.db, config)).toBeNull();
    const ops = rowsOf<{ account: string }>(await database.db.execute(sql`select account from operators`));
    expect(ops.map((o) => o.account)).toEqual(['admin']);
    const applied = rowsOf<{ name: string }>(await database.db.execute(sql`select name from _migrations`));
    expect(applied.map((a) => a.name)).toEqual(migrations.map((m) => m.name));
  } finally {
    await database.close();
  }
});

test('migrate() on a database at the newest migration runs one read: no transaction, no lock, no DDL', async () => {
  const database = await freshDatabase();
  try {
    await migrate(database.db);
    const calls: string[] = [];
    // Every statement migrate() sends goes through execute() or transaction(): record both.
    const watched = new Proxy(database.db, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (key === 'transaction')
          return (...args: unknown[]) => {
            calls.push('transaction');
            return value.apply(target, args);
          };
        if (key === 'execute')
          return (query: Parameters<typeof target.execute>[0]) => {
            calls.push(new PgDialect().sqlToQuery(query as never).sql);
            return value.call(target, query);
          };
        return value;
      },
    });
    expect(await migrate(watched)).toEqual([]);
    expect(calls).toEqual(['select name from _migrations']);
  } finally {
    await database.close();
  }
});

test.skipIf(!onPostgres)(
  'PostgreSQL: two instances migrating a fresh database at once both succeed, the schema is applied once',
  async () => {
    const database = await freshDatabase();
    const a = await openPostgres(database.url!, 2);
    const b = await openPostgres(database.url!, 2);
    try {
      const config = loadConfig({ ADMIN_PASSWORD: 'admin-pass-1', PASSWORD_ITERATIONS: '1000' });
      const start = async (db: typeof a.db) => {
        const applied = await migrate(db);
        const admin = await ensureFirstAdmin(db, config);
        return { applied, admin };
      };
      const [ra, rb] = await Promise.all([start(a.db), start(b.db)]);
      // Exactly one of them applied the migrations; the other found them done.
      const appliedLists = [ra.applied, rb.applied].sort((x, y) => y.length - x.length);
      expect(appliedLists).toEqual([migrations.map((m) => m.name), []]);
      // Exactly one first admin.
      expect([ra.admin, rb.admin].filter(Boolean)).toHaveLength(1);
      expect(await tables(database.db)).toEqual(expect.arrayContaining(CORE_TABLES));
      const applied = rowsOf<{ name: string }>(await database.db.execute(sql`select name from _migrations`));
      expect(applied.map((r) => r.name)).toEqual(migrations.map((m) => m.name));
      const admins = rowsOf<{ n: string }>(
        await database.db.execute(sql`select count(*) as n from operators`),
      );
      expect(Number(admins[0].n)).toBe(1);
      // And a third start is still harmless.
      expect(await migrate(a.db)).toEqual([]);
    } finally {
      await a.close();
      await b.close();
      await database.close();
    }
  },
);

test.skipIf(!onPostgres)('PostgreSQL: eight instances starting at once on a fresh database', async () => {
  const database = await freshDatabase();
  const pools = await Promise.all(Array.from({ length: 8 }, () => openPostgres(database.url!, 1)));
  try {
    const results = await Promise.all(pools.map((p) => migrate(p.db)));
    expect(results.filter((r) => r.length > 0)).toHaveLength(1);
    expect(await tables(database.db)).toEqual(expect.arrayContaining(CORE_TABLES));
  } finally {
    await Promise.all(pools.map((p) => p.close()));
    await database.close();
  }
});
