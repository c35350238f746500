import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { and, desc, eq } from 'drizzle-orm';
import {
  MAX_POINTS,
  MAX_VIP_LEVEL,
  RESET_CODE_HOURS,
  RESET_CODE_TRIES,
  USER_GROUPS,
} from '../../../common/users';
import { audit, auditedRoute, diff } from '../../core/audit';
import { can, security } from '../../core/auth';
import type { AppEnv } from '../../core/context';
import { idParam, updateVersioned } from '../../core/crud';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { invalidField, notFound } from '../../core/errors';
import { createRoute } from '../../core/route';
import { iso, transaction, version } from '../../core/shared';
import { tenantOf } from '../../core/tenant';
import type { Executor } from '../../db/types';
import { instant } from '../notices/model';
import { SiteUser, type UserRow, userToApi } from './list';
import { issueResetCode } from './reset-code';
import { siteUserBans, siteUserResetCodes, siteUsers } from './schema';

/**
 * A member's own page (`/users/detail/:id`): what an admin changes there (group, VIP, points, with the
 * version read, so a stale save is refused and nothing is overwritten), the one-time code with which the member sets
 * a new password, and the history of their bans. The member, their comments and guestbook entries are read through
 * the members' and comments' own routes (`GET /users/{id}`, the lists with `userId`).
 */

const tags = ['site users'];

const EditBody = z
  .object({
    group: z.enum(USER_GROUPS).optional(),
    vipLevel: z.number().int().min(0).max(MAX_VIP_LEVEL).optional(),
    /** null: a VIP for life (with a level). Given with level 0 it is refused; level 0 alone clears it. */
    vipExpiresAt: instant.nullable().optional(),
    points: z.number().int().min(0).max(MAX_POINTS).optional(),
    version,
  })
  .openapi('SiteUserEdit');

const Ban = z
  .object({
    id: z.number(),
    bannedAt: z.string(),
    bannedBy: z.number().nullable(),
    undoneAt: z.string().nullable(),
    undoneBy: z.number().nullable(),
    hiddenComments: z.number(),
    hiddenGuestbook: z.number(),
    blacklisted: z.array(z.string()),
  })
  .openapi('SiteUserBanRecord');

const ResetCode = z
  .object({ code: z.string(), expiresAt: z.string() })
  .openapi('SiteUserResetCode', { description: 'Shown once: only its hash is kept' });

const ResetCodeState = z
  .object({
    issuedAt: z.string(),
    issuedBy: z.number().nullable(),
    expiresAt: z.string(),
    usedAt: z.string().nullable(),
    /** unused (and still valid), used, expired, or spent by too many wrong codes. */
    state: z.enum(['unused', 'used', 'expired', 'spent']),
  })
  .nullable()
  .openapi('SiteUserResetCodeState', { description: 'The latest code, never the code itself' });

/** The most bans one member's page lists (newest first). */
const MAX_BANS = 100;

const routes = {
  edit: createRoute(
    auditedRoute({
      method: 'put',
      path: '/{id}',
      tags,
      security,
      summary:
        'Change a member (admin): group, VIP level and expiry, points; optimistic locking on version (a stale one is 40900, nothing written)',
      middleware: can('users.edit'),
      request: { params: idParam, body: jsonBody(EditBody) },
      responses: jsonResponse(SiteUser),
    }),
  ),
  bans: createRoute({
    method: 'get',
    path: '/{id}/bans',
    tags,
    security,
    summary: "A member's bans, newest first: when and by whom, what each hid and blacklisted, and its undo",
    middleware: can('users.read'),
    request: { params: idParam },
    responses: jsonResponse(z.object({ list: z.array(Ban) })),
  }),
  resetCode: createRoute(
    auditedRoute({
      method: 'post',
      path: '/{id}/reset-code',
      tags,
      security,
      summary: `A one-time code with which the member sets a new password on the site (admin): answered once, kept hashed, valid ${RESET_CODE_HOURS} hours, replaces an unused earlier code`,
      middleware: can('users.edit'),
      request: { params: idParam },
      responses: jsonResponse(ResetCode),
    }),
  ),
  resetCodeState: createRoute({
    method: 'get',
    path: '/{id}/reset-code',
    tags,
    security,
    summary:
      "The member's latest reset code (admin): when and by whom it was issued, until when, whether it was used or spent by wrong tries; null when none",
    middleware: can('users.edit'),
    request: { params: idParam },
    responses: jsonResponse(ResetCodeState),
  }),
};

/** 40400 unless the tenant has member `id`. */
async function mustExist(db: Executor, id: number, tenant: number) {
  const [user] = await db
    .select({ id: siteUsers.id })
    .from(siteUsers)
    .where(and(eq(siteUsers.id, id), eq(siteUsers.tenant, tenant)));
  if (!user) throw notFound();
}

export function memberRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.edit, async (c) => {
    const { id } = c.req.valid('param');
    const body = c.req.valid('json');
    const { db, clock } = c.get('deps');
    const now = clock.now();
    const tenant = tenantOf(c);
    const row = await transaction(db, async (tx) => {
      const [current] = await tx
        .select()
        .from(siteUsers)
        .where(and(eq(siteUsers.id, id), eq(siteUsers.tenant, tenant)));
      if (!current) throw notFound();
      const level = body.vipLevel ?? current.vipLevel;
      let expires = body.vipExpiresAt === undefined ? current.vipExpiresAt : body.vipExpiresAt;
      if (level === 0) {
        // An expiry means nothing without a level: given with level 0 it is a mistake; taking the level away ends it.
        if (body.vipExpiresAt) throw invalidField('vipExpiresAt', 'users.expiryWithoutLevel');
        expires = null;
      }
      const values: Record<string, unknown> = {
        ...(body.group !== undefined && { group: body.group }),
        ...(body.points !== undefined && { points: body.points }),
        vipLevel: level,
        vipExpiresAt: expires === null ? null : new Date(expires),
        updatedAt: now,
      };
      const saved = await updateVersioned<UserRow>(
        tx,
        siteUsers,
        id,
        body.version,
        values,
        eq(siteUsers.tenant, tenant),
      );
      await audit(tx, c, {
        resource: 'members',
        action: 'update',
        recordId: id,
        changes: diff(current, saved),
      });
      return saved;
    });
    return ok(c, userToApi(row, now, true));
  });

  app.openapi(routes.bans, async (c) => {
    const { id } = c.req.valid('param');
    const { db } = c.get('deps');
    const tenant = tenantOf(c);
    await mustExist(db, id, tenant);
    const rows = await db
      .select()
      .from(siteUserBans)
      .where(and(eq(siteUserBans.userId, id), eq(siteUserBans.tenant, tenant)))
      .orderBy(desc(siteUserBans.id))
      .limit(MAX_BANS);
    return ok(c, {
      list: rows.map((b) => ({
        id: b.id,
        bannedAt: iso(b.bannedAt) as string,
        bannedBy: b.bannedBy,
        undoneAt: iso(b.undoneAt),
        undoneBy: b.undoneBy,
        hiddenComments: b.changes.comments.length,
        hiddenGuestbook: b.changes.guestbook.length,
        blacklisted: [...new Set(b.changes.blacklist.map((e) => e.entry))],
      })),
    });
  });

  app.openapi(routes.resetCodeState, async (c) => {
    const { id } = c.req.valid('param');
    const { db, clock } = c.get('deps');
    const tenant = tenantOf(c);
    await mustExist(db, id, tenant);
    const [code] = await db
      .select()
      .from(siteUserResetCodes)
      .where(eq(siteUserResetCodes.userId, id))
      .orderBy(desc(siteUserResetCodes.id))
      .limit(1);
    return ok(
      c,
      code
        ? {
            issuedAt: iso(code.issuedAt) as string,
            issuedBy: code.issuedBy,
            expiresAt: iso(code.expiresAt) as string,
            usedAt: iso(code.usedAt),
            state: code.usedAt
              ? ('used' as const)
              : code.failures >= RESET_CODE_TRIES
                ? ('spent' as const)
                : code.expiresAt <= clock.now()
                  ? ('expired' as const)
                  : ('unused' as const),
          }
        : null,
    );
  });

  app.openapi(routes.resetCode, async (c) => {
    const { id } = c.req.valid('param');
    const { db, clock } = c.get('deps');
    const answer = await transaction(db, async (tx) => {
      const [user] = await tx
        .select({ id: siteUsers.id })
        .from(siteUsers)
        .where(and(eq(siteUsers.id, id), eq(siteUsers.tenant, tenantOf(c))))
        .for('update');
      if (!user) throw notFound();
      const issued = await issueResetCode(tx, {
        tenant: tenantOf(c),
        userId: id,
        issuedBy: c.get('operator').id,
        now: clock.now(),
      });
      // That a code was issued and until when; the code itself never (the member's to spend, kept only hashed).
      await audit(tx, c, {
        resource: 'members',
        action: 'reset-code',
        recordId: id,
        changes: { after: { expiresAt: issued.expiresAt } },
      });
      return issued;
    });
    return ok(c, answer);
  });

  return app;
}
