import { type SQL, sql } from 'drizzle-orm';
import { idList } from '../../core/number-list';
import { learnTermCounts } from '../../core/term-counts';
import { rowsOf } from '../../db/migrate';
import type { Db, Executor } from '../../db/types';
import { type MovieStatus, movieSearchListed, movieSearchMatches } from './schema';
import { gramsBound, LEARN_FROM, LEARN_WAIT_MS, registerTerm } from './totals';

/**
 * The kept matches of a title search: the movies whose title contains a term, by status, with their
 * publication, read as one range of an index instead of from the table (a page per match). For a list that needs
 * every match of a search, not a page of them: the statistics' movies not seen in a period (statistics/seen.ts).
 */

/**
 * The terms whose matches are kept at most (a new one sends the least recently searched away), and the fewest
 * matches the grams' counts must allow for a term to be learned (fewer are cheap to read from the table; tests
 * lower it).
 */
export const LISTING = { kept: 50, from: LEARN_FROM };

/** The order of a list of movies by publication, then id: the newest first (none last), or the oldest (none first). */
export function matchOrder(order: 'asc' | 'desc'): SQL {
  return order === 'desc'
    ? sql`published_at desc nulls last, id desc`
    : sql`published_at asc nulls first, id asc`;
}

/**
 * The ids of the movies of `status` whose title contains `q` (three or more characters), in `order` (matchOrder),
 * from the kept matches: learned now (`learn`, given a database, not a transaction) when they are not kept and the
 * grams' counts allow from `LISTING.from` to `most` matches. Undefined otherwise, and when a learner gave up waiting
 * for the writes in flight: the caller reads the matches from the table. Reading a term marks it searched today.
 */
export async function keptMatches(
  db: Executor,
  search: { q: string; status: MovieStatus; order: 'asc' | 'desc'; most: number },
  learn: Db | undefined,
): Promise<number[] | undefined> {
  const { q, status, order, most } = search;
  if ([...q].length < 3) return undefined;
  const term = sql`lower(${q}::text)`;
  // No row when the term is not listed; its ids (one text) when it is ready. Read in the key's order (forwards or
  // backwards), which the aggregate's own order then finds already sorted.
  const read = async () =>
    rowsOf<{ ready: boolean; ids: string | null }>(
      await db.execute(sql`with touched as (
          update movie_search_listed set used_on = current_date where term = ${term} and used_on < current_date
          returning 1
        )
        select l.ready, case when l.ready then (
            select string_agg(id::text, ',' order by ${matchOrder(order)}) from (
              select id, published_at from movie_search_matches where term = ${term} and status = ${status} and n > 0
              order by ${matchOrder(order)}
            ) as m
          ) end as ids
        from movie_search_listed l where l.term = ${term}`),
    )[0];
  const first = await read();
  if (first?.ready) return idList(first.ids);
  if (!learn) return undefined;
  const [{ bound }] = rowsOf<{ bound: number }>(await db.execute(sql`select ${gramsBound(q)}::int as bound`));
  if (Number(bound) < LISTING.from || Number(bound) > most || !(await learnMatches(learn, q)))
    return undefined;
  const learned = await read();
  return learned?.ready ? idList(learned.ids) : undefined;
}

/**
 * Learns a search's matches (server/core/term-counts.ts): registers the term (sending the least recently searched
 * beyond `kept` away, with their matches), waits for the writes in flight, then adds to the kept matches the
 * difference between the movies that match in one snapshot and what they hold in it, and marks the term ready.
 * Answers whether it is ready.
 */
export async function learnMatches(
  db: Db,
  q: string,
  limits = { kept: LISTING.kept, waitMs: LEARN_WAIT_MS },
) {
  const term = sql`lower(${q}::text)`;
  // A full join needs an equality it can hash or merge: no publication compared as the earliest time.
  const at = (t: string) => sql.raw(`coalesce(${t}.published_at, '-infinity'::timestamptz)`);
  return learnTermCounts(db, {
    table: 'movies',
    waitMs: limits.waitMs,
    register: registerTerm(movieSearchListed, [movieSearchMatches], term, limits.kept),
    adjust: sql`with counted as (
        select status, published_at, id, 1 as n from movies
        where title_grams @> zg_query_grams(${term}) and strpos(lower(title), ${term}) > 0
      ),
      kept as (select status, published_at, id, n from movie_search_matches where term = ${term}),
      added as (
        insert into movie_search_matches as m (term, status, published_at, id, n)
        select ${term}, coalesce(c.status, k.status), case when c.id is null then k.published_at else c.published_at end,
          coalesce(c.id, k.id), coalesce(c.n, 0) - coalesce(k.n, 0)
        from counted c full join kept k on k.id = c.id and k.status = c.status and ${at('k')} = ${at('c')}
        where coalesce(c.n, 0) <> coalesce(k.n, 0) order by 2, 3 desc nulls last, 4 desc
        on conflict (term, status, published_at, id) do update set n = m.n + excluded.n
      )
      update movie_search_listed set ready = true where term = ${term} returning ready`,
  });
}
