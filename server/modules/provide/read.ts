import { and, asc, desc, eq, gte, inArray, type SQL, sql } from 'drizzle-orm';
import type { PlayLine } from '../../../common/episodes';
import { COUNT_CAP, cappedCount, type ListTotal } from '../../core/totals';
import type { Db } from '../../db/types';
import { actresses } from '../actresses/schema';
import { readMovieList } from '../movie/list';
import { movieSelect, movieToApi, playUrl, titleContains } from '../movie/model';
import { movieActresses, movieColumns, moviePlays, movies, videoSources } from '../movie/schema';
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
 * movie list reads it (its indexes, kept counts and week starts hold at a million movies); with `h`, the online
 * movies changed within the last h hours, newest change first (index of migration 0146), counted up to COUNT_CAP.
 */
export async function readProvidedPage(db: Db, q: ProvideQuery, now: Date): Promise<ProvidedPage> {
  const offset = (q.pg - 1) * q.pageSize;
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
    const where: (SQL | undefined)[] = [
      eq(movies.status, 'online'),
      gte(movies.updatedAt, new Date(now.getTime() - q.h * 3_600_000)),
    ];
    if (q.t !== undefined) where.push(eq(movies.columnId, q.t));
    if (q.wd) where.push(titleContains(q.wd));
    if (q.ids) where.push(inArray(movies.id, q.ids));
    const filter = and(...where);
    const ids = (
      await db
        .select({ id: movies.id })
        .from(movies)
        .where(filter)
        .orderBy(desc(movies.updatedAt), desc(movies.id))
        .limit(q.pageSize)
        .offset(offset)
    ).map((r) => r.id);
    const [list, counted] = await Promise.all([
      ids.length
        ? db
            .select(movieSelect)
            .from(movies)
            .leftJoin(movieColumns, eq(movieColumns.id, movies.columnId))
            .where(inArray(movies.id, ids))
            .orderBy(desc(movies.updatedAt), desc(movies.id))
        : [],
      // A full page that reaches past COUNT_CAP proves the count would stop at the cap: it is not counted again.
      ids.length === q.pageSize && offset + ids.length > COUNT_CAP
        ? ({ total: COUNT_CAP, totalExact: false } satisfies ListTotal)
        : cappedCount(db, movies, filter, { offset, pageSize: q.pageSize, rows: ids.length }),
    ]);
    rows = list.map(movieToApi);
    totals = counted;
  }
  totals = providedTotal(totals, offset, rows.length, q.pageSize);
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
    const lines = out.get(r.movieId) ?? [];
    out.set(r.movieId, lines);
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
  for (const r of rows) {
    const list = out.get(r.movieId) ?? [];
    list.push(r.name);
    out.set(r.movieId, list);
  }
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
