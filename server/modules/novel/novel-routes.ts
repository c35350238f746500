import { OpenAPIHono, z } from '@hono/zod-openapi';
import { and, asc, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { Code } from '../../../common/codes';
import { SERIAL_STATUSES } from '../../../common/novel';
import { audit, auditedRoute, diff, snapshot } from '../../core/audit';
import { can, security } from '../../core/auth';
import type { AppEnv } from '../../core/context';
import { idParam, listQuery, updateVersioned } from '../../core/crud';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { ApiError, invalidField, notFound } from '../../core/errors';
import { type ReviewBatchAction, reviewRoutes } from '../../core/review';
import { createRoute } from '../../core/route';
import {
  assertRefs,
  dateQuery,
  guarded,
  id,
  intQuery,
  rangeEnd,
  rangeStart,
  rejectUnknownQuery,
  transaction,
  version,
} from '../../core/shared';
import { cappedCount, listTotalShape } from '../../core/totals';
import type { Executor } from '../../db/types';
import { Novel, novelFields, novelSelect, novelToApi, readNovel, titleOrAuthorContains } from './model';
import { NOVEL_STATUSES, novelColumns, novels } from './schema';

const tags = ['novels'];

const sorts = {
  id: novels.id,
  title: novels.title,
  author: novels.author,
  createdAt: novels.createdAt,
  updatedAt: novels.updatedAt,
  publishedAt: novels.publishedAt,
  views: novels.views,
  wordCount: novels.wordCount,
  chapterCount: novels.chapterCount,
} as const;
type SortKey = keyof typeof sorts;

const ListQuery = listQuery(Object.keys(sorts) as [SortKey, ...SortKey[]], {
  /** Title or author contains (Chinese or Latin, any case). */
  q: z.string().trim().max(64).optional(),
  author: z.string().trim().min(1).max(64).optional(),
  columnId: intQuery().optional(),
  tag: z.string().trim().min(1).max(32).optional(),
  status: z.enum(NOVEL_STATUSES).optional(),
  serialStatus: z.enum(SERIAL_STATUSES).optional(),
  createdFrom: dateQuery.optional(),
  createdTo: dateQuery.optional(),
});

const CreateBody = z.object({
  ...novelFields,
  author: novelFields.author.optional().default(''),
  cover: novelFields.cover.optional().default(''),
  columnId: novelFields.columnId.optional().default(null),
  tags: novelFields.tags.optional().default([]),
  description: novelFields.description.optional().default(''),
  serialStatus: novelFields.serialStatus.optional().default('ongoing'),
  freeChapters: novelFields.freeChapters.optional().default(0),
});
const UpdateBody = z.object({ ...z.object(novelFields).partial().shape, version });

const idOf = { params: idParam };

const routes = {
  list: createRoute({
    method: 'get',
    path: '/',
    tags,
    summary:
      'List novels (filters: q = title or author contains, author, column, tag, statuses, created range)',
    middleware: can('novel.read'),
    security,
    request: { query: ListQuery },
    responses: jsonResponse(z.object({ list: z.array(Novel), ...listTotalShape })),
  }),
  get: createRoute({
    method: 'get',
    path: '/{id}',
    tags,
    summary: 'One novel',
    middleware: can('novel.read'),
    security,
    request: idOf,
    responses: jsonResponse(Novel),
  }),
  create: createRoute(
    auditedRoute({
      method: 'post',
      path: '/',
      tags,
      summary: 'Create a novel (status pending: it enters the review list)',
      middleware: can('novel.edit'),
      security,
      request: { body: jsonBody(CreateBody) },
      responses: jsonResponse(Novel),
    }),
  ),
  update: createRoute(
    auditedRoute({
      method: 'put',
      path: '/{id}',
      tags,
      summary: 'Edit a novel (optimistic locking on version)',
      middleware: can('novel.edit'),
      security,
      request: { ...idOf, body: jsonBody(UpdateBody) },
      responses: jsonResponse(Novel),
    }),
  ),
  remove: createRoute(
    auditedRoute({
      method: 'delete',
      path: '/{id}',
      tags,
      summary: 'Delete a novel with its chapters (admin)',
      middleware: can('novel.settings'),
      security,
      request: idOf,
      responses: jsonResponse(z.object({ id: z.number() })),
    }),
  ),
};

/** Going online (approve, online) needs at least one chapter: readers would open an empty book. */
const noChapters = (novelId?: number) =>
  new ApiError(
    Code.CONFLICT,
    novelId === undefined ? 'novel.noChapters' : 'novel.noChaptersBatch',
    { id: novelId ?? '' },
    { id: novelId ?? null, chapterCount: 0 },
  );

function listWhere(q: z.infer<typeof ListQuery>): SQL | undefined {
  const where: (SQL | undefined)[] = [];
  if (q.ids) where.push(inArray(novels.id, q.ids));
  if (q.q) where.push(titleOrAuthorContains(q.q));
  if (q.author) where.push(eq(novels.author, q.author));
  if (q.columnId !== undefined) where.push(eq(novels.columnId, q.columnId));
  if (q.tag) where.push(sql`${novels.tags} @> array[${q.tag}::text]`);
  if (q.status) where.push(eq(novels.status, q.status));
  if (q.serialStatus) where.push(eq(novels.serialStatus, q.serialStatus));
  if (q.createdFrom && q.createdTo && rangeStart(q.createdFrom) >= rangeEnd(q.createdTo))
    throw invalidField('createdTo', 'field.range');
  if (q.createdFrom) where.push(gte(novels.createdAt, rangeStart(q.createdFrom)));
  if (q.createdTo) where.push(lt(novels.createdAt, rangeEnd(q.createdTo)));
  return and(...where);
}

async function checkRefs(db: Executor, body: { columnId?: number | null }) {
  if (body.columnId != null) await assertRefs(db, novelColumns, novelColumns.id, [body.columnId], 'columnId');
}

async function mustReadNovel(db: Executor, novelId: number) {
  const novel = await readNovel(db, novelId);
  if (!novel) throw notFound(); // deleted between the change and this read
  return novel;
}

/** The novel batch's own actions beside the review transitions: setColumn (columnId), delete (admin). */
const batchActions: Record<string, ReviewBatchAction<{ columnId?: number }>> = {
  setColumn: async (tx, ids, body, c) => {
    if (body.columnId === undefined) throw invalidField('columnId', 'field.required');
    await checkRefs(tx, body);
    const changed = await tx
      .update(novels)
      .set({
        columnId: body.columnId,
        version: sql`${novels.version} + 1`,
        updatedAt: c.get('deps').clock.now(),
      })
      .where(and(inArray(novels.id, ids), sql`${novels.columnId} is distinct from ${body.columnId}`))
      .returning({ id: novels.id });
    return changed.length;
  },
  delete: async (tx, ids) => {
    const changed = await tx.delete(novels).where(inArray(novels.id, ids)).returning({ id: novels.id });
    return changed.length;
  },
};

/** The novels: list, one, create, update, delete (admin), and the review kit's batch and transitions. */
export function novelRoutes() {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(routes.list, async (c) => {
    rejectUnknownQuery(c, ListQuery);
    const q = c.req.valid('query');
    const { db } = c.get('deps');
    const where = listWhere(q);
    const pageSize = q.ids ? Math.max(q.pageSize, q.ids.length) : q.pageSize;
    const col = sorts[(q.sort ?? 'id') as SortKey];
    const order = q.order === 'desc' ? [desc(col), desc(novels.id)] : [asc(col), asc(novels.id)];
    const [rows, total] = await Promise.all([
      db
        .select(novelSelect)
        .from(novels)
        .leftJoin(novelColumns, eq(novelColumns.id, novels.columnId))
        .where(where)
        .orderBy(...order)
        .limit(pageSize)
        .offset((q.page - 1) * pageSize),
      cappedCount(db, novels, where),
    ]);
    return ok(c, { list: rows.map(novelToApi), ...total });
  });

  app.openapi(routes.get, async (c) => {
    return ok(c, await mustReadNovel(c.get('deps').db, c.req.valid('param').id));
  });

  app.openapi(routes.create, async (c) => {
    const { db, clock } = c.get('deps');
    const body = c.req.valid('json');
    const novelId = await guarded(() =>
      transaction(db, async (tx) => {
        await checkRefs(tx, body);
        const [row] = await tx
          .insert(novels)
          .values({ ...body, status: 'pending', createdAt: clock.now(), updatedAt: clock.now() })
          .returning({ id: novels.id });
        await audit(tx, c, {
          resource: 'novels',
          action: 'create',
          recordId: row.id,
          changes: { after: snapshot((await readNovel(tx, row.id)) ?? {}) },
        });
        return row.id;
      }),
    );
    return ok(c, await mustReadNovel(db, novelId));
  });

  app.openapi(routes.update, async (c) => {
    const { db, clock } = c.get('deps');
    const { id: novelId } = c.req.valid('param');
    const { version: v, ...fields } = c.req.valid('json');
    await guarded(() =>
      transaction(db, async (tx) => {
        await checkRefs(tx, fields);
        const before = await readNovel(tx, novelId);
        await updateVersioned(tx, novels, novelId, v, { ...fields, updatedAt: clock.now() });
        const after = await readNovel(tx, novelId);
        await audit(tx, c, {
          resource: 'novels',
          action: 'update',
          recordId: novelId,
          changes: diff(before ?? {}, after ?? {}),
        });
      }),
    );
    return ok(c, await mustReadNovel(db, novelId));
  });

  app.openapi(routes.remove, async (c) => {
    const { id: novelId } = c.req.valid('param');
    const rows = await transaction(c.get('deps').db, async (tx) => {
      const before = await readNovel(tx, novelId);
      const deleted = await tx.delete(novels).where(eq(novels.id, novelId)).returning({ id: novels.id });
      if (deleted.length)
        await audit(tx, c, {
          resource: 'novels',
          action: 'delete',
          recordId: novelId,
          changes: { before: snapshot(before ?? {}) },
        });
      return deleted;
    });
    if (!rows.length) throw notFound();
    return ok(c, { id: novelId });
  });

  app.route(
    '/',
    reviewRoutes({
      table: novels,
      tag: 'novels',
      guard: can('novel.review'),
      security,
      schema: Novel,
      read: readNovel,
      messages: 'novel',
      precondition: {
        actions: ['approve', 'online'],
        columns: { chapterCount: novels.chapterCount },
        check: (row, novelId) => (row.chapterCount === 0 ? noChapters(novelId) : undefined),
        summary: ' with at least one chapter',
      },
      batch: {
        summary:
          'approve, reject (reason), offline, online, setColumn (columnId), delete (admin): one transaction, all or nothing',
        fields: { columnId: id.optional() },
        actions: batchActions,
        guard: can('novel.batch'),
        restricted: { delete: 'novel.settings' },
      },
    }),
  );

  return app;
}
