import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { Code } from '../../../common/codes';
import { permissionsOf } from '../../../common/permissions';
import type { PermissionCatalog, SessionOperator } from '../../core/context';
import { newToken, sha256Hex } from '../../core/crypto';
import { ApiError, accountDisabled } from '../../core/errors';
import { entry } from '../../core/maps';
import { keyOf } from '../../db/stand-in';
import type { Executor } from '../../db/types';
import { operators, roles, sessions } from './schema';

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
      roleId: roles.id,
      roleVersion: roles.version,
      builtin: roles.builtin,
      permissions: roles.permissions,
    })
    .from(sessions)
    .innerJoin(operators, eq(operators.id, sessions.operatorId))
    .leftJoin(roles, eq(roles.name, operators.role))
    .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
    .prepare('zg_session_lookup');

/**
 * Every request looks its session up: the statement is built once per database (building a Drizzle query costs more
 * than the lookup itself) and, on PostgreSQL, prepared once per connection under its name.
 */
const lookups = new WeakMap<Executor, ReturnType<typeof lookupOf>>();
function sessionLookup(db: Executor) {
  return entry(lookups, db, () => lookupOf(keyOf(db)));
}

/**
 * A role's permissions as a set, kept per database and role version (a save bumps the version, so the next request
 * reads the new set) and per catalog (the built-ins follow the mounted modules' declarations).
 */
const permissionSets = new WeakMap<PermissionCatalog, WeakMap<object, Map<string, ReadonlySet<string>>>>();
function permissionSet(
  db: Executor,
  catalog: PermissionCatalog,
  role: { id: number; version: number; name: string; builtin: boolean; permissions: readonly string[] },
): ReadonlySet<string> {
  const perDb = entry(permissionSets, catalog, () => new WeakMap<object, Map<string, ReadonlySet<string>>>());
  const sets = entry(perDb, keyOf(db) as object, () => new Map<string, ReadonlySet<string>>());
  const key = `${role.id}@${role.version}`;
  let set = sets.get(key);
  if (!set) {
    // Older versions of the role are dropped: only the current one is ever asked for again.
    for (const k of sets.keys()) if (k.startsWith(`${role.id}@`)) sets.delete(k);
    set = new Set(permissionsOf(role, catalog));
    sets.set(key, set);
  }
  return set;
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
  catalog: PermissionCatalog,
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
    // The role is read with the session on every request: a changed role counts from the next request on.
    permissions:
      row.roleId === null
        ? new Set()
        : permissionSet(db, catalog, {
            id: row.roleId,
            version: row.roleVersion ?? 0,
            name: row.role,
            builtin: row.builtin ?? false,
            permissions: row.permissions ?? [],
          }),
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
