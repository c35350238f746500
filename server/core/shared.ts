/**
 * Helpers every module uses: query-string fields, date ranges, LIKE patterns, allow-listed queries, reference
 * checks, error shapes and the retrying transaction.
 */
import { z } from '@hono/zod-openapi';
import { inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { Code } from '../../common/codes';
import type { Db, Executor, Tx } from '../db/types';
import type { AppContext } from './context';
import { PG_INT_MAX } from './crud';
import { conflict, invalidField, ValidationError } from './errors';
import { sqlStateOf } from './sql-state';

/** An integer in the query string (digits only), within [min, max]. */
export const intQuery = (min = 1, max = PG_INT_MAX) =>
  z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

export const boolQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

export const id = z.number().int().positive().max(PG_INT_MAX);
export const version = z.number().int().positive().max(PG_INT_MAX);
export const idArray = (max: number) => z.array(id).max(max);

/** `YYYY-MM-DD` that is a real day, in years PostgreSQL and `Date#toISOString` both write the same way. */
export function isDay(s: string) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s) || s < '1000') return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}
export const day = z.string().refine(isDay, { params: { key: 'field.date' } });

/** A date filter: `YYYY-MM-DD` (a whole UTC day) or an ISO date-time with its offset, between 1900 and 9998. */
export const dateQuery = z
  .string()
  .max(40)
  .refine(
    (s) => {
      if (!isDay(s) && !/^\d{4}-\d{2}-\d{2}T/.test(s)) return false;
      const t = isDay(s) ? Date.parse(`${s}T00:00:00Z`) : Date.parse(s);
      if (Number.isNaN(t)) return false;
      const year = new Date(t).getUTCFullYear();
      return year >= 1900 && year <= 9998;
    },
    { params: { key: 'field.date' } },
  );

/** The instant a `from` filter starts at, and the instant a `to` filter ends before (a day is inclusive). */
export const rangeStart = (s: string) => new Date(isDay(s) ? `${s}T00:00:00Z` : s);
export const rangeEnd = (s: string) =>
  isDay(s) ? new Date(new Date(`${s}T00:00:00Z`).getTime() + 86_400_000) : new Date(Date.parse(s) + 1);

/** `%…%` for LIKE, with the pattern characters escaped. */
export const containsPattern = (q: string) => `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/**
 * Whether `q` has no character with a case (Chinese, digits, punctuation, spaces): LIKE then finds what ILIKE
 * finds, at a quarter of its cost per row (ILIKE lower-cases each value it tests). Conservative: only other letters
 * (`Lo`: Han, kana, Hangul…), decimal digits, punctuation and spaces, which no character lower-cases to; symbols
 * (Ⓐ → ⓐ) and letter-like numbers (Ⅰ → ⅰ) keep ILIKE.
 */
export const isCaseless = (q: string) => /^[\p{Lo}\p{Nd}\p{P}\p{Zs}]*$/u.test(q);

/** "`column` contains `q`" in any case, tested on each row (LIKE when `q` has no case, ILIKE otherwise). */
export const containsAnyCase = (column: PgColumn, q: string): SQL =>
  isCaseless(q) ? sql`${column} like ${containsPattern(q)}` : sql`${column} ilike ${containsPattern(q)}`;

/**
 * Whether the grams alone decide "contains `q`": one or two characters are a gram of the lower-cased value exactly
 * when the value contains them in any case (zg_query_grams is then the lower-cased `q` itself). Not when lower-casing
 * `q` changes its length (İ → i̇), nor for three or more (the bigrams may stand apart).
 */
export const gramsAreExact = (q: string) => {
  const chars = [...q];
  return chars.length <= 2 && chars.every((ch) => [...ch.toLowerCase()].length === 1);
};

/**
 * "`column` contains `q`" (any case) served by a bigram index on `zg_title_grams(column)`: the
 * grams narrow by index and LIKE or ILIKE rechecks (containsAnyCase). The column's table needs that expression index
 * (the ads' titles and landing URLs). The recheck stays when the grams are the whole test (gramsAreExact): where the planner walks
 * an index in the list's order instead (a common gram), each row's grams would be computed again (costly for a long
 * URL), and PostgreSQL tests a filter's cheaper condition first, so LIKE drops the other rows before the grams are
 * computed.
 *
 * `grams` names another index (comments: their grams by id bucket), read by bitmap: there the grams
 * alone decide one or two characters, and a recheck of thousands of matches would only cost.
 */
export const gramsContain = (
  column: PgColumn,
  q: string,
  grams?: { has: SQL; needs: (q: string) => SQL },
): SQL => {
  const test = grams
    ? sql`${grams.has} @> ${grams.needs(q)}`
    : sql`zg_title_grams(${column}) @> zg_query_grams(${q}::text)`;
  return grams && gramsAreExact(q) ? test : sql`(${test} and ${containsAnyCase(column, q)})`;
};

/**
 * DESIGN §6: list filters are allow-listed. The schema strips what it does not know; this refuses it instead,
 * naming the parameter, so a misspelt filter is an error rather than a silently unfiltered list.
 */
export function rejectUnknownQuery(c: AppContext, schema: z.ZodObject) {
  const known = new Set(Object.keys(schema.shape));
  for (const key of Object.keys(c.req.queries()))
    if (!known.has(key)) throw invalidField(key, 'field.unknown');
}

/** Referenced ids in a body (a column, tags, sources) must exist: 40000 naming the field otherwise. */
export async function assertRefs(
  db: Executor,
  table: PgTable,
  idCol: PgColumn,
  ids: number[],
  field: string,
) {
  const unique = [...new Set(ids)];
  if (!unique.length) return;
  const rows = await db
    .select({ id: idCol })
    .from(table as any)
    .where(inArray(idCol, unique));
  if (rows.length !== unique.length) throw invalidField(field, 'field.notFound');
}

/** A foreign-key violation (a row referenced or removed concurrently): the state changed, 40900. */
export const isForeignKeyViolation = (err: unknown) => sqlStateOf(err) === '23503';

/** A state the caller did not see (a row removed or referenced meanwhile) is a conflict, not a server fault. */
export async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isForeignKeyViolation(err)) throw conflict();
    throw err;
  }
}

/** A value another record already holds (a unique key): 40900, the field named and told to choose another. */
export const duplicate = (field: string) =>
  new ValidationError({ [field]: { key: 'field.taken' } }, Code.CONFLICT);

/**
 * An account that folds (common/fold.ts) to an existing one's key: 40900 on `account`, naming the existing account,
 * or `field.taken` when it is that very account.
 */
export const lookalike = (field: string, existing: string, typed: string) =>
  existing === typed
    ? duplicate(field)
    : new ValidationError({ [field]: { key: 'field.lookalike', params: { existing } } }, Code.CONFLICT);

export const iso = (d: unknown) => (d ? new Date(d as string).toISOString() : null);

/** `count(*)` as a number, whichever driver answers. */
export const countOf = sql<number>`count(*)::int`;

export type Where = SQL | undefined;

/** A deadlock (40P01) or a serialization failure (40001): PostgreSQL rolled the transaction back; it may run again. */
function isRetryable(err: unknown): boolean {
  const state = sqlStateOf(err);
  return state === '40P01' || state === '40001';
}

/**
 * `db.transaction(run)`, run again when PostgreSQL aborts it for a deadlock: the column and tag counters are shared
 * rows that concurrent writers update in different orders. A transaction is all-or-nothing, so running it again is
 * safe; after three tries the caller gets 40900 (try again) rather than a server error.
 */
export async function transaction<T>(db: Db, run: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(run);
    } catch (err) {
      if (!isRetryable(err)) throw err;
      if (attempt >= 3) throw conflict();
    }
  }
}
