import { OpenAPIHono, z } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import { isFutureDay } from '../../../common/dates';
import { audit, auditedRoute, diff, snapshot } from '../../core/audit';
import { can, security } from '../../core/auth';
import type { AppContext, AppEnv } from '../../core/context';
import { idParam, updateVersioned } from '../../core/crud';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { invalidField, notFound } from '../../core/errors';
import { reviewRoutes } from '../../core/review';
import { createRoute } from '../../core/route';
import { guarded, rejectUnknownQuery, transaction, version } from '../../core/shared';
import type { Executor } from '../../db/types';
import { batchActions, batchFields } from './batch';
import { checkRefs, writeLinks } from './links';
import { ListQuery, readMovieList } from './list';
import { Movie, movieFields, readMovie } from './model';
import { movies } from './schema';

/**
 * The movies (`/app/admin/movie/movies`): list, one, create, update, delete (admin), and the review kit's batch
 * and transitions. The list's planning is in list.ts, the links in links.ts, the batch's own actions in batch.ts.
 */
const tags = ['movies'];

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

const idOf = { params: idParam };
const Page = z.object({
  list: z.array(Movie),
  total: z.number(),
  /** false when more than COUNT_CAP movies match a filter no counter keeps: `total` is then COUNT_CAP ("10,000+"). */
  totalExact: z.boolean(),
});

const routes = {
  list: createRoute({
    method: 'get',
    path: '/',
    tags,
    summary: 'List movies: view=review (pending, rejected), online (online, offline) or all',
    middleware: can('movie.read'),
    security,
    request: { query: ListQuery },
    responses: jsonResponse(Page),
  }),
  get: createRoute({
    method: 'get',
    path: '/{id}',
    tags,
    summary: 'One movie with tags, actresses and play entries (URLs built from their sources)',
    middleware: can('movie.read'),
    security,
    request: idOf,
    responses: jsonResponse(Movie),
  }),
  create: createRoute(
    auditedRoute({
      method: 'post',
      path: '/',
      tags,
      summary: 'Create a movie (status pending: it enters the review queue)',
      middleware: can('movie.edit'),
      security,
      request: { body: jsonBody(CreateBody) },
      responses: jsonResponse(Movie),
    }),
  ),
  update: createRoute(
    auditedRoute({
      method: 'put',
      path: '/{id}',
      tags,
      summary: 'Edit a movie (optimistic locking on version; links are replaced when sent)',
      middleware: can('movie.edit'),
      security,
      request: { ...idOf, body: jsonBody(UpdateBody) },
      responses: jsonResponse(Movie),
    }),
  ),
  remove: createRoute(
    auditedRoute({
      method: 'delete',
      path: '/{id}',
      tags,
      summary: 'Delete a movie (admin)',
      middleware: can('movie.settings'),
      security,
      request: idOf,
      responses: jsonResponse(z.object({ id: z.number() })),
    }),
  ),
};

/** A release date after today is a typing error (common/dates.ts; the form says it too). */
function checkReleaseDate(c: AppContext, releaseDate: string | null | undefined) {
  if (isFutureDay(releaseDate, c.get('deps').clock.now()))
    throw invalidField('releaseDate', 'movie.releaseFuture');
}

async function mustReadMovie(db: Executor, movieId: number) {
  const movie = await readMovie(db, movieId);
  if (!movie) throw notFound(); // deleted between the change and this read
  return movie;
}

export function movieRoutes() {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(routes.list, async (c) => {
    rejectUnknownQuery(c, ListQuery);
    return ok(c, await readMovieList(c.get('deps').db, c.req.valid('query')));
  });

  app.openapi(routes.get, async (c) => {
    const movie = await readMovie(c.get('deps').db, c.req.valid('param').id);
    if (!movie) throw notFound();
    return ok(c, movie);
  });

  app.openapi(routes.create, async (c) => {
    const { db, clock } = c.get('deps');
    const body = c.req.valid('json');
    checkReleaseDate(c, body.releaseDate);
    const movieId = await guarded(() =>
      transaction(db, async (tx) => {
        await checkRefs(c, tx, body);
        const { tagIds, actressIds, plays, ...fields } = body;
        const [row] = await tx
          .insert(movies)
          .values({ ...fields, status: 'pending', createdAt: clock.now(), updatedAt: clock.now() })
          .returning({ id: movies.id });
        await writeLinks(tx, row.id, { tagIds, actressIds, plays });
        // The movie as the API answers it, links included.
        await audit(tx, c, {
          resource: 'movies',
          action: 'create',
          recordId: row.id,
          changes: { after: snapshot((await readMovie(tx, row.id)) ?? {}) },
        });
        return row.id;
      }),
    );
    return ok(c, await mustReadMovie(db, movieId));
  });

  app.openapi(routes.update, async (c) => {
    const { db, clock } = c.get('deps');
    const { id: movieId } = c.req.valid('param');
    const { version: v, tagIds, actressIds, plays, ...fields } = c.req.valid('json');
    checkReleaseDate(c, fields.releaseDate);
    await guarded(() =>
      transaction(db, async (tx) => {
        await checkRefs(c, tx, { ...fields, tagIds, actressIds, plays });
        const before = await readMovie(tx, movieId);
        await updateVersioned(tx, movies, movieId, v, { ...fields, updatedAt: clock.now() });
        await writeLinks(tx, movieId, { tagIds, actressIds, plays });
        // The fields that changed as the API answers them (tags, actresses and plays too), before and after.
        const after = await readMovie(tx, movieId);
        await audit(tx, c, {
          resource: 'movies',
          action: 'update',
          recordId: movieId,
          changes: diff(before ?? {}, after ?? {}),
        });
      }),
    );
    return ok(c, await mustReadMovie(db, movieId));
  });

  app.openapi(routes.remove, async (c) => {
    const { id: movieId } = c.req.valid('param');
    const rows = await transaction(c.get('deps').db, async (tx) => {
      const before = await readMovie(tx, movieId);
      const deleted = await tx.delete(movies).where(eq(movies.id, movieId)).returning({ id: movies.id });
      if (deleted.length)
        await audit(tx, c, {
          resource: 'movies',
          action: 'delete',
          recordId: movieId,
          changes: { before: snapshot(before ?? {}) },
        });
      return deleted;
    });
    if (!rows.length) throw notFound();
    return ok(c, { id: movieId });
  });

  app.route(
    '/',
    reviewRoutes({
      table: movies,
      tag: 'movies',
      guard: can('movie.review'),
      security,
      schema: Movie,
      read: readMovie,
      messages: 'movie',
      batch: {
        summary:
          'approve, reject (reason), offline, online, recommend, unrecommend, setColumn (columnId), addTags/removeTags (tagIds), delete (admin): one transaction, all or nothing',
        fields: batchFields,
        actions: batchActions,
        guard: can('movie.batch'),
        restricted: { delete: 'movie.settings' },
        // Links reference the movies: inserting a link still goes on while a batch holds them.
        lock: 'no key update',
      },
    }),
  );

  return app;
}
