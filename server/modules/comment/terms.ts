import { type SQL, sql } from 'drizzle-orm';
import type { ReviewStatus } from '../../../common/review';
import { learnTermCounts } from '../../core/term-counts';
import { rowsOf } from '../../db/migrate';
import type { Db } from '../../db/types';

/**
 * The kept totals of the comments list's content searches: a search that matches more than the
 * count cap is learned, per tenant, and from then on its total, alone or within a status, is a few kept rows.
 */

/** The terms kept per tenant; a new one sends the least recently searched away. */
export const COMMENT_TERMS_KEPT = 100;
/** A term matching more than this many comments is not learned (counting them once would take seconds). */
export const COMMENT_LEARN_UP_TO = 200_000;
/** How long a learner waits for the writes in flight when it registered its term (then it leaves it for later). */
export const LEARN_WAIT_MS = 2_000;

const termOf = (q: string) => sql`lower(${q}::text)`;

/**
 * A search's kept total over its tenant's comments (within `status`): the total when the term is kept and ready;
 * `common` when it matched too many to learn; undefined when it is not kept (or not counted yet). Marks the term
 * searched today (once a day).
 */
export async function termCounterTotal(
  db: Db,
  tenant: number,
  q: string,
  status?: ReviewStatus,
): Promise<number | 'common' | undefined> {
  const [row] = rowsOf<{ ready: boolean; common: boolean; n: number }>(
    await db.execute(sql`with touched as (
        update comment_search_terms set used_on = current_date
        where tenant = ${tenant} and term = ${termOf(q)} and used_on < current_date returning 1
      )
      select t.ready, t.common, (select coalesce(sum(n), 0)::int from comment_search_counts c
          where c.tenant = t.tenant and c.term = t.term ${status ? sql`and c.status = ${status}` : sql``}) as n
      from comment_search_terms t where t.tenant = ${tenant} and t.term = ${termOf(q)}`),
  );
  if (!row) return undefined;
  if (row.common) return 'common';
  return row.ready ? Number(row.n) : undefined;
}

/**
 * Learns a search's counts without holding writers back (server/core/term-counts.ts): registers the term (sending the
 * least recently searched beyond COMMENT_TERMS_KEPT away), waits for the writes in flight, then counts the matches
 * (`matches`: SELECT status FROM comments … for the term, as the list searches) against the kept counts in one
 * snapshot and marks the term ready, or `common` over COMMENT_LEARN_UP_TO matches (then nothing is kept for it).
 * Answers whether the term is now ready.
 */
export async function learnTerm(
  db: Db,
  tenant: number,
  q: string,
  matches: SQL,
  limits = { kept: COMMENT_TERMS_KEPT, upTo: COMMENT_LEARN_UP_TO, waitMs: LEARN_WAIT_MS },
): Promise<boolean> {
  const term = termOf(q);
  return learnTermCounts(db, {
    table: 'comments',
    waitMs: limits.waitMs,
    register: sql`with gone as (
        delete from comment_search_terms where tenant = ${tenant} and term in (
          select term from comment_search_terms where tenant = ${tenant} and term <> ${term}
          order by used_on desc, term offset ${limits.kept - 1}
        ) returning term
      ),
      gone_counts as (delete from comment_search_counts c using gone where c.tenant = ${tenant} and c.term = gone.term)
      insert into comment_search_terms (tenant, term) values (${tenant}, ${term}) on conflict do nothing`,
    adjust: sql`with m as (${matches} limit ${limits.upTo + 1}),
      counted as (select status, count(*)::int as n from m group by status),
      fits as (select (select count(*) from m) <= ${limits.upTo} as ok),
      kept as (select status, n from comment_search_counts where tenant = ${tenant} and term = ${term}),
      added as (
        insert into comment_search_counts as c (tenant, term, status, n)
        select ${tenant}, ${term}, coalesce(counted.status, kept.status), coalesce(counted.n, 0) - coalesce(kept.n, 0)
        from counted full join kept on kept.status = counted.status, fits
        where fits.ok and coalesce(counted.n, 0) <> coalesce(kept.n, 0)
        order by 3
        on conflict (tenant, term, status) do update set n = c.n + excluded.n
      ),
      cleared as (
        delete from comment_search_counts where tenant = ${tenant} and term = ${term} and not (select ok from fits)
      )
      update comment_search_terms set ready = fits.ok, common = not fits.ok from fits
      where tenant = ${tenant} and term = ${term}
      returning ready`,
  });
}
