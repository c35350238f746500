import type { SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../db/migrate';
import type { Db } from '../db/types';

/**
 * Learning the kept counts of a search term without holding writers back (README "Totals at scale"; the movies'
 * title searches, migration 0120, and the comments' content searches, 0121). A list keeps per-term counts that
 * statement triggers move on every write, for every registered term; a term becomes usable once counted:
 *
 * 1. `register` (the caller's statement, committed on its own) adds the term, not ready: from then on each write
 *    whose trigger runs sees it and counts itself.
 * 2. The transactions in flight at that moment are waited for (their triggers may have run before the term was
 *    there): until none of the snapshot taken just after registering is still in progress, at most `waitMs`.
 * 3. `adjust` (the caller's statement) counts the matches in its snapshot and adds to each kept count the difference
 *    between that and what the count holds in the same snapshot, then marks the term ready, answering a row with
 *    `ready`. A write committed before its snapshot is in both (counted once); one after it, only in the kept count.
 *    Repeating it changes nothing, so a learner that gave up waiting leaves the term for the next one to finish.
 *
 * PGlite runs one transaction at a time: nothing is ever in flight there.
 */
export async function learnKeptTerm(
  db: Db,
  steps: { register: SQL; adjust: SQL; waitMs: number },
): Promise<boolean> {
  await db.execute(steps.register);
  if (!(await inFlightEnded(db, steps.waitMs))) return false;
  const [row] = rowsOf<{ ready: boolean }>(await db.execute(steps.adjust));
  return !!row?.ready;
}

/** Whether every transaction in progress now ends within `waitMs` (polled every 10 ms). */
async function inFlightEnded(db: Db, waitMs: number): Promise<boolean> {
  const [{ snapshot }] = rowsOf<{ snapshot: string }>(
    await db.execute(sql`select pg_current_snapshot()::text as snapshot`),
  );
  const until = Date.now() + waitMs;
  for (;;) {
    const [{ busy }] = rowsOf<{ busy: boolean }>(
      await db.execute(sql`select exists (select 1 from pg_snapshot_xip(${snapshot}::pg_snapshot) as x
        where pg_xact_status(x) = 'in progress') as busy`),
    );
    if (!busy) return true;
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
