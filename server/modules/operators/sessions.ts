import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { Code } from '../../../common/codes';
import type { SessionOperator } from '../../core/context';
import { newToken, sha256Hex } from '../../core/crypto';
import { ApiError, accountDisabled } from '../../core/errors';
import { entry } from '../../core/maps';
import { keyOf } from '../../db/stand-in';
import type { Executor } from '../../db/types';
import { operators, sessions } from './schema';

/** How stale `last_seen_at` may get before a request refreshes it (saves a write on most requests). */
const TOUCH_EVERY_MS = 60_000;

export async function createSession(
  db: Executor,
  operatorId: number,
  now: Date,
  meta: { address: string; userAgent: string },
): Promise<string> {
  const token = newToken();
  await db.insert(sessions).values({
    tokenHash: await sha256Hex(token),
    operatorId,
    createdAt: now,
    lastSeenAt: now,
    address: meta.address.slice(0, 64),
    userAgent: meta.userAgent.slice(0, 256),
  });
  return token;
}

const lookupOf = (db: Executor) =>
  db
    .select({
      sessionId: sessions.id,
      lastSeenAt: sessions.lastSeenAt,
      revokedReason: sessions.revokedReason,
      id: operators.id,
      account: operators.account,
      nickname: operators.nickname,
      avatar: operators.avatar,
      role: operators.role,
      disabled: operators.disabled,
      deletedAt: operators.deletedAt,
    })
    .from(sessions)
    .innerJoin(operators, eq(operators.id, sessions.operatorId))
    .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
    .prepare('zg_session_lookup');

/**
 * Every request looks its session up: the statement is built once per database (building a Drizzle query costs more
 * than the lookup itself; issue #18) and, on PostgreSQL, prepared once per connection under its name.
 */
const lookups = new WeakMap<Executor, ReturnType<typeof lookupOf>>();
function sessionLookup(db: Executor) {
  return entry(lookups, db, () => lookupOf(keyOf(db)));
}

/**
 * The operator behind a token, or the envelope error that says why not: unknown or logged-out token 50008,
 * replaced (password changed or reset) 50012, idle too long 50014, operator disabled or deleted errCode 2001.
 */
export async function resolveSession(
  db: Executor,
  token: string | undefined,
  now: Date,
  idleMs: number,
): Promise<SessionOperator> {
  if (!token || token.length > 200) throw new ApiError(Code.ILLEGAL_TOKEN, 'illegalToken');
  const [row] = await sessionLookup(db).execute({ tokenHash: await sha256Hex(token) });
  if (!row || row.revokedReason === 'logout') throw new ApiError(Code.ILLEGAL_TOKEN, 'illegalToken');
  if (row.disabled || row.deletedAt) throw accountDisabled();
  if (row.revokedReason) throw new ApiError(Code.SESSION_REPLACED, 'sessionReplaced');
  if (now.getTime() - row.lastSeenAt.getTime() > idleMs)
    throw new ApiError(Code.TOKEN_EXPIRED, 'tokenExpired');
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.sessionId));
  }
  return {
    id: row.id,
    account: row.account,
    nickname: row.nickname,
    avatar: row.avatar,
    role: row.role,
    sessionId: row.sessionId,
  };
}

export async function revokeSession(db: Executor, sessionId: number, now: Date) {
  await db
    .update(sessions)
    .set({ revokedAt: now, revokedReason: 'logout' })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** After a password change or reset: every other live session of the operator answers 50012. */
export async function replaceSessions(db: Executor, operatorId: number, now: Date, keepSessionId?: number) {
  await db
    .update(sessions)
    .set({ revokedAt: now, revokedReason: 'replaced' })
    .where(
      and(
        eq(sessions.operatorId, operatorId),
        isNull(sessions.revokedAt),
        keepSessionId ? ne(sessions.id, keepSessionId) : undefined,
      ),
    );
}
