import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { addDays, type Period } from '../../../common/period';
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
interface AnswerScope {
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
 * Days before today whose late events are common (a site's retried batches after midnight): a period's older days end
 * this many days before today (`splitPeriod`), so a rollup of yesterday does not make the next read start over.
 */
export const LATE_DAYS = 1;

/**
 * A period cut where the rollup's rewrites begin. The older days' rows change only when the rollup recomputes one of
 * them (`stat_rolled_days.day_gen`), so what a report reads of them is read once and cached under their stamp; the late
 * days (`LATE_DAYS`, yesterday) are cached under theirs, so a rollup of today leaves them; the recent days (today,
 * rolled up every minute) under theirs. `also` is the value of the caller's extra stamp; `sumsGen` the newest `gen`
 * (sums only) over the days to `sumsTo`.
 */
export interface Split {
  older: Period;
  late: Period | null;
  recent: Period | null;
  gen: Record<'older' | 'late' | 'recent', string>;
  also: string;
  sumsGen: string;
}

const minDay = (a: string, b: string) => (a < b ? a : b);

/**
 * The split of `period` for a read on `today` (the rollup's current day), and every part's stamp in one read; null when
 * the period has no older day.
 */
export async function splitPeriod(
  db: Executor,
  at: { tenant: number; period: Period; today: string; also?: SQL; sumsTo?: string },
): Promise<Split | null> {
  const { period, today } = at;
  const olderTo = addDays(today, -1 - LATE_DAYS);
  if (olderTo < period.from) return null;
  const lateTo = addDays(today, -1);
  const late = period.to > olderTo ? { from: addDays(olderTo, 1), to: minDay(period.to, lateTo) } : null;
  const [row] = rowsOf<{ gen: string; late_gen: string; recent_gen: string; sums_gen: string; also: string }>(
    await db.execute(sql`select coalesce(max(day_gen) filter (where day <= ${olderTo}::date), 0)::text as gen,
        coalesce(max(day_gen) filter (where day > ${olderTo}::date and day <= ${lateTo}::date), 0)::text as late_gen,
        coalesce(max(day_gen) filter (where day > ${lateTo}::date), 0)::text as recent_gen,
        coalesce(max(gen) filter (where day <= ${at.sumsTo ?? olderTo}::date), 0)::text as sums_gen,
        coalesce((${at.also ?? sql`null`})::text, '') as also
      from stat_rolled_days where tenant = ${at.tenant} and day between ${period.from}::date and ${period.to}::date`),
  );
  return {
    older: { from: period.from, to: minDay(period.to, olderTo) },
    late,
    recent: period.to > lateTo ? { from: today, to: period.to } : null,
    gen: { older: row?.gen ?? '0', late: row?.late_gen ?? '0', recent: row?.recent_gen ?? '0' },
    also: String(row?.also ?? ''),
    sumsGen: row?.sums_gen ?? '0',
  };
}

/** The split of a period over older days only (a compared period): one part, cached under its stamp. */
export const wholeSplit = (db: Executor, tenant: number, period: Period, also?: SQL) =>
  splitPeriod(db, { tenant, period, today: addDays(period.to, 1 + LATE_DAYS), also }) as Promise<Split>;

/** Which days of a split a part covers: `upToLate`, the older and late days together. */
type PartOf = 'older' | 'late' | 'recent' | 'upToLate' | 'all';

/**
 * Parts of reads over a split's days, at most `max` per database handle: each cached under what it reads (`scope`,
 * any JSON), its days and their stamps, so a part read under an older stamp is never served.
 */
export function periodParts<T>(max: number) {
  const store = cachePerDb<T>(max);
  const keyOf = (scope: unknown, s: Split, part: PartOf) => {
    const older = [s.older, s.gen.older];
    const late = [s.late, s.gen.late];
    const recent = [s.recent, s.gen.recent];
    const days = { older, late, recent, upToLate: [...older, ...late], all: [...older, ...late, ...recent] }[
      part
    ];
    return JSON.stringify([scope, part, ...days]);
  };
  const parts = {
    get: <V extends T>(db: object, scope: unknown, s: Split, part: PartOf) =>
      store.get(db, keyOf(scope, s, part)) as V | undefined,
    set: (db: object, scope: unknown, s: Split, part: PartOf, value: T) =>
      store.set(db, keyOf(scope, s, part), value),
    /** The part cached, or `read()`'s, then cached. */
    orRead: <V extends T>(db: object, scope: unknown, s: Split, part: PartOf, read: () => Promise<V>) =>
      store.orRead(db, keyOf(scope, s, part), read) as Promise<V>,
    /**
     * The older days' part (`readOlder`) with the late days' read (`readLate`) folded in (`fold`, which must leave the
     * older part as it is), cached under both stamps: a rollup of yesterday then reads yesterday's rows only.
     */
    async upToLate<V extends T, L>(
      db: object,
      scope: unknown,
      s: Split,
      readOlder: () => Promise<V>,
      readLate: (late: Period) => Promise<L>,
      fold: (older: V, late: L) => V,
    ): Promise<V> {
      const older = () => parts.orRead(db, scope, s, 'older', readOlder);
      const late = s.late;
      if (!late) return older();
      return parts.orRead(db, scope, s, 'upToLate', async () => {
        const [o, l] = await Promise.all([older(), readLate(late)]);
        return fold(o, l);
      });
    },
  };
  return parts;
}

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
