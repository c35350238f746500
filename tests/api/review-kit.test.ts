import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { ServerModule } from '../../server/core/module';
import { modules } from '../../server/modules';
import { startApi, type TestApi, USER_PASSWORD } from './harness';

/**
 * The review kit (server/core/review.ts) on its own: a table of its own (`review_things`, made by this file, with a
 * review stamp and a precondition column, and a second table without any stamp) declares the kit, mounted as an
 * extra module at /app/test/things and /app/test/bare. The kit makes the transition routes and the batch route
 * (transitions beside the module's own actions), checks where an action may go from, the reason rule, the version,
 * the precondition hook, who may run what, and answers its 40900s naming the status and the action.
 */
async function registry(): Promise<readonly ServerModule[]> {
  const { z } = await import('@hono/zod-openapi');
  const { eq, inArray } = await import('drizzle-orm');
  const { integer, pgTable, serial, text, timestamp, varchar } = await import('drizzle-orm/pg-core');
  const { reviewRoutes } = await import('../../server/core/review');
  const { asAnyOperator, can, security } = await import('../../server/core/auth');
  // A guard only admins pass: a permission no section gives the built-in `user`.
  const asAdmin = can('operators.settings');
  const { ApiError } = await import('../../server/core/errors');
  const stamps = {
    id: serial('id').primaryKey(),
    status: varchar('status', { length: 16 })
      .notNull()
      .$type<'pending' | 'rejected' | 'online' | 'offline'>(),
    version: integer('version').notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  };
  const things = pgTable('review_things', {
    ...stamps,
    pages: integer('pages').notNull().default(1),
    label: text('label').notNull().default(''),
    reviewedBy: integer('reviewed_by'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    rejectReason: text('reject_reason').notNull().default(''),
    publishedAt: timestamp('published_at', { withTimezone: true }),
  });
  const bare = pgTable('review_bare', stamps);
  const Thing = z
    .object({ id: z.number(), status: z.string(), version: z.number() })
    .openapi('TestReviewThing');
  const readOne = (table: typeof bare) => async (db: any, id: number) =>
    (
      await db
        .select({ id: table.id, status: table.status, version: table.version })
        .from(table)
        .where(eq(table.id, id))
    )[0];
  const kitOf = (table: any, guard: typeof asAnyOperator, withPre: boolean) =>
    reviewRoutes({
      table,
      tag: 'test review',
      guard,
      security,
      schema: Thing,
      read: readOne(table),
      messages: 'movie',
      precondition: withPre
        ? {
            actions: ['approve', 'online'],
            columns: { pages: things.pages },
            // `novel.noChapters*` stand for any module's own refusal
            check: (row, id) =>
              row.pages === 0
                ? new ApiError(
                    40900,
                    id === undefined ? 'novel.noChapters' : 'novel.noChaptersBatch',
                    { id: id ?? '' },
                    { pages: 0 },
                  )
                : undefined,
            summary: ' with at least one page',
          }
        : undefined,
      batch: {
        summary: 'Test review batch',
        fields: { label: z.string().max(10).optional() },
        actions: {
          label: async (tx, ids, body) => {
            if (!body.label) throw new Error('no label');
            const rows = await tx
              .update(things)
              .set({ label: body.label })
              .where(inArray(things.id, ids))
              .returning({ id: things.id });
            return rows.length;
          },
          remove: async (tx, ids) =>
            (await tx.delete(table).where(inArray(table.id, ids)).returning({ id: table.id })).length,
        },
        guard,
        restricted: { remove: 'movie.settings' },
      },
    });
  return [
    ...modules,
    {
      name: 'review-test',
      mount: {
        '/test/things': () => kitOf(things, asAnyOperator, true),
        '/test/bare': () => kitOf(bare, asAdmin, false),
      },
    },
  ];
}

let api: TestApi;
let admin: string;
let user: string;
let userId: number;
const T = '/app/test/things';
const B = '/app/test/bare';

beforeAll(async () => {
  api = await startApi({}, { modules: await registry() });
  admin = await api.login();
  userId = await api.createOperator(admin, { account: 'reviewer' });
  user = await api.login('reviewer', USER_PASSWORD);
  await api.query(sql`create table review_things (
    id serial primary key, status varchar(16) not null, version integer not null default 1,
    updated_at timestamptz not null default now(), pages integer not null default 1, label text not null default '',
    reviewed_by integer, reviewed_at timestamptz, reject_reason text not null default '', published_at timestamptz)`);
  await api.query(sql`create table review_bare (
    id serial primary key, status varchar(16) not null, version integer not null default 1,
    updated_at timestamptz not null default now())`);
});
afterAll(() => api.close());
beforeEach(async () => {
  await api.query(sql`truncate review_things, review_bare restart identity`);
});

type Row = { id: number; status: string; version: number; pages: number; label: string } & Record<
  string,
  any
>;
const make = async (...statuses: string[]) => {
  for (const s of statuses) await api.query(sql`insert into review_things (status) values (${s})`);
};
const rows = () => api.query<Row>(sql`select * from review_things order by id`);
const post = (path: string, body?: unknown, token = user, lang?: string) =>
  api.call('POST', path, { token, body, headers: lang ? { 'Accept-Language': lang } : {} });

describe('single transitions', () => {
  test('each action goes only from the statuses of common/review.ts; the stamps the table has are set', async () => {
    await make('pending', 'rejected', 'online', 'offline');
    const approved = await post(`${T}/1/approve`, {});
    expect(approved.body).toMatchObject({ code: 20000, data: { id: 1, status: 'online', version: 2 } });
    const [one] = await rows();
    expect(one).toMatchObject({ reviewed_by: userId, reject_reason: '' });
    expect(one.published_at).not.toBeNull();
    expect((await post(`${T}/2/approve`)).body.data.status).toBe('online');
    expect((await post(`${T}/3/offline`)).body.data.status).toBe('offline');
    expect((await post(`${T}/4/online`)).body.data.status).toBe('online');
    // From where an action does not go: 40900 naming the status and the action, and nothing changes.
    const refused = await post(`${T}/1/reject`, { reason: 'no' }, user, 'en-US');
    expect(refused.body).toMatchObject({
      code: 40900,
      msg: 'This item is online; it cannot be rejected',
      data: { id: null, status: 'online', action: 'reject' },
    });
    expect((await post(`${T}/1/online`, {}, user)).body.msg).toBe('该内容当前为「已上线」，不能上线');
    expect((await rows()).map((r) => [r.status, r.version])).toEqual([
      ['online', 2],
      ['online', 2],
      ['offline', 2],
      ['online', 2],
    ]);
  });

  test('reject needs a reason (a required body); it is stored; a missing row is 40400', async () => {
    await make('pending');
    expect((await post(`${T}/1/reject`)).body.code).toBe(40000);
    const blank = await post(`${T}/1/reject`, { reason: '  ' });
    expect(blank.body.code).toBe(40000);
    expect(Object.keys(blank.body.data.fields)).toEqual(['reason']);
    expect((await post(`${T}/1/reject`, { reason: ' blurry ' })).body.data.status).toBe('rejected');
    expect((await rows())[0]).toMatchObject({ reject_reason: 'blurry', status: 'rejected' });
    expect((await post(`${T}/99/approve`, {})).body.code).toBe(40400);
  });

  test('an optional version is checked: a stale one is 40900 before anything else, and nothing changes', async () => {
    await make('pending');
    expect((await post(`${T}/1/approve`, { version: 5 })).body).toMatchObject({ code: 40900, data: null });
    expect((await rows())[0]).toMatchObject({ status: 'pending', version: 1 });
    expect((await post(`${T}/1/approve`, { version: 1 })).body.data.version).toBe(2);
  });

  test('the precondition refuses its actions only (approve, online), with its own error', async () => {
    await make('pending', 'online');
    await api.query(sql`update review_things set pages = 0`);
    const r = await post(`${T}/1/approve`, {}, user, 'en-US');
    expect(r.body).toMatchObject({ code: 40900, data: { pages: 0 } });
    expect(r.body.msg).toMatch(/no chapters yet/);
    // reject and offline are not its actions
    expect((await post(`${T}/1/reject`, { reason: 'x' })).body.data.status).toBe('rejected');
    expect((await post(`${T}/2/offline`)).body.data.status).toBe('offline');
    expect((await post(`${T}/2/online`)).body.code).toBe(40900);
  });

  test('a table without review stamps: only status, version and updated time change; the guard holds', async () => {
    await api.query(sql`insert into review_bare (status) values ('pending')`);
    expect((await post(`${B}/1/approve`, {}, user)).body.code).toBe(40300);
    const r = await post(`${B}/1/approve`, {}, admin);
    expect(r.body.data).toEqual({ id: 1, status: 'online', version: 2 });
  });
});

describe('the batch', () => {
  test('a transition runs on every row or none: one row from the wrong status is 40900 naming its id', async () => {
    await make('pending', 'online', 'rejected');
    const r = await post(`${T}/batch`, { action: 'approve', ids: [1, 2, 3] }, user, 'en-US');
    expect(r.body).toMatchObject({ code: 40900, data: { id: 2, status: 'online', action: 'approve' } });
    expect(r.body.msg).toMatch(/^Item #2 is online and cannot be approved/);
    expect((await rows()).map((x) => x.status)).toEqual(['pending', 'online', 'rejected']);
    const ok = await post(`${T}/batch`, { action: 'approve', ids: [3, 1, 1] });
    expect(ok.body).toEqual(expect.objectContaining({ code: 20000, data: { changed: 2 } }));
    expect((await rows()).map((x) => [x.status, x.version])).toEqual([
      ['online', 2],
      ['online', 1],
      ['online', 2],
    ]);
  });

  test('missing ids are 40400 naming them; reject needs a reason; the precondition names the row', async () => {
    await make('pending', 'pending');
    const missing = await post(`${T}/batch`, { action: 'approve', ids: [1, 7, 8] });
    expect(missing.body).toMatchObject({ code: 40400 });
    expect(missing.body.msg).toContain('7, 8');
    const noReason = await post(`${T}/batch`, { action: 'reject', ids: [1] });
    expect(noReason.body.code).toBe(40000);
    expect(Object.keys(noReason.body.data.fields)).toEqual(['reason']);
    await api.query(sql`update review_things set pages = 0 where id = 2`);
    const pre = await post(`${T}/batch`, { action: 'approve', ids: [1, 2] }, user, 'en-US');
    expect(pre.body).toMatchObject({ code: 40900 });
    expect(pre.body.msg).toMatch(/#2/);
    expect((await rows()).map((x) => x.status)).toEqual(['pending', 'pending']);
    const rejected = await post(`${T}/batch`, { action: 'reject', ids: [1, 2], reason: 'dull' });
    expect(rejected.body.data).toEqual({ changed: 2 });
    expect((await rows()).map((x) => [x.status, x.reject_reason])).toEqual([
      ['rejected', 'dull'],
      ['rejected', 'dull'],
    ]);
  });

  test("the module's own actions run on the locked rows with the body's fields; admin-only ones are 40300 first", async () => {
    await make('pending', 'online');
    expect((await post(`${T}/batch`, { action: 'label', ids: [1, 2], label: 'hot' })).body.data).toEqual({
      changed: 2,
    });
    expect((await rows()).map((x) => x.label)).toEqual(['hot', 'hot']);
    expect((await post(`${T}/batch`, { action: 'label', ids: [1], label: 'x'.repeat(11) })).body.code).toBe(
      40000,
    );
    expect((await post(`${T}/batch`, { action: 'remove', ids: [1, 99] })).body.code).toBe(40300);
    expect((await post(`${T}/batch`, { action: 'remove', ids: [1, 99] }, admin)).body.code).toBe(40400);
    expect((await post(`${T}/batch`, { action: 'remove', ids: [1] }, admin)).body.data).toEqual({
      changed: 1,
    });
    expect((await rows()).map((x) => x.id)).toEqual([2]);
    expect((await post(`${T}/batch`, { action: 'nope', ids: [2] })).body.code).toBe(40000);
  });
});

test('the OpenAPI document has the transition and batch routes, with the precondition in the summaries', async () => {
  const doc = (await api.call('GET', '/app/openapi.json')).body;
  expect(doc.paths['/app/test/things/{id}/approve'].post.summary).toBe(
    'approve: allowed from pending, rejected with at least one page; an optional version is checked',
  );
  expect(doc.paths['/app/test/things/{id}/reject'].post.summary).toBe(
    'reject: allowed from pending; an optional version is checked',
  );
  expect(doc.paths['/app/test/things/{id}/reject'].post.requestBody.required).toBe(true);
  expect(doc.paths['/app/test/things/{id}/approve'].post.requestBody.required).toBe(false);
  const batch = doc.paths['/app/test/things/batch'].post;
  expect(batch.summary).toBe('Test review batch');
  const body = batch.requestBody.content['application/json'].schema;
  expect(body.properties.action.enum).toEqual(['approve', 'reject', 'offline', 'online', 'label', 'remove']);
  expect(Object.keys(body.properties)).toEqual(['action', 'ids', 'reason', 'label']);
});
