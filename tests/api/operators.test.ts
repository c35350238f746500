import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startApi, type TestApi, USER_PASSWORD } from './harness';

/** DESIGN.md §6 on the operators resource: list filters, sorts and page sizes allow-listed, locking, batch. */
let api: TestApi;
let admin: string;
const ids: Record<string, number> = {};

const get = (path: string) => api.call('GET', path, { token: admin });
const list = async (query: string) => {
  const r = await get(`/app/admin/operators${query}`);
  expect(r.body.code, `${query} → ${JSON.stringify(r.body)}`).toBe(20000);
  return r.body.data as { list: any[]; total: number };
};
const accounts = (page: { list: any[] }) => page.list.map((o) => o.account);

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  const people: [string, 'user' | 'admin', string][] = [
    ['alice', 'admin', '爱丽丝'],
    ['bob', 'user', 'Bobby'],
    ['carol', 'user', '卡罗尔'],
    ['dave', 'user', 'Dave_100%'],
    ['erin', 'admin', 'Erin'],
  ];
  for (const [account, role, nickname] of people) {
    api.clock.advance(60_000);
    ids[account] = await api.createOperator(admin, { account, role, nickname });
  }
  await api.call('POST', `/app/admin/operators/${ids.dave}/disable`, { token: admin });
});
afterAll(() => api.close());

describe('list', () => {
  test('page shape, total, default order by id, no password hash', async () => {
    const page = await list('');
    expect(page.total).toBe(6);
    expect(accounts(page)).toEqual(['admin', 'alice', 'bob', 'carol', 'dave', 'erin']);
    for (const o of page.list) {
      expect(Object.keys(o).sort()).toEqual(
        [
          'account',
          'avatar',
          'createdAt',
          'disabled',
          'id',
          'lastLoginAt',
          'nickname',
          'role',
          'updatedAt',
          'version',
        ].sort(),
      );
    }
    expect(JSON.stringify(page)).not.toMatch(/pbkdf2|passwordHash/);
  });

  test('filters: q (account or nickname, case-insensitive, wildcards literal), role, disabled', async () => {
    expect(accounts(await list('?q=BOB'))).toEqual(['bob']);
    expect(accounts(await list(`?q=${encodeURIComponent('卡罗')}`))).toEqual(['carol']);
    expect(accounts(await list('?q=%25'))).toEqual(['dave']); // "%" is a literal, not a wildcard
    expect(accounts(await list('?q=_'))).toEqual(['dave']); // so is "_"
    expect(accounts(await list('?q=zzz'))).toEqual([]);
    expect(accounts(await list('?role=admin'))).toEqual(['admin', 'alice', 'erin']);
    expect(accounts(await list('?role=user'))).toEqual(['bob', 'carol', 'dave']);
    expect(accounts(await list('?disabled=true'))).toEqual(['dave']);
    expect((await list('?disabled=false')).total).toBe(5);
    const both = await list('?role=user&disabled=false&q=o');
    expect(accounts(both)).toEqual(['bob', 'carol']);
    expect(both.total).toBe(2);
    // Roles are data since issue #52: a role no one holds (or none by that name) lists nobody.
    expect(accounts(await list('?role=root'))).toEqual([]);
    for (const bad of [`?role=${'r'.repeat(33)}`, '?disabled=yes', `?q=${'x'.repeat(65)}`]) {
      const r = await get(`/app/admin/operators${bad}`);
      expect(r.body.code, bad).toBe(40000);
    }
  });

  test('sorting is allow-listed; unknown sort or order is 40000 naming the field', async () => {
    expect(accounts(await list('?sort=account&order=desc'))).toEqual([
      'erin',
      'dave',
      'carol',
      'bob',
      'alice',
      'admin',
    ]);
    // (The bootstrapped admin was created by the database's clock, not the test's: leave it out.)
    expect(accounts(await list('?role=user&sort=createdAt&order=desc'))).toEqual(['dave', 'carol', 'bob']);
    expect(accounts(await list('?role=user&sort=createdAt&order=asc'))).toEqual(['bob', 'carol', 'dave']);
    expect((await list('?sort=id&order=asc')).list[0].account).toBe('admin');
    expect((await list('?sort=lastLoginAt')).total).toBe(6);
    for (const [query, field] of [
      ['?sort=password_hash', 'sort'],
      ['?sort=nickname;drop table operators', 'sort'],
      ['?sort=id&order=sideways', 'order'],
    ]) {
      const r = await get(`/app/admin/operators${query}`);
      expect(r.body.code, query).toBe(40000);
      expect(Object.keys(r.body.data.fields)).toEqual([field]);
    }
  });

  test('page sizes are allow-listed (10, 20, 50, 100); pages are disjoint', async () => {
    for (const size of [10, 20, 50, 100]) expect((await list(`?pageSize=${size}`)).list.length).toBe(6);
    for (const size of ['0', '5', '15', '1000', '-1', 'abc']) {
      const r = await get(`/app/admin/operators?pageSize=${size}`);
      expect(r.body.code, size).toBe(40000);
      expect(r.body.data.fields).toHaveProperty('pageSize');
    }
    for (const page of ['0', '-1', 'x'])
      expect((await get(`/app/admin/operators?page=${page}`)).body.code).toBe(40000);
    // 6 rows, pageSize 10: page 2 is empty but the total stands.
    const p2 = await list('?page=2&pageSize=10');
    expect(p2).toEqual({ list: [], total: 6, totalExact: true });
  });

  test('ids= is getMany: exactly those rows, whatever the page size', async () => {
    const page = await list(`?ids=${ids.carol},${ids.alice},99999`);
    expect(accounts(page)).toEqual(['alice', 'carol']);
    expect(page.total).toBe(2);
    const many = Array.from({ length: 30 }, (_, i) => i + 1).join(',');
    expect((await list(`?ids=${many}&pageSize=10`)).list.length).toBe(6);
    for (const bad of ['a,b', '1,,2', '', '1;2'])
      expect((await get(`/app/admin/operators?ids=${bad}`)).body.code, bad).toBe(40000);
  });

  test('get one; 40400 for a missing id, 40000 for a malformed one', async () => {
    const r = await get(`/app/admin/operators/${ids.bob}`);
    expect(r.body.data).toMatchObject({
      id: ids.bob,
      account: 'bob',
      nickname: 'Bobby',
      role: 'user',
      version: 1,
    });
    expect((await get('/app/admin/operators/99999')).body.code).toBe(40400);
    for (const bad of ['0', 'abc', '1.5', '-3', '99999999999'])
      expect((await get(`/app/admin/operators/${bad}`)).body.code, bad).toBe(40000);
  });
});

describe('names', () => {
  test('any operator reads the names of operators by id (nickname, else account), deleted ones too', async () => {
    const user = await api.login('bob', 'user-pass-1');
    const r = await api.call('GET', `/app/admin/operators/names?ids=${ids.alice},${ids.dave},999999`, {
      token: user,
    });
    expect(r.body.code).toBe(20000);
    expect(r.body.data.list.sort((a: any, b: any) => a.id - b.id)).toEqual([
      { id: ids.alice, name: '爱丽丝' },
      { id: ids.dave, name: 'Dave_100%' },
    ]);
    expect(Object.keys(r.body.data.list[0])).toEqual(['id', 'name']); // nothing else of an account
    for (const bad of ['', '?ids=x', '?ids=1&role=admin'])
      expect((await api.call('GET', `/app/admin/operators/names${bad}`, { token: user })).body.code).toBe(
        40000,
      );
  });
});

describe('create', () => {
  test('creates with defaults; the new operator can log in', async () => {
    const r = await api.call('POST', '/app/admin/operators', {
      token: admin,
      body: { account: 'frank', password: 'frank-pass-1', role: 'user' },
    });
    expect(r.body.code).toBe(20000);
    expect(r.body.data).toMatchObject({
      account: 'frank',
      nickname: 'frank',
      avatar: '',
      role: 'user',
      disabled: false,
      version: 1,
    });
    expect(r.body.data.createdAt).toBe(api.clock.now().toISOString());
    expect(await api.login('frank', 'frank-pass-1')).toBeTruthy();
  });

  test('a duplicate account is 40900 naming the field', async () => {
    const r = await api.call('POST', '/app/admin/operators', {
      token: admin,
      body: { account: 'bob', password: 'other-pass-1', role: 'admin' },
    });
    expect(r.body.code).toBe(40900);
    expect(r.body.data.fields).toHaveProperty('account');
    expect((await get(`/app/admin/operators/${ids.bob}`)).body.data.role).toBe('user');
  });

  test('a weak password is 40000 with fields.password', async () => {
    for (const password of ['short1', 'onlyletters', '1234567890', '']) {
      const r = await api.call('POST', '/app/admin/operators', {
        token: admin,
        body: { account: 'weakling', password, role: 'user' },
        headers: { 'Accept-Language': 'en-US' },
      });
      expect(r.body.code, password).toBe(40000);
      expect(Object.keys(r.body.data.fields), password).toEqual(['password']);
    }
    const r = await api.call('POST', '/app/admin/operators', {
      token: admin,
      body: { account: 'weakling', password: 'short1', role: 'user' },
      headers: { 'Accept-Language': 'en-US' },
    });
    expect(r.body.data.fields.password).toMatch(/8 characters/);
    expect((await list('?q=weakling')).total).toBe(0);
  });

  test('other invalid fields are named', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ account: 'ab', password: 'good-pass-1', role: 'user' }, 'account'],
      [{ account: 'has space', password: 'good-pass-1', role: 'user' }, 'account'],
      [{ account: 'okname', password: 'good-pass-1', role: 'root' }, 'role'],
      [{ account: 'okname', password: 'good-pass-1' }, 'role'],
      [{ account: 'okname', password: 'good-pass-1', role: 'user', nickname: 'n'.repeat(65) }, 'nickname'],
    ];
    for (const [body, field] of cases) {
      const r = await api.call('POST', '/app/admin/operators', { token: admin, body });
      expect(r.body.code, JSON.stringify(body)).toBe(40000);
      expect(r.body.data.fields, JSON.stringify(body)).toHaveProperty(field);
    }
  });
});

describe('update', () => {
  test('an update with the current version applies and bumps it; a stale version is 40900 and changes nothing', async () => {
    const id = ids.carol;
    api.clock.advance(1000);
    const r = await api.call('PUT', `/app/admin/operators/${id}`, {
      token: admin,
      body: { nickname: '卡罗尔二世', avatar: 'https://img.example/c.png', version: 1 },
    });
    expect(r.body.code).toBe(20000);
    expect(r.body.data).toMatchObject({
      nickname: '卡罗尔二世',
      avatar: 'https://img.example/c.png',
      version: 2,
    });
    expect(r.body.data.updatedAt).toBe(api.clock.now().toISOString());

    const stale = await api.call('PUT', `/app/admin/operators/${id}`, {
      token: admin,
      body: { nickname: 'overwritten', role: 'admin', version: 1 },
    });
    expect(stale.body.code).toBe(40900);
    const now = (await get(`/app/admin/operators/${id}`)).body.data;
    expect(now).toMatchObject({ nickname: '卡罗尔二世', role: 'user', version: 2 });

    const next = await api.call('PUT', `/app/admin/operators/${id}`, {
      token: admin,
      body: { role: 'admin', version: 2 },
    });
    expect(next.body.data).toMatchObject({ role: 'admin', nickname: '卡罗尔二世', version: 3 });
    const future = await api.call('PUT', `/app/admin/operators/${id}`, {
      token: admin,
      body: { nickname: 'x', version: 99 },
    });
    expect(future.body.code).toBe(40900);
  });

  test('version is required; the account and password cannot be changed here', async () => {
    const r = await api.call('PUT', `/app/admin/operators/${ids.bob}`, {
      token: admin,
      body: { nickname: 'x' },
    });
    expect(r.body.code).toBe(40000);
    expect(r.body.data.fields).toHaveProperty('version');
    const sneaky = await api.call('PUT', `/app/admin/operators/${ids.bob}`, {
      token: admin,
      body: { account: 'robert', password: 'hijack-pass-1', passwordHash: 'x', version: 1 },
    });
    const row = (await get(`/app/admin/operators/${ids.bob}`)).body.data;
    expect(row.account).toBe('bob');
    if (sneaky.body.code === 20000) expect(row.version).toBe(2);
    expect(await api.login('bob', USER_PASSWORD)).toBeTruthy();
  });

  test('two concurrent updates with the same version: exactly one wins', async () => {
    const id = ids.erin;
    const [a, b] = await Promise.all([
      api.call('PUT', `/app/admin/operators/${id}`, { token: admin, body: { nickname: 'A', version: 1 } }),
      api.call('PUT', `/app/admin/operators/${id}`, { token: admin, body: { nickname: 'B', version: 1 } }),
    ]);
    expect([a.body.code, b.body.code].sort()).toEqual([20000, 40900]);
    const winner = a.body.code === 20000 ? 'A' : 'B';
    expect((await get(`/app/admin/operators/${id}`)).body.data).toMatchObject({
      nickname: winner,
      version: 2,
    });
  });
});

describe('self-protection', () => {
  test('an admin cannot disable, delete or demote itself (40000); nothing changes', async () => {
    const me = (await api.call('GET', '/app/admin/info', { token: admin })).body.data.uid;
    const before = (await get(`/app/admin/operators/${me}`)).body.data;
    const attempts: [string, string, unknown][] = [
      ['POST', `/app/admin/operators/${me}/disable`, undefined],
      ['DELETE', `/app/admin/operators/${me}`, undefined],
      ['PUT', `/app/admin/operators/${me}`, { role: 'user', version: before.version }],
      ['POST', '/app/admin/operators/batch', { action: 'disable', ids: [ids.bob, me] }],
      ['POST', '/app/admin/operators/batch', { action: 'delete', ids: [me] }],
    ];
    for (const [method, path, body] of attempts) {
      const r = await api.call(method, path, { token: admin, body });
      expect(r.body.code, `${method} ${path}`).toBe(40000);
    }
    expect((await get(`/app/admin/operators/${me}`)).body.data).toEqual(before);
    expect((await get(`/app/admin/operators/${ids.bob}`)).body.data.disabled).toBe(false);
    // What it may do to itself: edit its nickname, keep its role.
    const ok = await api.call('PUT', `/app/admin/operators/${me}`, {
      token: admin,
      body: { nickname: '大管理员', role: 'admin', version: before.version },
    });
    expect(ok.body.code).toBe(20000);
  });

  test('an admin can act on another admin', async () => {
    const r = await api.call('POST', `/app/admin/operators/${ids.alice}/disable`, { token: admin });
    expect(r.body.data).toMatchObject({ id: ids.alice, disabled: true });
    expect(
      (await api.call('POST', `/app/admin/operators/${ids.alice}/enable`, { token: admin })).body.data
        .disabled,
    ).toBe(false);
  });
});

describe('batch', () => {
  const state = async () =>
    JSON.stringify(await api.query(sql`select id, disabled, deleted_at, version from operators order by id`));

  test('enable and disable several in one go', async () => {
    const r = await api.call('POST', '/app/admin/operators/batch', {
      token: admin,
      body: { action: 'disable', ids: [ids.bob, ids.carol] },
    });
    expect(r.body.code).toBe(20000);
    expect((await list('?disabled=true')).list.map((o: any) => o.account)).toEqual(
      expect.arrayContaining(['bob', 'dave']),
    );
    const back = await api.call('POST', '/app/admin/operators/batch', {
      token: admin,
      body: { action: 'enable', ids: [ids.bob, ids.dave] },
    });
    expect(back.body.code).toBe(20000);
    expect(back.body.data.changed).toBe(2);
  });

  test('a batch containing one missing id changes nothing and answers 40400', async () => {
    for (const action of ['disable', 'delete', 'enable']) {
      const before = await state();
      const r = await api.call('POST', '/app/admin/operators/batch', {
        token: admin,
        body: { action, ids: [ids.bob, ids.carol, 99999] },
      });
      expect(r.body.code, action).toBe(40400);
      expect(await state(), action).toBe(before);
    }
  });

  test('invalid batches are 40000', async () => {
    for (const body of [
      { action: 'explode', ids: [ids.bob] },
      { action: 'delete', ids: [] },
      { action: 'delete', ids: ['1'] },
      { action: 'delete', ids: [1.5] },
      { action: 'delete' },
      { action: 'delete', ids: Array.from({ length: 1001 }, (_, i) => i + 1) },
    ]) {
      const r = await api.call('POST', '/app/admin/operators/batch', { token: admin, body });
      expect(r.body.code, JSON.stringify(body).slice(0, 60)).toBe(40000);
    }
  });
});

describe('delete', () => {
  test('deleted operators disappear from lists and get; their account can be reused', async () => {
    const id = await api.createOperator(admin, { account: 'gone1', nickname: 'Old Gone' });
    const r = await api.call('DELETE', `/app/admin/operators/${id}`, { token: admin });
    expect(r.body.code).toBe(20000);
    expect(accounts(await list('?q=gone1'))).toEqual([]);
    expect((await list(`?ids=${id}`)).total).toBe(0);
    expect((await get(`/app/admin/operators/${id}`)).body.code).toBe(40400);
    expect((await api.call('DELETE', `/app/admin/operators/${id}`, { token: admin })).body.code).toBe(40400);
    expect((await api.call('POST', `/app/admin/operators/${id}/enable`, { token: admin })).body.code).toBe(
      40400,
    );
    expect(
      (
        await api.call('PUT', `/app/admin/operators/${id}`, {
          token: admin,
          body: { nickname: 'x', version: 1 },
        })
      ).body.code,
    ).toBe(40400);

    const reused = await api.call('POST', '/app/admin/operators', {
      token: admin,
      body: { account: 'gone1', password: 'fresh-pass-1', role: 'user', nickname: 'New Gone' },
    });
    expect(reused.body.code).toBe(20000);
    expect(reused.body.data.id).not.toBe(id);
    const found = await list('?q=gone1');
    expect(found.list).toHaveLength(1);
    expect(found.list[0]).toMatchObject({ nickname: 'New Gone' });
    expect(await api.login('gone1', 'fresh-pass-1')).toBeTruthy();
    expect(
      (await api.call('POST', '/app/admin/login', { body: { username: 'gone1', password: USER_PASSWORD } }))
        .body.code,
    ).toBe(40100);
  });

  test('batch delete', async () => {
    const a = await api.createOperator(admin, { account: 'bd1' });
    const b = await api.createOperator(admin, { account: 'bd2' });
    const r = await api.call('POST', '/app/admin/operators/batch', {
      token: admin,
      body: { action: 'delete', ids: [a, b] },
    });
    expect(r.body).toMatchObject({ code: 20000, data: { changed: 2 } });
    expect((await list(`?ids=${a},${b}`)).total).toBe(0);
  });
});
