import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { RESET_CODE_HOURS, RESET_CODE_TRIES } from '../../../common/users';
import type { AppEnv } from '../../core/context';
import { hashPassword, sha256Hex } from '../../core/crypto';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { invalidField } from '../../core/errors';
import { createRoute } from '../../core/route';
import { transaction } from '../../core/shared';
import type { Tx } from '../../db/types';
import { newPassword } from '../operators/model';
import { signedSecurity, siteTenantOf } from '../site/routes';
import { sameHex } from '../site/secret';
import { memberNamed } from './account';
import { siteUserResetCodes, siteUsers } from './schema';

/**
 * A member's password reset by a one-time code. An admin asks for a code on the member's page and passes
 * it on (it is answered once and never again: only its SHA-256 is kept); the member types it with a new password on
 * the site, whose server sends both here signed (`POST /app/site/users/reset`). Staff never see or choose a password.
 *
 * A code is 12 characters from 32 that cannot be misread (no 0/O, 1/I), 60 random bits, shown as `ABCD-EFGH-JKLM`;
 * it is typed back with or without the dashes, in either case. It is spent by its use, by RESET_CODE_TRIES wrong
 * tries (the site's server is trusted, but a leaked secret should not make a code guessable), by its expiry, or by a
 * newer code for the same member.
 */

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 12;

/** 12 characters of ALPHABET (32 divides 256: every character equally likely), in groups of four. */
export function newResetCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(CODE_LENGTH));
  const chars = Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join('');
  return chars.match(/.{4}/g)!.join('-');
}

/** The code as it is hashed: upper case, without the dashes and spaces a member may type. */
export const normaliseResetCode = (code: string) => code.toUpperCase().replace(/[\s-]/g, '');

export const resetCodeHash = (code: string) => sha256Hex(normaliseResetCode(code));

/** A new code for the member (their row locked by the caller); an unused earlier code is dropped. */
export async function issueResetCode(
  tx: Tx,
  at: { tenant: number; userId: number; issuedBy: number; now: Date },
): Promise<{ code: string; expiresAt: string }> {
  const code = newResetCode();
  const expiresAt = new Date(at.now.getTime() + RESET_CODE_HOURS * 3_600_000);
  await tx
    .delete(siteUserResetCodes)
    .where(and(eq(siteUserResetCodes.userId, at.userId), isNull(siteUserResetCodes.usedAt)));
  await tx.insert(siteUserResetCodes).values({
    tenant: at.tenant,
    userId: at.userId,
    codeHash: await resetCodeHash(code),
    issuedBy: at.issuedBy,
    issuedAt: at.now,
    expiresAt,
  });
  return { code, expiresAt: expiresAt.toISOString() };
}

const ResetBody = z
  .object({
    account: z.string().trim().min(1).max(64),
    /** The one-time code the member was given (dashes and case do not matter). */
    code: z.string().trim().min(1).max(32),
    newPassword,
  })
  .strict()
  .openapi('SiteUserReset');

const resetRoute = createRoute({
  method: 'post',
  path: '/reset',
  tags: ['site (public)'],
  security: signedSecurity,
  summary:
    'A member sets a new password with the one-time code an admin gave them (a wrong, used or expired code, or an unknown account, is 40000 on code, all alike)',
  description:
    "Signed by the site's server only (Site-Timestamp, Site-Signature beside Site-Key): the browser key alone is 40300. A code works once; " +
    `${RESET_CODE_TRIES} wrong codes spend it.`,
  request: { body: jsonBody(ResetBody) },
  responses: jsonResponse(z.object({ id: z.number(), account: z.string() }).openapi('SiteUserResetAnswer')),
});

/** `POST /app/site/users/reset` on the members' signed site routes (their gate and signature check come first). */
export function siteResetRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(resetRoute, async (c) => {
    const body = c.req.valid('json');
    const { db, clock, config } = c.get('deps');
    const tenant = siteTenantOf(c);
    const now = clock.now();
    const given = await resetCodeHash(body.code);
    // Hashed before the transaction (it is slow on purpose) and thrown away when the code is refused.
    const passwordHash = await hashPassword(body.newPassword, config.passwordIterations);
    // A refusal is decided inside and thrown after the commit, so that a wrong try's count is kept.
    const answer = await transaction(db, async (tx) => {
      const named = memberNamed(tenant, body.account);
      const [user] = await tx
        .select({ id: siteUsers.id, account: siteUsers.account })
        .from(siteUsers)
        .where(named.where)
        .orderBy(named.first)
        .limit(1)
        .for('update');
      if (!user) return null;
      const [live] = await tx
        .select()
        .from(siteUserResetCodes)
        .where(
          and(
            eq(siteUserResetCodes.userId, user.id),
            isNull(siteUserResetCodes.usedAt),
            gt(siteUserResetCodes.expiresAt, now),
            lt(siteUserResetCodes.failures, RESET_CODE_TRIES),
          ),
        )
        .orderBy(desc(siteUserResetCodes.id))
        .limit(1);
      if (!live) return null;
      if (!sameHex(live.codeHash, given)) {
        await tx
          .update(siteUserResetCodes)
          .set({ failures: sql`${siteUserResetCodes.failures} + 1` })
          .where(eq(siteUserResetCodes.id, live.id));
        return null;
      }
      await tx.update(siteUserResetCodes).set({ usedAt: now }).where(eq(siteUserResetCodes.id, live.id));
      await tx
        .update(siteUsers)
        .set({ passwordHash, legacyPassword: null, version: sql`${siteUsers.version} + 1`, updatedAt: now })
        .where(eq(siteUsers.id, user.id));
      return user;
    });
    if (!answer) throw invalidField('code', 'users.badResetCode', {}, 'label.resetCode');
    return ok(c, answer);
  });
  return app;
}
