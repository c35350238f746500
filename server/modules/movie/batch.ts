import { and, inArray, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../core/context';
import { invalidField } from '../../core/errors';
import type { ReviewBatchAction } from '../../core/review';
import { assertRefs, id, idArray } from '../../core/shared';
import { rowsOf } from '../../db/migrate';
import type { Tx } from '../../db/types';
import { touchMovies } from './model';
import { movieColumns, movies, movieTags } from './schema';

/** The batch body's fields besides `action`, `ids` and `reason`. */
export const batchFields = { columnId: id.optional(), tagIds: idArray(50).optional() };
type Body = { action: string; columnId?: number; tagIds?: number[] };

const bump = (c: AppContext) => ({
  version: sql`${movies.version} + 1`,
  updatedAt: c.get('deps').clock.now(),
});

const recommend =
  (flag: boolean): ReviewBatchAction<Body> =>
  async (tx, ids, _body, c) => {
    const changed = await tx
      .update(movies)
      .set({ recommended: flag, ...bump(c) })
      .where(and(inArray(movies.id, ids), ne(movies.recommended, flag)))
      .returning({ id: movies.id });
    return changed.length;
  };

/** Up to 1,000 × 50 links: one statement over two arrays, not one bind parameter per value. */
const tagLinks =
  (add: boolean): ReviewBatchAction<Body> =>
  async (tx: Tx, ids, body, c) => {
    if (!body.tagIds?.length) throw invalidField('tagIds', 'field.required');
    await assertRefs(tx, movieTags, movieTags.id, body.tagIds, 'tagIds');
    const tagIds = [...new Set(body.tagIds)];
    const touched = rowsOf<{ movie_id: number }>(
      add
        ? await tx.execute(sql`
              insert into movie_tag_links (movie_id, tag_id)
              select m, t from unnest(${sql.param(ids)}::integer[]) as m cross join unnest(${sql.param(tagIds)}::integer[]) as t
              on conflict do nothing
              returning movie_id`)
        : await tx.execute(sql`
              delete from movie_tag_links
              where movie_id = any(${sql.param(ids)}::integer[]) and tag_id = any(${sql.param(tagIds)}::integer[])
              returning movie_id`),
    );
    const changed = [...new Set(touched.map((r) => Number(r.movie_id)))];
    await touchMovies(tx, changed, c.get('deps').clock.now());
    return changed.length;
  };

/**
 * The movie batch's own actions beside the review transitions (core/review.ts runs those), in the order the body
 * lists them: each runs on the locked ids and answers how many movies changed. `delete` is admin-only (the kit
 * refuses it first).
 */
export const batchActions: Record<string, ReviewBatchAction<Body>> = {
  recommend: recommend(true),
  unrecommend: recommend(false),
  setColumn: async (tx, ids, body, c) => {
    if (body.columnId === undefined) throw invalidField('columnId', 'field.required');
    await assertRefs(tx, movieColumns, movieColumns.id, [body.columnId], 'columnId');
    const changed = await tx
      .update(movies)
      .set({ columnId: body.columnId, ...bump(c) })
      .where(and(inArray(movies.id, ids), sql`${movies.columnId} is distinct from ${body.columnId}`))
      .returning({ id: movies.id });
    return changed.length;
  },
  addTags: tagLinks(true),
  removeTags: tagLinks(false),
  delete: async (tx, ids) => {
    const changed = await tx.delete(movies).where(inArray(movies.id, ids)).returning({ id: movies.id });
    return changed.length;
  },
};
