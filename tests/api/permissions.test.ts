import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { catalogOf } from '../../common/permissions';
import { createApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { manualClock } from '../../server/core/clock';
import { hashPassword } from '../../server/core/crypto';
import { memoryImageStorage } from '../../server/core/image-storage';
import { silentLogger } from '../../server/core/logger';
import { migrate, rowsOf } from '../../server/db/migrate';
import { modules } from '../../server/modules';
import { databaseBefore, startApi, type TestApi, USER_PASSWORD } from './harness';

/**
 * Issue #52: permissions finer than admin/user. Every mutating admin route of the OpenAPI document declares the
 * permission it needs (`x-permission`), and refuses (40300) an operator whose role lacks it while one whose role
 * holds it gets past the guard: walked from the document, so a route added later is covered.
 */

/** The session's own routes: every operator, whatever their role, may call them. */
const SESSION_ROUTES = new Set([
  'POST /app/admin/login',
  'POST /app/admin/logout',
  'POST /app/admin/password',
]);
const MUTATING = ['post', 'put', 'patch', 'delete'];
const catalog = catalogOf(modules.flatMap((m) => m.permissions ?? []));

let api: TestApi;
let admin: string;
let routes: { method: string; path: string; permission?: string }[];

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  const doc = (await api.call('GET', '/app/openapi.json')).body;
  routes = [];
  for (const [path, item] of Object.entries<any>(doc.paths))
    for (const method of ['get', ...MUTATING])
      if (item[method])
        routes.push({ method: method.toUpperCase(), path, permission: item[method]['x-permission'] });
});
afterAll(() => api.close());

/** Makes a custom role (answers its id and version). */
async function makeRole(name: string, permissions: string[]) {
  const r = await api.call('POST', '/app/admin/setting/roles', { token: admin, body: { name, permissions } });
  expect(r.body.code, JSON.stringify(r.body)).toBe(20000);
  return r.body.data as { id: number; version: number };
}

async function setPermissions(role: { id: number; version: number }, permissions: readonly string[]) {
  const r = await api.call('PUT', `/app/admin/setting/roles/${role.id}`, {
    token: admin,
    body: { permissions, version: role.version },
  });
  expect(r.body.code, JSON.stringify(r.body)).toBe(20000);
  role.version = r.body.data.version;
}

describe('the document says which permission each route needs', () => {
  test('every mutating admin route but the session ones declares a permission the sections declare', () => {
    const admins = routes.filter((r) => r.path.startsWith('/app/admin/'));
    expect(admins.length).toBeGreaterThan(100);
    const missing = admins
      .filter((r) => r.method !== 'GET' && !SESSION_ROUTES.has(`${r.method} ${r.path}`) && !r.permission)
      .map((r) => `${r.method} ${r.path}`);
    expect(missing, missing.join('\n')).toEqual([]);
    const unknown = routes.filter((r) => r.permission && !(catalog.all as string[]).includes(r.permission));
    expect(unknown.map((r) => `${r.method} ${r.path} ${r.permission}`)).toEqual([]);
  });

  test('the admin holds every declared permission, the built-in user those the sections give it', async () => {
    const me = (await api.call('GET', '/app/admin/info', { token: admin })).body.data;
    expect(me.permissions).toEqual([...catalog.all].sort());
    await api.createOperator(admin, { account: 'plain' });
    const user = await api.login('plain', USER_PASSWORD);
    const info = (await api.call('GET', '/app/admin/info', { token: user })).body.data;
    expect(info).toMatchObject({ role: 'user', permissions: [...catalog.user].sort() });
    expect(info.permissions).toContain('movie.review');
    expect(info.permissions).not.toContain('operators.settings');
  });
});

describe('every mutating route refuses an operator without its permission', () => {
  test('walked from the document: without it 40300, with it past the guard', async () => {
    const probe = await makeRole('probe', []);
    await api.createOperator(admin, { account: 'prober', role: 'probe' });
    const token = await api.login('prober', USER_PASSWORD);
    const walked: string[] = [];
    for (const { method, path, permission } of routes) {
      if (method === 'GET' || !permission || !path.startsWith('/app/admin/')) continue;
      // Ids no record has: with the permission the route answers 40400 or 40000, never a change.
      const url = path.replace(/\{id\}/g, '999999').replace(/\{module\}/g, 'comments');
      const body = {};
      await setPermissions(
        probe,
        catalog.all.filter((p) => p !== permission),
      );
      const without = await api.call(method, url, { token, body });
      expect(without.body.code, `${method} ${path} without ${permission}`).toBe(40300);
      await setPermissions(probe, [permission]);
      const withIt = await api.call(method, url, { token, body });
      expect(
        withIt.body.code,
        `${method} ${path} with ${permission}: ${JSON.stringify(withIt.body)}`,
      ).not.toBe(40300);
      walked.push(`${method} ${path}`);
    }
    expect(walked).toEqual(
      expect.arrayContaining([
        'POST /app/admin/movie/movies/{id}/approve',
        'PUT /app/admin/operators/{id}',
        'POST /app/admin/setting/roles',
        'DELETE /app/admin/domain/domains/{id}',
      ]),
    );
  });

  test('reads follow the read permission too', async () => {
    const role = await makeRole('reader-none', ['movie.read']);
    await api.createOperator(admin, { account: 'reader', role: 'reader-none' });
    const token = await api.login('reader', USER_PASSWORD);
    expect((await api.call('GET', '/app/admin/movie/movies', { token })).body.code).toBe(20000);
    expect((await api.call('GET', '/app/admin/ad/ads', { token })).body.code).toBe(40300);
    await setPermissions(role, ['ad.read']);
    expect((await api.call('GET', '/app/admin/movie/movies', { token })).body.code).toBe(40300);
    expect((await api.call('GET', '/app/admin/ad/ads', { token })).body.code).toBe(20000);
  });
});

describe('a custom role', () => {
  test('a reviewer (movie.review only) approves a movie but cannot edit it', async () => {
    await makeRole('reviewer', ['movie.review']);
    await api.createOperator(admin, { account: 'reviewer1', role: 'reviewer' });
    const token = await api.login('reviewer1', USER_PASSWORD);
    const created = await api.call('POST', '/app/admin/movie/movies', {
      token: admin,
      body: { title: 'to review' },
    });
    expect(created.body.code).toBe(20000);
    const id = created.body.data.id;
    const approve = await api.call('POST', `/app/admin/movie/movies/${id}/approve`, { token });
    expect(approve.body.code, JSON.stringify(approve.body)).toBe(20000);
    expect(approve.body.data.status).toBe('online');
    const edit = await api.call('PUT', `/app/admin/movie/movies/${id}`, {
      token,
      body: { title: 'changed', version: approve.body.data.version },
    });
    expect(edit.body.code).toBe(40300);
    expect(
      (await api.call('POST', '/app/admin/movie/movies', { token, body: { title: 'x' } })).body.code,
    ).toBe(40300);
    // The batch is its own permission, and deleting in it the section's settings.
    const batch = await api.call('POST', '/app/admin/movie/movies/batch', {
      token,
      body: { action: 'offline', ids: [id] },
    });
    expect(batch.body.code).toBe(40300);
  });

  test('a batch action that needs more than the batch is refused without it', async () => {
    await makeRole('batcher', ['movie.batch']);
    await api.createOperator(admin, { account: 'batcher1', role: 'batcher' });
    const token = await api.login('batcher1', USER_PASSWORD);
    const created = await api.call('POST', '/app/admin/movie/movies', { token: admin, body: { title: 'b' } });
    const ids = [created.body.data.id];
    expect(
      (await api.call('POST', '/app/admin/movie/movies/batch', { token, body: { action: 'delete', ids } }))
        .body.code,
    ).toBe(40300);
    const approve = await api.call('POST', '/app/admin/movie/movies/batch', {
      token,
      body: { action: 'approve', ids },
    });
    expect(approve.body).toMatchObject({ code: 20000, data: { changed: 1 } });
  });

  test("a role's change counts from the operator's next request on, on the same session", async () => {
    const role = await makeRole('changing', []);
    await api.createOperator(admin, { account: 'changer', role: 'changing' });
    const token = await api.login('changer', USER_PASSWORD);
    expect((await api.call('GET', '/app/admin/domain/domains', { token })).body.code).toBe(40300);
    await setPermissions(role, ['domain.read']);
    expect((await api.call('GET', '/app/admin/domain/domains', { token })).body.code).toBe(20000);
    await setPermissions(role, []);
    expect((await api.call('GET', '/app/admin/domain/domains', { token })).body.code).toBe(40300);
    // Given another role, the operator has that role's permissions at once.
    const [{ id }] = await api.query<{ id: number }>(sql`select id from operators where account = 'changer'`);
    const [{ version }] = await api.query<{ version: number }>(
      sql`select version from operators where id = ${id}`,
    );
    const moved = await api.call('PUT', `/app/admin/operators/${id}`, {
      token: admin,
      body: { role: 'user', version },
    });
    expect(moved.body.code).toBe(20000);
    expect((await api.call('GET', '/app/admin/domain/domains', { token })).body.code).toBe(20000);
  });
});

describe('the roles API', () => {
  test('lists the built-ins with what they hold; they cannot be changed or deleted', async () => {
    const list = await api.call('GET', '/app/admin/setting/roles?pageSize=100', { token: admin });
    expect(list.body.code).toBe(20000);
    const byName = Object.fromEntries(list.body.data.list.map((r: any) => [r.name, r]));
    expect(byName.admin).toMatchObject({ builtin: true, permissions: catalog.all });
    expect(byName.user).toMatchObject({ builtin: true, permissions: catalog.user });
    for (const name of ['admin', 'user']) {
      const r = byName[name];
      const put = await api.call('PUT', `/app/admin/setting/roles/${r.id}`, {
        token: admin,
        body: { permissions: [], version: r.version },
      });
      expect(put.body.code).toBe(40300);
      expect((await api.call('DELETE', `/app/admin/setting/roles/${r.id}`, { token: admin })).body.code).toBe(
        40300,
      );
    }
  });

  test("an unknown permission is refused naming the field, in the caller's language", async () => {
    const r = await api.call('POST', '/app/admin/setting/roles', {
      token: admin,
      body: { name: 'bad', permissions: ['movie.fly'] },
      headers: { 'Accept-Language': 'en-US' },
    });
    expect(r.body.code).toBe(40000);
    expect(r.body.msg).toContain('movie.fly');
    expect(r.body.msg).toContain('Permissions');
    const taken = await api.call('POST', '/app/admin/setting/roles', {
      token: admin,
      body: { name: 'admin', permissions: [] },
    });
    expect(taken.body.code).toBe(40900);
  });

  test('a role in use cannot be deleted; a rename follows into its operators; changes are audited', async () => {
    const role = await makeRole('editors', ['movie.read', 'movie.edit', 'movie.edit']);
    const saved = await api.call('GET', `/app/admin/setting/roles/${role.id}`, { token: admin });
    expect(saved.body.data.permissions).toEqual(['movie.read', 'movie.edit']);
    const opId = await api.createOperator(admin, { account: 'editor1', role: 'editors' });
    const del = await api.call('DELETE', `/app/admin/setting/roles/${role.id}`, { token: admin });
    expect(del.body.code).toBe(40900);
    expect(del.body.data).toEqual({ operators: 1 });
    const renamed = await api.call('PUT', `/app/admin/setting/roles/${role.id}`, {
      token: admin,
      body: { name: 'movie-editors', version: role.version },
    });
    expect(renamed.body.code).toBe(20000);
    const op = await api.call('GET', `/app/admin/operators/${opId}`, { token: admin });
    expect(op.body.data.role).toBe('movie-editors');
    await api.call('PUT', `/app/admin/operators/${opId}`, {
      token: admin,
      body: { role: 'user', version: op.body.data.version },
    });
    expect(
      (await api.call('DELETE', `/app/admin/setting/roles/${role.id}`, { token: admin })).body.code,
    ).toBe(20000);
    const logged = await api.query<{ action: string }>(
      sql`select action from audit_log where resource = 'roles' and record_id = ${String(role.id)} order by id`,
    );
    expect(logged.map((l) => l.action)).toEqual(['create', 'update', 'delete']);
  });

  test('an operator cannot be given a role that does not exist', async () => {
    const r = await api.call('POST', '/app/admin/operators', {
      token: admin,
      body: { account: 'ghostly', password: USER_PASSWORD, role: 'ghost' },
    });
    expect(r.body.code).toBe(40000);
    expect(Object.keys(r.body.data?.fields ?? r.body.data ?? {})).toContain('role');
  });
});

test('migration 0190: existing admins and users keep exactly their rights', async () => {
  const database = await databaseBefore('0190');
  try {
    const hash = await hashPassword(USER_PASSWORD, 1000);
    await database.db.execute(sql`insert into operators (account, account_key, password_hash, role)
      values ('old-admin', 'old-admin', ${hash}, 'admin'), ('old-user', 'old-user', ${hash}, 'user')`);
    expect((await migrate(database.db)).filter((n) => n >= '0190')).toContain('0190_roles');
    const app = createApp({
      db: database.db,
      config: loadConfig({ PASSWORD_ITERATIONS: '1000' }),
      clock: manualClock(new Date('2026-06-01T08:00:00Z')),
      logger: silentLogger,
      clientAddress: () => '10.0.0.9',
      images: memoryImageStorage(),
    });
    const call = async (method: string, path: string, token?: string, body?: unknown) => {
      const res = await app.request(path, {
        method,
        headers: { 'Content-Type': 'application/json', ...(token ? { 'Admin-Token': token } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await res.json()) as { code: number; data: any };
    };
    const login = async (username: string) =>
      (await call('POST', '/app/admin/login', undefined, { username, password: USER_PASSWORD })).data.token;
    const oldAdmin = await login('old-admin');
    const oldUser = await login('old-user');
    expect((await call('GET', '/app/admin/info', oldAdmin)).data.permissions).toEqual(
      [...catalog.all].sort(),
    );
    expect((await call('GET', '/app/admin/info', oldUser)).data).toMatchObject({
      role: 'user',
      permissions: [...catalog.user].sort(),
    });
    expect((await call('GET', '/app/admin/operators', oldAdmin)).code).toBe(20000);
    expect((await call('GET', '/app/admin/operators', oldUser)).code).toBe(40300);
    expect((await call('POST', '/app/admin/movie/movies', oldUser, { title: 'still mine' })).code).toBe(
      20000,
    );
    const roles = rowsOf<{ name: string; builtin: boolean }>(
      await database.db.execute(sql`select name, builtin from roles order by id`),
    );
    expect(roles).toEqual([
      { name: 'admin', builtin: true },
      { name: 'user', builtin: true },
    ]);
  } finally {
    await database.close();
  }
});
