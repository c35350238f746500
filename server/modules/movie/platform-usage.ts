import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/types';
import { movieCounts } from './schema';

/**
 * Named query (settings: removing a platform says how much uses it): how many movies, whatever their status, carry
 * each platform key. Read from the counters the triggers keep (`movie_counts`, dim 'platform'): a few rows,
 * whatever the number of movies.
 */
export async function moviesPerPlatform(db: Executor, keys: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>(keys.map((k) => [k, 0]));
  if (!keys.length) return out;
  const rows = await db
    .select({ key: movieCounts.key, n: sql<number>`coalesce(sum(${movieCounts.n}), 0)::int` })
    .from(movieCounts)
    .where(and(eq(movieCounts.dim, 'platform'), inArray(movieCounts.key, keys)))
    .groupBy(movieCounts.key);
  for (const r of rows) out.set(Number(r.key), Number(r.n));
  return out;
}
