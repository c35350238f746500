import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { type AnyColumn, and, eq, inArray, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../db/types';
import {
  duplicate,
  isForeignKeyViolation,
  iso,
  rejectUnknownQuery,
  transaction,
  version,
} from './shared';
import type { asAnyOperator } from '../modules/operators';
import type { AppContext, AppEnv } from './context';
import {
  findById,
  idParam,
  isUniqueViolation,
  type ListParams,
  listPage,
  listQuery,
  updateVersioned,
} from './crud';
import { jsonBody, jsonResponse, ok } from './envelope';
import { conflict, notFound } from './errors';

type Row = Record<string, any>;
/** A role guard of the operators module (`asAnyOperator`, `asAdmin`). */
type Guard = typeof asAnyOperator;
type Table = PgTable & { id: AnyColumn; version: AnyColumn; createdAt: AnyColumn; updatedAt: AnyColumn };

/**
 * What a resource declares; the factory makes its five routes (list, get, create, update with `version`, delete)
 * with their OpenAPI documents, roles, allow-listed query, optimistic locking and error mapping (DESIGN.md §6).
 * A module adds its own rules through the hooks and its own actions on the returned app.
 */
export interface ResourceDecl<T extends Table, S extends Record<string, AnyColumn>, F extends z.ZodRawShape> {
  /** Path under /app, e.g. `/admin/movie/sources`. */
  path: string;
  /** OpenAPI tag and the name in the summaries. */
  tag: string;
  table: T;
  /** The answer's schema (named with `.openapi('Name')`). */
  schema: z.ZodObject;
  /** Allow-listed sort fields → columns; `defaultSort` when the query names none. */
  sorts: S;
  defaultSort: keyof S & string;
  /** The list's own filters (zod, from the query string) and how they filter. */
  filters: F;
  where?: (q: z.infer<z.ZodObject<F>>) => (SQL | undefined)[];
  /** Editable fields. `create` is the create body (defaults applied); the update body is them all optional. */
  fields: z.ZodRawShape;
  create: z.ZodObject;
  /** Row → answer (default: the row with its timestamps as ISO strings). */
  toApi?: (row: Row) => Row;
  /** Who may read, who may write (middlewares from the operators module). */
  read: Guard;
  write: Guard;
  security: Record<string, string[]>[];
  /** The field a unique violation is about (its message names it). */
  unique?: string;
  /** Checks a create or update body in the transaction before it is written (e.g. references exist, no cycles). */
  beforeSave?: (tx: Tx, body: Row, ctx: { c: AppContext; id?: number }) => Promise<void>;
  /** Runs in the delete's transaction with the locked row, before it is deleted: refuse with an ApiError. */
  beforeDelete?: (tx: Tx, row: Row, c: AppContext) => Promise<void>;
  /** Summaries of the routes where the rule is worth saying (the default says what the route does). */
  summaries?: Partial<Record<'list' | 'get' | 'create' | 'update' | 'remove', string>>;
}

export const isoTimestamps = (r: Row) => ({
  ...r,
  createdAt: iso(r.createdAt) as string,
  updatedAt: iso(r.updatedAt) as string,
});

/** Unique and foreign-key violations are the client's conflict, not a server error. */
export function saveErrors(unique?: string) {
  return (err: unknown): never => {
    if (unique && isUniqueViolation(err)) throw duplicate(unique);
    if (isForeignKeyViolation(err)) throw conflict();
    throw err;
  };
}

export function crudResource<T extends Table, S extends Record<string, AnyColumn>, F extends z.ZodRawShape>(
  decl: ResourceDecl<T, S, F>,
) {
  const { path, tag, table, schema, read, write, security } = decl;
  const toApi = decl.toApi ?? isoTimestamps;
  const onError = saveErrors(decl.unique);
  const ListQuery = listQuery(Object.keys(decl.sorts) as [string, ...string[]], decl.filters);
  const UpdateBody = z.object({ ...z.object(decl.fields).partial().shape, version });
  const idOf = { params: idParam };
  const s = decl.summaries ?? {};
  const base = { tags: [tag], security };

  const routes = {
    list: createRoute({
      ...base,
      method: 'get',
      path,
      summary: s.list ?? `List ${tag}`,
      middleware: read,
      request: { query: ListQuery },
      responses: jsonResponse(z.object({ list: z.array(schema), total: z.number() })),
    }),
    get: createRoute({
      ...base,
      method: 'get',
      path: `${path}/{id}`,
      summary: s.get ?? `One of ${tag}`,
      middleware: read,
      request: idOf,
      responses: jsonResponse(schema),
    }),
    create: createRoute({
      ...base,
      method: 'post',
      path,
      summary: s.create ?? `Create one of ${tag}`,
      middleware: write,
      request: { body: jsonBody(decl.create) },
      responses: jsonResponse(schema),
    }),
    update: createRoute({
      ...base,
      method: 'put',
      path: `${path}/{id}`,
      summary: s.update ?? `Edit one of ${tag} (a stale version is 40900)`,
      middleware: write,
      request: { ...idOf, body: jsonBody(UpdateBody) },
      responses: jsonResponse(schema),
    }),
    remove: createRoute({
      ...base,
      method: 'delete',
      path: `${path}/{id}`,
      summary: s.remove ?? `Delete one of ${tag}`,
      middleware: write,
      request: idOf,
      responses: jsonResponse(schema),
    }),
  };

  const app = new OpenAPIHono<AppEnv>();

  app.openapi(routes.list, async (c) => {
    rejectUnknownQuery(c, ListQuery);
    const q = c.req.valid('query') as ListParams & { sort?: string } & z.infer<z.ZodObject<F>>;
    const where = [q.ids ? inArray(table.id, q.ids) : undefined, ...(decl.where?.(q) ?? [])];
    const page = await listPage<Row>(c.get('deps').db, {
      table,
      where: and(...where),
      orderBy: decl.sorts[(q.sort ?? decl.defaultSort) as keyof S],
      query: q,
    });
    return ok(c, { list: page.list.map(toApi), total: page.total });
  });

  app.openapi(routes.get, async (c) => {
    return ok(c, toApi(await findById<Row>(c.get('deps').db, table, c.req.valid('param').id)));
  });

  app.openapi(routes.create, async (c) => {
    const { db, clock } = c.get('deps');
    const body = c.req.valid('json') as Row;
    try {
      const row = await transaction(db, async (tx) => {
        await decl.beforeSave?.(tx, body, { c });
        const [r] = await tx
          .insert(table)
          .values({ ...body, createdAt: clock.now(), updatedAt: clock.now() } as any)
          .returning();
        return r as Row;
      });
      return ok(c, toApi(row));
    } catch (err) {
      return onError(err);
    }
  });

  app.openapi(routes.update, async (c) => {
    const { db, clock } = c.get('deps');
    const recordId = c.req.valid('param').id;
    const { version: v, ...patch } = c.req.valid('json') as Row;
    try {
      const row = await transaction(db, async (tx) => {
        await decl.beforeSave?.(tx, patch, { c, id: recordId });
        return updateVersioned<Row>(tx, table, recordId, v, { ...patch, updatedAt: clock.now() });
      });
      return ok(c, toApi(row));
    } catch (err) {
      return onError(err);
    }
  });

  app.openapi(routes.remove, async (c) => {
    const recordId = c.req.valid('param').id;
    try {
      const row = await transaction(c.get('deps').db, async (tx) => {
        const [r] = await tx
          .select()
          .from(table as PgTable)
          .where(eq(table.id, recordId))
          .for('update');
        if (!r) throw notFound();
        await decl.beforeDelete?.(tx, r, c);
        await tx.delete(table).where(eq(table.id, recordId));
        return r as Row;
      });
      return ok(c, toApi(row));
    } catch (err) {
      return onError(err);
    }
  });

  return app;
}
