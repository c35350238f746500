import { z } from '@hono/zod-openapi';
import { eq, ilike, inArray, sql } from 'drizzle-orm';
import { auditedRoute, auditMany } from '../../core/audit';
import { can, security } from '../../core/auth';
import { idParam, lockRows } from '../../core/crud';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { invalidField, notFound } from '../../core/errors';
import { crudResource, isoTimestamps as toApi } from '../../core/resource';
import { createRoute } from '../../core/route';
import { boolQuery, containsPattern, idArray, transaction } from '../../core/shared';
import { lockMovies, touchMovies } from './model';
import { movieTagLinks, movieTags } from './schema';

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

const fields = {
  name: z.string().trim().min(1).max(32),
  group: z.string().trim().max(32),
  hot: z.boolean(),
};

const mergeRoute = createRoute({
  method: 'post',
  path: '/{id}/merge',
  tags: ['movie tags'],
  security,
  summary:
    'Merge the tags `ids` into this one (admin): their movies move here, they are deleted; one transaction',
  middleware: can('movie.settings'),
  request: { params: idParam, body: jsonBody(z.object({ ids: idArray(100).min(1) })) },
  responses: jsonResponse(Tag.extend({ moved: z.number() })),
});

/** Movie tags: the CRUD routes, a delete that bumps the tagged movies' versions, and merge. */
export function tagRoutes() {
  const app = crudResource({
    tag: 'movie tags',
    table: movieTags,
    schema: Tag,
    sorts: {
      id: movieTags.id,
      name: movieTags.name,
      group: movieTags.group,
      itemCount: movieTags.itemCount,
      createdAt: movieTags.createdAt,
    },
    defaultSort: 'id',
    filters: {
      q: z.string().trim().max(32).optional(),
      group: z.string().trim().max(32).optional(),
      hot: boolQuery.optional(),
    },
    where: (q) => [
      q.q ? ilike(movieTags.name, containsPattern(q.q)) : undefined,
      q.group !== undefined ? eq(movieTags.group, q.group) : undefined,
      q.hot !== undefined ? eq(movieTags.hot, q.hot) : undefined,
    ],
    fields,
    create: z.object({
      ...fields,
      group: fields.group.optional().default(''),
      hot: fields.hot.optional().default(false),
    }),
    read: can('movie.read'),
    write: can('movie.settings'),
    security,
    unique: 'name',
    // Its links go by cascade; the movies that carried it change, so an open edit form of one is stale (40900).
    beforeDelete: async (tx, row, c) => {
      const linked = await tx
        .select({ movieId: movieTagLinks.movieId })
        .from(movieTagLinks)
        .where(eq(movieTagLinks.tagId, row.id));
      const ids = linked.map((l) => l.movieId);
      await lockMovies(tx, ids);
      await touchMovies(tx, ids, c.get('deps').clock.now());
    },
    summaries: { remove: 'Delete a tag (admin; its links go with it)' },
  });

  app.openapi(auditedRoute(mergeRoute), async (c) => {
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
      // Checked, not locked: the tags' counters are shared rows, locked after the movies.
      const merged = await lockRows(tx, movieTags, ids, undefined, null);
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
      const gone = await tx
        .delete(movieTags)
        .where(inArray(movieTags.id, merged)) // their links go by cascade
        .returning({ id: movieTags.id, name: movieTags.name, group: movieTags.group });
      await touchMovies(tx, movieIds, clock.now());
      const [row] = await tx.select().from(movieTags).where(eq(movieTags.id, survivor));
      await auditMany(tx, c, {
        resource: 'movie tags',
        action: 'merge',
        recordId: survivor,
        ids: merged,
        changed: gone.length,
        extra: { into: row.name, merged: gone, movieIds, itemCount: row.itemCount },
      });
      return { ...(toApi(row) as z.infer<typeof Tag>), moved: movieIds.length };
    });
    return ok(c, result);
  });

  return app;
}
