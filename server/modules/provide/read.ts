import { and, asc, desc, eq, gte, inArray, type SQL, sql } from 'drizzle-orm';
import type { Region } from '../../../common/actresses';
import type { PlayLine } from '../../../common/episodes';
import { entry } from '../../core/maps';
import { COUNT_CAP, cappedCount, type ListTotal } from '../../core/totals';
import type { Db } from '../../db/types';
import { nameContains } from '../actresses/model';
import { actresses } from '../actresses/schema';
import { readMovieList } from '../movie/list';
import { movieSelect, movieToApi, playUrl, titleContains } from '../movie/model';
import { movieActresses, movieColumns, moviePlays, movies, videoSources } from '../movie/schema';
import { novelSelect, titleOrAuthorContains } from '../novel/model';
import { novelChapters, novelColumns, novels } from '../novel/schema';
import type { ProvideQuery } from './params';

/** What the provide API serves of one online movie. */
export interface ProvidedMovie {
  id: number;
  title: string;
  description: string;
  cover: string;
  columnId: number | null;
  columnName: string | null;
  releaseDate: string | null;
  updatedAt: string;
  /** Lines of episodes on enabled sources, coded by their source's code, URLs built from its base URL. */
  lines: PlayLine[];
  actors: string[];
}

export interface ProvidedPage extends ListTotal {
  list: ProvidedMovie[];
}

export interface Column {
  id: number;
  parentId: number | null;
  name: string;
}

type MovieListQuery = Parameters<typeof readMovieList>[1];

/**
 * One page of online movies and its total. Without `h` it is the online list newest published first, read as the
 * movie list reads it (its indexes, stored counters and week starts hold at a million movies); with `h`, the online
 * movies changed within the last h hours, newest change first (index `movies_status_updated`), counted up to COUNT_CAP.
 */
export async function readProvidedPage(db: Db, q: ProvideQuery, now: Date): Promise<ProvidedPage> {
  let rows: ReturnType<typeof movieToApi>[];
  let totals: ListTotal;
  if (q.h === undefined) {
    const query: MovieListQuery = {
      // The online view holds the movies taken offline too: only those online are served.
      view: 'online',
      status: 'online',
      page: q.pg,
      pageSize: q.pageSize,
      sort: 'publishedAt',
      order: 'desc',
      ids: q.ids,
      q: q.wd,
      columnId: q.t,
    };
    const page = await readMovieList(db, query);
    rows = page.list;
    totals = { total: page.total, totalExact: page.totalExact };
  } else {
    const where = [
      eq(movies.status, 'online'),
      ...commonFilters(movies, q, now),
      q.t === undefined ? undefined : eq(movies.columnId, q.t),
      q.wd ? titleContains(q.wd) : undefined,
    ];
    const { ids, totals: counted } = await pageOf(db, movies, and(...where), q);
    const list = ids.length
      ? await db
          .select(movieSelect)
          .from(movies)
          .leftJoin(movieColumns, eq(movieColumns.id, movies.columnId))
          .where(inArray(movies.id, ids))
          .orderBy(desc(movies.updatedAt), desc(movies.id))
      : [];
    rows = list.map(movieToApi);
    totals = counted;
  }
  totals = providedTotal(totals, (q.pg - 1) * q.pageSize, rows.length, q.pageSize);
  const ids = rows.map((r) => r.id);
  const [lines, actors] = await Promise.all([linesOf(db, ids), actorsOf(db, ids)]);
  return {
    ...totals,
    list: rows.map((r) => ({
      id: r.id,
      title: r.title,
      description: r.description,
      cover: r.cover,
      columnId: r.columnId,
      columnName: r.columnName,
      releaseDate: r.releaseDate,
      updatedAt: r.updatedAt,
      lines: lines.get(r.id) ?? [],
      actors: actors.get(r.id) ?? [],
    })),
  };
}

/** A table the provide API pages by its last change: `updated_at` and `id`, newest first. */
type Paged = typeof movies | typeof novels | typeof actresses;

/**
 * One page of ids of `table` matching `filter`, last changed first, and its total as every provide answer gives it
 * (`providedTotal`): counted up to COUNT_CAP, and a full page that reaches past the cap proves the count would stop
 * at the cap, so it is not counted again.
 */
async function pageOf(db: Db, table: Paged, filter: SQL | undefined, q: ProvideQuery) {
  const offset = (q.pg - 1) * q.pageSize;
  const ids = (
    await db
      .select({ id: table.id })
      .from(table)
      .where(filter)
      .orderBy(desc(table.updatedAt), desc(table.id))
      .limit(q.pageSize)
      .offset(offset)
  ).map((r) => r.id);
  const counted =
    ids.length === q.pageSize && offset + ids.length > COUNT_CAP
      ? ({ total: COUNT_CAP, totalExact: false } satisfies ListTotal)
      : await cappedCount(db, table, filter, { offset, pageSize: q.pageSize, rows: ids.length });
  return { ids, totals: providedTotal(counted, offset, ids.length, q.pageSize) };
}

/** The filters every list of the provide API takes: changed within `h` hours, `ids`. */
function commonFilters(table: Paged, q: ProvideQuery, now: Date): (SQL | undefined)[] {
  return [
    q.h === undefined ? undefined : gte(table.updatedAt, new Date(now.getTime() - q.h * 3_600_000)),
    q.ids ? inArray(table.id, q.ids) : undefined,
  ];
}

/** What the provide API serves of one online novel (MacCMS's article). */
export interface ProvidedNovel {
  id: number;
  title: string;
  author: string;
  cover: string;
  columnId: number | null;
  columnName: string | null;
  tags: string[];
  description: string;
  serialStatus: string;
  updatedAt: string;
  /** In number order; read for `ac=detail` only. */
  chapters: { title: string; content: string }[];
}

/**
 * The most chapter text one page of `provide/art` detail carries, in bytes as stored. A novel may hold thousands of
 * chapters of up to CHAPTER_MAX_CHARS each: a page of a hundred such novels, built whole in memory for anyone who
 * asks, would take the server down. Past it the page is refused with the size and what to ask instead (a smaller
 * `pagesize`, or `ids`); it is what our own collector reads of one page (collect's MAX_PAGE_BYTES).
 */
export const MAX_PROVIDED_CHAPTER_BYTES = 8 * 1024 * 1024;

/** A page whose chapters are past MAX_PROVIDED_CHAPTER_BYTES: not read. */
export interface TooLarge {
  tooLarge: number;
}

/**
 * One page of online novels, last changed first (MacCMS's `art_time desc`), with their chapters when `detailed`.
 * `t` is a novel column, `wd` the title or author (the novel list's search).
 */
export async function readProvidedNovels(db: Db, q: ProvideQuery, now: Date, detailed: boolean) {
  const where = [
    eq(novels.status, 'online'),
    ...commonFilters(novels, q, now),
    q.t === undefined ? undefined : eq(novels.columnId, q.t),
    q.wd ? titleOrAuthorContains(q.wd) : undefined,
  ];
  const { ids, totals } = await pageOf(db, novels, and(...where), q);
  const rows = ids.length
    ? await db
        .select(novelSelect)
        .from(novels)
        .leftJoin(novelColumns, eq(novelColumns.id, novels.columnId))
        .where(inArray(novels.id, ids))
        .orderBy(desc(novels.updatedAt), desc(novels.id))
    : [];
  const chapters = new Map<number, ProvidedNovel['chapters']>();
  if (detailed && ids.length) {
    const [{ bytes }] = (await db
      .select({ bytes: sql<string>`coalesce(sum(octet_length(${novelChapters.content})), 0)` })
      .from(novelChapters)
      .where(inArray(novelChapters.novelId, ids))) as { bytes: string }[];
    if (Number(bytes) > MAX_PROVIDED_CHAPTER_BYTES) return { tooLarge: Number(bytes) } satisfies TooLarge;
  }
  if (detailed && ids.length)
    for (const c of await db
      .select({ novelId: novelChapters.novelId, title: novelChapters.title, content: novelChapters.content })
      .from(novelChapters)
      .where(inArray(novelChapters.novelId, ids))
      .orderBy(asc(novelChapters.novelId), asc(novelChapters.number))) {
      entry(chapters, c.novelId, () => []).push({ title: c.title, content: c.content });
    }
  return {
    ...totals,
    list: rows.map(
      (r): ProvidedNovel => ({
        id: r.id,
        title: r.title,
        author: r.author,
        cover: r.cover,
        columnId: r.columnId,
        columnName: r.columnName,
        tags: r.tags,
        description: r.description,
        serialStatus: r.serialStatus,
        updatedAt: r.updatedAt.toISOString(),
        chapters: chapters.get(r.id) ?? [],
      }),
    ),
  };
}

/** What the provide API serves of one visible actress (MacCMS's actor). */
export interface ProvidedActress {
  id: number;
  name: string;
  aliases: string[];
  avatar: string;
  birthday: string | null;
  height: number | null;
  region: Region | null;
  biography: string;
  tags: string[];
  updatedAt: string;
}

/**
 * One page of visible actresses, last changed first (MacCMS's `actor_time desc`). They have no columns: `t` matches
 * none (MacCMS's actor types are not ours to serve), `wd` a name or alias.
 */
export async function readProvidedActresses(db: Db, q: ProvideQuery, now: Date) {
  const where = [
    eq(actresses.visible, true),
    ...commonFilters(actresses, q, now),
    q.t === undefined ? undefined : sql`false`,
    q.wd ? nameContains(q.wd) : undefined,
  ];
  const { ids, totals } = await pageOf(db, actresses, and(...where), q);
  const rows = ids.length
    ? await db
        .select({
          id: actresses.id,
          name: actresses.name,
          aliases: actresses.aliases,
          avatar: actresses.avatar,
          birthday: actresses.birthday,
          height: actresses.height,
          region: actresses.region,
          biography: actresses.biography,
          tags: actresses.tags,
          updatedAt: actresses.updatedAt,
        })
        .from(actresses)
        .where(inArray(actresses.id, ids))
        .orderBy(desc(actresses.updatedAt), desc(actresses.id))
    : [];
  return {
    ...totals,
    list: rows.map((r): ProvidedActress => ({ ...r, updatedAt: r.updatedAt.toISOString() })),
  };
}

/** The novel columns an article list's `class[]` names: the visible ones, in the tree's order. */
export async function readNovelColumns(db: Db): Promise<Column[]> {
  return db
    .select({ id: novelColumns.id, parentId: novelColumns.parentId, name: novelColumns.name })
    .from(novelColumns)
    .where(sql`${novelColumns.visible}`)
    .orderBy(asc(novelColumns.sort), asc(novelColumns.id));
}

/**
 * The total a provide answer gives (its `pagecount` follows from it). Exact up to COUNT_CAP, as every list's; beyond,
 * the count stopped at the cap, so the total is a floor that stays a page ahead of a full page: MacCMS's collector
 * reads each page's `pagecount` and asks for the next page while its page is below it, so it goes on to the end
 * (the first page short of full) instead of stopping at page COUNT_CAP / pagesize.
 */
export function providedTotal(t: ListTotal, offset: number, rows: number, pageSize: number): ListTotal {
  if (t.totalExact) return t;
  return { total: Math.max(t.total, offset + rows + (rows === pageSize ? 1 : 0)), totalExact: false };
}

/** The movies' lines of episodes, in line then episode order; a disabled source's lines are not served. */
async function linesOf(db: Db, ids: number[]): Promise<Map<number, PlayLine[]>> {
  const out = new Map<number, PlayLine[]>();
  if (!ids.length) return out;
  const rows = await db
    .select({
      movieId: moviePlays.movieId,
      line: moviePlays.line,
      name: moviePlays.name,
      path: moviePlays.path,
      code: videoSources.code,
      baseUrl: videoSources.baseUrl,
    })
    .from(moviePlays)
    .innerJoin(videoSources, eq(videoSources.id, moviePlays.sourceId))
    .where(and(inArray(moviePlays.movieId, ids), eq(videoSources.enabled, true)))
    .orderBy(asc(moviePlays.movieId), asc(moviePlays.line), asc(moviePlays.sort), asc(moviePlays.id));
  let lastLine: number | undefined;
  let lastMovie: number | undefined;
  for (const r of rows) {
    const lines = entry(out, r.movieId, () => []);
    if (r.movieId !== lastMovie || r.line !== lastLine) lines.push({ code: r.code, episodes: [] });
    lastMovie = r.movieId;
    lastLine = r.line;
    lines[lines.length - 1].episodes.push({ name: r.name, url: playUrl(r.baseUrl, r.path) });
  }
  return out;
}

async function actorsOf(db: Db, ids: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (!ids.length) return out;
  const rows = await db
    .select({ movieId: movieActresses.movieId, name: actresses.name })
    .from(movieActresses)
    .innerJoin(actresses, eq(actresses.id, movieActresses.actressId))
    .where(inArray(movieActresses.movieId, ids))
    .orderBy(asc(movieActresses.movieId), asc(actresses.id));
  for (const r of rows) entry(out, r.movieId, () => []).push(r.name);
  return out;
}

/** The columns MacCMS's `class[]` lists (its types): the visible ones, in the column tree's order. */
export async function readColumns(db: Db): Promise<Column[]> {
  return db
    .select({ id: movieColumns.id, parentId: movieColumns.parentId, name: movieColumns.name })
    .from(movieColumns)
    .where(sql`${movieColumns.visible}`)
    .orderBy(asc(movieColumns.sort), asc(movieColumns.id));
}
