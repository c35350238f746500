import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { and, asc, desc, eq, gte, inArray, lt, lte, ne, type SQL, sql } from 'drizzle-orm';
import { asAdmin, asAnyOperator, security } from '../../core/auth';
import { Code } from '../../core/codes';
import type { AppContext, AppEnv } from '../../core/context';
import { batchBody, idParam, listQuery, lockRows, updateVersioned } from '../../core/crud';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { ApiError, conflict, forbidden, invalidField, notFound } from '../../core/errors';
import { translate } from '../../core/i18n';
import {
  assertRefs,
  boolQuery,
  dateQuery,
  id,
  idArray,
  intQuery,
  isForeignKeyViolation,
  rangeEnd,
  rangeStart,
  rejectUnknownQuery,
  transaction,
  version,
} from '../../core/shared';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';
import { actresses } from '../actresses/schema';
import { readSettings } from '../sys';
import {
  Movie,
  movieFields,
  movieSelect,
  movieToApi,
  readMovie,
  tagIdsOf,
  titleContains,
  touchMovies,
} from './model';
import {
  MOVIE_STATUSES,
  type MovieStatus,
  movieActresses,
  movieColumns,
  moviePlays,
  movies,
  movieTagLinks,
  movieTags,
  videoSources,
} from './schema';
import { listTotal, readPlanned } from './totals';

const tags = ['movies'];

/** The two screens of SPEC.md: the review queue and the online content, each a set of statuses. */
export const VIEWS = {
  review: ['pending', 'rejected'],
  online: ['online', 'offline'],
  all: MOVIE_STATUSES,
} as const satisfies Record<string, readonly MovieStatus[]>;

/** Who may go where: an action is allowed only from these statuses (enforced here, whatever the UI shows). */
export const TRANSITIONS = {
  approve: { from: ['pending', 'rejected'], to: 'online' },
  reject: { from: ['pending'], to: 'rejected' },
  offline: { from: ['online'], to: 'offline' },
  online: { from: ['offline'], to: 'online' },
} as const satisfies Record<string, { from: readonly MovieStatus[]; to: MovieStatus }>;
type Transition = keyof typeof TRANSITIONS;

const sorts = {
  id: movies.id,
  title: movies.title,
  createdAt: movies.createdAt,
  updatedAt: movies.updatedAt,
  publishedAt: movies.publishedAt,
  reviewedAt: movies.reviewedAt,
  releaseDate: movies.releaseDate,
  views: movies.views,
  likes: movies.likes,
  comments: movies.comments,
  sortWeight: movies.sortWeight,
  duration: movies.duration,
} as const;

/** Sorts an index of migration 0004 serves in both directions (and `id`, the primary key). */
const SORT_INDEXED = new Set<keyof typeof sorts>(['id', 'publishedAt', 'createdAt', 'views']);

const ListQuery = listQuery(Object.keys(sorts) as [keyof typeof sorts, ...(keyof typeof sorts)[]], {
  view: z.enum(['review', 'online', 'all']).optional().default('all'),
  q: z.string().trim().max(64).optional(),
  columnId: intQuery().optional(),
  tagId: intQuery().optional(),
  platform: intQuery(0, 9999).optional(),
  status: z.enum(MOVIE_STATUSES).optional(),
  createdFrom: dateQuery.optional(),
  createdTo: dateQuery.optional(),
  publishedFrom: dateQuery.optional(),
  publishedTo: dateQuery.optional(),
  recommended: boolQuery.optional(),
  free: boolQuery.optional(),
  viewsMin: intQuery(0).optional(),
  viewsMax: intQuery(0).optional(),
});

const CreateBody = z.object({
  ...movieFields,
  description: movieFields.description.optional().default(''),
  cover: movieFields.cover.optional().default(''),
  columnId: movieFields.columnId.optional().default(null),
  tagIds: movieFields.tagIds.optional().default([]),
  actressIds: movieFields.actressIds.optional().default([]),
  platforms: movieFields.platforms.optional().default([]),
  duration: movieFields.duration.optional().default(0),
  releaseDate: movieFields.releaseDate.optional().default(null),
  free: movieFields.free.optional().default(true),
  sortWeight: movieFields.sortWeight.optional().default(0),
  recommended: movieFields.recommended.optional().default(false),
  plays: movieFields.plays.optional().default([]),
});
const UpdateBody = z.object({ ...z.object(movieFields).partial().shape, version });

const BATCH_ACTIONS = [
  'approve',
  'reject',
  'offline',
  'online',
  'recommend',
  'unrecommend',
  'setColumn',
  'addTags',
  'removeTags',
  'delete',
] as const;
const BatchBody = batchBody(BATCH_ACTIONS).extend({
  reason: z.string().trim().max(500).optional(),
  columnId: id.optional(),
  tagIds: idArray(50).optional(),
});

const idOf = { params: idParam };
const Page = z.object({
  list: z.array(Movie),
  total: z.number(),
  /** false when more than COUNT_CAP movies match a filter no counter keeps: `total` is then COUNT_CAP ("1,000+"). */
  totalExact: z.boolean(),
});

const routes = {
  list: createRoute({
    method: 'get',
    path: '/',
    tags,
    summary: 'List movies: view=review (pending, rejected), online (online, offline) or all',
    middleware: asAnyOperator,
    security,
    request: { query: ListQuery },
    responses: jsonResponse(Page),
  }),
  get: createRoute({
    method: 'get',
    path: '/{id}',
    tags,
    summary: 'One movie with tags, actresses and play entries (URLs built from their sources)',
    middleware: asAnyOperator,
    security,
    request: idOf,
    responses: jsonResponse(Movie),
  }),
  create: createRoute({
    method: 'post',
    path: '/',
    tags,
    summary: 'Create a movie (status pending: it enters the review queue)',
    middleware: asAnyOperator,
    security,
    request: { body: jsonBody(CreateBody) },
    responses: jsonResponse(Movie),
  }),
  update: createRoute({
    method: 'put',
    path: '/{id}',
    tags,
    summary: 'Edit a movie (optimistic locking on version; links are replaced when sent)',
    middleware: asAnyOperator,
    security,
    request: { ...idOf, body: jsonBody(UpdateBody) },
    responses: jsonResponse(Movie),
  }),
  remove: createRoute({
    method: 'delete',
    path: '/{id}',
    tags,
    summary: 'Delete a movie (admin)',
    middleware: asAdmin,
    security,
    request: idOf,
    responses: jsonResponse(z.object({ id: z.number() })),
  }),
  batch: createRoute({
    method: 'post',
    path: '/batch',
    tags,
    summary:
      'approve, reject (reason), offline, online, recommend, unrecommend, setColumn (columnId), addTags/removeTags (tagIds), delete (admin): one transaction, all or nothing',
    middleware: asAnyOperator,
    security,
    request: { body: jsonBody(BatchBody) },
    responses: jsonResponse(z.object({ changed: z.number() })),
  }),
};

const transitionRoute = (action: Transition) =>
  createRoute({
    method: 'post',
    path: `/{id}/${action}`,
    tags,
    summary: `${action}: allowed from ${TRANSITIONS[action].from.join(', ')}; an optional version is checked`,
    middleware: asAnyOperator,
    security,
    request: {
      ...idOf,
      body: {
        required: action === 'reject',
        content: {
          'application/json': {
            schema: z.object({
              reason:
                action === 'reject' ? z.string().trim().min(1).max(500) : z.string().max(500).optional(),
              version: version.optional(),
            }),
          },
        },
      },
    },
    responses: jsonResponse(Movie),
  });

/** 40900 with the item's status and the refused action in the caller's language. */
function transitionError(c: AppContext, status: MovieStatus, action: Transition, movieId?: number) {
  const locale = c.get('locale');
  const params = {
    status: translate(locale, `movie.status.${status}`),
    action: translate(locale, `movie.action.${action}`),
    id: movieId ?? '',
  };
  return new ApiError(
    Code.CONFLICT,
    movieId === undefined ? 'movie.transition' : 'movie.transitionBatch',
    params,
    { id: movieId ?? null, status, action },
  );
}

/** The columns a transition sets. */
function transitionValues(c: AppContext, action: Transition, reason: string | undefined) {
  const now = c.get('deps').clock.now();
  const values: Record<string, unknown> = { status: TRANSITIONS[action].to, updatedAt: now };
  if (action === 'approve' || action === 'reject') {
    values.reviewedBy = c.get('operator').id;
    values.reviewedAt = now;
    values.rejectReason = action === 'reject' ? (reason ?? '') : '';
  }
  if (action === 'approve') values.publishedAt = now;
  return { ...values, version: sql`${movies.version} + 1` };
}

/** The platform keys of the default tenant's settings. */
async function checkPlatforms(c: AppContext, db: Executor, platforms: number[] | undefined) {
  if (!platforms?.length) return;
  const settings = await readSettings(db, c.get('deps').config.defaultTenant);
  const known = new Set((settings.platforms as { key: number }[]).map((p) => Number(p.key)));
  const i = platforms.findIndex((k) => !known.has(k));
  if (i >= 0) throw invalidField(`platforms.${i}`, 'field.notFound');
}

async function checkRefs(
  c: AppContext,
  db: Executor,
  body: {
    columnId?: number | null;
    tagIds?: number[];
    actressIds?: number[];
    platforms?: number[];
    plays?: { sourceId: number }[];
  },
) {
  if (body.columnId != null) await assertRefs(db, movieColumns, movieColumns.id, [body.columnId], 'columnId');
  if (body.tagIds) await assertRefs(db, movieTags, movieTags.id, body.tagIds, 'tagIds');
  if (body.actressIds) await assertRefs(db, actresses, actresses.id, body.actressIds, 'actressIds');
  if (body.plays?.length)
    await assertRefs(
      db,
      videoSources,
      videoSources.id,
      body.plays.map((p) => p.sourceId),
      'plays',
    );
  await checkPlatforms(c, db, body.platforms);
}

/** Replaces the links a body carries (tags, actresses, plays); fields not sent are left alone. */
async function writeLinks(
  db: Executor,
  movieId: number,
  body: {
    tagIds?: number[];
    actressIds?: number[];
    plays?: { sourceId: number; path: string; sort?: number }[];
  },
) {
  if (body.tagIds) {
    const want = [...new Set(body.tagIds)];
    await db
      .delete(movieTagLinks)
      .where(
        and(
          eq(movieTagLinks.movieId, movieId),
          want.length ? sql`${movieTagLinks.tagId} <> all(${sql.param(want)}::integer[])` : undefined,
        ),
      );
    if (want.length)
      await db
        .insert(movieTagLinks)
        .values(want.map((tagId) => ({ movieId, tagId })))
        .onConflictDoNothing();
  }
  if (body.actressIds) {
    // Only the links that change are written: each one moves an actress's movie count (a shared row).
    const want = [...new Set(body.actressIds)];
    await db
      .delete(movieActresses)
      .where(
        and(
          eq(movieActresses.movieId, movieId),
          want.length ? sql`${movieActresses.actressId} <> all(${sql.param(want)}::integer[])` : undefined,
        ),
      );
    if (want.length)
      await db
        .insert(movieActresses)
        .values(want.map((actressId) => ({ movieId, actressId })))
        .onConflictDoNothing();
  }
  if (body.plays) {
    await db.delete(moviePlays).where(eq(moviePlays.movieId, movieId));
    if (body.plays.length)
      await db
        .insert(moviePlays)
        .values(
          body.plays.map((p, i) => ({ movieId, sourceId: p.sourceId, path: p.path, sort: p.sort ?? i })),
        );
  }
}

function listWhere(q: z.infer<typeof ListQuery>): SQL | undefined {
  const statuses = VIEWS[q.view] as readonly string[];
  if (q.status && !statuses.includes(q.status))
    throw invalidField('status', 'field.enum', { values: statuses.join(', ') });
  if (q.viewsMin !== undefined && q.viewsMax !== undefined && q.viewsMin > q.viewsMax)
    throw invalidField('viewsMax', 'field.range');
  const where: (SQL | undefined)[] = [];
  if (q.status) where.push(eq(movies.status, q.status));
  else if (q.view !== 'all') where.push(inArray(movies.status, [...statuses] as MovieStatus[]));
  if (q.ids) where.push(inArray(movies.id, q.ids));
  if (q.q) where.push(titleContains(q.q));
  if (q.columnId !== undefined) where.push(eq(movies.columnId, q.columnId));
  if (q.tagId !== undefined)
    where.push(
      inArray(
        movies.id,
        sql`(select ${movieTagLinks.movieId} from ${movieTagLinks} where ${movieTagLinks.tagId} = ${q.tagId})`,
      ),
    );
  if (q.platform !== undefined) where.push(sql`${movies.platforms} @> array[${q.platform}::integer]`);
  for (const [from, to, col, field] of [
    [q.createdFrom, q.createdTo, movies.createdAt, 'createdTo'],
    [q.publishedFrom, q.publishedTo, movies.publishedAt, 'publishedTo'],
  ] as const) {
    if (from && to && rangeStart(from) >= rangeEnd(to)) throw invalidField(field, 'field.range');
    if (from) where.push(gte(col, rangeStart(from)));
    if (to) where.push(lt(col, rangeEnd(to)));
  }
  if (q.recommended !== undefined) where.push(eq(movies.recommended, q.recommended));
  if (q.free !== undefined) where.push(eq(movies.free, q.free));
  if (q.viewsMin !== undefined) where.push(gte(movies.views, q.viewsMin));
  if (q.viewsMax !== undefined) where.push(lte(movies.views, q.viewsMax));
  return and(...where);
}

/** Runs a batch action inside `tx` on `ids` (all exist, checked); answers how many movies changed. */
async function runBatch(c: AppContext, tx: Executor, body: z.infer<typeof BatchBody>, ids: number[]) {
  const now = c.get('deps').clock.now();
  const bump = { version: sql`${movies.version} + 1`, updatedAt: now };
  switch (body.action) {
    case 'approve':
    case 'reject':
    case 'offline':
    case 'online': {
      const action = body.action;
      if (action === 'reject' && !body.reason) throw invalidField('reason', 'field.required');
      const rows = await tx
        .select({ id: movies.id, status: movies.status })
        .from(movies)
        .where(inArray(movies.id, ids))
        .orderBy(asc(movies.id))
        .for('update');
      const from = TRANSITIONS[action].from as readonly string[];
      const bad = rows.find((r) => !from.includes(r.status));
      if (bad) throw transitionError(c, bad.status, action, bad.id);
      const changed = await tx
        .update(movies)
        .set(transitionValues(c, action, body.reason) as any)
        .where(inArray(movies.id, ids))
        .returning({ id: movies.id });
      return changed.length;
    }
    case 'recommend':
    case 'unrecommend': {
      const flag = body.action === 'recommend';
      const changed = await tx
        .update(movies)
        .set({ recommended: flag, ...bump })
        .where(and(inArray(movies.id, ids), ne(movies.recommended, flag)))
        .returning({ id: movies.id });
      return changed.length;
    }
    case 'setColumn': {
      if (body.columnId === undefined) throw invalidField('columnId', 'field.required');
      await assertRefs(tx, movieColumns, movieColumns.id, [body.columnId], 'columnId');
      const changed = await tx
        .update(movies)
        .set({ columnId: body.columnId, ...bump })
        .where(and(inArray(movies.id, ids), sql`${movies.columnId} is distinct from ${body.columnId}`))
        .returning({ id: movies.id });
      return changed.length;
    }
    case 'addTags':
    case 'removeTags': {
      if (!body.tagIds?.length) throw invalidField('tagIds', 'field.required');
      await assertRefs(tx, movieTags, movieTags.id, body.tagIds, 'tagIds');
      const tagIds = [...new Set(body.tagIds)];
      // Up to 1,000 × 50 links: one statement over two arrays, not one bind parameter per value.
      const touched = rowsOf<{ movie_id: number }>(
        body.action === 'addTags'
          ? await tx.execute(sql`
              insert into movie_tag_links (movie_id, tag_id)
              select m, t from unnest(${sql.param(ids)}::integer[]) as m cross join unnest(${sql.param(tagIds)}::integer[]) as t
              on conflict do nothing
              returning movie_id`)
          : await tx.execute(sql`
              delete from movie_tag_links
              where movie_id = any(${sql.param(ids)}::integer[]) and tag_id = any(${sql.param(tagIds)}::integer[])
              returning movie_id`),
      ).map((r) => ({ movieId: Number(r.movie_id) }));
      const changed = [...new Set(touched.map((t) => t.movieId))];
      await touchMovies(tx, changed, now);
      return changed.length;
    }
    case 'delete': {
      if (c.get('operator').role !== 'admin') throw forbidden();
      const changed = await tx.delete(movies).where(inArray(movies.id, ids)).returning({ id: movies.id });
      return changed.length;
    }
  }
}

async function mustReadMovie(db: Executor, movieId: number) {
  const movie = await readMovie(db, movieId);
  if (!movie) throw notFound(); // deleted between the change and this read
  return movie;
}

/** A state the caller did not see (a row removed or referenced meanwhile) is a conflict, not a server fault. */
async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isForeignKeyViolation(err)) throw conflict();
    throw err;
  }
}

export function movieRoutes() {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(routes.list, async (c) => {
    rejectUnknownQuery(c, ListQuery);
    const q = c.req.valid('query');
    const { db } = c.get('deps');
    const where = listWhere(q);
    const pageSize = q.ids ? Math.max(q.pageSize, q.ids.length) : q.pageSize;
    const offset = (q.page - 1) * q.pageSize;
    const sort = (q.sort ?? 'id') as keyof typeof sorts;
    const sortCol = sorts[sort];
    const totalQuery = { statuses: q.status ? [q.status] : VIEWS[q.view], query: q };
    // A title search of three or more characters is counted first (at most COUNT_CAP + 1 rows): that tells how to
    // read its page (totals.ts readPlanned). One or two characters are estimated well: counted beside the page.
    const longSearch = q.q !== undefined && [...q.q].length > 2;
    const searchTotal = longSearch ? await listTotal(db, totalQuery, where) : undefined;
    const shortSearchTotal = q.q && !longSearch ? listTotal(db, totalQuery, where) : undefined;
    shortSearchTotal?.catch(() => {}); // awaited below; not an unhandled rejection if the page query fails first
    // As the sort indexes of migration 0004 are declared: (col DESC NULLS LAST, id DESC), read either way.
    const order =
      q.order === 'desc'
        ? [sql`${sortCol} desc nulls last`, desc(movies.id)]
        : [sql`${sortCol} asc nulls first`, asc(movies.id)];
    // The page's ids first, then their rows: skipping `offset` rows walks the sort index only (an index-only scan
    // when the filter is in the index), not 20,000 table rows for page 1000.
    const pageIds = await readPlanned(
      db,
      { walkSortIndex: searchTotal?.totalExact === false && SORT_INDEXED.has(sort) },
      (tx) =>
        tx
          .select({ id: movies.id })
          .from(movies)
          .where(where)
          .orderBy(...order)
          .limit(pageSize)
          .offset(offset),
    );
    // Then the rows, their tags and the total at once (separate connections on PostgreSQL).
    const ids = pageIds.map((r) => r.id);
    const [rows, tagMap, totals] = await Promise.all([
      ids.length
        ? db
            .select(movieSelect)
            .from(movies)
            .leftJoin(movieColumns, eq(movieColumns.id, movies.columnId))
            .where(inArray(movies.id, ids))
            .orderBy(...order)
        : [],
      tagIdsOf(db, ids),
      searchTotal ??
        shortSearchTotal ??
        listTotal(db, totalQuery, where, { offset, pageSize, pageRows: ids.length }),
    ]);
    return ok(c, { list: rows.map((r) => movieToApi(r, tagMap.get(r.id) ?? [])), ...totals });
  });

  app.openapi(routes.get, async (c) => {
    const movie = await readMovie(c.get('deps').db, c.req.valid('param').id);
    if (!movie) throw notFound();
    return ok(c, movie);
  });

  app.openapi(routes.create, async (c) => {
    const { db, clock } = c.get('deps');
    const body = c.req.valid('json');
    const movieId = await guarded(() =>
      transaction(db, async (tx) => {
        await checkRefs(c, tx, body);
        const { tagIds, actressIds, plays, ...fields } = body;
        const [row] = await tx
          .insert(movies)
          .values({ ...fields, status: 'pending', createdAt: clock.now(), updatedAt: clock.now() })
          .returning({ id: movies.id });
        await writeLinks(tx, row.id, { tagIds, actressIds, plays });
        return row.id;
      }),
    );
    return ok(c, await mustReadMovie(db, movieId));
  });

  app.openapi(routes.update, async (c) => {
    const { db, clock } = c.get('deps');
    const { id: movieId } = c.req.valid('param');
    const { version: v, tagIds, actressIds, plays, ...fields } = c.req.valid('json');
    await guarded(() =>
      transaction(db, async (tx) => {
        await checkRefs(c, tx, { ...fields, tagIds, actressIds, plays });
        await updateVersioned(tx, movies, movieId, v, { ...fields, updatedAt: clock.now() });
        await writeLinks(tx, movieId, { tagIds, actressIds, plays });
      }),
    );
    return ok(c, await mustReadMovie(db, movieId));
  });

  app.openapi(routes.remove, async (c) => {
    const { id: movieId } = c.req.valid('param');
    const rows = await transaction(c.get('deps').db, (tx) =>
      tx.delete(movies).where(eq(movies.id, movieId)).returning({ id: movies.id }),
    );
    if (!rows.length) throw notFound();
    return ok(c, { id: movieId });
  });

  app.openapi(routes.batch, async (c) => {
    const body = c.req.valid('json');
    if (body.action === 'delete' && c.get('operator').role !== 'admin') throw forbidden();
    const changed = await guarded(() =>
      transaction(c.get('deps').db, async (tx) => {
        const ids = await lockRows(tx, movies, body.ids, undefined, 'no key update');
        return runBatch(c, tx, body, ids);
      }),
    );
    return ok(c, { changed });
  });

  for (const action of Object.keys(TRANSITIONS) as Transition[]) {
    app.openapi(transitionRoute(action), async (c) => {
      const { id: movieId } = c.req.valid('param');
      const body = ((c.req.valid as any)('json') ?? {}) as { reason?: string; version?: number };
      const { db } = c.get('deps');
      await transaction(db, async (tx) => {
        const [row] = await tx
          .select({ status: movies.status, version: movies.version })
          .from(movies)
          .where(eq(movies.id, movieId))
          .for('update');
        if (!row) throw notFound();
        if (body.version !== undefined && body.version !== row.version) throw conflict();
        if (!(TRANSITIONS[action].from as readonly string[]).includes(row.status))
          throw transitionError(c, row.status, action);
        await tx
          .update(movies)
          .set(transitionValues(c, action, body.reason) as any)
          .where(eq(movies.id, movieId));
      });
      return ok(c, await mustReadMovie(db, movieId));
    });
  }

  return app;
}
