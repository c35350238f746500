import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { ServerModule } from '../../server/core/module';
import { modules } from '../../server/modules';
import { startApi, type TestApi, USER_PASSWORD } from './harness';

/**
 * The audit log (issue #52, server/core/audit.ts, /app/admin/setting/audit): entries are written by the change's
 * transaction (a rolled-back change leaves none), secrets never reach them, the database refuses to rewrite or
 * delete them but through the retention purge, and admins read them with filters.
 */
async function registry(): Promise<readonly ServerModule[]> {
  const { z, createRoute } = await import('@hono/zod-openapi');
  const { eq } = await import('drizzle-orm');
  const { crudResource } = await import('../../server/core/resource');
  const { invalidField } = await import('../../server/core/errors');
  const { can, security } = await import('../../server/core/auth');
  const asAdmin = can('audit.settings');
  const { auditedRoute, auditMany } = await import('../../server/core/audit');
  const { jsonBody, jsonResponse, ok } = await import('../../server/core/envelope');
  const { promotionApps: t } = await import('../../server/modules/promotion-apps/schema');
  const fields = {
    name: z.string().min(1).max(64),
    url: z.string().min(1).max(100),
    os: z.enum(['ios', 'android']),
  };
  const things = () => {
    const app = crudResource({
      path: '/test/things',
      tag: 'test things',
      table: t,
      schema: z.object({ id: z.number(), name: z.string() }).openapi('AuditThing'),
      sorts: { id: t.id },
      defaultSort: 'id',
      filters: {},
      scope: { field: 'tenant', value: () => 7 },
      fields,
      create: z.object(fields),
      read: asAdmin,
      write: asAdmin,
      security,
      // `icon` stands for a field the module declares secret (the name rule would not catch it).
      audit: { secret: ['icon'] },
      afterWrite: async (_tx, row) => {
        if (String(row.name).endsWith('boom')) throw invalidField('name', 'field.invalid');
      },
    });
    // A route of a module's own that writes in a transaction without saying what it changed: the route-level entry.
    app.openapi(
      createRoute({
        method: 'post',
        path: '/test/things/{id}/rename',
        tags: ['test things'],
        middleware: asAdmin,
        security,
        request: {
          params: z.object({ id: z.string() }),
          body: jsonBody(
            z.object({ name: z.string(), apiToken: z.string(), nested: z.object({ password: z.string() }) }),
          ),
        },
        responses: jsonResponse(z.null()),
      }),
      async (c) => {
        const { name } = c.req.valid('json');
        await c.get('deps').db.transaction(async (tx) => {
          await tx
            .update(t)
            .set({ name })
            .where(eq(t.id, Number(c.req.valid('param').id)));
          if (name === 'boom') throw invalidField('name', 'field.invalid');
        });
        return ok(c, null);
      },
    );
    // A route of a module's own that touches several records and says so with auditMany (`apiToken` a secret by name).
    app.openapi(
      createRoute(
        auditedRoute({
          method: 'post',
          path: '/test/things/{id}/reach',
          tags: ['test things'],
          middleware: asAdmin,
          security,
          request: {
            params: z.object({ id: z.string() }),
            body: jsonBody(z.object({ ids: z.array(z.number()), apiToken: z.string(), note: z.string() })),
          },
          responses: jsonResponse(z.null()),
        }),
      ),
      async (c) => {
        const { ids, apiToken, note } = c.req.valid('json');
        await c.get('deps').db.transaction(async (tx) => {
          await auditMany(tx, c, {
            resource: 'test things',
            action: 'reach',
            recordId: c.req.valid('param').id,
            ids,
            changed: ids.length - 1,
            extra: { note, apiToken, nested: { password: apiToken } },
          });
        });
        return ok(c, null);
      },
    );
    // A route that writes without a transaction and says nothing: no entry can be written with its change.
    app.openapi(
      createRoute({
        method: 'post',
        path: '/test/things/{id}/bare',
        tags: ['test things'],
        middleware: asAdmin,
        security,
        request: { params: z.object({ id: z.string() }) },
        responses: jsonResponse(z.null()),
      }),
      async (c) => {
        await c
          .get('deps')
          .db.update(t)
          .set({ name: 'bare' })
          .where(eq(t.id, Number(c.req.valid('param').id)));
        return ok(c, null);
      },
    );
    return app;
  };
  return [...modules, { name: 'things', mount: { '': things } }];
}

let api: TestApi;
let admin: string;
const warnings: Record<string, unknown>[] = [];
const BASE = '/app/test/things';
const AUDIT = '/app/admin/setting/audit';

interface Row {
  id: number;
  operator_id: number | null;
  operator_account: string;
  address: string;
  section: string;
  resource: string;
  action: string;
  record_id: string | null;
  route: string;
  changes: any;
}
const entries = () => api.query<Row>(sql`select * from audit_log order by id`);
const create = (name: string) =>
  api.call('POST', BASE, { token: admin, body: { name, url: 'https://x.example', os: 'ios' } });

beforeAll(async () => {
  api = await startApi(
    {},
    {
      modules: await registry(),
      logger: { info() {}, error() {}, warn: (o, m) => warnings.push({ ...o, msg: m }) },
    },
  );
  admin = await api.login();
});
afterAll(() => api.close());
beforeEach(async () => {
  await api.query(sql`select zg_audit_purge('infinity'::timestamptz)`);
  await api.query(sql`delete from promotion_apps`);
});

describe('written with the change', () => {
  test('create, update, delete and a batch each write one entry: who, from where, the section, the record, what changed', async () => {
    api.setAddress('203.0.113.9');
    const made = (await create('first')).body.data;
    await api.query(sql`update promotion_apps set icon = 'secret-icon' where id = ${made.id}`);
    expect(
      (await api.call('PUT', `${BASE}/${made.id}`, { token: admin, body: { name: 'second', version: 1 } }))
        .body.code,
    ).toBe(20000);
    expect((await api.call('DELETE', `${BASE}/${made.id}`, { token: admin })).body.code).toBe(20000);
    const rows = await entries();
    expect(rows.map((r) => [r.section, r.resource, r.action, r.record_id])).toEqual([
      ['things', 'test things', 'create', String(made.id)],
      ['things', 'test things', 'update', String(made.id)],
      ['things', 'test things', 'delete', String(made.id)],
    ]);
    expect(rows[0]).toMatchObject({ operator_account: 'admin', address: '203.0.113.9' });
    expect(rows[0].operator_id).toBeGreaterThan(0);
    expect(rows[0].route).toBe('POST /app/test/things');
    expect(rows[0].changes.after).toMatchObject({ name: 'first', os: 'ios' });
    // Only the changed fields, before and after; bookkeeping (version, updatedAt) is no news.
    expect(rows[1].changes).toEqual({ before: { name: 'first' }, after: { name: 'second' } });
    expect(rows[1].route).toBe('PUT /app/test/things/:id');
    // The declared secret field is redacted in the deleted row's snapshot.
    expect(rows[2].changes.before).toMatchObject({ name: 'second', icon: '[redacted]' });
  });

  test('a batch names its ids and counts', async () => {
    const a = (
      await api.call('POST', '/app/admin/setting/promotion-apps', {
        token: admin,
        body: { name: 'A', url: 'https://a.example', os: 'ios', platforms: [2] },
      })
    ).body.data;
    expect(a?.id, JSON.stringify(a)).toBeGreaterThan(0);
    await api.query(sql`select zg_audit_purge('infinity'::timestamptz)`);
    const r = await api.call('POST', '/app/admin/setting/promotion-apps/batch', {
      token: admin,
      body: { action: 'delete', ids: [a.id] },
    });
    expect(r.body.code).toBe(20000);
    const rows = await entries();
    expect(rows.map((x) => [x.section, x.action])).toEqual([['promotion-apps', 'batch:delete']]);
    expect(rows[0].changes).toEqual({ ids: [a.id], count: 1, changed: 1 });
  });

  test('a change that rolls back leaves no entry (the factory, and a route-level entry)', async () => {
    expect((await create('boom')).body.code).toBe(40000);
    const made = (await create('kept')).body.data;
    const put = await api.call('PUT', `${BASE}/${made.id}`, {
      token: admin,
      body: { name: 'boom', version: 1 },
    });
    expect(put.body.code).toBe(40000);
    const renamed = await api.call('POST', `${BASE}/${made.id}/rename`, {
      token: admin,
      body: { name: 'boom', apiToken: 't', nested: { password: 'p' } },
    });
    expect(renamed.body.code).toBe(40000);
    expect((await entries()).map((r) => r.action)).toEqual(['create']);
    expect(
      (await api.query<{ name: string }>(sql`select name from promotion_apps`)).map((r) => r.name),
    ).toEqual(['kept']);
  });

  test('a route that says nothing of its changes gets a route-level entry in its transaction, secrets redacted at any depth', async () => {
    const made = (await create('x')).body.data;
    const r = await api.call('POST', `${BASE}/${made.id}/rename`, {
      token: admin,
      body: { name: 'renamed', apiToken: 'tok-123', nested: { password: 'hunter2' } },
    });
    expect(r.body.code).toBe(20000);
    const last = (await entries()).at(-1)!;
    expect(last).toMatchObject({ section: 'things', action: 'route', record_id: String(made.id) });
    expect(last.route).toBe('POST /app/test/things/:id/rename');
    expect(last.changes).toEqual({
      body: { name: 'renamed', apiToken: '[redacted]', nested: { password: '[redacted]' } },
    });
  });
});

describe('a route that left no entry', () => {
  test('is named in a warning; routes that wrote one are not', async () => {
    const made = (await create('x')).body.data;
    warnings.length = 0;
    expect((await api.call('POST', `${BASE}/${made.id}/bare`, { token: admin })).body.code).toBe(20000);
    expect(warnings).toEqual([
      expect.objectContaining({
        msg: 'audit: a request left no entry',
        method: 'POST',
        path: `${BASE}/${made.id}/bare`,
      }),
    ]);
    warnings.length = 0;
    await create('y');
    await api.call('POST', `${BASE}/${made.id}/rename`, {
      token: admin,
      body: { name: 'z', apiToken: 't', nested: { password: 'p' } },
    });
    expect(warnings).toEqual([]);
  });
});

describe('modules covered one by one', () => {
  test('a movie: created, edited (the changed fields and links before and after), approved, deleted', async () => {
    const tag = (
      await api.call('POST', '/app/admin/movie/tags', { token: admin, body: { name: '审计标签' } })
    ).body.data;
    const made = (
      await api.call('POST', '/app/admin/movie/movies', { token: admin, body: { title: '审计影片' } })
    ).body.data;
    expect(made?.id, JSON.stringify(made)).toBeGreaterThan(0);
    const put = await api.call('PUT', `/app/admin/movie/movies/${made.id}`, {
      token: admin,
      body: { title: '审计影片（改）', tagIds: [tag.id], version: made.version },
    });
    expect(put.body.code).toBe(20000);
    expect(
      (await api.call('POST', `/app/admin/movie/movies/${made.id}/approve`, { token: admin })).body.code,
    ).toBe(20000);
    expect((await api.call('DELETE', `/app/admin/movie/movies/${made.id}`, { token: admin })).body.code).toBe(
      20000,
    );
    const rows = (await entries()).filter(
      (r) => r.section === 'movie' && r.resource === 'movies' && r.record_id === String(made.id),
    );
    expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'approve', 'delete']);
    expect(rows[0].changes.after).toMatchObject({ title: '审计影片', status: 'pending' });
    expect(rows[1].changes.before).toMatchObject({ title: '审计影片', tagIds: [] });
    expect(rows[1].changes.after).toMatchObject({ title: '审计影片（改）', tagIds: [tag.id] });
    expect(Object.keys(rows[1].changes.after)).not.toContain('description');
    expect(rows[2].changes).toEqual({ before: { status: 'pending' }, after: { status: 'online' } });
    expect(rows[3].changes.before).toMatchObject({ title: '审计影片（改）' });
  });

  test('a member banned, the ban undone, members regrouped in a batch', async () => {
    const [{ id }] = await api.query<{ id: number }>(
      sql`insert into site_users (tenant, account) values (${api.config.defaultTenant}, 'audit-member') returning id`,
    );
    expect((await api.call('POST', `/app/admin/users/${id}/ban`, { token: admin })).body.code).toBe(20000);
    expect((await api.call('POST', `/app/admin/users/${id}/undo-ban`, { token: admin })).body.code).toBe(
      20000,
    );
    const batch = await api.call('POST', '/app/admin/users/batch', {
      token: admin,
      body: { action: 'disable', ids: [id] },
    });
    expect(batch.body.code, JSON.stringify(batch.body)).toBe(20000);
    const rows = (await entries()).filter((r) => r.section === 'users');
    expect(rows.map((r) => [r.action, r.record_id])).toEqual([
      ['ban', String(id)],
      ['undo-ban', String(id)],
      ['batch:disable', String(id)],
    ]);
    expect(rows[0].changes).toMatchObject({ before: { status: 'active' }, after: { status: 'banned' } });
    expect(rows[2].changes).toMatchObject({ ids: [id], count: 1, changed: 1 });
  });

  test('a chapter: created, its title edited (the long text cut, not the change), deleted', async () => {
    const novel = (
      await api.call('POST', '/app/admin/novel/novels', { token: admin, body: { title: '审计小说' } })
    ).body.data;
    expect(novel?.id, JSON.stringify(novel)).toBeGreaterThan(0);
    const content = '字'.repeat(5000);
    const made = await api.call('POST', '/app/admin/novel/chapters', {
      token: admin,
      body: { novelId: novel.id, title: '第一章', content },
    });
    expect(made.body.code, JSON.stringify(made.body)).toBe(20000);
    const id = made.body.data.id;
    const put = await api.call('PUT', `/app/admin/novel/chapters/${id}`, {
      token: admin,
      body: { title: '第一章（改）', version: made.body.data.version },
    });
    expect(put.body.code, JSON.stringify(put.body)).toBe(20000);
    expect((await api.call('DELETE', `/app/admin/novel/chapters/${id}`, { token: admin })).body.code).toBe(
      20000,
    );
    const rows = (await entries()).filter((r) => r.resource === 'chapters');
    expect(rows.map((r) => [r.action, r.record_id])).toEqual([
      ['create', String(id)],
      ['update', String(id)],
      ['delete', String(id)],
    ]);
    expect(rows[0].changes.after.content).toMatch(/… \(\+3000\)$/);
    expect(rows[1].changes).toEqual({ before: { title: '第一章' }, after: { title: '第一章（改）' } });
  });

  test('a comment filter: the rules that changed', async () => {
    const FILTERS = '/app/admin/comment/filters';
    const current = (await api.call('GET', FILTERS, { token: admin })).body.data.list.find(
      (f: { module: string }) => f.module === 'comment',
    );
    const put = await api.call('PUT', `${FILTERS}/comment`, {
      token: admin,
      body: {
        enabled: true,
        reviewFirst: false,
        loginRequired: false,
        userInterval: 0,
        addressInterval: 0,
        maskWords: [],
        blockWords: ['审计词'],
        holdWords: [],
        blacklist: [],
        version: current.version,
      },
    });
    expect(put.body.code, JSON.stringify(put.body)).toBe(20000);
    const row = (await entries()).at(-1)!;
    expect(row).toMatchObject({
      section: 'comment',
      resource: 'filters',
      action: 'update',
      record_id: 'comment',
    });
    expect(row.changes.after).toMatchObject({ blockWords: ['审计词'] });
  });

  test('an actress made outside a transaction before is now logged with its create', async () => {
    const made = await api.call('POST', '/app/admin/actresses', { token: admin, body: { name: '审计女优' } });
    expect(made.body.code, JSON.stringify(made.body)).toBe(20000);
    const row = (await entries()).at(-1)!;
    expect(row).toMatchObject({
      section: 'actresses',
      action: 'create',
      record_id: String(made.body.data.id),
    });
    expect(row.changes.after).toMatchObject({ name: '审计女优' });
  });
});

describe('secrets never appear', () => {
  test('an operator made and its password reset: the entries hold no password, no hash', async () => {
    const id = await api.createOperator(admin, { account: 'clerk1', password: USER_PASSWORD });
    const reset = await api.call('POST', `/app/admin/operators/${id}/reset-password`, {
      token: admin,
      body: { password: 'Another-pass-9' },
    });
    expect(reset.body.code, JSON.stringify(reset.body)).toBe(20000);
    const text = JSON.stringify(await entries());
    expect(text).not.toContain(USER_PASSWORD);
    expect(text).not.toContain('Another-pass-9');
    expect(text).not.toMatch(/\$argon2|pbkdf2|\$scrypt/);
    expect(text).toContain('clerk1');
  });

  test("a module's own route naming the records it reached (auditMany): the ids and counts, its secrets redacted", async () => {
    const r = await api.call('POST', `${BASE}/5/reach`, {
      token: admin,
      body: { ids: [5, 6, 7], apiToken: 'tok-very-secret', note: 'kept' },
    });
    expect(r.body.code).toBe(20000);
    const rows = await entries();
    expect(rows.map((x) => [x.section, x.resource, x.action, x.record_id])).toEqual([
      ['things', 'test things', 'reach', '5'],
    ]);
    expect(rows[0].changes).toEqual({
      ids: [5, 6, 7],
      count: 3,
      changed: 2,
      note: 'kept',
      apiToken: '[redacted]',
      nested: { password: '[redacted]' },
    });
    expect(JSON.stringify(rows)).not.toContain('tok-very-secret');
  });

  test('the settings: the changed fields before and after, the provide key redacted', async () => {
    const save = (body: Record<string, unknown>) =>
      api.call('POST', '/app/admin/sys/updateSetting', { token: admin, body });
    expect((await save({ siteName: 'Old', provideKey: 'k-secret-1' })).body.code).toBe(20000);
    expect((await save({ siteName: 'New', provideKey: 'k-secret-2', commentsOpen: true })).body.code).toBe(
      20000,
    );
    const rows = (await entries()).filter((r) => r.section === 'sys');
    expect(rows.at(-1)!.changes).toEqual({
      before: { siteName: 'Old', provideKey: '[redacted]', commentsOpen: null },
      after: { siteName: 'New', provideKey: '[redacted]', commentsOpen: true },
    });
    expect(JSON.stringify(rows)).not.toContain('k-secret');
  });

  test("the site key and server secret: made (logged, in the change's transaction), never shown", async () => {
    const key = (await api.call('POST', '/app/admin/setting/site-key/regenerate', { token: admin })).body.data
      .key;
    const secret = (await api.call('POST', '/app/admin/setting/site-key/secret', { token: admin })).body.data
      .secret;
    expect(key).toMatch(/^sk_/);
    expect(secret.length).toBeGreaterThan(12);
    const rows = (await entries()).filter((r) => r.section === 'site');
    expect(rows.map((r) => [r.resource, r.action, r.changes])).toEqual([
      ['site key', 'regenerate', { after: { siteKey: '[redacted]' } }],
      ['site secret', 'rotate', { after: { secret: '[redacted]' } }],
    ]);
    const text = JSON.stringify(await entries());
    expect(text).not.toContain(key);
    expect(text).not.toContain(secret);
  });

  test('the statistics and domain settings: the fields that changed', async () => {
    const stats = (await api.call('GET', '/app/admin/setting/statistics', { token: admin })).body.data;
    const saved = await api.call('PUT', '/app/admin/setting/statistics', {
      token: admin,
      body: { version: stats.version, sampleRate: 50 },
    });
    expect(saved.body.code, JSON.stringify(saved.body)).toBe(20000);
    const domain = (await api.call('GET', '/app/admin/domain/setting', { token: admin })).body.data;
    const put = await api.call('PUT', '/app/admin/domain/setting', {
      token: admin,
      body: {
        version: domain.version,
        checkEnabled: domain.checkEnabled,
        checkIntervalSeconds: domain.checkIntervalSeconds,
        failThreshold: domain.failThreshold,
        autoReplace: domain.autoReplace,
        expiryWarnDays: domain.expiryWarnDays,
        checkTimeoutMs: domain.checkTimeoutMs === 5000 ? 6000 : 5000,
      },
    });
    expect(put.body.code, JSON.stringify(put.body)).toBe(20000);
    const rows = await entries();
    expect(rows.find((r) => r.section === 'statistics-settings')!.changes.after).toEqual({ sampleRate: 50 });
    expect(Object.keys(rows.find((r) => r.section === 'domain')!.changes.after)).toEqual(['checkTimeoutMs']);
  });
});

/** The statement fails with the trigger's message (Drizzle wraps the driver's error in `cause`). */
async function refused(q: ReturnType<typeof sql>) {
  const err = await api.query(q).then(
    () => undefined,
    (e: any) => e,
  );
  expect(err, 'the statement went through').toBeDefined();
  expect(String(err.cause?.message ?? err.message)).toMatch(/append-only/);
}

describe('append-only', () => {
  test('UPDATE, DELETE and TRUNCATE are refused by the database; the purge removes only rows past its cutoff', async () => {
    await create('a');
    await refused(sql`update audit_log set action = 'x'`);
    await refused(sql`delete from audit_log`);
    await refused(sql`truncate audit_log`);
    // Setting the purge's marker by hand does not reach rows newer than the cutoff.
    await api.query(sql`select set_config('zg.audit_purge_before', '2000-01-01', false)`);
    await refused(sql`delete from audit_log`);
    await api.query(sql`select set_config('zg.audit_purge_before', '', false)`);
    expect((await entries()).length).toBe(1);
  });

  test('retention: the purge claims its interval (one instance of several) and removes entries older than the days set', async () => {
    const { purgeExpiredAudit } = await import('../../server/modules/audit');
    await create('old');
    await api.query(sql`alter table audit_log disable trigger audit_log_append_only`);
    await api.query(sql`update audit_log set at = at - interval '40 days'`);
    await api.query(sql`alter table audit_log enable trigger audit_log_append_only`);
    await create('new');
    const settings = (await api.call('GET', `${AUDIT}/settings`, { token: admin })).body.data;
    expect(settings).toEqual({ retentionDays: 180, version: 0 });
    const put = await api.call('PUT', `${AUDIT}/settings`, {
      token: admin,
      body: { retentionDays: 30, version: 0 },
    });
    expect(put.body.data).toEqual({ retentionDays: 30, version: 1 });
    const stale = await api.call('PUT', `${AUDIT}/settings`, {
      token: admin,
      body: { retentionDays: 60, version: 0 },
    });
    expect(stale.body.code).toBe(40900);
    const now = api.clock.now();
    expect(await purgeExpiredAudit(api.database.db, api.config.defaultTenant, now)).toBe(1);
    // The same interval is claimed already: a second instance (or tick) does nothing.
    expect(
      await purgeExpiredAudit(api.database.db, api.config.defaultTenant, new Date(now.getTime() + 1000)),
    ).toBeNull();
    const left = await entries();
    expect(left.map((r) => [r.section, r.action])).toEqual([
      ['things', 'create'],
      ['audit', 'update'],
    ]);
    expect(left[1].changes).toEqual({ before: { retentionDays: 180 }, after: { retentionDays: 30 } });
  });

  test('retention out of range is refused naming the field', async () => {
    const r = await api.call('PUT', `${AUDIT}/settings`, {
      token: admin,
      body: { retentionDays: 1, version: 0 },
      headers: { 'Accept-Language': 'en-US' },
    });
    expect(r.body.code).toBe(40000);
    expect(r.body.msg).toContain('Days kept');
  });
});

describe('reading the log', () => {
  test('filters: operator, section, record (a batch holding it too), period; newest first; one entry', async () => {
    const clerk = await api.createOperator(admin, {
      account: 'clerk2',
      password: USER_PASSWORD,
      role: 'admin',
    });
    const clerkToken = await api.login('clerk2', USER_PASSWORD);
    const a = (await create('a')).body.data;
    api.clock.advance?.(86_400_000);
    await api.call('POST', BASE, {
      token: clerkToken,
      body: { name: 'b', url: 'https://b.example', os: 'ios' },
    });
    const get = async (q: string) => (await api.call('GET', `${AUDIT}?${q}`, { token: admin })).body.data;
    const all = await get('pageSize=50');
    expect(all.list[0].id).toBeGreaterThan(all.list[1].id);
    const byClerk = await get(`operatorId=${clerk}`);
    expect(byClerk.list.map((e: any) => [e.operatorAccount, e.action])).toEqual([['clerk2', 'create']]);
    expect((await get('section=things')).total).toBe(2);
    expect((await get('section=operators')).list.map((e: any) => e.action)).toContain('create');
    expect((await get(`section=things&recordId=${a.id}`)).list.map((e: any) => e.recordId)).toEqual([
      String(a.id),
    ]);
    const one = (await api.call('GET', `${AUDIT}/${all.list[0].id}`, { token: admin })).body.data;
    expect(one).toMatchObject({ id: all.list[0].id, section: all.list[0].section });
    expect(typeof one.at).toBe('string');
    const day = one.at.slice(0, 10);
    expect((await get(`from=${day}&to=${day}`)).total).toBeGreaterThan(0);
    expect((await get('from=2001-01-01&to=2001-01-02')).total).toBe(0);
    expect((await api.call('GET', `${AUDIT}?bogus=1`, { token: admin })).body.code).toBe(40000);
    expect((await api.call('GET', `${AUDIT}/999999`, { token: admin })).body.code).toBe(40400);
    const sections = (await api.call('GET', `${AUDIT}/sections`, { token: admin })).body.data;
    expect(sections).toEqual(expect.arrayContaining(['movie', 'sys', 'audit', 'operators']));
  });

  test('a batch is found by any record it held', async () => {
    const ids: number[] = [];
    for (const n of ['p', 'q']) {
      const r = await api.call('POST', '/app/admin/setting/promotion-apps', {
        token: admin,
        body: { name: n, url: `https://${n}.example`, os: 'ios', platforms: [2] },
      });
      ids.push(r.body.data.id);
    }
    await api.call('POST', '/app/admin/setting/promotion-apps/batch', {
      token: admin,
      body: { action: 'delete', ids },
    });
    const r = await api.call('GET', `${AUDIT}?section=promotion-apps&recordId=${ids[1]}`, { token: admin });
    expect(r.body.data.list.map((e: any) => e.action)).toEqual(['batch:delete', 'create']);
  });

  test('operators without the admin role may not read it (40300)', async () => {
    await api.createOperator(admin, { account: 'clerk3', password: USER_PASSWORD });
    const user = await api.login('clerk3', USER_PASSWORD);
    for (const path of [AUDIT, `${AUDIT}/1`, `${AUDIT}/sections`, `${AUDIT}/settings`])
      expect((await api.call('GET', path, { token: user })).body.code).toBe(40300);
    expect(
      (await api.call('PUT', `${AUDIT}/settings`, { token: user, body: { retentionDays: 30, version: 0 } }))
        .body.code,
    ).toBe(40300);
  });
});
