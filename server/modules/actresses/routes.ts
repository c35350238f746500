import { OpenAPIHono, z } from '@hono/zod-openapi';
import { and, asc, desc, eq, gte, inArray, lte, ne, type SQL, sql } from 'drizzle-orm';
import { REGIONS } from '../../../common/actresses';
import { Code } from '../../../common/codes';
import { isDebutBeforeBirth, isFutureDay, isFutureYear } from '../../../common/dates';
import { audit, auditBatch, auditedRoute, auditMany, diff, snapshot } from '../../core/audit';
import { can, requirePermission, security } from '../../core/auth';
import type { AppContext, AppEnv } from '../../core/context';
import { batchBody, idParam, listQuery, lockRows, updateVersioned } from '../../core/crud';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { ApiError, invalidField, notFound } from '../../core/errors';
import { createRoute } from '../../core/route';
import {
  assertRefs,
  boolQuery,
  countOf,
  guarded,
  idArray,
  intQuery,
  iso,
  rejectUnknownQuery,
  transaction,
  version,
} from '../../core/shared';
import { cappedCount, listTotalShape } from '../../core/totals';
import type { Executor } from '../../db/types';
import { lockMovies, titleContains, touchMovies } from '../movie/model';
import { MOVIE_STATUSES, movieActresses, movies } from '../movie/schema';
import { Actress, actressFields, actressSelect, actressToApi, cleanNames, nameContains } from './model';
import { actresses } from './schema';

const tags = ['actresses'];

const sorts = {
  id: actresses.id,
  name: actresses.name,
  movieCount: actresses.movieCount,
  createdAt: actresses.createdAt,
  updatedAt: actresses.updatedAt,
  sortWeight: actresses.sortWeight,
  debutYear: actresses.debutYear,
  birthday: actresses.birthday,
  height: actresses.height,
} as const;
type SortKey = keyof typeof sorts;

const year = intQuery(1900, 2100);
const ListQuery = listQuery(Object.keys(sorts) as [SortKey, ...SortKey[]], {
  /** Name or alias contains (Chinese or Latin, any case); with a small pageSize this is the autocomplete. */
  q: z.string().trim().max(64).optional(),
  region: z.enum(REGIONS).optional(),
  debutFrom: year.optional(),
  debutTo: year.optional(),
  visible: boolQuery.optional(),
  tag: z.string().trim().min(1).max(32).optional(),
});

const CreateBody = z.object({
  ...actressFields,
  aliases: actressFields.aliases.optional().default([]),
  avatar: actressFields.avatar.optional().default(''),
  birthday: actressFields.birthday.optional().default(null),
  height: actressFields.height.optional().default(null),
  region: actressFields.region.optional().default(null),
  debutYear: actressFields.debutYear.optional().default(null),
  biography: actressFields.biography.optional().default(''),
  tags: actressFields.tags.optional().default([]),
  visible: actressFields.visible.optional().default(true),
  sortWeight: actressFields.sortWeight.optional().default(0),
});
const UpdateBody = z.object({ ...z.object(actressFields).partial().shape, version });

const BatchBody = batchBody(['show', 'hide', 'delete'] as const).extend({
  /** delete: also unlink the actresses' movies (without it, linked actresses make the batch 40900). */
  force: z.boolean().optional(),
});

const MovieIds = z.object({ movieIds: idArray(1000).min(1) });

const movieSorts = {
  id: movies.id,
  title: movies.title,
  createdAt: movies.createdAt,
  publishedAt: movies.publishedAt,
  releaseDate: movies.releaseDate,
  views: movies.views,
} as const;
type MovieSortKey = keyof typeof movieSorts;
const MoviesQuery = listQuery(Object.keys(movieSorts) as [MovieSortKey, ...MovieSortKey[]], {
  q: z.string().trim().max(64).optional(),
  status: z.enum(MOVIE_STATUSES).optional(),
});
const ActressMovie = z
  .object({
    id: z.number(),
    title: z.string(),
    cover: z.string(),
    status: z.enum(MOVIE_STATUSES),
    releaseDate: z.string().nullable(),
    views: z.number(),
    publishedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('ActressMovie');

const idOf = { params: idParam };
const DeleteQuery = z.object({ force: boolQuery.optional() });
const Changed = z.object({ changed: z.number(), movieCount: z.number() });

const routes = {
  list: createRoute({
    method: 'get',
    path: '/',
    tags,
    security,
    summary:
      'List actresses: q searches name and aliases (index-served; with pageSize=10 it is the autocomplete), ids=1,2 reads several (getMany)',
    middleware: can('actresses.read'),
    request: { query: ListQuery },
    responses: jsonResponse(z.object({ list: z.array(Actress), ...listTotalShape })),
  }),
  get: createRoute({
    method: 'get',
    path: '/{id}',
    tags,
    security,
    summary: 'One actress',
    middleware: can('actresses.read'),
    request: idOf,
    responses: jsonResponse(Actress),
  }),
  create: createRoute(
    auditedRoute({
      method: 'post',
      path: '/',
      tags,
      security,
      summary: 'Create an actress',
      middleware: can('actresses.edit'),
      request: { body: jsonBody(CreateBody) },
      responses: jsonResponse(Actress),
    }),
  ),
  update: createRoute(
    auditedRoute({
      method: 'put',
      path: '/{id}',
      tags,
      security,
      summary: 'Edit an actress (optimistic locking on version)',
      middleware: can('actresses.edit'),
      request: { ...idOf, body: jsonBody(UpdateBody) },
      responses: jsonResponse(Actress),
    }),
  ),
  remove: createRoute(
    auditedRoute({
      method: 'delete',
      path: '/{id}',
      tags,
      security,
      summary:
        'Delete an actress (admin). With linked movies it is 40900 saying how many (data.movieCount) unless force=true, which unlinks them in the same transaction',
      middleware: can('actresses.settings'),
      request: { ...idOf, query: DeleteQuery },
      responses: jsonResponse(z.object({ id: z.number(), unlinked: z.number() })),
    }),
  ),
  batch: createRoute(
    auditedRoute({
      method: 'post',
      path: '/batch',
      tags,
      security,
      summary:
        'show, hide, delete (admin; force unlinks their movies): one transaction, all or nothing; answers {changed}',
      middleware: can('actresses.batch'),
      request: { body: jsonBody(BatchBody) },
      responses: jsonResponse(z.object({ changed: z.number() })),
    }),
  ),
  movies: createRoute({
    method: 'get',
    path: '/{id}/movies',
    tags,
    security,
    summary: "The actress's movies, paged (q searches their titles)",
    middleware: can('actresses.read'),
    request: { ...idOf, query: MoviesQuery },
    responses: jsonResponse(z.object({ list: z.array(ActressMovie), ...listTotalShape })),
  }),
  link: createRoute({
    method: 'post',
    path: '/{id}/movies',
    tags,
    security,
    summary:
      'Link movies to the actress (every movie must exist; one transaction); answers how many were new',
    middleware: can('actresses.edit'),
    request: { ...idOf, body: jsonBody(MovieIds) },
    responses: jsonResponse(Changed),
  }),
  unlink: createRoute({
    method: 'post',
    path: '/{id}/unlink-movies',
    tags,
    security,
    summary: 'Unlink movies from the actress (one transaction); answers how many links went',
    middleware: can('actresses.edit'),
    request: { ...idOf, body: jsonBody(MovieIds) },
    responses: jsonResponse(Changed),
  }),
};

/**
 * Impossible dates (common/dates.ts, which the form checks too): a birthday after today, a debut year after this
 * year or before the year of birth. Typing errors, refused by the injectable clock's today.
 */
function checkDates(c: AppContext, v: { birthday?: string | null; debutYear?: number | null }) {
  const now = c.get('deps').clock.now();
  if (isFutureDay(v.birthday, now)) throw invalidField('birthday', 'actress.birthdayFuture');
  if (isFutureYear(v.debutYear, now)) throw invalidField('debutYear', 'actress.debutFuture');
  if (isDebutBeforeBirth(v.debutYear, v.birthday))
    throw invalidField('debutYear', 'actress.debutBeforeBirth');
}

function listWhere(q: z.infer<typeof ListQuery>): SQL | undefined {
  if (q.debutFrom !== undefined && q.debutTo !== undefined && q.debutFrom > q.debutTo)
    throw invalidField('debutTo', 'actress.debutRange');
  const where: (SQL | undefined)[] = [];
  if (q.ids) where.push(inArray(actresses.id, q.ids));
  if (q.q) where.push(nameContains(q.q));
  if (q.region) where.push(eq(actresses.region, q.region));
  if (q.debutFrom !== undefined) where.push(gte(actresses.debutYear, q.debutFrom));
  if (q.debutTo !== undefined) where.push(lte(actresses.debutYear, q.debutTo));
  if (q.visible !== undefined) where.push(eq(actresses.visible, q.visible));
  if (q.tag) where.push(sql`${actresses.tags} @> array[${q.tag}::text]`);
  return and(...where);
}

/** `col desc nulls last` / `col asc nulls first`, then id: a stable order in which unknown values sit at the end. */
function orderOf(
  col: SQL | (typeof sorts)[SortKey] | (typeof movieSorts)[MovieSortKey],
  order: 'asc' | 'desc',
) {
  return order === 'desc' ? sql`${col} desc nulls last` : sql`${col} asc nulls first`;
}

async function readActress(db: Executor, actressId: number) {
  const [row] = await db.select(actressSelect).from(actresses).where(eq(actresses.id, actressId));
  if (!row) throw notFound();
  return actressToApi(row);
}

/** How many links these actresses have (one query). */
async function linkCount(db: Executor, ids: number[]) {
  const [{ n }] = await db
    .select({ n: countOf })
    .from(movieActresses)
    .where(inArray(movieActresses.actressId, ids));
  return Number(n);
}

/**
 * Unlinks every movie of these actresses and deletes them: movies are locked first (the order every movie writer
 * takes), their versions bumped (an open movie form is then stale). Answers how many links went.
 */
async function unlinkAndDelete(c: AppContext, tx: Executor, ids: number[]) {
  const linked = await tx
    .selectDistinct({ movieId: movieActresses.movieId })
    .from(movieActresses)
    .where(inArray(movieActresses.actressId, ids));
  const movieIds = linked.map((l) => l.movieId);
  await lockMovies(tx, movieIds);
  const gone = await tx
    .delete(movieActresses)
    .where(inArray(movieActresses.actressId, ids))
    .returning({ movieId: movieActresses.movieId });
  await touchMovies(
    tx,
    gone.map((g) => g.movieId),
    c.get('deps').clock.now(),
  );
  const deleted = await tx
    .delete(actresses)
    .where(inArray(actresses.id, ids))
    .returning({ id: actresses.id });
  return { unlinked: gone.length, deleted: deleted.length };
}

const hasMovies = (count: number, batch = false) =>
  new ApiError(
    Code.CONFLICT,
    batch ? 'actress.hasMoviesBatch' : 'actress.hasMovies',
    { count },
    {
      movieCount: count,
    },
  );

export function actressRoutes() {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(routes.list, async (c) => {
    rejectUnknownQuery(c, ListQuery);
    const q = c.req.valid('query');
    const { db } = c.get('deps');
    const where = listWhere(q);
    const pageSize = q.ids ? Math.max(q.pageSize, q.ids.length) : q.pageSize;
    const [rows, total] = await Promise.all([
      db
        .select(actressSelect)
        .from(actresses)
        .where(where)
        .orderBy(orderOf(sorts[q.sort ?? 'id'], q.order), (q.order === 'desc' ? desc : asc)(actresses.id))
        .limit(pageSize)
        .offset((q.page - 1) * pageSize),
      cappedCount(db, actresses, where),
    ]);
    return ok(c, { list: rows.map(actressToApi), ...total });
  });

  app.openapi(routes.get, async (c) => ok(c, await readActress(c.get('deps').db, c.req.valid('param').id)));

  app.openapi(routes.create, async (c) => {
    const { db, clock } = c.get('deps');
    const body = c.req.valid('json');
    checkDates(c, body);
    const row = await transaction(db, async (tx) => {
      const [r] = await tx
        .insert(actresses)
        .values({
          ...body,
          aliases: cleanNames(body.aliases, body.name),
          tags: cleanNames(body.tags),
          createdAt: clock.now(),
          updatedAt: clock.now(),
        })
        .returning(actressSelect);
      await audit(tx, c, {
        resource: 'actresses',
        action: 'create',
        recordId: r.id,
        changes: { after: snapshot(actressToApi(r)) },
      });
      return r;
    });
    return ok(c, actressToApi(row));
  });

  app.openapi(routes.update, async (c) => {
    const { db, clock } = c.get('deps');
    const { id: actressId } = c.req.valid('param');
    const { version: v, ...patch } = c.req.valid('json');
    checkDates(c, patch);
    const row = await transaction(db, async (tx) => {
      // One of birthday and debut year changes: checked against the other as stored.
      if ((patch.birthday === undefined) !== (patch.debutYear === undefined)) {
        const [current] = await tx
          .select({ birthday: actresses.birthday, debutYear: actresses.debutYear })
          .from(actresses)
          .where(eq(actresses.id, actressId));
        if (current)
          checkDates(c, {
            birthday:
              patch.birthday !== undefined
                ? patch.birthday
                : current.birthday && String(current.birthday).slice(0, 10),
            debutYear: patch.debutYear !== undefined ? patch.debutYear : current.debutYear,
          });
      }
      let name = patch.name;
      if (patch.aliases && name === undefined) {
        const [current] = await tx
          .select({ name: actresses.name })
          .from(actresses)
          .where(eq(actresses.id, actressId));
        name = current?.name;
      }
      const [before] = await tx.select(actressSelect).from(actresses).where(eq(actresses.id, actressId));
      const r = await updateVersioned<Record<string, unknown>>(tx, actresses, actressId, v, {
        ...patch,
        aliases: cleanNames(patch.aliases, name),
        tags: cleanNames(patch.tags),
        updatedAt: clock.now(),
      });
      await audit(tx, c, {
        resource: 'actresses',
        action: 'update',
        recordId: actressId,
        changes: diff(before ? actressToApi(before) : {}, actressToApi(r as typeof before)),
      });
      return r;
    });
    return ok(c, actressToApi(row));
  });

  app.openapi(routes.remove, async (c) => {
    rejectUnknownQuery(c, DeleteQuery);
    const { id: actressId } = c.req.valid('param');
    const { force } = c.req.valid('query');
    const result = await guarded(() =>
      transaction(c.get('deps').db, async (tx) => {
        const [row] = await tx
          .select({ id: actresses.id })
          .from(actresses)
          .where(eq(actresses.id, actressId));
        if (!row) throw notFound();
        const count = await linkCount(tx, [actressId]);
        if (count > 0 && !force) throw hasMovies(count);
        const before = await readActress(tx, actressId);
        const done = await unlinkAndDelete(c, tx, [actressId]);
        await audit(tx, c, {
          resource: 'actresses',
          action: 'delete',
          recordId: actressId,
          changes: { before: snapshot(before), unlinked: done.unlinked },
        });
        return done;
      }),
    );
    return ok(c, { id: actressId, unlinked: result.unlinked });
  });

  app.openapi(routes.batch, async (c) => {
    const body = c.req.valid('json');
    if (body.action === 'delete') requirePermission(c, 'actresses.settings');
    const { clock, db } = c.get('deps');
    const changed = await guarded(() =>
      transaction(db, async (tx) => {
        // Checked, not locked: an actress's movie count is a shared row, locked after the movies (lockMovies).
        const ids = await lockRows(tx, actresses, body.ids, undefined, null);
        if (body.action === 'delete') {
          const count = await linkCount(tx, ids);
          if (count > 0 && !body.force) throw hasMovies(count, true);
          const done = await unlinkAndDelete(c, tx, ids);
          await auditBatch(tx, c, {
            resource: 'actresses',
            action: 'delete',
            ids,
            changed: done.deleted,
            extra: { unlinked: done.unlinked },
          });
          return done.deleted;
        }
        const visible = body.action === 'show';
        const rows = await tx
          .update(actresses)
          .set({ visible, version: sql`${actresses.version} + 1`, updatedAt: clock.now() })
          .where(and(inArray(actresses.id, ids), ne(actresses.visible, visible)))
          .returning({ id: actresses.id });
        await auditBatch(tx, c, { resource: 'actresses', action: body.action, ids, changed: rows.length });
        return rows.length;
      }),
    );
    return ok(c, { changed });
  });

  app.openapi(routes.movies, async (c) => {
    rejectUnknownQuery(c, MoviesQuery);
    const { id: actressId } = c.req.valid('param');
    const q = c.req.valid('query');
    const { db } = c.get('deps');
    await readActress(db, actressId);
    const where = and(
      inArray(
        movies.id,
        sql`(select ${movieActresses.movieId} from ${movieActresses} where ${movieActresses.actressId} = ${actressId})`,
      ),
      q.ids ? inArray(movies.id, q.ids) : undefined,
      q.q ? titleContains(q.q) : undefined,
      q.status ? eq(movies.status, q.status) : undefined,
    );
    const [rows, total] = await Promise.all([
      db
        .select({
          id: movies.id,
          title: movies.title,
          cover: movies.cover,
          status: movies.status,
          releaseDate: movies.releaseDate,
          views: movies.views,
          publishedAt: movies.publishedAt,
          createdAt: movies.createdAt,
        })
        .from(movies)
        .where(where)
        .orderBy(orderOf(movieSorts[q.sort ?? 'id'], q.order), (q.order === 'desc' ? desc : asc)(movies.id))
        .limit(q.pageSize)
        .offset((q.page - 1) * q.pageSize),
      cappedCount(db, movies, where),
    ]);
    return ok(c, {
      list: rows.map((r) => ({
        ...r,
        releaseDate: r.releaseDate ? String(r.releaseDate).slice(0, 10) : null,
        publishedAt: iso(r.publishedAt),
        createdAt: iso(r.createdAt) as string,
      })),
      ...total,
    });
  });

  app.openapi(auditedRoute(routes.link), async (c) => {
    const { id: actressId } = c.req.valid('param');
    const { movieIds } = c.req.valid('json');
    const { db, clock } = c.get('deps');
    const result = await guarded(() =>
      transaction(db, async (tx) => {
        await assertRefs(tx, movies, movies.id, movieIds, 'movieIds');
        const unique = [...new Set(movieIds)];
        await lockMovies(tx, unique);
        const [actress] = await tx
          .select({ id: actresses.id })
          .from(actresses)
          .where(eq(actresses.id, actressId))
          .for('key share');
        if (!actress) throw notFound();
        const added = await tx
          .insert(movieActresses)
          .values(unique.map((movieId) => ({ movieId, actressId })))
          .onConflictDoNothing()
          .returning({ movieId: movieActresses.movieId });
        await touchMovies(
          tx,
          added.map((a) => a.movieId),
          clock.now(),
        );
        const { movieCount } = await readActress(tx, actressId);
        await auditMany(tx, c, {
          resource: 'actresses',
          action: 'link-movies',
          recordId: actressId,
          ids: unique,
          changed: added.length,
          extra: { added: added.map((a) => a.movieId), movieCount },
        });
        return { changed: added.length, movieCount };
      }),
    );
    return ok(c, result);
  });

  app.openapi(auditedRoute(routes.unlink), async (c) => {
    const { id: actressId } = c.req.valid('param');
    const { movieIds } = c.req.valid('json');
    const { db, clock } = c.get('deps');
    const result = await transaction(db, async (tx) => {
      const unique = [...new Set(movieIds)];
      await lockMovies(tx, unique);
      await readActress(tx, actressId);
      const gone = await tx
        .delete(movieActresses)
        .where(and(eq(movieActresses.actressId, actressId), inArray(movieActresses.movieId, unique)))
        .returning({ movieId: movieActresses.movieId });
      await touchMovies(
        tx,
        gone.map((g) => g.movieId),
        clock.now(),
      );
      const { movieCount } = await readActress(tx, actressId);
      await auditMany(tx, c, {
        resource: 'actresses',
        action: 'unlink-movies',
        recordId: actressId,
        ids: unique,
        changed: gone.length,
        extra: { removed: gone.map((g) => g.movieId), movieCount },
      });
      return { changed: gone.length, movieCount };
    });
    return ok(c, result);
  });

  return app;
}
