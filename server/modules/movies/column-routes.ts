import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { and, eq, ilike, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { Code } from '../../core/codes';
import type { AppEnv } from '../../core/context';
import { findById, idParam, isUniqueViolation, listPage, listQuery, updateVersioned } from '../../core/crud';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { ApiError, conflict, invalidField, notFound } from '../../core/errors';
import type { Executor } from '../../db/types';
import { asAdmin, asAnyOperator, security } from '../operators';
import { movieColumns, movies } from './schema';
import {
  assertRefs,
  boolQuery,
  containsPattern,
  countOf,
  duplicate,
  id,
  intQuery,
  isForeignKeyViolation,
  iso,
  rejectUnknownQuery,
  transaction,
  version,
} from './shared';

const BASE = '/admin/movie/columns';
const tags = ['movie columns'];

const Column = z
  .object({
    id: z.number(),
    parentId: z.number().nullable(),
    name: z.string(),
    sort: z.number(),
    visible: z.boolean(),
    itemCount: z.number(),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number(),
  })
  .openapi('MovieColumn');

const sorts = {
  id: movieColumns.id,
  name: movieColumns.name,
  sort: movieColumns.sort,
  itemCount: movieColumns.itemCount,
  createdAt: movieColumns.createdAt,
} as const;

const ListQuery = listQuery(Object.keys(sorts) as [keyof typeof sorts, ...(keyof typeof sorts)[]], {
  q: z.string().trim().max(64).optional(),
  /** A parent's id, or `root` for the top level. */
  parentId: z.union([z.literal('root'), intQuery()]).optional(),
  visible: boolQuery.optional(),
});

const fields = {
  name: z.string().trim().min(1).max(64),
  parentId: id.nullable(),
  sort: z.number().int().min(-1_000_000).max(1_000_000),
  visible: z.boolean(),
};
const CreateBody = z.object({
  ...fields,
  parentId: fields.parentId.optional().default(null),
  sort: fields.sort.optional().default(0),
  visible: fields.visible.optional().default(true),
});
const UpdateBody = z.object({ ...z.object(fields).partial().shape, version });

const idOf = { params: idParam };
const route = <T extends object>(r: T) => ({ tags, security, ...r });

const routes = {
  list: createRoute(
    route({
      method: 'get' as const,
      path: BASE,
      summary: 'List columns (filter parentId=root for the top level)',
      middleware: asAnyOperator,
      request: { query: ListQuery },
      responses: jsonResponse(z.object({ list: z.array(Column), total: z.number() })),
    }),
  ),
  get: createRoute(
    route({
      method: 'get' as const,
      path: `${BASE}/{id}`,
      summary: 'One column',
      middleware: asAnyOperator,
      request: idOf,
      responses: jsonResponse(Column),
    }),
  ),
  create: createRoute(
    route({
      method: 'post' as const,
      path: BASE,
      summary: 'Create a column (admin)',
      middleware: asAdmin,
      request: { body: jsonBody(CreateBody) },
      responses: jsonResponse(Column),
    }),
  ),
  update: createRoute(
    route({
      method: 'put' as const,
      path: `${BASE}/{id}`,
      summary: 'Edit a column (admin; optimistic locking; never under itself or its sub-columns)',
      middleware: asAdmin,
      request: { ...idOf, body: jsonBody(UpdateBody) },
      responses: jsonResponse(Column),
    }),
  ),
  remove: createRoute(
    route({
      method: 'delete' as const,
      path: `${BASE}/{id}`,
      summary: 'Delete a column (admin); refused with 40900 while it has items or sub-columns',
      middleware: asAdmin,
      request: idOf,
      responses: jsonResponse(Column),
    }),
  ),
  moveItems: createRoute(
    route({
      method: 'post' as const,
      path: `${BASE}/{id}/move-items`,
      summary: 'Move every movie of this column to another column (admin), one transaction',
      middleware: asAdmin,
      request: { ...idOf, body: jsonBody(z.object({ to: id })) },
      responses: jsonResponse(z.object({ changed: z.number() })),
    }),
  ),
};

function toApi(r: Record<string, any>) {
  return { ...r, createdAt: iso(r.createdAt) as string, updatedAt: iso(r.updatedAt) as string } as z.infer<
    typeof Column
  >;
}

/** True when `candidate` is `columnId` or one of its descendants. */
async function isSelfOrDescendant(db: Executor, columnId: number, candidate: number) {
  const rows = await db.execute(sql`
    with recursive up(id, parent_id, depth) as (
      select id, parent_id, 0 from movie_columns where id = ${candidate}
      union all
      select c.id, c.parent_id, up.depth + 1 from movie_columns c join up on c.id = up.parent_id where up.depth < 100
    )
    select 1 from up where id = ${columnId} limit 1`);
  return ((rows as any).rows ?? rows).length > 0;
}

function saveErrors(err: unknown): never {
  if (isUniqueViolation(err)) throw duplicate('name');
  if (isForeignKeyViolation(err)) throw conflict();
  throw err;
}

export function columnRoutes() {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(routes.list, async (c) => {
    rejectUnknownQuery(c, ListQuery);
    const q = c.req.valid('query');
    const where: (SQL | undefined)[] = [];
    if (q.ids) where.push(inArray(movieColumns.id, q.ids));
    if (q.q) where.push(ilike(movieColumns.name, containsPattern(q.q)));
    if (q.parentId === 'root') where.push(isNull(movieColumns.parentId));
    else if (q.parentId !== undefined) where.push(eq(movieColumns.parentId, q.parentId));
    if (q.visible !== undefined) where.push(eq(movieColumns.visible, q.visible));
    const page = await listPage<typeof movieColumns.$inferSelect>(c.get('deps').db, {
      table: movieColumns,
      where: and(...where),
      orderBy: sorts[(q.sort ?? 'sort') as keyof typeof sorts],
      query: q,
    });
    return ok(c, { list: page.list.map(toApi), total: page.total });
  });

  app.openapi(routes.get, async (c) => {
    const row = await findById<typeof movieColumns.$inferSelect>(
      c.get('deps').db,
      movieColumns,
      c.req.valid('param').id,
    );
    return ok(c, toApi(row));
  });

  app.openapi(routes.create, async (c) => {
    const { db, clock } = c.get('deps');
    const body = c.req.valid('json');
    try {
      const row = await transaction(db, async (tx) => {
        if (body.parentId !== null)
          await assertRefs(tx, movieColumns, movieColumns.id, [body.parentId], 'parentId');
        const [r] = await tx
          .insert(movieColumns)
          .values({ ...body, createdAt: clock.now(), updatedAt: clock.now() })
          .returning();
        return r;
      });
      return ok(c, toApi(row));
    } catch (err) {
      saveErrors(err);
    }
  });

  app.openapi(routes.update, async (c) => {
    const { db, clock } = c.get('deps');
    const { id: columnId } = c.req.valid('param');
    const { version: v, ...patch } = c.req.valid('json');
    try {
      const row = await transaction(db, async (tx) => {
        if (patch.parentId != null) {
          await assertRefs(tx, movieColumns, movieColumns.id, [patch.parentId], 'parentId');
          if (await isSelfOrDescendant(tx, columnId, patch.parentId))
            throw invalidField('parentId', 'column.cycle');
        }
        return updateVersioned<Record<string, unknown>>(tx, movieColumns, columnId, v, {
          ...patch,
          updatedAt: clock.now(),
        });
      });
      return ok(c, toApi(row));
    } catch (err) {
      saveErrors(err);
    }
  });

  app.openapi(routes.remove, async (c) => {
    const { id: columnId } = c.req.valid('param');
    try {
      const row = await transaction(c.get('deps').db, async (tx) => {
        const [col] = await tx.select().from(movieColumns).where(eq(movieColumns.id, columnId)).for('update');
        if (!col) throw notFound();
        const [{ n: children }] = await tx
          .select({ n: countOf })
          .from(movieColumns)
          .where(eq(movieColumns.parentId, columnId));
        if (children > 0)
          throw new ApiError(Code.CONFLICT, 'column.hasChildren', { count: children }, { children });
        const [{ n: items }] = await tx
          .select({ n: countOf })
          .from(movies)
          .where(eq(movies.columnId, columnId));
        if (items > 0) throw new ApiError(Code.CONFLICT, 'column.hasItems', { count: items }, { items });
        await tx.delete(movieColumns).where(eq(movieColumns.id, columnId));
        return col;
      });
      return ok(c, toApi(row));
    } catch (err) {
      saveErrors(err);
    }
  });

  app.openapi(routes.moveItems, async (c) => {
    const { db, clock } = c.get('deps');
    const { id: columnId } = c.req.valid('param');
    const { to } = c.req.valid('json');
    if (to === columnId) throw invalidField('to', 'column.sameTarget');
    try {
      const changed = await transaction(db, async (tx) => {
        const [col] = await tx
          .select({ id: movieColumns.id })
          .from(movieColumns)
          .where(eq(movieColumns.id, columnId));
        if (!col) throw notFound();
        await assertRefs(tx, movieColumns, movieColumns.id, [to], 'to');
        const rows = await tx
          .update(movies)
          .set({ columnId: to, version: sql`${movies.version} + 1`, updatedAt: clock.now() })
          .where(eq(movies.columnId, columnId))
          .returning({ id: movies.id });
        return rows.length;
      });
      return ok(c, { changed });
    } catch (err) {
      saveErrors(err);
    }
  });

  return app;
}
