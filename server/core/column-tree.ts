import { OpenAPIHono, z } from '@hono/zod-openapi';
import { and, eq, ilike, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { Code } from '../../common/codes';
import { rowsOf } from '../db/migrate';
import type { Executor } from '../db/types';
import { audit, auditedRoute, diff, snapshot } from './audit';
import type { Guard } from './auth';
import type { ColumnTable } from './column-table';
import type { AppEnv } from './context';
import { findById, idParam, isUniqueViolation, listPage, listQuery, updateVersioned } from './crud';
import { jsonBody, jsonResponse, ok } from './envelope';
import { ApiError, conflict, invalidField, notFound } from './errors';
import { createRoute } from './route';
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

/** The items filed under columns: a `columnId` referencing the column table, and optimistic-locking stamps. */
type ItemTable = PgTable & {
  id: AnyPgColumn;
  columnId: AnyPgColumn;
  version: AnyPgColumn;
  updatedAt: AnyPgColumn;
};

export interface ColumnTreeDecl {
  /** Path under the sub-app's mount point ('' or omitted: the mount point itself, e.g. `/app/admin/movie/columns`). */
  path?: string;
  /** OpenAPI tag, e.g. `movie columns`. */
  tag: string;
  /** Name of the answer's OpenAPI schema, e.g. `MovieColumn`. */
  schemaName: string;
  table: ColumnTable;
  /** The items' table and what they are called in the summaries (`movie`, `novel`). */
  items: ItemTable;
  itemName: string;
  /** Who may read (every operator) and who may change the tree (admins). */
  read: Guard;
  write: Guard;
  security: Record<string, string[]>[];
}

/**
 * The routes of a column tree: list (filter by parent, `root` for the top level), get, create, update (never under
 * itself or a descendant; optimistic locking), delete (refused with 40900 while it has items or sub-columns) and
 * move-items (every item of a column to another one, in one transaction, bumping the items' versions).
 */
export function columnTreeRoutes(decl: ColumnTreeDecl) {
  const { path: BASE = '', table, items, read, write, security } = decl;
  const tags = [decl.tag];

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
    .openapi(decl.schemaName);

  const sorts = {
    id: table.id,
    name: table.name,
    sort: table.sort,
    itemCount: table.itemCount,
    createdAt: table.createdAt,
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
  const resource = tags[0];
  const route = <T extends object>(r: T) => ({ tags, security, ...r });

  const routes = {
    list: createRoute(
      route({
        method: 'get' as const,
        path: BASE || '/',
        summary: 'List columns (filter parentId=root for the top level)',
        middleware: read,
        request: { query: ListQuery },
        responses: jsonResponse(z.object({ list: z.array(Column), total: z.number() })),
      }),
    ),
    get: createRoute(
      route({
        method: 'get' as const,
        path: `${BASE}/{id}`,
        summary: 'One column',
        middleware: read,
        request: idOf,
        responses: jsonResponse(Column),
      }),
    ),
    create: createRoute(
      auditedRoute(
        route({
          method: 'post' as const,
          path: BASE || '/',
          summary: 'Create a column (admin)',
          middleware: write,
          request: { body: jsonBody(CreateBody) },
          responses: jsonResponse(Column),
        }),
      ),
    ),
    update: createRoute(
      auditedRoute(
        route({
          method: 'put' as const,
          path: `${BASE}/{id}`,
          summary: 'Edit a column (admin; optimistic locking; never under itself or its sub-columns)',
          middleware: write,
          request: { ...idOf, body: jsonBody(UpdateBody) },
          responses: jsonResponse(Column),
        }),
      ),
    ),
    remove: createRoute(
      auditedRoute(
        route({
          method: 'delete' as const,
          path: `${BASE}/{id}`,
          summary: 'Delete a column (admin); refused with 40900 while it has items or sub-columns',
          middleware: write,
          request: idOf,
          responses: jsonResponse(Column),
        }),
      ),
    ),
    moveItems: createRoute(
      auditedRoute(
        route({
          method: 'post' as const,
          path: `${BASE}/{id}/move-items`,
          summary: `Move every ${decl.itemName} of this column to another column (admin), one transaction`,
          middleware: write,
          request: { ...idOf, body: jsonBody(z.object({ to: id })) },
          responses: jsonResponse(z.object({ changed: z.number() })),
        }),
      ),
    ),
  };

  const toApi = (r: Record<string, any>) =>
    ({ ...r, createdAt: iso(r.createdAt) as string, updatedAt: iso(r.updatedAt) as string }) as z.infer<
      typeof Column
    >;

  /** True when `candidate` is `columnId` or one of its descendants. */
  async function isSelfOrDescendant(db: Executor, columnId: number, candidate: number) {
    const rows = await db.execute(sql`
      with recursive up(id, parent_id, depth) as (
        select id, parent_id, 0 from ${table} where id = ${candidate}
        union all
        select c.id, c.parent_id, up.depth + 1 from ${table} c join up on c.id = up.parent_id where up.depth < 100
      )
      select 1 from up where id = ${columnId} limit 1`);
    return rowsOf(rows).length > 0;
  }

  function saveErrors(err: unknown): never {
    if (isUniqueViolation(err)) throw duplicate('name');
    if (isForeignKeyViolation(err)) throw conflict();
    throw err;
  }

  const app = new OpenAPIHono<AppEnv>();

  app.openapi(routes.list, async (c) => {
    rejectUnknownQuery(c, ListQuery);
    const q = c.req.valid('query');
    const where: (SQL | undefined)[] = [];
    if (q.ids) where.push(inArray(table.id, q.ids));
    if (q.q) where.push(ilike(table.name, containsPattern(q.q)));
    if (q.parentId === 'root') where.push(isNull(table.parentId));
    else if (q.parentId !== undefined) where.push(eq(table.parentId, q.parentId));
    if (q.visible !== undefined) where.push(eq(table.visible, q.visible));
    const page = await listPage<Record<string, any>>(c.get('deps').db, {
      table,
      where: and(...where),
      orderBy: sorts[(q.sort ?? 'sort') as keyof typeof sorts],
      query: q,
    });
    return ok(c, { list: page.list.map(toApi), total: page.total });
  });

  app.openapi(routes.get, async (c) => {
    const row = await findById<Record<string, any>>(c.get('deps').db, table, c.req.valid('param').id);
    return ok(c, toApi(row));
  });

  app.openapi(routes.create, async (c) => {
    const { db, clock } = c.get('deps');
    const body = c.req.valid('json');
    try {
      const row = await transaction(db, async (tx) => {
        if (body.parentId !== null) await assertRefs(tx, table, table.id, [body.parentId], 'parentId');
        const [r] = await tx
          .insert(table)
          .values({ ...body, createdAt: clock.now(), updatedAt: clock.now() })
          .returning();
        await audit(tx, c, { resource, action: 'create', recordId: r.id, changes: { after: snapshot(r) } });
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
          await assertRefs(tx, table, table.id, [patch.parentId], 'parentId');
          if (await isSelfOrDescendant(tx, columnId, patch.parentId))
            throw invalidField('parentId', 'column.cycle');
        }
        const [before] = await tx.select().from(table).where(eq(table.id, columnId)).for('update');
        const r = await updateVersioned<Record<string, unknown>>(tx, table, columnId, v, {
          ...patch,
          updatedAt: clock.now(),
        });
        await audit(tx, c, {
          resource,
          action: 'update',
          recordId: columnId,
          changes: diff(before ?? {}, r),
        });
        return r;
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
        const [col] = await tx.select().from(table).where(eq(table.id, columnId)).for('update');
        if (!col) throw notFound();
        const [{ n: children }] = await tx
          .select({ n: countOf })
          .from(table)
          .where(eq(table.parentId, columnId));
        if (children > 0)
          throw new ApiError(Code.CONFLICT, 'column.hasChildren', { count: children }, { children });
        const [{ n: held }] = await tx
          .select({ n: countOf })
          .from(items as PgTable)
          .where(eq(items.columnId, columnId));
        if (held > 0) throw new ApiError(Code.CONFLICT, 'column.hasItems', { count: held }, { items: held });
        await tx.delete(table).where(eq(table.id, columnId));
        await audit(tx, c, {
          resource,
          action: 'delete',
          recordId: columnId,
          changes: { before: snapshot(col) },
        });
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
    if (to === columnId) throw invalidField('to', 'column.sameTarget', undefined, 'label.targetColumn');
    try {
      const changed = await transaction(db, async (tx) => {
        const [col] = await tx.select({ id: table.id }).from(table).where(eq(table.id, columnId));
        if (!col) throw notFound();
        if (!(await tx.select({ id: table.id }).from(table).where(eq(table.id, to))).length)
          throw invalidField('to', 'field.notFound', undefined, 'label.targetColumn');
        const rows = await tx
          .update(items)
          .set({ columnId: to, version: sql`${items.version} + 1`, updatedAt: clock.now() } as any)
          .where(eq(items.columnId, columnId))
          .returning({ id: items.id });
        await audit(tx, c, {
          resource,
          action: 'move-items',
          recordId: columnId,
          changes: { to, ids: rows.slice(0, 1000).map((r) => r.id), count: rows.length },
        });
        return rows.length;
      });
      return ok(c, { changed });
    } catch (err) {
      saveErrors(err);
    }
  });

  return app;
}
