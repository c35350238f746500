import { OpenAPIHono, z } from '@hono/zod-openapi';
import { and, eq, ilike, inArray, isNull, or, type SQL } from 'drizzle-orm';
import { Code } from '../../../common/codes';
import { foldForMatch } from '../../../common/fold';
import { audit, auditBatch, auditedRoute, diff, snapshot } from '../../core/audit';
import { asAnyOperator, can, security } from '../../core/auth';
import type { AppContext, AppEnv } from '../../core/context';
import {
  batchBody,
  findById,
  idList,
  idParam,
  isUniqueViolation,
  listPage,
  listQuery,
  PG_INT_MAX,
  updateVersioned,
} from '../../core/crud';
import { hashPassword } from '../../core/crypto';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { ApiError, invalidField, notFound } from '../../core/errors';
import { createRoute } from '../../core/route';
import { duplicate, lookalike, rejectUnknownQuery } from '../../core/shared';
import { listTotalShape } from '../../core/totals';
import type { Tx } from '../../db/types';
import { account, avatar, newPassword, nickname, Operator, operatorColumns, roleName } from './model';
import { operators, roles } from './schema';
import { replaceSessions } from './sessions';

const live = isNull(operators.deletedAt);
const sorts = {
  id: operators.id,
  account: operators.account,
  createdAt: operators.createdAt,
  lastLoginAt: operators.lastLoginAt,
} as const;
const tags = ['operators'];
const idOf = { params: idParam };

const list = createRoute({
  method: 'get',
  path: '/',
  tags,
  summary: 'List operators',
  middleware: can('operators.settings'),
  security,
  request: {
    query: listQuery(['id', 'account', 'createdAt', 'lastLoginAt'], {
      q: z.string().max(64).optional(),
      role: roleName.optional(),
      disabled: z.enum(['true', 'false']).optional(),
    }),
  },
  responses: jsonResponse(z.object({ list: z.array(Operator), ...listTotalShape })),
});

const names = createRoute({
  method: 'get',
  path: '/names',
  tags,
  summary:
    "Operators' names by id (any operator): how a screen shows who reviewed or changed something; deleted operators keep theirs",
  middleware: asAnyOperator,
  security,
  request: { query: z.object({ ids: idList }) },
  responses: jsonResponse(z.object({ list: z.array(z.object({ id: z.number(), name: z.string() })) })),
});

const getOne = createRoute({
  method: 'get',
  path: '/{id}',
  tags,
  summary: 'One operator',
  middleware: can('operators.settings'),
  security,
  request: idOf,
  responses: jsonResponse(Operator),
});

const create = createRoute(
  auditedRoute({
    method: 'post',
    path: '/',
    tags,
    summary: 'Create an operator',
    middleware: can('operators.settings'),
    security,
    request: {
      body: jsonBody(
        z.object({
          account,
          password: newPassword,
          nickname: nickname.optional().default(''),
          avatar: avatar.optional().default(''),
          role: roleName,
        }),
      ),
    },
    responses: jsonResponse(Operator),
  }),
);

const update = createRoute(
  auditedRoute({
    method: 'put',
    path: '/{id}',
    tags,
    summary: 'Edit nickname, avatar and role (optimistic locking on version)',
    middleware: can('operators.settings'),
    security,
    request: {
      ...idOf,
      body: jsonBody(
        z.object({
          nickname: nickname.optional(),
          avatar: avatar.optional(),
          role: roleName.optional(),
          version: z.number().int().positive().max(PG_INT_MAX),
        }),
      ),
    },
    responses: jsonResponse(Operator),
  }),
);

const remove = createRoute(
  auditedRoute({
    method: 'delete',
    path: '/{id}',
    tags,
    summary: 'Delete an operator (its sessions end with errCode 2001)',
    middleware: can('operators.settings'),
    security,
    request: idOf,
    responses: jsonResponse(Operator),
  }),
);

const toggle = (action: 'disable' | 'enable') =>
  createRoute(
    auditedRoute({
      method: 'post',
      path: `/{id}/${action}`,
      tags,
      summary: `${action} an operator`,
      middleware: can('operators.settings'),
      security,
      request: idOf,
      responses: jsonResponse(Operator),
    }),
  );

const resetPassword = createRoute(
  auditedRoute({
    method: 'post',
    path: '/{id}/reset-password',
    tags,
    summary: "Set an operator's password (its sessions end with 50012)",
    middleware: can('operators.settings'),
    security,
    request: { ...idOf, body: jsonBody(z.object({ password: newPassword })) },
    responses: jsonResponse(z.null()),
  }),
);

const batch = createRoute(
  auditedRoute({
    method: 'post',
    path: '/batch',
    tags,
    summary: 'Enable, disable or delete several operators in one transaction',
    middleware: can('operators.settings'),
    security,
    request: { body: jsonBody(batchBody(['enable', 'disable', 'delete'] as const)) },
    responses: jsonResponse(z.object({ changed: z.number() })),
  }),
);

function toApi(row: Record<string, unknown>) {
  const r = row as Record<string, any>;
  return {
    id: r.id,
    account: r.account,
    nickname: r.nickname,
    avatar: r.avatar,
    role: r.role,
    disabled: r.disabled,
    createdAt: new Date(r.createdAt).toISOString(),
    updatedAt: new Date(r.updatedAt).toISOString(),
    lastLoginAt: r.lastLoginAt ? new Date(r.lastLoginAt).toISOString() : null,
    version: r.version,
  };
}

/** An admin may not disable, delete or demote itself: the back-office always keeps one admin who can act. */
function assertNotSelf(c: AppContext, ids: number[]) {
  if (ids.includes(c.get('operator').id)) throw new ApiError(Code.INVALID, 'operator.self');
}

/** The role an operator is given must exist (a role made at /setting/roles or a built-in): 40000 naming `role`. */
async function assertRole(tx: Tx, name: string | undefined) {
  if (name === undefined) return;
  const [found] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.name, name)).for('share');
  if (!found) throw invalidField('role', 'role.unknown');
}

/** One operator's action is logged with its id; several (the batch) with their ids and counts. */
function auditOperators(tx: Tx, c: AppContext, action: string, ids: number[], changed: number) {
  const unique = [...new Set(ids)];
  if (unique.length === 1 && !c.req.path.endsWith('/batch'))
    return audit(tx, c, { action, recordId: unique[0], changes: { changed } });
  return auditBatch(tx, c, { action, ids: unique, changed });
}

async function setDisabled(c: AppContext, ids: number[], disabled: boolean) {
  if (disabled) assertNotSelf(c, ids);
  const { db, clock } = c.get('deps');
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: operators.id })
      .from(operators)
      .where(and(inArray(operators.id, ids), live));
    if (rows.length !== new Set(ids).size) throw notFound();
    const changed = await tx
      .update(operators)
      .set({ disabled, updatedAt: clock.now() })
      .where(and(inArray(operators.id, ids), live, eq(operators.disabled, !disabled)))
      .returning();
    // Disabling ends the sessions: enabling the account again must not revive an old token.
    if (disabled) for (const row of changed) await replaceSessions(tx, row.id, clock.now());
    await auditOperators(tx, c, disabled ? 'disable' : 'enable', ids, changed.length);
    return changed;
  });
}

async function softDelete(c: AppContext, ids: number[]) {
  assertNotSelf(c, ids);
  const { db, clock } = c.get('deps');
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(operators)
      .set({ deletedAt: clock.now(), updatedAt: clock.now() })
      .where(and(inArray(operators.id, ids), live))
      .returning();
    if (rows.length !== new Set(ids).size) throw notFound(); // rolls back the others
    await auditOperators(tx, c, 'delete', ids, rows.length);
    return rows;
  });
}

export function operatorRoutes() {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(list, async (c) => {
    const q = c.req.valid('query');
    const where: (SQL | undefined)[] = [live];
    if (q.ids) where.push(inArray(operators.id, q.ids));
    if (q.q) {
      const pattern = `%${q.q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
      where.push(or(ilike(operators.account, pattern), ilike(operators.nickname, pattern)));
    }
    if (q.role) where.push(eq(operators.role, q.role));
    if (q.disabled) where.push(eq(operators.disabled, q.disabled === 'true'));
    const page = await listPage<Record<string, unknown>>(c.get('deps').db, {
      table: operators,
      where: and(...where),
      orderBy: sorts[(q.sort ?? 'id') as keyof typeof sorts],
      query: q,
      select: operatorColumns,
    });
    return ok(c, { list: page.list.map(toApi), total: page.total, totalExact: page.totalExact });
  });

  app.openapi(names, async (c) => {
    rejectUnknownQuery(c, names.request.query);
    const rows = await c
      .get('deps')
      .db.select({ id: operators.id, account: operators.account, nickname: operators.nickname })
      .from(operators)
      .where(inArray(operators.id, c.req.valid('query').ids));
    return ok(c, { list: rows.map((r) => ({ id: r.id, name: r.nickname || r.account })) });
  });

  app.openapi(getOne, async (c) => {
    const row = await findById<Record<string, unknown>>(
      c.get('deps').db,
      operators,
      c.req.valid('param').id,
      {
        select: operatorColumns,
        where: live,
      },
    );
    return ok(c, toApi(row));
  });

  app.openapi(create, async (c) => {
    const { db, config, clock } = c.get('deps');
    const body = c.req.valid('json');
    const passwordHash = await hashPassword(body.password, config.passwordIterations);
    const accountKey = foldForMatch(body.account);
    const [same] = await db
      .select({ account: operators.account })
      .from(operators)
      .where(and(eq(operators.accountKey, accountKey), isNull(operators.deletedAt)));
    if (same) throw lookalike('account', same.account, body.account);
    try {
      const row = await db.transaction(async (tx) => {
        await assertRole(tx, body.role);
        const [r] = await tx
          .insert(operators)
          .values({
            account: body.account,
            accountKey,
            passwordHash,
            nickname: body.nickname || body.account,
            avatar: body.avatar,
            role: body.role,
            createdAt: clock.now(),
            updatedAt: clock.now(),
          })
          .returning();
        // The answer's fields: never the password nor its hash.
        await audit(tx, c, { action: 'create', recordId: r.id, changes: { after: snapshot(toApi(r)) } });
        return r;
      });
      return ok(c, toApi(row));
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicate('account');
      throw err;
    }
  });

  app.openapi(update, async (c) => {
    const { id } = c.req.valid('param');
    const { version, ...patch } = c.req.valid('json');
    // Nobody changes their own role: an admin cannot demote itself and a custom role cannot promote itself.
    if (patch.role !== undefined && patch.role !== c.get('operator').role) assertNotSelf(c, [id]);
    const row = await c.get('deps').db.transaction(async (tx) => {
      await assertRole(tx, patch.role);
      const [before] = await tx
        .select(operatorColumns)
        .from(operators)
        .where(and(eq(operators.id, id), live));
      const r = await updateVersioned<Record<string, unknown>>(
        tx,
        operators,
        id,
        version,
        { ...patch, updatedAt: c.get('deps').clock.now() },
        live,
      );
      await audit(tx, c, { action: 'update', recordId: id, changes: diff(toApi(before ?? {}), toApi(r)) });
      return r;
    });
    return ok(c, toApi(row));
  });

  app.openapi(remove, async (c) => {
    const { id } = c.req.valid('param');
    const [row] = await softDelete(c, [id]);
    return ok(c, toApi(row));
  });

  for (const action of ['disable', 'enable'] as const) {
    app.openapi(toggle(action), async (c) => {
      const { id } = c.req.valid('param');
      await setDisabled(c, [id], action === 'disable');
      const [row] = await c
        .get('deps')
        .db.select(operatorColumns)
        .from(operators)
        .where(eq(operators.id, id));
      return ok(c, toApi(row));
    });
  }

  app.openapi(resetPassword, async (c) => {
    const { db, config, clock } = c.get('deps');
    const { id } = c.req.valid('param');
    const passwordHash = await hashPassword(c.req.valid('json').password, config.passwordIterations);
    await db.transaction(async (tx) => {
      const rows = await tx
        .update(operators)
        .set({ passwordHash, updatedAt: clock.now() })
        .where(and(eq(operators.id, id), live))
        .returning({ id: operators.id });
      if (!rows.length) throw notFound();
      await replaceSessions(tx, id, clock.now());
      // That it was reset, by whom: the new password and its hash never reach the log.
      await audit(tx, c, {
        action: 'reset-password',
        recordId: id,
        changes: { after: { password: '[redacted]' } },
      });
    });
    return ok(c, null);
  });

  app.openapi(batch, async (c) => {
    const { action, ids } = c.req.valid('json');
    const rows =
      action === 'delete' ? await softDelete(c, ids) : await setDisabled(c, ids, action === 'disable');
    return ok(c, { changed: rows.length });
  });

  return app;
}
