import { count } from 'drizzle-orm';
import type { Config } from '../../config';
import { hashPassword, randomPassword } from '../../core/crypto';
import type { Db } from '../../db/types';
import { operators } from './schema';

/**
 * First start with no operator at all: creates `admin` (role admin) with ADMIN_PASSWORD, or a random password
 * that the caller prints once. Returns what it created, or null when operators already exist.
 */
export async function ensureFirstAdmin(
  db: Db,
  config: Config,
): Promise<{ account: string; password: string; generated: boolean } | null> {
  const [{ n }] = await db.select({ n: count() }).from(operators);
  if (Number(n) > 0) return null;
  const password = config.adminPassword ?? randomPassword();
  const passwordHash = await hashPassword(password, config.passwordIterations);
  const created = await db
    .insert(operators)
    .values({ account: 'admin', accountKey: 'admin', passwordHash, nickname: '管理员', role: 'admin' })
    .onConflictDoNothing()
    .returning({ id: operators.id });
  if (!created.length) return null; // another instance got there first
  return { account: 'admin', password, generated: !config.adminPassword };
}
