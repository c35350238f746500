import { entry } from '../../core/maps';
import type { Db } from '../../db/types';
import type { DayFold } from './day-figures';
import type { EventRow } from './events';
import { cachePerDb } from './report-cache';

/**
 * The days' folds a runner keeps between runs (per database handle): today's and yesterday's per tenant, the days that
 * take events; a day's next rollup folds only its queued batches into it. Bounded by MAX_CACHED_KEYS.
 */
export const folds = cachePerDb<DayFold>(8);
/**
 * At most this many keys (`DayFold.size`: keywords, objects, channels, paths, referrers…) in all the folds a runner
 * keeps between runs, per database handle: the keys come from anyone holding the browser key too. A fold holds nothing
 * per visitor (day-figures.ts). A fold that would pass it is not kept (its day's next rollup reads it whole from the
 * database) and one that grows past it while kept (batches folded ahead) is let go.
 */
export const MAX_CACHED_KEYS = 250_000;

/** The keys of the folds kept for `db`, but for the one under `except`. */
export function cachedKeys(db: object, except?: string): number {
  let n = 0;
  for (const key of folds.keys(db)) if (key !== except) n += folds.peek(db, key)!.size;
  return n;
}

/** Keeps a day's fold for the next run, if the keys of every cached fold stay within `cap`; else lets it go. */
export function cacheFold(db: object, key: string, fold: DayFold, cap = MAX_CACHED_KEYS): boolean {
  if (cachedKeys(db, key) + fold.size > cap) {
    folds.delete(db, key);
    return false;
  }
  folds.set(db, key, fold);
  return true;
}

/** The fold of a day this runner keeps (tests). */
export const cachedFold = (db: Db, tenant: number, day: string) => folds.peek(db, `${tenant}|${day}`);

/**
 * The batches this process is storing, per database handle, from the moment their number is taken until they are
 * folded ahead (`storedBatch`) or a run takes their queue rows (`takenBatches`), whichever comes first: a batch is
 * folded once, by its own process as it is stored or by a run reading it.
 */
const storing = new WeakMap<object, Set<number>>();
const storingOf = (db: object) => entry(storing, db, () => new Set<number>());

/** A batch's rows are about to be stored under `batch`. */
export const storingBatch = (db: object, batch: number) => void storingOf(db).add(batch);

/** A stored batch's rows, for the fold of their day. */
export interface Stored {
  tenant: number;
  day: string;
  timeZone: string;
  /** Hashed by the server: `visitorHash` and the registers are set. */
  rows: readonly EventRow[];
}

/**
 * The batches stored while a run has their day's fold out (`holdDay`), per database handle and day: folded into it
 * when the run puts it back (`releaseDay`), at most MAX_HELD events in all (past that a run reads them).
 */
const held = new WeakMap<object, Map<string, Map<number, Stored>>>();
const MAX_HELD = 100_000;
const heldOf = (db: object) => entry(held, db, () => new Map<string, Map<number, Stored>>());
const heldEvents = (db: object) => {
  let n = 0;
  for (const day of heldOf(db).values()) for (const s of day.values()) n += s.rows.length;
  return n;
};

/**
 * The batch is stored (committed), every row of it new and of one day (`stored`; undefined: not stored, or not so):
 * folded into the day's cached fold now when there is one in the tenant's time zone, or held while a run has it out,
 * unless a run took the batch meanwhile (it reads it).
 */
export function storedBatch(db: object, batch: number, stored?: Stored) {
  if (!storingOf(db).delete(batch) || !stored) return;
  const key = `${stored.tenant}|${stored.day}`;
  const fold = folds.peek(db, key);
  if (fold) {
    if (fold.timeZone === stored.timeZone) fold.stored(batch, stored.rows);
    if (cachedKeys(db) > MAX_CACHED_KEYS) folds.delete(db, key); // its next rollup reads the day whole
    return;
  }
  const day = heldOf(db).get(key);
  if (day && heldEvents(db) + stored.rows.length <= MAX_HELD) day.set(batch, stored);
}

/** A run took these batches' queue rows: it reads them itself. */
export function takenBatches(db: object, batches: readonly number[]) {
  const set = storingOf(db);
  for (const b of batches) set.delete(b);
  for (const day of heldOf(db).values()) for (const b of batches) day.delete(b);
}

/** A run takes the day's fold out (`key`: tenant|day): the batches stored meanwhile wait for it. */
export function holdDay(db: object, key: string) {
  heldOf(db).set(key, new Map());
}

/** The run is done with the day: what waited is folded into the fold it kept, if it kept one. */
export function releaseDay(db: object, key: string) {
  const day = heldOf(db).get(key);
  heldOf(db).delete(key);
  const fold = folds.peek(db, key);
  if (!day || !fold) return;
  for (const [batch, s] of day) if (s.timeZone === fold.timeZone) fold.stored(batch, s.rows);
  if (cachedKeys(db) > MAX_CACHED_KEYS) folds.delete(db, key);
}
