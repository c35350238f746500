import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { and, eq, ilike, inArray, type SQL, sql } from 'drizzle-orm';
import type { AppEnv } from '../../core/context';
import { findById, idParam, isUniqueViolation, listPage, listQuery, updateVersioned } from '../../core/crud';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { conflict, invalidField, notFound } from '../../core/errors';
import { asAdmin, asAnyOperator, security } from '../operators';
import { lockMovies, touchMovies } from './model';
import { movieTagLinks, movieTags } from './schema';
import {
  assertAllExist,
  boolQuery,
  containsPattern,
  duplicate,
  idArray,
  isForeignKeyViolation,
  iso,
  rejectUnknownQuery,
  transaction,
  version,
} from './shared';

const BASE = '/admin/movie/tags';
const tags = ['movie tags'];

const Tag = z
  .object({
    id: z.number(),
    name: z.string(),
    group: z.string(),
    hot: z.boolean(),
    itemCount: z.number(),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number(),
  })
  .openapi('MovieTag');

const sorts = {
  id: movieTags.id,
  name: movieTags.name,
  group: movieTags.group,
  itemCount: movieTags.itemCount,
  createdAt: movieTags.createdAt,
} as const;

const ListQuery = listQuery(Object.keys(sorts) as [keyof typeof sorts, ...(keyof typeof sorts)[]], {
  q: z.string().trim().max(32).optional(),
  group: z.string().trim().max(32).optional(),
  hot: boolQuery.optional(),
});

const fields = {
  name: z.string().trim().min(1).max(32),
  group: z.string().trim().max(32),
  hot: z.boolean(),
};
const CreateBody = z.object({
  ...fields,
  group: fields.group.optional().default(''),
  hot: fields.hot.optional().default(false),
});
const UpdateBody = z.object({ ...z.object(fields).partial().shape, version });

const idOf = { params: idParam };

const routes = {
  list: createRoute({
    method: 'get',
    path: BASE,
    tags,
    security,
    summary: 'List tags',
    middleware: asAnyOperator,
    request: { query: ListQuery },
    responses: jsonResponse(z.object({ list: z.array(Tag), total: z.number() })),
  }),
  get: createRoute({
    method: 'get',
    path: `${BASE}/{id}`,
    tags,
    security,
    summary: 'One tag',
    middleware: asAnyOperator,
    request: idOf,
    responses: jsonResponse(Tag),
  }),
  create: createRoute({
    method: 'post',
    path: BASE,
    tags,
    security,
    summary: 'Create a tag (admin; the name is unique)',
    middleware: asAdmin,
    request: { body: jsonBody(CreateBody) },
    responses: jsonResponse(Tag),
  }),
  update: createRoute({
    method: 'put',
    path: `${BASE}/{id}`,
    tags,
    security,
    summary: 'Edit a tag (admin; optimistic locking on version)',
    middleware: asAdmin,
    request: { ...idOf, body: jsonBody(UpdateBody) },
    responses: jsonResponse(Tag),
  }),
  remove: createRoute({
    method: 'delete',
    path: `${BASE}/{id}`,
    tags,
    security,
    summary: 'Delete a tag (admin; its links go with it)',
    middleware: asAdmin,
    request: idOf,
    responses: jsonResponse(Tag),
  }),
  merge: createRoute({
    method: 'post',
    path: `${BASE}/{id}/merge`,
    tags,
    security,
    summary:
      'Merge the tags `ids` into this one (admin): their movies move here, they are deleted; one transaction',
    middleware: asAdmin,
    request: { ...idOf, body: jsonBody(z.object({ ids: idArray(100).min(1) })) },
    responses: jsonResponse(Tag.extend({ moved: z.number() })),
  }),
};

function toApi(r: Record<string, any>) {
  return { ...r, createdAt: iso(r.createdAt) as string, updatedAt: iso(r.updatedAt) as string } as z.infer<
    typeof Tag
  >;
}

function saveErrors(err: unknown): never {
  if (isUniqueViolation(err)) throw duplicate('name');
  if (isForeignKeyViolation(err)) throw conflict();
  throw err;
}

export function tagRoutes() {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(routes.list, async (c) => {
    rejectUnknownQuery(c, ListQuery);
    const q = c.req.valid('query');
    const where: (SQL | undefined)[] = [];
    if (q.ids) where.push(inArray(movieTags.id, q.ids));
    if (q.q) where.push(ilike(movieTags.name, containsPattern(q.q)));
    if (q.group !== undefined) where.push(eq(movieTags.group, q.group));
    if (q.hot !== undefined) where.push(eq(movieTags.hot, q.hot));
    const page = await listPage<typeof movieTags.$inferSelect>(c.get('deps').db, {
      table: movieTags,
      where: and(...where),
      orderBy: sorts[(q.sort ?? 'id') as keyof typeof sorts],
      query: q,
    });
    return ok(c, { list: page.list.map(toApi), total: page.total });
  });

  app.openapi(routes.get, async (c) => {
    const row = await findById<typeof movieTags.$inferSelect>(
      c.get('deps').db,
      movieTags,
      c.req.valid('param').id,
    );
    return ok(c, toApi(row));
  });

  app.openapi(routes.create, async (c) => {
    const { db, clock } = c.get('deps');
    try {
      const [row] = await db
        .insert(movieTags)
        .values({ ...c.req.valid('json'), createdAt: clock.now(), updatedAt: clock.now() })
        .returning();
      return ok(c, toApi(row));
    } catch (err) {
      saveErrors(err);
    }
  });

  app.openapi(routes.update, async (c) => {
    const { db, clock } = c.get('deps');
    const { version: v, ...patch } = c.req.valid('json');
    try {
      const row = await updateVersioned<Record<string, unknown>>(db, movieTags, c.req.valid('param').id, v, {
        ...patch,
        updatedAt: clock.now(),
      });
      return ok(c, toApi(row));
    } catch (err) {
      saveErrors(err);
    }
  });

  app.openapi(routes.remove, async (c) => {
    const { db, clock } = c.get('deps');
    const { id: tagId } = c.req.valid('param');
    const row = await transaction(db, async (tx) => {
      const linked = await tx
        .select({ movieId: movieTagLinks.movieId })
        .from(movieTagLinks)
        .where(eq(movieTagLinks.tagId, tagId));
      await lockMovies(
        tx,
        linked.map((l) => l.movieId),
      );
      const [r] = await tx.delete(movieTags).where(eq(movieTags.id, tagId)).returning();
      if (!r) throw notFound();
      await touchMovies(
        tx,
        linked.map((l) => l.movieId),
        clock.now(),
      );
      return r;
    });
    return ok(c, toApi(row));
  });

  app.openapi(routes.merge, async (c) => {
    const { db, clock } = c.get('deps');
    const { id: survivor } = c.req.valid('param');
    const { ids } = c.req.valid('json');
    if (ids.includes(survivor)) throw invalidField('ids', 'tag.mergeSelf');
    const result = await transaction(db, async (tx) => {
      const [target] = await tx
        .select({ id: movieTags.id })
        .from(movieTags)
        .where(eq(movieTags.id, survivor));
      if (!target) throw notFound();
      const merged = await assertAllExist(tx, movieTags, movieTags.id, ids);
      const moving = await tx
        .selectDistinct({ movieId: movieTagLinks.movieId })
        .from(movieTagLinks)
        .where(inArray(movieTagLinks.tagId, merged));
      const movieIds = moving.map((m) => m.movieId);
      await lockMovies(tx, movieIds);
      if (movieIds.length)
        await tx.execute(sql`
          insert into movie_tag_links (movie_id, tag_id)
          select distinct movie_id, ${survivor}::integer from movie_tag_links where tag_id in ${sql`(${sql.join(
            merged.map((m) => sql`${m}`),
            sql`, `,
          )})`}
          on conflict do nothing`);
      await tx.delete(movieTags).where(inArray(movieTags.id, merged)); // their links go by cascade
      await touchMovies(tx, movieIds, clock.now());
      const [row] = await tx.select().from(movieTags).where(eq(movieTags.id, survivor));
      return { ...toApi(row), moved: movieIds.length };
    });
    return ok(c, result);
  });

  return app;
}
