import { and, eq, gt, lt, or, sql } from 'drizzle-orm';
import { Code } from '../../../common/codes';
import { ApiError } from '../../core/errors';
import type { Db } from '../../db/types';
import { loginFailures } from './schema';

/**
 * Password guessing (after OWASP's authentication guidance). Failures are counted over a sliding window:
 * - per account *and* address: 5, then 42900 for that pair only — someone guessing from one address cannot lock
 *   the operator out of the account from another;
 * - per address, whatever the account: 20, then 42900 for that address (password spraying);
 * - per account, from every address: no lockout, a growing delay once it passes 10 (slows a distributed guess
 *   without letting anyone lock the operator out).
 * Wrong old passwords on the password change count like failed logins.
 */
export const THROTTLE = {
  windowMs: 15 * 60_000,
  perPair: 5,
  perAddress: 20,
  accountDelayFrom: 10,
  maxDelayMs: 5_000,
} as const;

/** The delay of an attempt on an account with `failures` in the window (from every address): 0 up to the threshold. */
export function accountDelayMs(failures: number): number {
  if (failures < THROTTLE.accountDelayFrom) return 0;
  return Math.min(THROTTLE.maxDelayMs, 250 * 2 ** Math.floor((failures - THROTTLE.accountDelayFrom) / 5));
}

export interface Attempt {
  /** The row counted for this attempt: a failure unless `succeeded` takes it back. */
  id: number;
  /** How long to wait before answering (the account-wide delay). */
  delayMs: number;
}

/**
 * Checks and counts in one step: under transaction-scoped advisory locks on the address and the account (so
 * parallel attempts queue here, on every instance sharing the database), refuses with 42900 while the pair or the
 * address is full, and otherwise records this attempt as a failure at once. A right password then takes it back
 * (`succeeded`). So 40 parallel attempts get at most `perPair` answers other than 42900.
 */
export async function beginAttempt(db: Db, account: string, address: string, now: Date): Promise<Attempt> {
  const acct = account.slice(0, 64);
  const addr = address.slice(0, 64);
  const since = new Date(now.getTime() - THROTTLE.windowMs);
  return db.transaction(async (tx) => {
    // Always the address first, then the account: one order, no deadlock.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`login-address:${addr}`}))`);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`login-account:${acct}`}))`);
    // The pair's, the address's and the account's failures in the window, in one statement (a transaction's
    // statements run one after another on its connection: three at once would only queue there).
    const isPair = and(eq(loginFailures.account, acct), eq(loginFailures.address, addr));
    const isAddress = eq(loginFailures.address, addr);
    const isAccount = eq(loginFailures.account, acct);
    const [c] = await tx
      .select({
        pair: sql<number>`count(*) filter (where ${isPair})`,
        pairFirst: sql<string | Date | null>`min(${loginFailures.at}) filter (where ${isPair})`,
        address: sql<number>`count(*) filter (where ${isAddress})`,
        addressFirst: sql<string | Date | null>`min(${loginFailures.at}) filter (where ${isAddress})`,
        account: sql<number>`count(*) filter (where ${isAccount})`,
      })
      .from(loginFailures)
      .where(and(or(isAddress, isAccount), gt(loginFailures.at, since)));
    const pair = { n: c.pair, first: c.pairFirst };
    const byAddress = { n: c.address, first: c.addressFirst };
    const byAccount = { n: c.account };
    const full = [
      Number(pair.n) >= THROTTLE.perPair ? pair.first : null,
      Number(byAddress.n) >= THROTTLE.perAddress ? byAddress.first : null,
    ].filter((d): d is string | Date => d !== null);
    if (full.length) {
      const until = Math.max(...full.map((d) => new Date(d).getTime() + THROTTLE.windowMs));
      throw new ApiError(Code.TOO_MANY, 'tooMany', {
        minutes: Math.max(1, Math.ceil((until - now.getTime()) / 60_000)),
      });
    }
    const [row] = await tx
      .insert(loginFailures)
      .values({ account: acct, address: addr, at: now })
      .returning({ id: loginFailures.id });
    // Rows that left the window count for nothing; drop them as we go so the table stays small.
    await tx.delete(loginFailures).where(lt(loginFailures.at, since));
    return { id: row.id, delayMs: accountDelayMs(Number(byAccount.n)) };
  });
}

/** The password was right: this attempt was no failure, and the pair's earlier failures are forgiven. */
export async function attemptSucceeded(db: Db, attempt: Attempt, account: string, address: string) {
  await db
    .delete(loginFailures)
    .where(
      and(eq(loginFailures.account, account.slice(0, 64)), eq(loginFailures.address, address.slice(0, 64))),
    );
  await db.delete(loginFailures).where(eq(loginFailures.id, attempt.id));
}

export const pause = (ms: number) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());
