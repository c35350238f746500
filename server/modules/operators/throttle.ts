import { and, count, eq, gt, lt, min } from 'drizzle-orm';
import { Code } from '../../../common/codes';
import { ApiError } from '../../core/errors';
import type { Executor } from '../../db/types';
import { loginFailures } from './schema';

/** Failed logins allowed within the window, per account and per address (issue #2). */
export const THROTTLE = { windowMs: 15 * 60_000, perAccount: 5, perAddress: 20 } as const;

/** Refuses with 42900 while either counter is full; says how many minutes until the oldest failure leaves the window. */
export async function assertNotThrottled(db: Executor, account: string, address: string, now: Date) {
  const since = new Date(now.getTime() - THROTTLE.windowMs);
  const [[byAccount], [byAddress]] = await Promise.all([
    db
      .select({ n: count(), first: min(loginFailures.at) })
      .from(loginFailures)
      .where(and(eq(loginFailures.account, account), gt(loginFailures.at, since))),
    db
      .select({ n: count(), first: min(loginFailures.at) })
      .from(loginFailures)
      .where(and(eq(loginFailures.address, address), gt(loginFailures.at, since))),
  ]);
  const full = [
    Number(byAccount.n) >= THROTTLE.perAccount ? byAccount.first : null,
    Number(byAddress.n) >= THROTTLE.perAddress ? byAddress.first : null,
  ].filter((d): d is Date => d !== null);
  if (!full.length) return;
  const until = Math.max(...full.map((d) => new Date(d).getTime() + THROTTLE.windowMs));
  throw new ApiError(Code.TOO_MANY, 'tooMany', {
    minutes: Math.max(1, Math.ceil((until - now.getTime()) / 60_000)),
  });
}

export async function recordFailure(db: Executor, account: string, address: string, now: Date) {
  await db
    .insert(loginFailures)
    .values({ account: account.slice(0, 64), address: address.slice(0, 64), at: now });
  // Rows that left the window count for nothing; drop them as we go so the table stays small.
  await db.delete(loginFailures).where(lt(loginFailures.at, new Date(now.getTime() - THROTTLE.windowMs)));
}

/** A successful login clears that account's failures (its address's failures still count). */
export async function clearAccountFailures(db: Executor, account: string) {
  await db.delete(loginFailures).where(eq(loginFailures.account, account));
}
