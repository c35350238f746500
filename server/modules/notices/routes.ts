import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { and, eq, ilike, inArray, ne, sql } from 'drizzle-orm';
import type { AppEnv } from '../../core/context';
import { batchBody, findById, idParam, listPage, listQuery } from '../../core/crud';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { conflict, notFound } from '../../core/errors';
import { lockTenantRows, tenantOf } from '../../core/tenant';
import type { Tx } from '../../db/types';
import { containsPattern, intQuery, rejectUnknownQuery, transaction, version } from '../movies/shared';
import { asAdmin, asAnyOperator, security } from '../operators';
import { bumpSiteVersion, setSiteBoundaries } from '../site/state';
import { assertKnownPlatforms } from '../system/platforms';
import {
  NOTICE_STATES,
  Notice,
  normalizeNotice,
  noticeBoundaries,
  noticeFields,
  noticeToApi,
  stateWhere,
} from './model';
import { NOTICE_TYPES, notices } from './schema';

const BASE = '/admin/setting/notices';
const tags = ['notices'];

const sorts = {
  id: notices.id,
  sort: notices.sort,
  title: notices.title,
  startAt: notices.startAt,
  endAt: notices.endAt,
  createdAt: notices.createdAt,
  updatedAt: notices.updatedAt,
} as const;

const ListQuery = listQuery(Object.keys(sorts) as [keyof typeof sorts, ...(keyof typeof sorts)[]], {
  q: z.string().trim().max(100).optional(),
  type: z.enum(NOTICE_TYPES).optional(),
  state: z.enum(NOTICE_STATES).optional(),
  platform: intQuery(0, 9999).optional(),
});

const CreateBody = z
  .object({
    ...noticeFields,
    endAt: noticeFields.endAt.optional().default(null),
    enabled: noticeFields.enabled.optional().default(true),
    sort: noticeFields.sort.optional().default(0),
  })
  .openapi('NoticeCreate');
const UpdateBody = z.object({ ...z.object(noticeFields).partial().shape, version }).openapi('NoticeUpdate');
const BATCH_ACTIONS = ['enable', 'disable', 'delete'] as const;
const BatchBody = batchBody(BATCH_ACTIONS);

const routes = {
  list: createRoute({
    method: 'get',
    path: BASE,
    tags,
    security,
    summary: 'List notices (filters: title, type, derived state, platform)',
    middleware: asAnyOperator,
    request: { query: ListQuery },
    responses: jsonResponse(z.object({ list: z.array(Notice), total: z.number() })),
  }),
  get: createRoute({
    method: 'get',
    path: `${BASE}/{id}`,
    tags,
    security,
    summary: 'One notice',
    middleware: asAnyOperator,
    request: { params: idParam },
    responses: jsonResponse(Notice),
  }),
  create: createRoute({
    method: 'post',
    path: BASE,
    tags,
    security,
    summary: "Create a notice (admin; a pop-up's rich text is sanitized, its platforms must exist)",
    middleware: asAdmin,
    request: { body: jsonBody(CreateBody) },
    responses: jsonResponse(Notice),
  }),
  update: createRoute({
    method: 'put',
    path: `${BASE}/{id}`,
    tags,
    security,
    summary: 'Edit a notice (admin; a stale version is 40900)',
    middleware: asAdmin,
    request: { params: idParam, body: jsonBody(UpdateBody) },
    responses: jsonResponse(Notice),
  }),
  remove: createRoute({
    method: 'delete',
    path: `${BASE}/{id}`,
    tags,
    security,
    summary: 'Delete a notice (admin)',
    middleware: asAdmin,
    request: { params: idParam },
    responses: jsonResponse(Notice),
  }),
  batch: createRoute({
    method: 'post',
    path: `${BASE}/batch`,
    tags,
    security,
    summary: 'Enable, disable or delete notices (admin): every id exists or nothing changes; one transaction',
    middleware: asAdmin,
    request: { body: jsonBody(BatchBody) },
    responses: jsonResponse(z.object({ changed: z.number() })),
  }),
};

/** After any write to notices: the site's ETag changes, and its boundaries follow the notices as they are now. */
async function touchSite(tx: Tx, tenant: number, now: Date) {
  await bumpSiteVersion(tx, tenant, now);
  await setSiteBoundaries(tx, tenant, await noticeBoundaries(tx, tenant, now));
}

/**
 * Notices (SPEC.md §2 /setting/notices): marquee lines and pop-ups the content site shows on some platforms during
 * a time window. Every operator reads them; admins write them. Their state is derived from the server's clock.
 */
export function noticeRoutes() {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(routes.list, async (c) => {
    rejectUnknownQuery(c, ListQuery);
    const q = c.req.valid('query');
    const now = c.get('deps').clock.now();
    const page = await listPage<typeof notices.$inferSelect>(c.get('deps').db, {
      table: notices,
      where: and(
        eq(notices.tenant, tenantOf(c)),
        q.ids ? inArray(notices.id, q.ids) : undefined,
        q.q ? ilike(notices.title, containsPattern(q.q)) : undefined,
        q.type ? eq(notices.type, q.type) : undefined,
        q.state ? stateWhere(q.state, now) : undefined,
        q.platform !== undefined ? sql`${notices.platforms} @> array[${q.platform}::integer]` : undefined,
      ),
      orderBy: sorts[q.sort ?? 'sort'],
      query: q,
    });
    return ok(c, { list: page.list.map((r) => noticeToApi(r, now)), total: page.total });
  });

  app.openapi(routes.get, async (c) => {
    const row = await findById<typeof notices.$inferSelect>(
      c.get('deps').db,
      notices,
      c.req.valid('param').id,
      {
        where: eq(notices.tenant, tenantOf(c)),
      },
    );
    return ok(c, noticeToApi(row, c.get('deps').clock.now()));
  });

  app.openapi(routes.create, async (c) => {
    const { db, clock } = c.get('deps');
    const tenant = tenantOf(c);
    const values = normalizeNotice(c.req.valid('json'));
    const row = await transaction(db, async (tx) => {
      await assertKnownPlatforms(tx, tenant, values.platforms, 'platforms');
      const now = clock.now();
      const [r] = await tx
        .insert(notices)
        .values({ ...values, tenant, createdAt: now, updatedAt: now })
        .returning();
      await touchSite(tx, tenant, now);
      return r;
    });
    return ok(c, noticeToApi(row, clock.now()));
  });

  app.openapi(routes.update, async (c) => {
    const { db, clock } = c.get('deps');
    const tenant = tenantOf(c);
    const { id } = c.req.valid('param');
    const { version: v, ...patch } = c.req.valid('json');
    const row = await transaction(db, async (tx) => {
      const [current] = await tx
        .select()
        .from(notices)
        .where(and(eq(notices.id, id), eq(notices.tenant, tenant)))
        .for('update');
      if (!current) throw notFound();
      if (current.version !== v) throw conflict();
      const values = normalizeNotice({ ...current, ...patch });
      await assertKnownPlatforms(tx, tenant, values.platforms, 'platforms', current.platforms);
      const now = clock.now();
      const [r] = await tx
        .update(notices)
        .set({ ...values, version: current.version + 1, updatedAt: now })
        .where(eq(notices.id, id))
        .returning();
      await touchSite(tx, tenant, now);
      return r;
    });
    return ok(c, noticeToApi(row, clock.now()));
  });

  app.openapi(routes.remove, async (c) => {
    const { db, clock } = c.get('deps');
    const tenant = tenantOf(c);
    const { id } = c.req.valid('param');
    const row = await transaction(db, async (tx) => {
      const [r] = await tx
        .delete(notices)
        .where(and(eq(notices.id, id), eq(notices.tenant, tenant)))
        .returning();
      if (!r) throw notFound();
      await touchSite(tx, tenant, clock.now());
      return r;
    });
    return ok(c, noticeToApi(row, clock.now()));
  });

  app.openapi(routes.batch, async (c) => {
    const { db, clock } = c.get('deps');
    const tenant = tenantOf(c);
    const { action, ids } = c.req.valid('json');
    const changed = await transaction(db, async (tx) => {
      const unique = await lockTenantRows(tx, notices, ids, tenant);
      const now = clock.now();
      let n: number;
      if (action === 'delete') {
        n = (await tx.delete(notices).where(inArray(notices.id, unique)).returning({ id: notices.id }))
          .length;
      } else {
        const enabled = action === 'enable';
        n = (
          await tx
            .update(notices)
            .set({ enabled, version: sql`${notices.version} + 1`, updatedAt: now })
            .where(and(inArray(notices.id, unique), ne(notices.enabled, enabled)))
            .returning({ id: notices.id })
        ).length;
      }
      if (n) await touchSite(tx, tenant, now);
      return n;
    });
    return ok(c, { changed });
  });

  return app;
}
