import { OpenAPIHono, z } from '@hono/zod-openapi';
import { type AnyColumn, and, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../db/types';
import { audit, auditBatch, auditedRoute, diff, snapshot } from './audit';
import type { Guard } from './auth';
import type { AppContext, AppEnv } from './context';
import {
  batchBody,
  findById,
  idParam,
  isUniqueViolation,
  type ListParams,
  listPage,
  listQuery,
  lockRows,
  updateVersioned,
} from './crud';
import { jsonBody, jsonResponse, ok } from './envelope';
import { conflict, notFound } from './errors';
import { createRoute } from './route';
import { duplicate, isForeignKeyViolation, iso, rejectUnknownQuery, transaction, version } from './shared';
import { listTotalShape } from './totals';

type Row = Record<string, any>;
type Table = PgTable & { id: AnyColumn; version: AnyColumn; createdAt: AnyColumn; updatedAt: AnyColumn };

/**
 * What a resource declares; the factory makes its five routes (list, get, create, update with `version`, delete)
 * with their OpenAPI documents, roles, allow-listed query, optimistic locking and error mapping (DESIGN.md §6).
 * A module adds its own rules through the hooks and its own actions on the returned app.
 */
export interface ResourceDecl<T extends Table, S extends Record<string, AnyColumn>, F extends z.ZodRawShape> {
  /**
   * Path under the sub-app's mount point: '' or omitted for the mount point itself (a module mounted at
   * `/admin/movie/sources` declares none), or e.g. `/things` when one sub-app serves several resources.
   */
  path?: string;
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
  where?: (q: z.infer<z.ZodObject<F>>, c: AppContext) => (SQL | undefined)[];
  /** Editable fields. `create` is the create body (defaults applied); the update body is them all optional. */
  fields: z.ZodRawShape;
  create: z.ZodObject;
  /** The update body's OpenAPI name (the create body is named by `create` itself). */
  updateName?: string;
  /** Row → answer (default: the row with its timestamps as ISO strings). */
  toApi?: (row: Row, c: AppContext) => Row;
  /**
   * Rows of one scope (e.g. the tenant): every route sees only the rows whose `field` is `value(c)` (others' ids are
   * 40400), and a create sets it.
   */
  scope?: { field: keyof T & string; value: (c: AppContext) => unknown };
  /** Who may read, who may write (middlewares from the operators module). */
  read: Guard;
  write: Guard;
  /** Who may delete one, when not `write` (e.g. operators edit, deleting is a section's settings). */
  remove?: Guard;
  security: Record<string, string[]>[];
  /** The field a unique violation is about (its message names it). */
  unique?: string;
  /**
   * Checks a create or update body in the transaction before it is written (e.g. references exist, no cycles).
   * An update has the locked `current` row (its version already checked). Answering values writes them instead of
   * the body (e.g. normalized, or a create's computed defaults).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a check answers nothing, a rewrite answers the values
  beforeSave?: (tx: Tx, body: Row, ctx: { c: AppContext; id?: number; current?: Row }) => Promise<Row | void>;
  /** Runs in the delete's transaction with the locked row, before it is deleted: refuse with an ApiError. */
  beforeDelete?: (tx: Tx, row: Row, c: AppContext) => Promise<void>;
  /** Runs in the write's transaction after the row is created, updated or deleted (e.g. bumps the site's version). */
  afterWrite?: (tx: Tx, row: Row, c: AppContext, kind: 'create' | 'update' | 'delete') => Promise<void>;
  /**
   * `POST …/batch {action, ids}` (the `write` role): the ids are locked in id order (any missing one, or out of
   * the scope, is 40400 and nothing changes), then the action runs on them in the same transaction and answers how
   * many rows changed; the route answers `{changed}`.
   */
  batch?: { summary: string; actions: Record<string, BatchAction> };
  /** Summaries of the routes where the rule is worth saying (the default says what the route does). */
  summaries?: Partial<Record<'list' | 'get' | 'create' | 'update' | 'remove', string>>;
  /**
   * The audit log (core/audit.ts): every write here is logged in its transaction, the changed fields before and
   * after. `secret`: fields to redact beyond those the name rule catches; `ignore`: columns that are no news
   * (search terms a trigger keeps, counters); `resource`: the name in the log (default `tag`).
   */
  audit?: { secret?: string[]; ignore?: string[]; resource?: string };
}

/** One action of a resource's batch: changes the locked rows `ids` and answers how many changed. */
export type BatchAction = (tx: Tx, ids: number[], c: AppContext) => Promise<number>;

/**
 * The usual batch actions on a boolean column: `on`/`off` set it (only the rows that change get a new version),
 * `delete` deletes the rows; `after` runs in the transaction when some row changed.
 */
export function switchActions<T extends Table>(
  table: T,
  field: keyof T & string,
  [on, off]: [string, string],
  after?: (tx: Tx, c: AppContext) => Promise<void>,
): Record<string, BatchAction> {
  const column = table[field] as AnyColumn;
  const changed = async (tx: Tx, c: AppContext, n: number) => {
    if (n) await after?.(tx, c);
    return n;
  };
  const set =
    (value: boolean): BatchAction =>
    async (tx, ids, c) => {
      const rows = await tx
        .update(table)
        .set({
          [field]: value,
          version: sql`${table.version} + 1`,
          updatedAt: c.get('deps').clock.now(),
        } as any)
        .where(and(inArray(table.id, ids), ne(column, value)))
        .returning({ id: table.id as PgColumn });
      return changed(tx, c, rows.length);
    };
  return {
    [on]: set(true),
    [off]: set(false),
    delete: async (tx, ids, c) => {
      const rows = await tx
        .delete(table)
        .where(inArray(table.id, ids))
        .returning({ id: table.id as PgColumn });
      return changed(tx, c, rows.length);
    },
  };
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

/**
 * A list and a get of one, for a resource whose reads are its own queries (a join, threads, kept counts) and whose
 * writes are actions rather than plain edits (the review kit, a reply, a ban): the two routes with their OpenAPI
 * documents, role, allow-listed query (an unknown parameter is 40000) and 40400 for an id the caller's scope lacks.
 * `crudResource` is the whole set for a plain table; this is its read half for the rest.
 */
export function listGetRoutes<Q extends z.ZodObject>(decl: {
  tag: string;
  schema: z.ZodObject;
  query: Q;
  guard: Guard;
  security: Record<string, string[]>[];
  summaries: { list: string; get: string };
  list: (c: AppContext, q: z.infer<Q>) => Promise<{ list: Row[]; total: number; totalExact: boolean }>;
  /** The row, or undefined when the caller may not see it (40400). */
  get: (c: AppContext, id: number) => Promise<Row | undefined>;
}) {
  const base = { tags: [decl.tag], security: decl.security, middleware: decl.guard };
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(
    createRoute({
      ...base,
      method: 'get',
      path: '/',
      summary: decl.summaries.list,
      request: { query: decl.query },
      responses: jsonResponse(z.object({ list: z.array(decl.schema), ...listTotalShape })),
    }),
    async (c) => {
      rejectUnknownQuery(c, decl.query);
      return ok(c, await decl.list(c, c.req.valid('query' as never) as z.infer<Q>));
    },
  );
  app.openapi(
    createRoute({
      ...base,
      method: 'get',
      path: '/{id}',
      summary: decl.summaries.get,
      request: { params: idParam },
      responses: jsonResponse(decl.schema),
    }),
    async (c) => {
      const row = await decl.get(c, c.req.valid('param').id);
      if (!row) throw notFound();
      return ok(c, row);
    },
  );
  return app;
}

export function crudResource<T extends Table, S extends Record<string, AnyColumn>, F extends z.ZodRawShape>(
  decl: ResourceDecl<T, S, F>,
) {
  const { path = '', tag, table, schema, read, write, security } = decl;
  const remove = decl.remove ?? write;
  const toApi = decl.toApi ?? isoTimestamps;
  const onError = saveErrors(decl.unique);
  const ListQuery = listQuery(Object.keys(decl.sorts) as [string, ...string[]], decl.filters);
  const UpdateBody = z.object({ ...z.object(decl.fields).partial().shape, version });
  const NamedUpdateBody = decl.updateName ? UpdateBody.openapi(decl.updateName) : UpdateBody;
  const scoped = (c: AppContext) =>
    decl.scope ? eq(table[decl.scope.field] as AnyColumn, decl.scope.value(c)) : undefined;
  const scopeValues = (c: AppContext) => (decl.scope ? { [decl.scope.field]: decl.scope.value(c) } : {});
  const BatchBody = decl.batch
    ? batchBody(Object.keys(decl.batch.actions) as [string, ...string[]])
    : undefined;
  /** The row `id` of the caller's scope, locked for update; 40400 when there is none. */
  const lockOne = async (tx: Tx, c: AppContext, id: number) => {
    const [r] = await tx
      .select()
      .from(table as PgTable)
      .where(and(eq(table.id, id), scoped(c)))
      .for('update');
    if (!r) throw notFound();
    return r as Row;
  };
  const idOf = { params: idParam };
  const s = decl.summaries ?? {};
  const resource = decl.audit?.resource ?? tag;
  const secret = decl.audit?.secret;
  const ignored = new Set(decl.audit?.ignore ?? []);
  const kept = (r: Row) =>
    ignored.size ? Object.fromEntries(Object.entries(r).filter(([k]) => !ignored.has(k))) : r;
  const base = { tags: [tag], security };

  const routes = {
    list: createRoute({
      ...base,
      method: 'get',
      path: path || '/',
      summary: s.list ?? `List ${tag}`,
      middleware: read,
      request: { query: ListQuery },
      responses: jsonResponse(z.object({ list: z.array(schema), ...listTotalShape })),
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
    create: createRoute(
      auditedRoute({
        ...base,
        method: 'post',
        path: path || '/',
        summary: s.create ?? `Create one of ${tag}`,
        middleware: write,
        request: { body: jsonBody(decl.create) },
        responses: jsonResponse(schema),
      }),
    ),
    update: createRoute(
      auditedRoute({
        ...base,
        method: 'put',
        path: `${path}/{id}`,
        summary: s.update ?? `Edit one of ${tag} (a stale version is 40900)`,
        middleware: write,
        request: { ...idOf, body: jsonBody(NamedUpdateBody) },
        responses: jsonResponse(schema),
      }),
    ),
    remove: createRoute(
      auditedRoute({
        ...base,
        method: 'delete',
        path: `${path}/{id}`,
        summary: s.remove ?? `Delete one of ${tag}`,
        middleware: remove,
        request: idOf,
        responses: jsonResponse(schema),
      }),
    ),
  };

  const app = new OpenAPIHono<AppEnv>();

  app.openapi(routes.list, async (c) => {
    rejectUnknownQuery(c, ListQuery);
    const q = c.req.valid('query') as ListParams & { sort?: string } & z.infer<z.ZodObject<F>>;
    const where = [scoped(c), q.ids ? inArray(table.id, q.ids) : undefined, ...(decl.where?.(q, c) ?? [])];
    const page = await listPage<Row>(c.get('deps').db, {
      table,
      where: and(...where),
      orderBy: decl.sorts[(q.sort ?? decl.defaultSort) as keyof S],
      query: q,
    });
    return ok(c, { list: page.list.map((r) => toApi(r, c)), total: page.total, totalExact: page.totalExact });
  });

  app.openapi(routes.get, async (c) => {
    const row = await findById<Row>(c.get('deps').db, table, c.req.valid('param').id, { where: scoped(c) });
    return ok(c, toApi(row, c));
  });

  app.openapi(routes.create, async (c) => {
    const { db, clock } = c.get('deps');
    const body = c.req.valid('json') as Row;
    try {
      const row = await transaction(db, async (tx) => {
        const values = (await decl.beforeSave?.(tx, body, { c })) ?? body;
        const [r] = await tx
          .insert(table)
          .values({ ...values, ...scopeValues(c), createdAt: clock.now(), updatedAt: clock.now() } as any)
          .returning();
        // Before afterWrite: an error there undoes the entry with the change (one transaction).
        await audit(tx, c, {
          resource,
          action: 'create',
          recordId: (r as Row).id,
          changes: { after: snapshot(kept(r), secret) },
        });
        await decl.afterWrite?.(tx, r as Row, c, 'create');
        return r as Row;
      });
      return ok(c, toApi(row, c));
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
        const current = await lockOne(tx, c, recordId);
        if (current.version !== v) throw conflict();
        const values = (await decl.beforeSave?.(tx, patch, { c, id: recordId, current })) ?? patch;
        const r = await updateVersioned<Row>(tx, table, recordId, v, { ...values, updatedAt: clock.now() });
        // Before afterWrite: an error there undoes the entry with the change (one transaction).
        await audit(tx, c, {
          resource,
          action: 'update',
          recordId,
          changes: diff(kept(current), kept(r), secret),
        });
        await decl.afterWrite?.(tx, r, c, 'update');
        return r;
      });
      return ok(c, toApi(row, c));
    } catch (err) {
      return onError(err);
    }
  });

  app.openapi(routes.remove, async (c) => {
    const recordId = c.req.valid('param').id;
    try {
      const row = await transaction(c.get('deps').db, async (tx) => {
        const r = await lockOne(tx, c, recordId);
        await decl.beforeDelete?.(tx, r, c);
        await tx.delete(table).where(eq(table.id, recordId));
        // Before afterWrite: an error there undoes the entry with the change (one transaction).
        await audit(tx, c, {
          resource,
          action: 'delete',
          recordId,
          changes: { before: snapshot(kept(r), secret) },
        });
        await decl.afterWrite?.(tx, r, c, 'delete');
        return r as Row;
      });
      return ok(c, toApi(row, c));
    } catch (err) {
      return onError(err);
    }
  });

  if (decl.batch && BatchBody) {
    const { actions, summary } = decl.batch;
    const batchRoute = createRoute(
      auditedRoute({
        ...base,
        method: 'post',
        path: `${path}/batch`,
        summary,
        middleware: write,
        request: { body: jsonBody(BatchBody) },
        responses: jsonResponse(z.object({ changed: z.number() })),
      }),
    );
    app.openapi(batchRoute, async (c) => {
      const { action, ids } = c.req.valid('json');
      try {
        const changed = await transaction(c.get('deps').db, async (tx) => {
          const locked = await lockRows(tx, table, ids, scoped(c));
          const n = await actions[action](tx, locked, c);
          await auditBatch(tx, c, { resource, action, ids: locked, changed: n });
          return n;
        });
        return ok(c, { changed });
      } catch (err) {
        return onError(err);
      }
    });
  }

  return app;
}
