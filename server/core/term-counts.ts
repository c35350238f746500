import type { SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { arrayLiteral } from '../db/array-literal';
import { rowsOf } from '../db/migrate';
import type { Db } from '../db/types';

/**
 * Learning the stored counters of a search term without holding writers back (docs/sections.md "Totals at scale":
 * the movies' title searches and the comments' content searches). A list keeps per-term counts that
 * statement triggers move on every write, for every registered term; a term becomes usable once counted:
 *
 * 1. `register` (the caller's statement, committed on its own) adds the term, not ready: from then on each write
 *    whose trigger runs sees it and counts itself.
 * 2. The writers of `table` in flight at that moment are waited for (their triggers may have run before the term
 *    was there): the transactions holding its ROW EXCLUSIVE lock (every INSERT, UPDATE and DELETE takes it and holds
 *    it to the end), at most `waitMs`. A writer that takes the lock later runs its trigger later, and sees the term.
 *    Other transactions, however long (a rollup, an idle session), are not waited for.
 * 3. `adjust` (the caller's statement) counts the matches in its snapshot and adds to each stored counter the difference
 *    between that and what the count holds in the same snapshot, then marks the term ready, answering a row with
 *    `ready`. A write committed before its snapshot is in both (counted once); one after it, only in the counter.
 *    Repeating it changes nothing, so a learner that gave up waiting leaves the term for the next one to finish.
 *
 * PGlite runs one transaction at a time: nothing is ever in flight there.
 */
export async function learnTermCounts(
  db: Db,
  steps: { table: string; register: SQL; adjust: SQL; waitMs: number },
): Promise<boolean> {
  await db.execute(steps.register);
  if (!(await writersEnded(db, steps.table, steps.waitMs))) return false;
  const [row] = rowsOf<{ ready: boolean }>(await db.execute(steps.adjust));
  return !!row?.ready;
}

/**
 * Whether the transactions writing `table` now (but this connection's) end within `waitMs` (polled every 10 ms). Of
 * this database: pg_locks shows the server's, and a table's number (its oid) is the same in every database made
 * from one template or by the same migrations.
 */
async function writersEnded(db: Db, table: string, waitMs: number): Promise<boolean> {
  const writers = sql`select virtualtransaction from pg_locks
    where locktype = 'relation' and relation = ${table}::regclass and mode = 'RowExclusiveLock' and granted
      and database = (select oid from pg_database where datname = current_database()) and pid <> pg_backend_pid()`;
  const [{ now }] = rowsOf<{ now: string[] | null }>(
    await db.execute(sql`select array_agg(virtualtransaction) as now from (${writers}) as w`),
  );
  if (!now?.length) return true;
  const until = Date.now() + waitMs;
  for (;;) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
    const [{ busy }] = rowsOf<{ busy: boolean }>(
      await db.execute(
        sql`select exists (${writers} and virtualtransaction = any(${arrayLiteral(now)}::text[])) as busy`,
      ),
    );
    if (!busy) return true;
  }
}
