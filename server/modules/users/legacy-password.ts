import bcrypt from 'bcryptjs';
import md5 from 'crypto-js/md5';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/types';
import { siteUsers } from './schema';

/**
 * A member's password as MacCMS stored it (`site_users.legacy_password`, filled by the MacCMS move), checked the way
 * MacCMS v10 checks it, once: the member login that accepts it replaces it with our own hash, so the weak forms do
 * not outlive the first login. The forms MacCMS has written over the years:
 * - bcrypt (`$2y$…`, PHP's password_hash; bcryptjs reads `$2y$` as `$2b$`);
 * - md5 of the password, or of the password as MacCMS's form handling left it (trimmed, URL-decoded, HTML-escaped);
 * - on a few very old sites the password itself, accepted only when the stored text is not an md5 (so that sending
 *   a stolen md5 never passes for the password).
 * Comparisons of md5 and plain text take the same time whatever matches. Nothing here can give the password back.
 */

/** PHP's htmlspecialchars with its defaults (ENT_QUOTES | ENT_SUBSTITUTE | ENT_HTML401). */
function htmlspecialchars(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' })[c] as string,
  );
}

/** PHP's urldecode: `+` is a space, a bad escape stays as it is. */
function urldecode(s: string): string {
  return s.replace(/\+/g, ' ').replace(/(%[0-9a-fA-F]{2})+/g, (m) => {
    try {
      return decodeURIComponent(m);
    } catch {
      return m;
    }
  });
}

function sameText(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}

/** Whether `password` is the one MacCMS stored as `stored`. */
export function verifyLegacyPassword(password: string, stored: string): boolean {
  if (!stored || !password || password.length > 1024) return false;
  if (stored.startsWith('$2')) {
    try {
      return bcrypt.compareSync(password, stored);
    } catch {
      return false;
    }
  }
  const formatted = htmlspecialchars(urldecode(password.trim()));
  const hex = stored.toLowerCase();
  const byMd5 = sameText(hex, md5(password).toString()) || sameText(hex, md5(formatted).toString());
  if (byMd5) return true;
  if (/^[0-9a-f]{32}$/.test(hex)) return false;
  return sameText(stored, password) || sameText(stored, formatted);
}

/**
 * A member's legacy password checked once: true when it matches, and then it is cleared in the same statement, so a
 * second check (a second login, or two at once) finds nothing. The caller stores our hash in the same transaction.
 */
export async function consumeLegacyPassword(
  ex: Executor,
  tenant: number,
  userId: number,
  password: string,
): Promise<boolean> {
  const [row] = await ex
    .select({ stored: siteUsers.legacyPassword })
    .from(siteUsers)
    .where(and(eq(siteUsers.id, userId), eq(siteUsers.tenant, tenant), isNotNull(siteUsers.legacyPassword)))
    .for('update');
  if (!row?.stored || !verifyLegacyPassword(password, row.stored)) return false;
  await ex
    .update(siteUsers)
    .set({ legacyPassword: null, version: sql`${siteUsers.version} + 1` })
    .where(eq(siteUsers.id, userId));
  return true;
}
