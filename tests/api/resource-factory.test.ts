import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { ServerModule } from '../../server/core/module';
import { modules } from '../../server/modules';
import { startApi, type TestApi } from './harness';

/**
 * The options of `crudResource` (server/core/resource.ts) on a tiny resource over the promotion_apps table, mounted
 * as an extra module at /app/test/things: `scope` (here the tenant named by the X-Scope header), `toApi` with the
 * context, `beforeSave` answering the values to write (with the locked `current` row on an update), `afterWrite`
 * in the write's transaction, `updateName`, and `batch` (locked, scoped, all or nothing).
 */
const log = { writes: [] as string[] };

async function registry(): Promise<readonly ServerModule[]> {
  const { z } = await import('@hono/zod-openapi');
  const { eq, inArray } = await import('drizzle-orm');
  const { crudResource, isoTimestamps, switchActions } = await import('../../server/core/resource');
  const { invalidField } = await import('../../server/core/errors');
  const { asAnyOperator, can, security } = await import('../../server/core/auth');
  const asAdmin = can('operators.settings');
  const { promotionApps: t } = await import('../../server/modules/promotion-apps/schema');
  const scopeOf = (c: { req: { header(name: string): string | undefined } }) =>
    Number(c.req.header('X-Scope') ?? 7);
  const fields = {
    name: z.string().min(1).max(64),
    url: z.string().min(1).max(100),
    os: z.enum(['ios', 'android']),
  };
  const things = () =>
    crudResource({
      path: '/test/things',
      tag: 'test things',
      table: t,
      schema: z.object({ id: z.number(), name: z.string(), seenBy: z.number() }).openapi('TestThing'),
      scope: { field: 'tenant', value: scopeOf },
      sorts: { id: t.id },
      defaultSort: 'id',
      filters: { mine: z.enum(['os']).optional() },
      // A filter that needs the request: the os named by the X-Os header.
      where: (q, c) => [q.mine ? eq(t.os, c.req.header('X-Os') as 'ios') : undefined],
      fields,
      create: z.object(fields),
      updateName: 'TestThingUpdate',
      toApi: (r, c) => ({ ...isoTimestamps(r), seenBy: scopeOf(c) }),
      read: asAnyOperator,
      write: asAdmin,
      security,
      beforeSave: async (_tx, body, { current }) => {
        if (body.name === 'refused') throw invalidField('name', 'field.invalid');
        // An update appends to the current name (proves `current` is the row, and the answer is what is written).
        if (current && body.name) return { ...body, name: `${current.name}+${body.name}` };
      },
      afterWrite: async (tx, row, _c, kind) => {
        log.writes.push(`${kind}:${row.name}`);
        // Same transaction: what it writes stays only with the write, and its error undoes the write.
        await tx
          .update(t)
          .set({ icon: `after-${kind}` })
          .where(eq(t.id, row.id));
        if (String(row.name).endsWith('boom')) throw invalidField('name', 'field.invalid');
      },
      batch: {
        summary: 'Test batch',
        actions: {
          ...switchActions(t, 'enabled', ['on', 'off'], async (_tx, c) => {
            log.writes.push(`batch:${scopeOf(c)}`);
          }),
          // Changes its rows, then fails: nothing may stay.
          explode: async (tx, ids) => {
            await tx.update(t).set({ name: 'exploded' }).where(inArray(t.id, ids));
            throw invalidField('ids', 'field.invalid');
          },
        },
      },
    });
  return [...modules, { name: 'things', mount: { '': things } }];
}

let api: TestApi;
let admin: string;
const BASE = '/app/test/things';

beforeAll(async () => {
  api = await startApi({}, { modules: await registry() });
  admin = await api.login();
});
afterAll(() => api.close());
beforeEach(async () => {
  log.writes.length = 0;
  await api.query(sql`delete from promotion_apps`);
});

const as = (scope: number, extra: Record<string, string> = {}) => ({ 'X-Scope': String(scope), ...extra });
const create = async (name: string, scope = 7, os = 'ios') =>
  api.call('POST', BASE, { token: admin, headers: as(scope), body: { name, url: 'https://x.example', os } });
const rows = () =>
  api.query<{ id: number; tenant: number; name: string; icon: string; enabled: boolean; version: number }>(
    sql`select id, tenant, name, icon, enabled, version from promotion_apps order by id`,
  );

describe('scope', () => {
  test('a create stores the scope; other scopes neither list, read, edit nor delete the row (40400)', async () => {
    const made = (await create('a', 7)).body.data;
    expect((await rows()).map((r) => r.tenant)).toEqual([7]);
    const other = { token: admin, headers: as(8) };
    expect((await api.call('GET', BASE, other)).body.data).toEqual({ list: [], total: 0, totalExact: true });
    expect((await api.call('GET', `${BASE}?ids=${made.id}`, other)).body.data.total).toBe(0);
    expect((await api.call('GET', `${BASE}/${made.id}`, other)).body.code).toBe(40400);
    const put = await api.call('PUT', `${BASE}/${made.id}`, { ...other, body: { name: 'x', version: 1 } });
    expect(put.body.code).toBe(40400);
    expect((await api.call('DELETE', `${BASE}/${made.id}`, other)).body.code).toBe(40400);
    expect((await rows()).map((r) => [r.name, r.version])).toEqual([['a', 1]]);
    const own = { token: admin, headers: as(7) };
    expect((await api.call('GET', BASE, own)).body.data.total).toBe(1);
    expect((await api.call('GET', `${BASE}/${made.id}`, own)).body.data.name).toBe('a');
  });
});

describe('toApi and where get the request', () => {
  test('the answer is built with the context; a filter may read the request', async () => {
    expect((await create('a', 9)).body.data).toMatchObject({ name: 'a', seenBy: 9 });
    await create('b', 9, 'android');
    const r = await api.call('GET', `${BASE}?mine=os`, {
      token: admin,
      headers: as(9, { 'X-Os': 'android' }),
    });
    expect(r.body.data.list.map((x: any) => [x.name, x.seenBy])).toEqual([['b', 9]]);
  });
});

describe('beforeSave answering values', () => {
  test('an update writes what beforeSave answers, built from the locked current row; a stale version is 40900 first', async () => {
    const made = (await create('first')).body.data;
    const put = (body: Record<string, unknown>) =>
      api.call('PUT', `${BASE}/${made.id}`, { token: admin, headers: as(7), body });
    const r = await put({ name: 'second', version: 1 });
    expect(r.body.data).toMatchObject({ name: 'first+second', version: 2 });
    expect((await put({ name: 'refused', version: 1 })).body.code).toBe(40900);
    expect((await put({ name: 'refused', version: 2 })).body.code).toBe(40000);
    expect((await rows())[0].name).toBe('first+second');
  });
});

describe('afterWrite', () => {
  test('runs after create, update and delete, in their transaction', async () => {
    const made = (await create('a')).body.data;
    await api.call('PUT', `${BASE}/${made.id}`, {
      token: admin,
      headers: as(7),
      body: { name: 'b', version: 1 },
    });
    expect((await rows())[0].icon).toBe('after-update');
    await api.call('DELETE', `${BASE}/${made.id}`, { token: admin, headers: as(7) });
    expect(log.writes).toEqual(['create:a', 'update:a+b', 'delete:a+b']);
  });

  test('its error undoes the write', async () => {
    expect((await create('boom')).body.code).toBe(40000);
    expect(await rows()).toEqual([]);
    const made = (await create('a')).body.data;
    const r = await api.call('PUT', `${BASE}/${made.id}`, {
      token: admin,
      headers: as(7),
      body: { name: 'boom', version: 1 },
    });
    expect(r.body.code).toBe(40000);
    expect((await rows()).map((x) => [x.name, x.version, x.icon])).toEqual([['a', 1, 'after-create']]);
  });
});

describe('batch', () => {
  test('switch actions answer {changed}: only rows that change get a new version; delete', async () => {
    const a = (await create('a')).body.data.id;
    const b = (await create('b')).body.data.id;
    const batch = (action: string, ids: number[], scope = 7) =>
      api.call('POST', `${BASE}/batch`, { token: admin, headers: as(scope), body: { action, ids } });
    expect((await batch('off', [a])).body.data).toEqual({ changed: 1 });
    expect((await batch('off', [a, b, a])).body.data).toEqual({ changed: 1 });
    expect((await rows()).map((r) => [r.enabled, r.version])).toEqual([
      [false, 2],
      [false, 2],
    ]);
    expect((await batch('off', [a, b])).body.data).toEqual({ changed: 0 });
    expect(log.writes.filter((w) => w.startsWith('batch'))).toEqual(['batch:7', 'batch:7']);
    expect((await batch('delete', [a])).body.data).toEqual({ changed: 1 });
    expect((await rows()).map((r) => r.id)).toEqual([b]);
  });

  test('all or nothing: a missing or out-of-scope id is 40400, an action that fails changes nothing', async () => {
    const a = (await create('a')).body.data.id;
    const elsewhere = (await create('z', 8)).body.data.id;
    const batch = (action: string, ids: number[]) =>
      api.call('POST', `${BASE}/batch`, { token: admin, headers: as(7), body: { action, ids } });
    const missing = await batch('off', [a, elsewhere]);
    expect(missing.body.code).toBe(40400);
    expect(missing.body.msg).toContain(String(elsewhere));
    expect((await batch('off', [a, 999_999])).body.code).toBe(40400);
    expect((await batch('explode', [a])).body.code).toBe(40000);
    expect((await batch('nope', [a])).body.code).toBe(40000);
    expect((await rows()).map((r) => [r.name, r.enabled])).toEqual([
      ['a', true],
      ['z', true],
    ]);
  });
});

describe('OpenAPI', () => {
  test('the update body carries its name; the batch route is documented', async () => {
    const doc = (await api.call('GET', '/app/openapi.json')).body;
    expect(doc.components.schemas.TestThingUpdate.properties).toHaveProperty('version');
    expect(doc.paths['/app/test/things/batch'].post.summary).toBe('Test batch');
  });
});
