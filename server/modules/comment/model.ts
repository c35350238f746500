import { z } from '@hono/zod-openapi';
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm';
import { alias, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import { COMMENT_TARGETS, type CommentTarget, GUESTBOOK_KINDS } from '../../../common/comment';
import { REVIEW_STATUSES } from '../../../common/review';
import { listQuery } from '../../core/crud';
import { invalidField } from '../../core/errors';
import {
  boolQuery,
  containsAnyCase,
  containsPattern,
  dateQuery,
  gramsContain,
  intQuery,
  iso,
  rangeEnd,
  rangeStart,
} from '../../core/shared';
import { COUNT_CAP, cappedCount, cappedCountWithPage, counterSum, onlyFilters } from '../../core/totals';
import type { Db, Executor } from '../../db/types';
import { actresses } from '../actresses/schema';
import { movies } from '../movie/schema';
import { novelChapters, novels } from '../novel/schema';
import { siteUsers } from '../users/schema';
import { commentCounts, comments, guestbook } from './schema';
import { learnTerm, termCounterTotal } from './terms';

/** Beyond COUNT_CAP matches a comments or guestbook total reads "10,000+" (a content search counts no further). */
export { COUNT_CAP } from '../../core/totals';

const date = (from?: string, to?: string) => {
  if (from && to && rangeStart(from) >= rangeEnd(to)) throw invalidField('createdTo', 'field.range');
  return [from ? rangeStart(from) : undefined, to ? rangeEnd(to) : undefined] as const;
};

const commentSorts = {
  id: comments.id,
  createdAt: comments.createdAt,
  likes: comments.likes,
  reports: comments.reports,
} as const;
export const CommentQuery = listQuery(
  Object.keys(commentSorts) as [keyof typeof commentSorts, ...(keyof typeof commentSorts)[]],
  {
    status: z.enum(REVIEW_STATUSES).optional(),
    targetType: z.enum(COMMENT_TARGETS).optional(),
    targetId: intQuery().optional(),
    reported: boolQuery.optional(),
    q: z.string().trim().min(1).max(64).optional(),
    userId: intQuery().optional(),
    address: z.string().trim().min(1).max(45).optional(),
    parentId: intQuery().optional(),
    /** true: only top-level comments (their replies are read under them). */
    topLevel: boolQuery.optional(),
    createdFrom: dateQuery.optional(),
    createdTo: dateQuery.optional(),
  },
);
type CommentQueryT = z.infer<typeof CommentQuery>;

const guestbookSorts = {
  id: guestbook.id,
  createdAt: guestbook.createdAt,
  repliedAt: guestbook.repliedAt,
} as const;
export const GuestbookQuery = listQuery(
  Object.keys(guestbookSorts) as [keyof typeof guestbookSorts, ...(keyof typeof guestbookSorts)[]],
  {
    status: z.enum(REVIEW_STATUSES).optional(),
    kind: z.enum(GUESTBOOK_KINDS).optional(),
    replied: boolQuery.optional(),
    q: z.string().trim().min(1).max(64).optional(),
    userId: intQuery().optional(),
    address: z.string().trim().min(1).max(45).optional(),
    createdFrom: dateQuery.optional(),
    createdTo: dateQuery.optional(),
  },
);
type GuestbookQueryT = z.infer<typeof GuestbookQuery>;

export const Comment = z
  .object({
    id: z.number(),
    targetType: z.enum(COMMENT_TARGETS),
    targetId: z.number(),
    targetTitle: z.string().nullable(),
    userId: z.number().nullable(),
    userAccount: z.string().nullable(),
    guestName: z.string(),
    parentId: z.number().nullable(),
    replyCount: z.number(),
    content: z.string(),
    originalContent: z.string().nullable(),
    address: z.string(),
    likes: z.number(),
    reports: z.number(),
    status: z.enum(REVIEW_STATUSES),
    rejectReason: z.string(),
    version: z.number(),
    createdAt: z.string(),
    reviewedAt: z.string().nullable(),
  })
  .openapi('Comment');

export const GuestbookEntry = z
  .object({
    id: z.number(),
    userId: z.number().nullable(),
    userAccount: z.string().nullable(),
    guestName: z.string(),
    contact: z.string(),
    kind: z.enum(GUESTBOOK_KINDS),
    movieId: z.number().nullable(),
    movieTitle: z.string().nullable(),
    content: z.string(),
    originalContent: z.string().nullable(),
    address: z.string(),
    reply: z.string(),
    repliedAt: z.string().nullable(),
    status: z.enum(REVIEW_STATUSES),
    rejectReason: z.string(),
    version: z.number(),
    createdAt: z.string(),
  })
  .openapi('GuestbookEntry');

/** The titles of comment targets, by type: one query per type present (a post checks its target with it). */
export async function targetTitles(db: Executor, items: { targetType: CommentTarget; targetId: number }[]) {
  const out = new Map<string, string>();
  const sources = {
    movie: [movies, movies.id, movies.title],
    novel: [novels, novels.id, novels.title],
    chapter: [novelChapters, novelChapters.id, novelChapters.title],
    actress: [actresses, actresses.id, actresses.name],
  } as const;
  await Promise.all(
    COMMENT_TARGETS.map(async (type) => {
      const ids = [...new Set(items.filter((i) => i.targetType === type).map((i) => i.targetId))];
      if (!ids.length) return;
      const [table, id, title] = sources[type];
      const rows = await db
        .select({ id, title })
        .from(table as any)
        .where(inArray(id, ids));
      for (const r of rows as { id: number; title: string }[]) out.set(`${type}:${r.id}`, r.title);
    }),
  );
  return out;
}

/** Whether a target exists (a post names one). */
export async function targetExists(db: Executor, type: CommentTarget, id: number) {
  return (await targetTitles(db, [{ targetType: type, targetId: id }])).has(`${type}:${id}`);
}

/**
 * How a content search is tested: `{ bucket }` narrows by the bigram index of one id bucket and
 * rechecks what the grams cannot tell (shared.ts gramsContain: one or two characters need no recheck); `walk` only
 * tests the content, for a page read by walking a sort index, or beside a filter with its own index (a member, an
 * address, a target, a thread, ids: a few hundred comments at most to test).
 */
type SearchBy = { bucket: number } | 'walk';

/** Ids per bucket of the content index: `id >> BUCKET_BITS`. */
const BUCKET_BITS = 17;

const bucketGrams = (bucket: number) => ({
  has: sql`zg_bucket_grams(${comments.content}, ${comments.id})`,
  needs: (q: string) => sql`zg_bucket_query(${q}::text, ${bucket}::integer)`,
});

/** Filters with an index of their own, narrower than any search. */
const narrowed = (q: Partial<CommentQueryT>) =>
  !!q.ids || q.userId !== undefined || !!q.address || q.targetId !== undefined || q.parentId !== undefined;

function commentWhere(tenant: number, q: Partial<CommentQueryT>, search: SearchBy = 'walk'): SQL | undefined {
  const [from, to] = date(q.createdFrom, q.createdTo);
  return and(
    eq(comments.tenant, tenant),
    q.ids ? inArray(comments.id, q.ids) : undefined,
    q.status ? eq(comments.status, q.status) : undefined,
    q.targetType ? eq(comments.targetType, q.targetType) : undefined,
    q.targetId !== undefined ? eq(comments.targetId, q.targetId) : undefined,
    q.reported === true ? sql`${comments.reports} > 0` : undefined,
    q.reported === false ? eq(comments.reports, 0) : undefined,
    q.q
      ? search === 'walk'
        ? containsAnyCase(comments.content, q.q)
        : gramsContain(comments.content, q.q, bucketGrams(search.bucket))
      : undefined,
    q.userId !== undefined ? eq(comments.userId, q.userId) : undefined,
    q.address ? eq(comments.address, q.address) : undefined,
    q.parentId !== undefined ? eq(comments.parentId, q.parentId) : undefined,
    q.topLevel ? isNull(comments.parentId) : undefined,
    from ? gte(comments.createdAt, from) : undefined,
    to ? lt(comments.createdAt, to) : undefined,
  );
}

function guestbookWhere(tenant: number, q: Partial<GuestbookQueryT>): SQL | undefined {
  const [from, to] = date(q.createdFrom, q.createdTo);
  return and(
    eq(guestbook.tenant, tenant),
    q.ids ? inArray(guestbook.id, q.ids) : undefined,
    q.status ? eq(guestbook.status, q.status) : undefined,
    q.kind ? eq(guestbook.kind, q.kind) : undefined,
    q.replied === true ? isNotNull(guestbook.repliedAt) : undefined,
    q.replied === false ? isNull(guestbook.repliedAt) : undefined,
    q.q ? sql`${guestbook.content} ilike ${containsPattern(q.q)}` : undefined,
    q.userId !== undefined ? eq(guestbook.userId, q.userId) : undefined,
    q.address ? eq(guestbook.address, q.address) : undefined,
    from ? gte(guestbook.createdAt, from) : undefined,
    to ? lt(guestbook.createdAt, to) : undefined,
  );
}

const replies = alias(comments, 'replies');
/** A comment's target's title, read in the row's own statement (one lookup by primary key). */
const titleOf = (type: CommentTarget, table: PgTable, id: PgColumn, title: PgColumn) =>
  sql`when ${type} then (select ${title} from ${table} where ${id} = ${comments.targetId})`;
/**
 * A comment's row as the API answers it, with its member's account, its target's title and its number of replies:
 * one statement for a page (the titles and reply counts are subqueries per row, by primary key and by the parent
 * index), rather than one per target type and another for the replies.
 */
const commentSelect = {
  row: comments,
  userAccount: siteUsers.account,
  targetTitle: sql<string | null>`(case ${comments.targetType} ${sql.join(
    [
      titleOf('movie', movies, movies.id, movies.title),
      titleOf('novel', novels, novels.id, novels.title),
      titleOf('chapter', novelChapters, novelChapters.id, novelChapters.title),
      titleOf('actress', actresses, actresses.id, actresses.name),
    ],
    sql` `,
  )} end)`,
  replyCount: sql<number>`(select count(*)::int from ${comments} as ${sql.identifier('replies')} where ${replies.parentId} = ${comments.id})`,
};
type CommentRow = {
  row: typeof comments.$inferSelect;
  userAccount: string | null;
  targetTitle: string | null;
  replyCount: number;
};

const commentsFrom = (db: Executor) =>
  db.select(commentSelect).from(comments).leftJoin(siteUsers, eq(siteUsers.id, comments.userId));

const commentToApi = ({ row: r, userAccount, targetTitle, replyCount }: CommentRow) => ({
  id: r.id,
  targetType: r.targetType,
  targetId: r.targetId,
  targetTitle: targetTitle ?? null,
  userId: r.userId,
  userAccount,
  guestName: r.guestName,
  parentId: r.parentId,
  replyCount: Number(replyCount),
  content: r.content,
  originalContent: r.originalContent,
  address: r.address,
  likes: r.likes,
  reports: r.reports,
  status: r.status,
  rejectReason: r.rejectReason,
  version: r.version,
  createdAt: iso(r.createdAt) as string,
  reviewedAt: iso(r.reviewedAt),
});

/**
 * `col desc, id desc` (or ascending). A NOT NULL column orders with PostgreSQL's default nulls placement, so that its
 * `(tenant, col, id)` index is read backwards for `desc` (with `nulls last` the whole table is sorted to
 * show page 1); a nullable one puts the unknown at the end.
 */
const orderOf = (col: any, order: 'asc' | 'desc', id: any) =>
  col.notNull
    ? order === 'desc'
      ? [desc(col), desc(id)]
      : [asc(col), asc(id)]
    : order === 'desc'
      ? [sql`${col} desc nulls last`, desc(id)]
      : [sql`${col} asc nulls first`, asc(id)];

/**
 * One page of comments and its total. Without a content search: the page in one statement (its ids by the sort
 * index, then their rows), then the total (server/core/totals.ts; a short page is its own). With one, the capped
 * total first (cappedCountWithPage), by the bigrams of one id bucket after another, newest first, until the cap
 * (only the buckets needed are gathered, not every match of the table); up to COUNT_CAP matches it
 * also sorts the page's ids from those it gathered; beyond it the page is read by walking the sort index and testing
 * each comment's content, which
 * finds the newest of so many matches after a few hundred rows (the grams would gather every match, 100,000 for
 * "ending" at a million, and sort them). Beside a member, an address, a target, a thread or ids the search only
 * tests their comments, as a filter without a search. A search alone or within a status whose total is kept
 * (terms.ts) reads it there, and one that turns out to match over the cap is learned then.
 */
export async function readComments(db: Db, tenant: number, q: CommentQueryT) {
  const where = commentWhere(tenant, q);
  const pageSize = q.ids ? Math.max(q.pageSize, q.ids.length) : q.pageSize;
  const offset = (q.page - 1) * q.pageSize;
  const sort = commentSorts[q.sort ?? 'createdAt'];
  const order = orderOf(sort, q.order, comments.id);
  // A search counts bucket by bucket, newest first (one branch each), up to the cap.
  const searched = q.q && !narrowed(q);
  // A search alone or within a status may have a counter of its total (terms.ts), learned when it matches over the cap.
  const keepable = !!searched && onlyFilters(q, ['status', 'q']);
  const counted = keepable && q.q ? await termCounterTotal(db, tenant, q.q, q.status) : undefined;
  let counterTotal = typeof counted === 'number' ? { total: counted, totalExact: true } : undefined;
  const [last] = searched
    ? await db.select({ id: sql<number | null>`max(${comments.id})` }).from(comments)
    : [];
  const buckets = Array.from({ length: (Number(last?.id ?? 0) >> BUCKET_BITS) + 1 }, (_, i) => i).reverse();
  // Over the cap the page walks the sort index (below): nothing to gather.
  const search =
    searched && !(counterTotal && counterTotal.total > COUNT_CAP)
      ? await cappedCountWithPage(db, {
          table: comments,
          where: buckets.map((bucket) => commentWhere(tenant, q, { bucket })),
          id: comments.id,
          sort,
          order: q.order,
          offset,
          pageSize,
        })
      : undefined;
  if (keepable && q.q && counted === undefined && search && !search.totalExact) {
    const text = q.q;
    const matches = sql.join(
      buckets.map(
        (bucket) =>
          sql`(select ${comments.status} as status from ${comments}
            where ${commentWhere(tenant, { q: text }, { bucket })})`,
      ),
      sql` union all `,
    );
    if (await learnTerm(db, tenant, text, matches)) {
      const learned = await termCounterTotal(db, tenant, text, q.status);
      if (typeof learned === 'number') counterTotal = { total: learned, totalExact: true };
    }
  }
  // The page's ids (given, or a subquery) then their rows: skipping 19,980 comments for page 1000 walks the sort
  // index alone instead of reading each skipped comment (40,000 table pages at a million).
  const pageIds =
    search?.ids ??
    db
      .select({ id: comments.id })
      .from(comments)
      .where(where)
      .orderBy(...order)
      .limit(pageSize)
      .offset(offset);
  const rows =
    Array.isArray(pageIds) && !pageIds.length
      ? []
      : await commentsFrom(db)
          .where(inArray(comments.id, pageIds))
          .orderBy(...order);
  const totals =
    counterTotal ??
    (search
      ? { total: search.total, totalExact: search.totalExact }
      : ((await countsTotal(db, tenant, q)) ??
        (await cappedCount(db, comments, where, { offset, pageSize, rows: rows.length }))));
  return { list: rows.map(commentToApi), ...totals };
}

/** The exact total from the stored counters, when the list's filters are among those they count. */
async function countsTotal(db: Executor, tenant: number, q: CommentQueryT) {
  if (!onlyFilters(q, ['status', 'targetType', 'topLevel', 'reported'])) return undefined;
  const total = await counterSum(
    db,
    commentCounts,
    commentCounts.n,
    and(
      eq(commentCounts.tenant, tenant),
      q.status ? eq(commentCounts.status, q.status) : undefined,
      q.targetType ? eq(commentCounts.targetType, q.targetType) : undefined,
      q.topLevel ? eq(commentCounts.topLevel, true) : undefined, // false: every comment, as commentWhere reads it
      q.reported !== undefined ? eq(commentCounts.reported, q.reported) : undefined,
    ),
  );
  return { total, totalExact: true };
}

export async function readComment(db: Executor, id: number, tenant?: number) {
  const [row] = await commentsFrom(db).where(
    and(eq(comments.id, id), tenant === undefined ? undefined : eq(comments.tenant, tenant)),
  );
  return row ? commentToApi(row) : undefined;
}

type GuestbookRow = typeof guestbook.$inferSelect & { userAccount: string | null; movieTitle: string | null };
const guestbookSelect = { row: guestbook, userAccount: siteUsers.account, movieTitle: movies.title };

const guestbookToApi = (r: GuestbookRow) => ({
  id: r.id,
  userId: r.userId,
  userAccount: r.userAccount,
  guestName: r.guestName,
  contact: r.contact,
  kind: r.kind,
  movieId: r.movieId,
  movieTitle: r.movieTitle,
  content: r.content,
  originalContent: r.originalContent,
  address: r.address,
  reply: r.reply,
  repliedAt: iso(r.repliedAt),
  status: r.status,
  rejectReason: r.rejectReason,
  version: r.version,
  createdAt: iso(r.createdAt) as string,
});

const guestbookFrom = (db: Executor) =>
  db
    .select(guestbookSelect)
    .from(guestbook)
    .leftJoin(siteUsers, eq(siteUsers.id, guestbook.userId))
    .leftJoin(movies, eq(movies.id, guestbook.movieId));

export async function readGuestbook(db: Executor, tenant: number, q: GuestbookQueryT) {
  const where = guestbookWhere(tenant, q);
  const pageSize = q.ids ? Math.max(q.pageSize, q.ids.length) : q.pageSize;
  const offset = (q.page - 1) * q.pageSize;
  const order = orderOf(guestbookSorts[q.sort ?? 'createdAt'], q.order, guestbook.id);
  const rows = await guestbookFrom(db)
    .where(where)
    .orderBy(...order)
    .limit(pageSize)
    .offset(offset);
  const totals = await cappedCount(db, guestbook, where, { offset, pageSize, rows: rows.length });
  return {
    list: rows.map((r) => guestbookToApi({ ...r.row, userAccount: r.userAccount, movieTitle: r.movieTitle })),
    ...totals,
  };
}

export async function readGuestbookEntry(db: Executor, id: number, tenant?: number) {
  const [r] = await guestbookFrom(db).where(
    and(eq(guestbook.id, id), tenant === undefined ? undefined : eq(guestbook.tenant, tenant)),
  );
  return r ? guestbookToApi({ ...r.row, userAccount: r.userAccount, movieTitle: r.movieTitle }) : undefined;
}
