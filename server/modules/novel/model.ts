import { z } from '@hono/zod-openapi';
import { eq, type SQL, sql } from 'drizzle-orm';
import { SERIAL_STATUSES } from '../../../common/novel';
import { containsPattern, id, iso } from '../../core/shared';
import type { Executor } from '../../db/types';
import { imageField } from '../images/paths';
import { NOVEL_STATUSES, novelChapters, novelColumns, novels } from './schema';

export const Novel = z
  .object({
    id: z.number(),
    title: z.string(),
    author: z.string(),
    cover: z.string(),
    columnId: z.number().nullable(),
    columnName: z.string().nullable(),
    tags: z.array(z.string()),
    description: z.string(),
    serialStatus: z.enum(SERIAL_STATUSES),
    status: z.enum(NOVEL_STATUSES),
    rejectReason: z.string(),
    reviewedBy: z.number().nullable(),
    reviewedAt: z.string().nullable(),
    publishedAt: z.string().nullable(),
    freeChapters: z.number(),
    chapterCount: z.number(),
    wordCount: z.number(),
    views: z.number(),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number(),
  })
  .openapi('Novel');

/** Tags: trimmed, non-empty, without duplicates (in the order given). */
const tagList = z
  .array(z.string().trim().min(1).max(32))
  .max(20)
  .transform((tags) => [...new Set(tags)]);

/** What a create or an update may set. Read-only fields a form sends back (id, counts, status…) are ignored. */
export const novelFields = {
  title: z.string().trim().min(1).max(200),
  author: z.string().trim().max(64),
  cover: imageField(),
  columnId: id.nullable(),
  tags: tagList,
  description: z.string().max(5000),
  serialStatus: z.enum(SERIAL_STATUSES),
  freeChapters: z.number().int().min(0).max(100_000),
};

export const novelSelect = {
  id: novels.id,
  title: novels.title,
  author: novels.author,
  cover: novels.cover,
  columnId: novels.columnId,
  columnName: novelColumns.name,
  tags: novels.tags,
  description: novels.description,
  serialStatus: novels.serialStatus,
  status: novels.status,
  rejectReason: novels.rejectReason,
  reviewedBy: novels.reviewedBy,
  reviewedAt: novels.reviewedAt,
  publishedAt: novels.publishedAt,
  freeChapters: novels.freeChapters,
  chapterCount: novels.chapterCount,
  wordCount: novels.wordCount,
  views: novels.views,
  createdAt: novels.createdAt,
  updatedAt: novels.updatedAt,
  version: novels.version,
};

export function novelToApi(r: Record<string, any>) {
  return {
    ...r,
    columnName: r.columnName ?? null,
    tags: r.tags ?? [],
    reviewedAt: iso(r.reviewedAt),
    publishedAt: iso(r.publishedAt),
    createdAt: iso(r.createdAt) as string,
    updatedAt: iso(r.updatedAt) as string,
  } as z.infer<typeof Novel>;
}

/** One novel with its column's name, or undefined. */
export async function readNovel(db: Executor, novelId: number) {
  const [row] = await db
    .select(novelSelect)
    .from(novels)
    .leftJoin(novelColumns, eq(novelColumns.id, novels.columnId))
    .where(eq(novels.id, novelId));
  return row ? novelToApi(row) : undefined;
}

/** A chapter as lists show it (no content): `free` is derived from the novel's free chapters count. */
export const ChapterItem = z
  .object({
    id: z.number(),
    novelId: z.number(),
    number: z.number(),
    title: z.string(),
    wordCount: z.number(),
    free: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number(),
  })
  .openapi('NovelChapterItem');

export const Chapter = ChapterItem.extend({
  content: z.string(),
  novelTitle: z.string(),
}).openapi('NovelChapter');

export const chapterItemSelect = {
  id: novelChapters.id,
  novelId: novelChapters.novelId,
  number: novelChapters.number,
  title: novelChapters.title,
  wordCount: novelChapters.wordCount,
  free: sql<boolean>`${novelChapters.number} <= ${novels.freeChapters}`,
  createdAt: novelChapters.createdAt,
  updatedAt: novelChapters.updatedAt,
  version: novelChapters.version,
};

export function chapterToApi<T extends Record<string, any>>(r: T) {
  return { ...r, createdAt: iso(r.createdAt) as string, updatedAt: iso(r.updatedAt) as string };
}

/** One chapter with its content and its novel's title, or undefined. */
export async function readChapter(db: Executor, chapterId: number) {
  const [row] = await db
    .select({ ...chapterItemSelect, content: novelChapters.content, novelTitle: novels.title })
    .from(novelChapters)
    .innerJoin(novels, eq(novels.id, novelChapters.novelId))
    .where(eq(novelChapters.id, chapterId));
  return row ? (chapterToApi(row) as z.infer<typeof Chapter>) : undefined;
}

/**
 * Title or author search, index-served (see schema.ts): for one or two characters the grams are the whole test;
 * longer strings are rechecked with LIKE on each of the two.
 */
export function titleOrAuthorContains(q: string): SQL {
  const grams = sql`${novels.searchGrams} @> zg_query_grams(${q}::text)`;
  if ([...q].length <= 2) return grams;
  const p = containsPattern(q);
  return sql`(${grams} and (lower(${novels.title}) like lower(${p}::text) or lower(${novels.author}) like lower(${p}::text)))`;
}
