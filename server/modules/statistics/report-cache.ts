import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Period } from '../../../common/period';
import { entry } from '../../core/maps';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';

/**
 * The report answer cache. A report over a period reads only rollups, and a day's rollups change only when the rollup
 * recomputes that day, which records the recomputing transaction's id in `stat_rolled_days`. An answer is cached with
 * the newest such id over its days at the time it was computed, and served again while that is still the newest: one
 * indexed read of at most a few hundred rows instead of merging sketches. A recomputed day, even one of the previous
 * period of a comparison, makes the next read compute afresh, so a report read after a rollup always shows it.
 *
 * One cache per database handle and per process (several instances each hold their own and check the same table), at
 * most `MAX_ANSWERS` answers, least recently used dropped first. Identical reads arriving together share one
 * computation.
 */
export const MAX_ANSWERS = 256;

interface CachedAnswer {
  stamp: string;
  answer: Promise<unknown>;
}

/** What a cached answer depends on: the rollups of the tenant's days in `span`, and `also` (a scalar query) if given. */
export interface AnswerScope {
  tenant: number;
  span: Period;
  /** A scalar query whose value changes whenever something else the answer reads changes (e.g. the ads' versions). */
  also?: SQL;
}

/**
 * A least-recently-used cache per database handle (each process, and each database it opens, has its own), at most
 * `max` values: the answers here, and the parts of the reports that read a period's older days once
 * (agents/period-figures.ts, ad/reports.ts).
 */
export function cachePerDb<T>(max: number) {
  const stores = new WeakMap<object, Map<string, T>>();
  const of = (db: object) => entry(stores, db, () => new Map<string, T>());
  return {
    /** The value cached under `key`, now the most recently used. */
    get(db: object, key: string): T | undefined {
      const store = of(db);
      const value = store.get(key);
      if (value !== undefined) {
        store.delete(key); // most recently used last
        store.set(key, value);
      }
      return value;
    },
    /** The value cached under `key`, without counting as a use. */
    peek: (db: object, key: string): T | undefined => of(db).get(key),
    set(db: object, key: string, value: T) {
      const store = of(db);
      store.delete(key);
      store.set(key, value);
      while (store.size > max) store.delete(store.keys().next().value as string);
    },
    delete: (db: object, key: string) => of(db).delete(key),
    /** The keys cached (a copy). */
    keys: (db: object): string[] => [...of(db).keys()],
    /** The value cached under `key`, or `read()`'s, then cached under it. */
    async orRead(db: object, key: string, read: () => Promise<T>): Promise<T> {
      const cached = this.get(db, key);
      if (cached !== undefined) return cached;
      const value = await read();
      this.set(db, key, value);
      return value;
    },
  };
}

const answers = cachePerDb<CachedAnswer>(MAX_ANSWERS);
const dialect = new PgDialect();

/** A stable text for SQL fragments (statement and parameters), for the key of a cached answer. */
export const sqlKey = (fragment: SQL | undefined) => {
  if (!fragment) return null;
  const q = dialect.sqlToQuery(fragment);
  return [q.sql, q.params];
};

/** The newest rollup transaction over the tenant's days in the span, and the value of `also`. */
async function stampOf(db: Executor, scope: AnswerScope): Promise<{ stamp: string; also: string }> {
  const [row] = rowsOf<{ gen: string; also: string }>(
    await db.execute(sql`select coalesce((select max(gen) from stat_rolled_days where tenant = ${scope.tenant}
      and day between ${scope.span.from}::date and ${scope.span.to}::date), 0)::text as gen,
      coalesce((${scope.also ?? sql`null`})::text, '') as also`),
  );
  const also = String(row?.also ?? '');
  return { stamp: `${row?.gen ?? ''}|${also}`, also };
}

/**
 * The answer cached under `key` if nothing in its scope changed since (no day of the span recomputed, `also` the
 * same), else `compute()`'s (then cached; it is given the value of `also` read for the stamp). Each caller gets its
 * own copy, since routes decorate the answer they are given; `readOnly`: the caller never changes the answer or
 * anything in it, and gets the cached one itself (copying a thousand agents' rows costs more than the rest of a read).
 */
export async function cachedAnswer<T>(
  db: Executor,
  scope: AnswerScope,
  key: string,
  compute: (also: string) => Promise<T>,
  { readOnly = false }: { readOnly?: boolean } = {},
): Promise<T> {
  const { stamp, also } = await stampOf(db, scope);
  let entry = answers.get(db, key);
  if (!entry || entry.stamp !== stamp) {
    const answer = compute(also);
    entry = { stamp, answer };
    answers.set(db, key, entry);
    const mine = entry;
    answer.catch(() => {
      if (answers.peek(db, key) === mine) answers.delete(db, key);
    });
  }
  const answer = await (entry.answer as Promise<T>);
  return readOnly ? answer : structuredClone(answer);
}

/**
 * Days before today whose late events are common (a site's retried batches after midnight): the cached parts of
 * reports over a period's older days (agents/period-figures.ts, ad/reports.ts) end this many days earlier than the
 * rollups of today alone would allow, so a rollup of yesterday does not make the next read start over.
 */
export const LATE_DAYS = 1;

/**
 * Records that the rollup recomputed a tenant's day, in the recomputing transaction; `sums` only: its sums changed
 * but not the day itself (the days before a rolled day, whose idle and retained counts it rewrites), so `day_gen`
 * stays as it was, 0 for a day never recomputed.
 */
export async function markRolled(tx: Executor, tenant: number, day: string, what: 'all' | 'sums' = 'all') {
  const dayGen = what === 'all' ? sql`txid_current()` : sql`0`;
  await tx.execute(sql`insert into stat_rolled_days (tenant, day, gen, day_gen)
    values (${tenant}, ${day}::date, txid_current(), ${dayGen})
    on conflict (tenant, day) do update set gen = excluded.gen${what === 'all' ? sql`, day_gen = excluded.day_gen` : sql``}`);
}
