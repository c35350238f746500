import { OpenAPIHono, z } from '@hono/zod-openapi';
import { and, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { Code } from '../../../common/codes';
import { cleanBlacklistEntry, parseAddress } from '../../../common/comment';
import { foldForMatch } from '../../../common/fold';
import { MAX_VIP_DAYS, USER_GROUPS } from '../../../common/users';
import { audit, auditBatch, auditedRoute } from '../../core/audit';
import { can, hasPermission, requirePermission, security } from '../../core/auth';
import type { AppContext, AppEnv } from '../../core/context';
import { batchBody, idParam, isUniqueViolation } from '../../core/crud';
import { hashPassword, verifyPassword } from '../../core/crypto';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { ApiError, conflict, invalidField, notFound } from '../../core/errors';
import type { MemberBan, ServerModule } from '../../core/module';
import { listGetRoutes } from '../../core/resource';
import { createRoute } from '../../core/route';
import { duplicate, lookalike, transaction } from '../../core/shared';
import { lockTenantRows, tenantOf } from '../../core/tenant';
import type { Tx } from '../../db/types';
import { requireSignature, signedSecurity, siteKeyGate, siteTenantOf } from '../site/routes';
import { memberNamed } from './account';
import { consumeLegacyPassword } from './legacy-password';
import { ListQuery, readUserList, SiteUser, type UserRow, userToApi } from './list';
import { memberRoutes } from './member';
import { siteResetRoutes } from './reset-code';
import { type BanChanges, siteUserBans, siteUsers } from './schema';

const tags = ['site users'];

const BatchBody = batchBody(['enable', 'disable', 'group', 'extendVip'] as const).extend({
  /** group: the group to move them to. */
  group: z.enum(USER_GROUPS).optional(),
  /** extendVip: days added to each one's VIP (from its expiry, or from now when it has none or it has passed). */
  days: z.number().int().min(1).max(MAX_VIP_DAYS).optional(),
  /** extendVip: the level they get at least (default 1). */
  level: z.number().int().min(1).max(9).optional(),
});

const BanAnswer = z
  .object({
    user: SiteUser,
    hiddenComments: z.number(),
    hiddenGuestbook: z.number(),
    blacklisted: z.array(z.string()),
  })
  .openapi('SiteUserBan');
const UndoAnswer = z.object({ user: SiteUser, restored: z.number() }).openapi('SiteUserBanUndo');
const VersionBody = z.object({ version: z.number().int().positive().optional() });

const routes = {
  batch: createRoute(
    auditedRoute({
      method: 'post',
      path: '/batch',
      tags,
      security,
      summary:
        'enable, disable, group (with group), extendVip (admin; days, level): one transaction, all or nothing; answers {changed}',
      middleware: can('users.batch'),
      request: { body: jsonBody(BatchBody) },
      responses: jsonResponse(z.object({ changed: z.number() })),
    }),
  ),
  ban: createRoute(
    auditedRoute({
      method: 'post',
      path: '/{id}/ban',
      tags,
      security,
      summary:
        'Ban (admin): the member is banned, their shown and pending comments and guestbook entries hidden, their last address blacklisted; what changed is kept for the undo',
      middleware: can('users.edit'),
      request: {
        params: idParam,
        body: { required: false, content: { 'application/json': { schema: VersionBody } } },
      },
      responses: jsonResponse(BanAnswer),
    }),
  ),
  undoBan: createRoute(
    auditedRoute({
      method: 'post',
      path: '/{id}/undo-ban',
      tags,
      security,
      summary:
        'Undo the last ban (admin): puts back what it changed and nothing else (items changed since stay as they are)',
      middleware: can('users.edit'),
      request: { params: idParam },
      responses: jsonResponse(UndoAnswer),
    }),
  ),
};

async function lockUser(tx: Tx, c: AppContext, id: number) {
  const [row] = await tx
    .select()
    .from(siteUsers)
    .where(and(eq(siteUsers.id, id), eq(siteUsers.tenant, tenantOf(c))))
    .for('update');
  if (!row) throw notFound();
  return row as UserRow;
}

const Signup = z
  .object({
    account: z.string().trim().min(2).max(64),
    nickname: z.string().trim().max(64).optional(),
    phone: z
      .string()
      .trim()
      .regex(/^\+?\d{5,20}$/)
      .optional(),
    email: z.string().trim().email().max(128).optional(),
    /** The address the member signed up from, as the site's server saw it (a signed field: that server is trusted). */
    address: z
      .string()
      .trim()
      .max(45)
      .refine((a) => !!parseAddress(a), { params: { key: 'comment.badAddress' } }),
    /** The agent's channel code of the link they came by. */
    channel: z.string().trim().max(32).optional(),
    /** The member who invited them. */
    inviter: z.number().int().positive().optional(),
    /** The password they chose, for `POST /app/site/users/login` (kept as our hash only). */
    password: z.string().min(6).max(128).optional(),
  })
  .strict()
  .openapi('SiteSignup');

const MemberLogin = z
  .object({
    account: z.string().trim().min(1).max(64),
    password: z.string().min(1).max(128),
    /** The address the member logs in from, as the site's server saw it (kept as their last login address). */
    address: z
      .string()
      .trim()
      .max(45)
      .refine((a) => !!parseAddress(a), { params: { key: 'comment.badAddress' } })
      .optional(),
  })
  .strict()
  .openapi('SiteMemberLogin');

const MemberLoginAnswer = z
  .object({
    id: z.number(),
    account: z.string(),
    nickname: z.string(),
    group: z.enum(USER_GROUPS),
    vipLevel: z.number(),
    vipExpiresAt: z.string().nullable(),
    vipState: SiteUser.shape.vipState,
  })
  .openapi('SiteMemberLoginAnswer');

/** Hashed once per process: a login naming no member checks a hash as long as a real one, so its time says nothing. */
let dummyHash: Promise<string> | undefined;

/**
 * `POST /app/site/users`: the site's server records a signup (signed: Site-Key and Site-Signature), with the agent's channel code and the
 * inviter; answers the member's id, which the site then names in its posts. A taken account is 40900.
 */
export function siteSignupRoutes() {
  const app = new OpenAPIHono<AppEnv>();
  app.use('*', siteKeyGate);
  app.use('*', requireSignature);
  app.openapi(
    createRoute({
      method: 'post',
      path: '/',
      tags: ['site (public)'],
      security: signedSecurity,
      summary: 'A signup on the site: the member, their agent code and inviter (a taken account is 40900)',
      description:
        "Signed by the site's server only (Site-Timestamp, Site-Signature beside Site-Key): the browser key alone is 40300.",
      request: { body: jsonBody(Signup) },
      responses: jsonResponse(z.object({ id: z.number(), account: z.string() }).openapi('SiteSignupAnswer')),
    }),
    async (c) => {
      const body = c.req.valid('json');
      const { db, clock } = c.get('deps');
      const tenant = siteTenantOf(c);
      const now = clock.now();
      try {
        const row = await transaction(db, async (tx) => {
          if (body.inviter !== undefined) {
            const [i] = await tx
              .select({ id: siteUsers.id })
              .from(siteUsers)
              .where(and(eq(siteUsers.id, body.inviter), eq(siteUsers.tenant, tenant)));
            if (!i) throw invalidField('inviter', 'field.notFound');
          }
          const accountKey = foldForMatch(body.account);
          const [same] = await tx
            .select({ account: siteUsers.account })
            .from(siteUsers)
            .where(and(eq(siteUsers.tenant, tenant), eq(siteUsers.accountKey, accountKey)));
          if (same) throw lookalike('account', same.account, body.account);
          const [r] = await tx
            .insert(siteUsers)
            .values({
              tenant,
              account: body.account,
              accountKey,
              nickname: body.nickname ?? '',
              phone: body.phone ?? '',
              email: body.email ?? '',
              channel: body.channel ?? '',
              inviter: body.inviter ?? null,
              passwordHash:
                body.password === undefined
                  ? null
                  : await hashPassword(body.password, c.get('deps').config.passwordIterations),
              signupAt: now,
              signupAddress: body.address,
              lastLoginAt: now,
              lastLoginAddress: body.address,
              createdAt: now,
              updatedAt: now,
            })
            .returning({ id: siteUsers.id, account: siteUsers.account });
          return r;
        });
        return ok(c, row);
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicate('account');
        throw err;
      }
    },
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/login',
      tags: ['site (public)'],
      security: signedSecurity,
      summary:
        "A member's login on the site: their id, group and VIP; a wrong account or password is 40100, a disabled or banned member 40300",
      description:
        "Signed by the site's server only (Site-Timestamp, Site-Signature beside Site-Key): the browser key alone is 40300. " +
        'A member moved from MacCMS logs in with their MacCMS password once: it is checked against the MacCMS hash, ' +
        'which is then replaced by ours and cleared in the same transaction.',
      request: { body: jsonBody(MemberLogin) },
      responses: jsonResponse(MemberLoginAnswer),
    }),
    async (c) => {
      const body = c.req.valid('json');
      const { db, clock, config } = c.get('deps');
      const tenant = siteTenantOf(c);
      const now = clock.now();
      dummyHash ??= hashPassword('not a password', config.passwordIterations);
      const dummy = await dummyHash;
      const member = await transaction(db, async (tx) => {
        const named = memberNamed(tenant, body.account);
        const [m] = await tx
          .select()
          .from(siteUsers)
          .where(named.where)
          .orderBy(named.first)
          .limit(1)
          .for('update');
        let good = false;
        let upgrade: string | undefined;
        if (m?.passwordHash) good = await verifyPassword(body.password, m.passwordHash);
        else if (m?.legacyPassword) {
          // Checked once (legacy-password.ts): a match clears the MacCMS hash and ours takes its place in this
          // transaction; a wrong guess leaves it, so the member can still log in with their real password.
          good = await consumeLegacyPassword(tx, tenant, m.id, body.password);
          if (good) upgrade = await hashPassword(body.password, config.passwordIterations);
        } else await verifyPassword(body.password, dummy);
        if (!m || !good) return undefined;
        if (m.status !== 'active') throw new ApiError(Code.FORBIDDEN, 'users.loginDisabled');
        const [row] = await tx
          .update(siteUsers)
          .set({
            ...(upgrade ? { passwordHash: upgrade } : {}),
            lastLoginAt: now,
            ...(body.address ? { lastLoginAddress: body.address } : {}),
          })
          .where(eq(siteUsers.id, m.id))
          .returning();
        return row as UserRow;
      });
      if (!member) {
        c.header('Cache-Control', 'no-store');
        throw new ApiError(Code.BAD_CREDENTIALS, 'users.badLogin');
      }
      const u = userToApi(member, now);
      return ok(c, {
        id: u.id,
        account: u.account,
        nickname: u.nickname,
        group: u.group,
        vipLevel: u.vipLevel,
        vipExpiresAt: u.vipExpiresAt,
        vipState: u.vipState,
      });
    },
  );
  return siteResetRoutes(app);
}

/** Without a module that declares what a ban does elsewhere (a test's own set of modules), it changes nothing else. */
const NO_BAN_EFFECTS: MemberBan = {
  ban: async () => ({ comments: [], guestbook: [], blacklist: [] }),
  undo: async () => 0,
};

export function userRoutes(modules: readonly ServerModule[]) {
  const memberBan = modules.find((m) => m.memberBan)?.memberBan ?? NO_BAN_EFFECTS;
  const app = listGetRoutes({
    tag: 'site users',
    schema: SiteUser,
    query: ListQuery,
    guard: can('users.read'),
    security,
    summaries: {
      list: 'List members: q is an account, phone or email prefix; status, group, vip (read against the clock), channel, signup dates; totals exact up to 10,000',
      get: 'One member (contacts unmasked for admins)',
    },
    list: (c, q) => {
      const { db, clock } = c.get('deps');
      return readUserList(db, tenantOf(c), q, clock.now());
    },
    get: async (c, id) => {
      const { db, clock } = c.get('deps');
      const [row] = await db
        .select()
        .from(siteUsers)
        .where(and(eq(siteUsers.id, id), eq(siteUsers.tenant, tenantOf(c))));
      return row && userToApi(row, clock.now(), hasPermission(c, 'users.edit'));
    },
  });

  app.openapi(routes.batch, async (c) => {
    const body = c.req.valid('json');
    if (body.action === 'extendVip') requirePermission(c, 'users.edit');
    if (body.action === 'group' && !body.group) throw invalidField('group', 'field.required');
    if (body.action === 'extendVip' && !body.days) throw invalidField('days', 'field.required');
    const { db, clock } = c.get('deps');
    const now = clock.now();
    /** The action on the locked members; answers how many changed. */
    const runBatch = async (tx: Tx, ids: number[]) => {
      const bump = { version: sql`${siteUsers.version} + 1`, updatedAt: now };
      const set = (values: Record<string, unknown>, unless?: ReturnType<typeof ne>) =>
        tx
          .update(siteUsers)
          .set({ ...values, ...bump })
          .where(and(inArray(siteUsers.id, ids), unless))
          .returning({ id: siteUsers.id });
      switch (body.action) {
        case 'enable': {
          // A banned member comes back only through the undo of the ban (which also puts back what it hid).
          const banned = await tx
            .select({ id: siteUsers.id })
            .from(siteUsers)
            .where(and(inArray(siteUsers.id, ids), eq(siteUsers.status, 'banned')));
          if (banned.length)
            throw new ApiError(Code.CONFLICT, 'users.bannedInBatch', {
              ids: banned.map((r) => r.id).join(', '),
            });
          return (await set({ status: 'active' }, ne(siteUsers.status, 'active'))).length;
        }
        case 'disable':
          return (await set({ status: 'disabled' }, eq(siteUsers.status, 'active'))).length;
        case 'group':
          return (await set({ group: body.group }, ne(siteUsers.group, body.group!))).length;
        case 'extendVip': {
          const days = `${body.days} days`;
          return (
            await set({
              vipLevel: sql`greatest(${siteUsers.vipLevel}, ${body.level ?? 1})`,
              vipExpiresAt: sql`greatest(coalesce(${siteUsers.vipExpiresAt}, ${now}), ${now}) + ${days}::interval`,
            })
          ).length;
        }
      }
    };
    const changed = await transaction(db, async (tx) => {
      const ids = await lockTenantRows(tx, siteUsers, body.ids, tenantOf(c));
      const n = await runBatch(tx, ids);
      const { action: _a, ids: _i, ...rest } = body;
      await auditBatch(tx, c, { resource: 'members', action: body.action, ids, changed: n, extra: rest });
      return n;
    });
    return ok(c, { changed });
  });

  app.openapi(routes.ban, async (c) => {
    const { id } = c.req.valid('param');
    const body = ((c.req.valid as any)('json') ?? {}) as { version?: number };
    const { db, clock } = c.get('deps');
    const now = clock.now();
    const tenant = tenantOf(c);
    const answer = await transaction(db, async (tx) => {
      const user = await lockUser(tx, c, id);
      if (body.version !== undefined && body.version !== user.version) throw conflict();
      if (user.status === 'banned') throw new ApiError(Code.CONFLICT, 'users.alreadyBanned');
      const address = cleanBlacklistEntry(user.lastLoginAddress || user.signupAddress);
      const effects = await memberBan.ban(tx, { tenant, userId: id, address, now });
      const changes: BanChanges = { status: user.status, ...effects };
      const [updated] = await tx
        .update(siteUsers)
        .set({ status: 'banned', version: sql`${siteUsers.version} + 1`, updatedAt: now })
        .where(eq(siteUsers.id, id))
        .returning();
      await tx.insert(siteUserBans).values({
        tenant,
        userId: id,
        changes,
        bannedBy: c.get('operator').id,
        bannedAt: now,
      });
      await audit(tx, c, {
        resource: 'members',
        action: 'ban',
        recordId: id,
        changes: {
          before: { status: user.status },
          after: { status: 'banned' },
          hiddenComments: effects.comments.length,
          hiddenGuestbook: effects.guestbook.length,
          blacklisted: [...new Set(effects.blacklist.map((b) => b.entry))],
        },
      });
      return {
        user: userToApi(updated, now),
        hiddenComments: effects.comments.length,
        hiddenGuestbook: effects.guestbook.length,
        blacklisted: [...new Set(effects.blacklist.map((b) => b.entry))],
      };
    });
    return ok(c, answer);
  });

  app.openapi(routes.undoBan, async (c) => {
    const { id } = c.req.valid('param');
    const { db, clock } = c.get('deps');
    const now = clock.now();
    const answer = await transaction(db, async (tx) => {
      const user = await lockUser(tx, c, id);
      const [ban] = await tx
        .select()
        .from(siteUserBans)
        .where(and(eq(siteUserBans.userId, id), isNull(siteUserBans.undoneAt)))
        .orderBy(desc(siteUserBans.id))
        .limit(1)
        .for('update');
      if (!ban || user.status !== 'banned') throw new ApiError(Code.CONFLICT, 'users.notBanned');
      const changes = ban.changes;
      const restored = await memberBan.undo(tx, { tenant: tenantOf(c), effects: changes, now });
      const [updated] = await tx
        .update(siteUsers)
        .set({ status: changes.status, version: sql`${siteUsers.version} + 1`, updatedAt: now })
        .where(eq(siteUsers.id, id))
        .returning();
      await tx
        .update(siteUserBans)
        .set({ undoneAt: now, undoneBy: c.get('operator').id })
        .where(eq(siteUserBans.id, ban.id));
      await audit(tx, c, {
        resource: 'members',
        action: 'undo-ban',
        recordId: id,
        changes: { before: { status: 'banned' }, after: { status: changes.status }, restored },
      });
      return { user: userToApi(updated, now), restored };
    });
    return ok(c, answer);
  });

  return memberRoutes(app);
}
