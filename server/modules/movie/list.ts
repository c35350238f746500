import { z } from '@hono/zod-openapi';
import { and, asc, desc, eq, gte, inArray, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { MovieListFilter } from '../../../common/movie';
import { REVIEW_VIEWS } from '../../../common/review';
import { listQuery } from '../../core/crud';
import { invalidField } from '../../core/errors';
import { enumParams } from '../../core/i18n';
import { boolQuery, dateQuery, intQuery, rangeEnd, rangeStart } from '../../core/shared';
import { rowsOf } from '../../db/migrate';
import type { Db, Executor } from '../../db/types';
import { movieSelect, movieToApi, titleContains, titleLike } from './model';
import { MOVIE_STATUSES, type MovieStatus, movieColumns, movies } from './schema';
import {
  counterOf,
  gramCounted,
  listTotal,
  readPlanned,
  rowsWithoutSearch,
  searchAlone,
  statusWalkPays,
  termPageStart,
  viewPageStart,
  walkPays,
} from './totals';

/**
 * The movie list (`GET /app/admin/movie/movies`): its query (sorts, and the filters of common/movie.ts), the filter
 * it makes, and how a page and its total are read at a million rows (docs/sections.md "Totals at scale").
 */

export const sorts = {
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

/** Sorts a sort index of the movies serves in both directions (and `id`, the primary key). */
const SORT_INDEXED = new Set<keyof typeof sorts>(['id', 'publishedAt', 'createdAt', 'views']);

/**
 * Sorts with an index led by the status (`movies_status_created`, `movies_status_published`). A page of
 * a view of several statuses and no other filter merges one walk of that index per status, each at most
 * offset + page size long, instead of walking the sort index and skipping the other statuses' movies: page 1000 of
 * the review queue (pending and rejected, 30 % of the movies) read 66,000 index entries for 20,000.
 */
const STATUS_LED = new Set<keyof typeof sorts>(['createdAt', 'publishedAt']);

/** The filters' query fields: exactly the names of MOVIE_LIST_FILTERS (the type checker holds the two together). */
const filters = {
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
} satisfies Record<MovieListFilter, z.ZodType>;

export const ListQuery = listQuery(
  Object.keys(sorts) as [keyof typeof sorts, ...(keyof typeof sorts)[]],
  filters,
);
type Query = z.infer<typeof ListQuery>;

const VIEWS = REVIEW_VIEWS;

function listWhere(q: Query): SQL | undefined {
  const statuses = VIEWS[q.view] as readonly string[];
  if (q.status && !statuses.includes(q.status))
    throw invalidField('status', 'field.enum', enumParams(statuses));
  if (q.viewsMin !== undefined && q.viewsMax !== undefined && q.viewsMin > q.viewsMax)
    throw invalidField('viewsMax', 'field.range');
  const where: (SQL | undefined)[] = [];
  if (q.status) where.push(eq(movies.status, q.status));
  else if (q.view !== 'all') where.push(inArray(movies.status, [...statuses] as MovieStatus[]));
  if (q.ids) where.push(inArray(movies.id, q.ids));
  if (q.q) where.push(titleContains(q.q));
  if (q.columnId !== undefined) where.push(eq(movies.columnId, q.columnId));
  // The kept tag ids: a walk of a screen's sort index tests them in the index.
  if (q.tagId !== undefined) where.push(sql`${movies.tagIds} @> array[${q.tagId}::integer]`);
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

/**
 * One page of the list and its total: the page's ids first (walking the sort index when a long title search matches
 * many), then their rows, tags and the total at once.
 */
export async function readMovieList(db: Db, q: Query) {
  const where = listWhere(q);
  const pageSize = q.ids ? Math.max(q.pageSize, q.ids.length) : q.pageSize;
  const offset = (q.page - 1) * q.pageSize;
  const sort = (q.sort ?? 'id') as keyof typeof sorts;
  const sortCol = sorts[sort];
  const totalQuery = { statuses: q.status ? [q.status] : VIEWS[q.view], query: q };
  // A title search of three or more characters is counted first (its kept term count, or at most COUNT_CAP + 1
  // rows), and so is one whose total is kept (a gram in a view or status, alone or in a column, totals.ts
  // gramCounted): that tells how to read its page (statusWalkPays, walkPays). Other searches of one or two characters
  // are estimated well: counted beside the page.
  const countFirst = q.q !== undefined && ([...q.q].length > 2 || gramCounted(q));
  const [searchTotal, rows] = countFirst
    ? await Promise.all([listTotal(db, totalQuery, where), rowsWithoutSearch(db, totalQuery)])
    : [undefined, 0];
  const shortSearchTotal = q.q && !countFirst ? listTotal(db, totalQuery, where) : undefined;
  shortSearchTotal?.catch(() => {}); // awaited below; not an unhandled rejection if the page query fails first
  // As the movies' sort indexes are declared: (col DESC NULLS LAST, id DESC), read either way.
  const descending = q.order === 'desc';
  const order = descending
    ? [sql`${sortCol} desc nulls last`, desc(movies.id)]
    : [sql`${sortCol} asc nulls first`, asc(movies.id)];
  // The page's ids first, then their rows: skipping `offset` rows walks the sort index only (an index-only scan
  // when the filter is in the index), not 20,000 table rows for page 1000.
  const statuses = VIEWS[q.view] as readonly MovieStatus[];
  const merged =
    !q.status &&
    q.view !== 'all' &&
    statuses.length > 1 &&
    STATUS_LED.has(sort) &&
    counterOf(q)?.dim === 'all';
  // A title search alone: each status's walk tests the title in its index when that beats the bitmap. A kept term's
  // deep page starts its walks at the week that holds its first row (termPageStart).
  const alone = searchTotal !== undefined && STATUS_LED.has(sort) && searchAlone(q);
  const weeksOf = sort === 'createdAt' ? 'created' : 'published';
  const start =
    alone && offset > 0 && searchTotal.totalExact && q.q
      ? await termPageStart(
          db,
          q.q,
          totalQuery.statuses,
          weeksOf,
          descending,
          { offset, pageSize },
          searchTotal.total,
        )
      : undefined;
  const walkOffset = offset - (start?.before ?? 0);
  const searchWalk =
    alone &&
    statusWalkPays({ offset: walkOffset, pageSize }, searchTotal.total, rows, totalQuery.statuses.length);
  // A view or status, alone or with one counted filter, deep: its walk starts at the week that holds the page's
  // first row.
  const counter = counterOf(q);
  const viewStart =
    counter && !q.q && !q.ids && offset > 0 && STATUS_LED.has(sort)
      ? await viewPageStart(db, totalQuery.statuses, counter, weeksOf, descending, { offset, pageSize })
      : undefined;
  const viewOffset = offset - (viewStart?.before ?? 0);
  const pageIds = merged
    ? await mergedPage(db, {
        statuses,
        sortCol,
        descending,
        offset: viewOffset,
        pageSize,
        fromWeek: viewStart?.week,
      })
    : searchWalk
      ? await readPlanned(db, { walkSortIndex: false, serial: true }, (tx) =>
          mergedPage(tx, {
            statuses: totalQuery.statuses,
            sortCol,
            descending,
            offset: walkOffset,
            pageSize,
            search: q.q,
            fromWeek: start?.week,
          }),
        )
      : await readPlanned(
          db,
          {
            walkSortIndex:
              searchTotal !== undefined &&
              SORT_INDEXED.has(sort) &&
              walkPays({ offset, pageSize }, searchTotal.total, rows),
          },
          (tx) =>
            tx
              .select({ id: movies.id })
              .from(movies)
              .where(viewStart ? and(where, weekBound(sortCol, viewStart.week, descending)) : where)
              .orderBy(...order)
              .limit(pageSize)
              .offset(viewOffset),
        );
  // Then the rows (their tags with them) and the total at once (separate connections on PostgreSQL).
  const ids = pageIds.map((r) => r.id);
  const [list, totals] = await Promise.all([
    ids.length
      ? db
          .select(movieSelect)
          .from(movies)
          .leftJoin(movieColumns, eq(movieColumns.id, movies.columnId))
          .where(inArray(movies.id, ids))
          .orderBy(...order)
      : [],
    searchTotal ??
      shortSearchTotal ??
      listTotal(db, totalQuery, where, { offset, pageSize, pageRows: ids.length }),
  ]);
  return { list: list.map(movieToApi), ...totals };
}

/**
 * The rows from a week on in the list's order (totals.ts weekStart): before the end of the week when descending, from
 * its start when ascending (weeks are UTC, from Monday). Rows without the date are never in it.
 */
function weekBound(sortCol: (typeof sorts)[keyof typeof sorts], week: string, descending: boolean): SQL {
  return descending
    ? sql`${sortCol} < (${week}::date + 7)::timestamp at time zone 'UTC'`
    : sql`${sortCol} >= ${week}::date::timestamp at time zone 'UTC'`;
}

/**
 * One page of ids in the list's order over `statuses`: each status's walk of its index, merged (STATUS_LED). With a
 * title search, each walk tests the title the index carries, the same test as titleContains: a
 * movie's grams hold a one- or two-character search exactly when its lowercased title contains it. From a week
 * (termPageStart), each walk starts at that week's end (descending) or start (ascending), `offset` counted from there.
 */
async function mergedPage(
  db: Executor,
  page: {
    statuses: readonly MovieStatus[];
    sortCol: (typeof sorts)[keyof typeof sorts];
    descending: boolean;
    offset: number;
    pageSize: number;
    search?: string;
    fromWeek?: string;
  },
) {
  const { statuses, sortCol, descending, offset, pageSize, search, fromWeek } = page;
  const dir = descending ? sql`desc nulls last` : sql`asc nulls first`;
  const idDir = descending ? sql`desc` : sql`asc`;
  const title = search ? sql` and ${titleLike(search)}` : sql``;
  const from = fromWeek === undefined ? sql`` : sql` and ${weekBound(sortCol, fromWeek, descending)}`;
  const walks = statuses.map(
    (
      s,
    ) => sql`(select ${movies.id} as id, ${sortCol} as k from ${movies} where ${movies.status} = ${s}${title}${from}
      order by ${sortCol} ${dir}, ${movies.id} ${idDir} limit ${offset + pageSize})`,
  );
  return rowsOf<{ id: number }>(
    await db.execute(sql`select id from (${sql.join(walks, sql` union all `)}) as m
      order by k ${dir}, id ${idDir} limit ${pageSize} offset ${offset}`),
  ).map((r) => ({ id: Number(r.id) }));
}
