import { OpenAPIHono, z } from '@hono/zod-openapi';
import { and, eq, isNull } from 'drizzle-orm';
import { Code } from '../../../common/codes';
import { permissionsOf } from '../../../common/permissions';
import { audit, auditedRoute } from '../../core/audit';
import { asAnyOperator, requirePermission, security } from '../../core/auth';
import type { AppEnv } from '../../core/context';
import { hashPassword, verifyPassword } from '../../core/crypto';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { ApiError, invalidField, notFound } from '../../core/errors';
import { createRoute } from '../../core/route';
import { newPassword, UserInfo } from './model';
import { operators, roles } from './schema';
import { createSession, replaceSessions, revokeSession } from './sessions';
import { attemptSucceeded, beginAttempt, pause } from './throttle';

/** Verified against when the account does not exist, so an unknown account costs as much as a wrong password. */
let dummyHash: Promise<string> | undefined;

const login = createRoute({
  method: 'post',
  path: '/login',
  tags: ['session'],
  summary: 'Log in with account and password',
  request: {
    body: jsonBody(
      z.object({ username: z.string().trim().min(1).max(64), password: z.string().min(1).max(256) }),
    ),
  },
  responses: jsonResponse(z.object({ token: z.string(), id: z.number() })),
});

const logout = createRoute({
  method: 'post',
  path: '/logout',
  tags: ['session'],
  summary: 'Revoke this session',
  middleware: asAnyOperator,
  security,
  responses: jsonResponse(z.null()),
});

const info = createRoute({
  method: 'get',
  path: '/info',
  tags: ['session'],
  summary: "The operator's profile (another operator's only for admins)",
  middleware: asAnyOperator,
  security,
  request: {
    query: z.object({
      id: z
        .string()
        .regex(/^\d{1,9}$/)
        .transform(Number)
        .optional(),
    }),
  },
  responses: jsonResponse(UserInfo),
});

const password = createRoute(
  auditedRoute({
    method: 'post',
    path: '/password',
    tags: ['session'],
    summary: 'Change your own password (other sessions of yours end)',
    middleware: asAnyOperator,
    security,
    request: { body: jsonBody(z.object({ oldPassword: z.string().min(1).max(256), newPassword })) },
    responses: jsonResponse(z.null()),
  }),
);

export function authRoutes() {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(login, async (c) => {
    const { db, clock, config, clientAddress } = c.get('deps');
    const { username, password } = c.req.valid('json');
    const now = clock.now();
    const address = clientAddress(c);
    const attempt = await beginAttempt(db, username, address, now);
    await pause(attempt.delayMs);
    const [op] = await db
      .select()
      .from(operators)
      .where(and(eq(operators.account, username), isNull(operators.deletedAt)));
    dummyHash ??= hashPassword('not a password', config.passwordIterations);
    const good = await verifyPassword(password, op?.passwordHash ?? (await dummyHash));
    // A disabled account answers as a wrong password does, right password or not: the answer confirms nothing.
    if (!op || !good || op.disabled) throw new ApiError(Code.BAD_CREDENTIALS, 'badCredentials');
    await attemptSucceeded(db, attempt, username, address);
    const token = await createSession(db, op.id, now, {
      address,
      userAgent: c.req.header('user-agent') ?? '',
    });
    await db.update(operators).set({ lastLoginAt: now }).where(eq(operators.id, op.id));
    return ok(c, { token, id: op.id });
  });

  app.openapi(logout, async (c) => {
    const { db, clock } = c.get('deps');
    await revokeSession(db, c.get('operator').sessionId, clock.now());
    return ok(c, null);
  });

  app.openapi(info, async (c) => {
    const me = c.get('operator');
    const { id } = c.req.valid('query');
    if (id === undefined || id === me.id) {
      return ok(c, {
        uid: me.id,
        avatar: me.avatar,
        nickname: me.nickname,
        account: me.account,
        role: me.role,
        permissions: [...me.permissions].sort(),
      });
    }
    requirePermission(c, 'operators.settings');
    const [op] = await c
      .get('deps')
      .db.select()
      .from(operators)
      .where(and(eq(operators.id, id), isNull(operators.deletedAt)));
    if (!op) throw notFound();
    const [role] = await c.get('deps').db.select().from(roles).where(eq(roles.name, op.role));
    return ok(c, {
      uid: op.id,
      avatar: op.avatar,
      nickname: op.nickname,
      account: op.account,
      role: op.role,
      permissions: role ? permissionsOf(role, c.get('permissions')).sort() : [],
    });
  });

  app.openapi(password, async (c) => {
    const { db, clock, config, clientAddress } = c.get('deps');
    const me = c.get('operator');
    const body = c.req.valid('json');
    // Guessing the old password with a stolen session counts like guessing at the login.
    const address = clientAddress(c);
    const attempt = await beginAttempt(db, me.account, address, clock.now());
    await pause(attempt.delayMs);
    const [op] = await db.select().from(operators).where(eq(operators.id, me.id));
    if (!(await verifyPassword(body.oldPassword, op.passwordHash)))
      throw invalidField('oldPassword', 'password.wrongOld');
    await attemptSucceeded(db, attempt, me.account, address);
    const passwordHash = await hashPassword(body.newPassword, config.passwordIterations);
    await db.transaction(async (tx) => {
      await tx.update(operators).set({ passwordHash, updatedAt: clock.now() }).where(eq(operators.id, me.id));
      await replaceSessions(tx, me.id, clock.now(), me.sessionId);
      // That it changed: the passwords never reach the log. (A wrong old password is the throttle's, not logged.)
      await audit(tx, c, {
        section: 'operators',
        action: 'change-password',
        recordId: me.id,
        changes: { after: { password: '[redacted]' } },
      });
    });
    return ok(c, null);
  });

  return app;
}
