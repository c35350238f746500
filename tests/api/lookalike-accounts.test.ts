import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrate, rowsOf } from '../../server/db/migrate';
import type { Database } from '../../server/db/types';
import { databaseBefore, startApi, type TestApi } from './harness';
import { siteDoor } from './site-door';

/**
 * Issue #48: look-alike accounts. Members (per tenant) and operators are unique under the fold of common/fold.ts;
 * migration 0140 builds the keys on a database that already holds look-alike duplicates without failing.
 */
let api: TestApi;
let admin: string;
beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
});
afterAll(() => api.close());

describe('members', () => {
  test('Alice01, alice01, alice\\u200b01 and ＡＤＭＩＮ-likes: the second spelling is refused on account', async () => {
    // A signup is the site's server's (signed): the browser key alone is refused (site-door.test.ts).
    const door = await siteDoor(api, admin);
    const signup = (account: string, locale = 'zh-CN') =>
      door.signed('/app/site/users', { account, address: '198.51.100.20' }, { 'Accept-Language': locale });
    expect((await signup('Alice01')).body.code).toBe(20000);
    for (const account of ['alice01', 'alice\u200b01', 'ＡＬＩＣＥ01', 'аlice01', 'Alice\u034F01']) {
      const r = await signup(account);
      expect(r.body.code, account).toBe(40900);
      expect(r.body.data.fields.account, account).toContain('Alice01');
      expect(r.body.data.fields.account, account).toContain('看起来相同');
    }
    const en = await signup('alice01', 'en-US');
    expect(en.body.data.fields.account).toContain('looks like the existing account Alice01');
    expect((await signup('Alice01')).body.data.fields.account).toContain('已被其他记录使用');
    expect((await signup('ADMIN')).body.code).toBe(20000);
    expect((await signup('ＡＤＭＩＮ')).body.code).toBe(40900);
    expect((await signup('alice02')).body.code).toBe(20000);
  });
});

describe('operators', () => {
  test('Admin beside admin is refused on account', async () => {
    const r = await api.call('POST', '/app/admin/operators', {
      token: admin,
      body: { account: 'Admin', password: 'pass-word-12', role: 'user' },
    });
    expect(r.body.code).toBe(40900);
    expect(r.body.data.fields.account).toContain('admin');
  });
});

describe('migration 0140 on a database with look-alike duplicates', () => {
  let db: Database;
  afterAll(() => db?.close());
  test('keeps every account, suffixes the later keys with #id, and builds the unique indexes', async () => {
    db = await databaseBefore('0140');
    await db.db.execute(sql`insert into site_users (tenant, account) values
      (2, 'Alice01'), (2, 'alice01'), (2, ${'alice\u200b01'}), (2, 'ＡＤＭＩＮ'), (2, 'admin'), (3, 'alice01')`);
    await db.db.execute(sql`insert into operators (account, password_hash, role) values
      ('boss', 'x', 'admin'), ('Boss', 'x', 'user')`);
    await migrate(db.db);
    const users = rowsOf<{ id: number; tenant: number; account: string; account_key: string }>(
      await db.db.execute(sql`select id, tenant, account, account_key from site_users order by id`),
    );
    expect(users.map((u) => [u.account, u.account_key.replace(/#\d+$/, '#')])).toEqual([
      ['Alice01', 'alice01'],
      ['alice01', 'alice01#'],
      ['alice\u200b01', 'alice01#'],
      ['ＡＤＭＩＮ', 'admin'],
      ['admin', 'admin#'],
      ['alice01', 'alice01'],
    ]);
    const ops = rowsOf<{ account: string; account_key: string }>(
      await db.db.execute(sql`select account, account_key from operators order by id`),
    );
    expect(ops.map((o) => o.account_key.replace(/#\d+$/, '#'))).toEqual(['boss', 'boss#']);
    await expect(
      db.db.execute(
        sql`insert into site_users (tenant, account, account_key) values (2, 'ALICE01', 'alice01')`,
      ),
    ).rejects.toThrow();
  });
});
