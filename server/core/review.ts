import { OpenAPIHono, z } from '@hono/zod-openapi';
import { type AnyColumn, asc, eq, inArray, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { Code } from '../../common/codes';
import type { Permission } from '../../common/permissions';
import {
  REVIEW_ACTIONS,
  REVIEW_TRANSITIONS,
  type ReviewAction,
  type ReviewStatus,
} from '../../common/review';
import type { Executor, Tx } from '../db/types';
import { audit, auditBatch, auditedRoute, redact } from './audit';
import { type Guard, requirePermission } from './auth';
import type { AppContext, AppEnv } from './context';
import { batchBody, idParam, lockRows } from './crud';
import { jsonBody, jsonResponse, ok } from './envelope';
import { ApiError, conflict, invalidField, notFound } from './errors';
import { type MessageKey, translate } from './i18n';
import { createRoute } from './route';
import { guarded, transaction, version } from './shared';

/**
 * The review kit: the workflow of common/review.ts (statuses, which action goes where from where),
 * enforced on any table that declares it. A module declares its table, who may review, the answer, its messages
 * and, where it has one, a precondition (novels need a chapter to go online); the kit makes the single transition
 * routes `POST …/{id}/<action>` (an optional `version` is checked; `reject` needs a reason) and the batch route
 * `POST …/batch {action, ids, reason?, …}` that runs the transitions beside the module's own batch actions, all or
 * nothing, with their OpenAPI documents and their 40900 answers naming the status and the refused action.
 */

/** The columns a reviewed table has. `reviewedBy`, `reviewedAt`, `rejectReason`, `publishedAt` are set if present. */
export type ReviewTable = PgTable & {
  id: AnyColumn;
  status: AnyColumn;
  version: AnyColumn;
  updatedAt: AnyColumn;
  reviewedBy?: AnyColumn;
  reviewedAt?: AnyColumn;
  rejectReason?: AnyColumn;
  publishedAt?: AnyColumn;
};

type Row = Record<string, any>;

/**
 * A rule a transition checks besides the status, on the locked row (read with `columns`): answers the error to
 * refuse it with (`id` is the row's id in a batch, undefined for a single transition), or nothing.
 */
export interface ReviewPrecondition {
  actions: readonly ReviewAction[];
  columns: Record<string, AnyColumn>;
  check: (row: Row, id: number | undefined) => ApiError | undefined;
  /** Added to the summary of the routes of `actions` (e.g. ` with at least one chapter`). */
  summary: string;
}

/** One action of the module's own in the batch: changes the locked rows `ids`, answers how many changed. */
export type ReviewBatchAction<B> = (tx: Tx, ids: number[], body: B, c: AppContext) => Promise<number>;

export interface ReviewDecl<T extends ReviewTable, F extends z.ZodRawShape> {
  table: T;
  /** OpenAPI tag. */
  tag: string;
  /** Who may run the single transitions (the section's `review` permission). */
  guard: Guard;
  security: Record<string, string[]>[];
  /** The answer of a single transition, and how it is read after the change (undefined: deleted meanwhile). */
  schema: z.ZodType;
  read: (db: Executor, id: number) => Promise<unknown>;
  /**
   * Message keys of the refused transition: `<messages>.transition` (one item) and `<messages>.transitionBatch`
   * (an item of a batch, named by `{id}`), both with `{status}` and `{action}` (review.status.*, review.action.*).
   */
  messages: string;
  precondition?: ReviewPrecondition;
  batch: {
    summary: string;
    /** The batch body's fields besides `action`, `ids` and `reason`. */
    fields: F;
    /** The module's own actions (run on the locked ids), in the order the body's enum lists them. */
    actions: Record<string, ReviewBatchAction<z.infer<z.ZodObject<F>> & { action: string; ids: number[] }>>;
    /** Who may run the batch (the section's `batch` permission). */
    guard: Guard;
    /** Actions that need a permission beyond the batch's (refused with 40300 before anything is read). */
    restricted?: Readonly<Record<string, Permission>>;
    /** How the batch locks its rows (lockRows): `no key update` for rows that links reference. */
    lock?: 'update' | 'no key update';
  };
}

/** The body of a single transition: a reason (required to reject) and the version the caller saw, if any. */
export const transitionBody = (action: ReviewAction) =>
  z.object({
    reason: action === 'reject' ? z.string().trim().min(1).max(500) : z.string().max(500).optional(),
    version: version.optional(),
  });

/** 40900 naming the item's status and the refused action in the caller's language (`id` in a batch). */
export function transitionError(
  c: AppContext,
  messages: string,
  status: ReviewStatus,
  action: ReviewAction,
  id?: number,
) {
  const locale = c.get('locale');
  const params = {
    status: translate(locale, `review.status.${status}`),
    action: translate(locale, `review.action.${action}`),
    id: id ?? '',
  };
  const key = (id === undefined ? `${messages}.transition` : `${messages}.transitionBatch`) as MessageKey;
  return new ApiError(Code.CONFLICT, key, params, { id: id ?? null, status, action });
}

/** The columns a transition sets: the status, a new version, and the review stamps the table has. */
export function transitionValues(c: AppContext, table: ReviewTable, action: ReviewAction, reason?: string) {
  const now = c.get('deps').clock.now();
  const values: Record<string, unknown> = { status: REVIEW_TRANSITIONS[action].to, updatedAt: now };
  if (action === 'approve' || action === 'reject') {
    if (table.reviewedBy) values.reviewedBy = c.get('operator').id;
    if (table.reviewedAt) values.reviewedAt = now;
    if (table.rejectReason) values.rejectReason = action === 'reject' ? (reason ?? '') : '';
  }
  if (action === 'approve' && table.publishedAt) values.publishedAt = now;
  return { ...values, version: sql`${table.version} + 1` };
}

/**
 * The review routes of a table: `POST /batch` and `POST /{id}/<action>` for each transition, relative to where
 * the module mounts them (beside its list, get, create, update and delete).
 */
export function reviewRoutes<T extends ReviewTable, F extends z.ZodRawShape>(decl: ReviewDecl<T, F>) {
  const { table, tag, guard, security, precondition, batch } = decl;
  const own = Object.keys(batch.actions);
  const BatchBody: z.ZodObject = batchBody([...REVIEW_ACTIONS, ...own] as [string, ...string[]]).extend({
    reason: z.string().trim().max(500).optional(),
    ...batch.fields,
  });
  type Body = { action: string; ids: number[]; reason?: string };
  const isReview = (a: string): a is ReviewAction => a in REVIEW_TRANSITIONS;

  /** Checks each locked row may take `action` (status, then the precondition); `batch`: name the row's id. */
  const check = (c: AppContext, rows: Row[], action: ReviewAction, batch: boolean) => {
    const from = REVIEW_TRANSITIONS[action].from as readonly string[];
    const pre = precondition?.actions.includes(action) ? precondition : undefined;
    for (const r of rows) {
      if (!from.includes(r.status))
        throw transitionError(c, decl.messages, r.status, action, batch ? r.id : undefined);
      const refused = pre?.check(r, batch ? r.id : undefined);
      if (refused) throw refused;
    }
  };
  const checked: Record<string, any> = { id: table.id, status: table.status, ...precondition?.columns };

  /** The transition step of the batch: every row may take it, or nothing changes. */
  const transitionMany = async (
    c: AppContext,
    tx: Tx,
    action: ReviewAction,
    ids: number[],
    reason?: string,
  ) => {
    if (action === 'reject' && !reason) throw invalidField('reason', 'field.required');
    const rows = await tx
      .select(checked)
      .from(table as PgTable)
      .where(inArray(table.id, ids))
      .orderBy(asc(table.id));
    check(c, rows, action, true);
    const changed = await tx
      .update(table)
      .set(transitionValues(c, table, action, reason) as any)
      .where(inArray(table.id, ids))
      .returning({ id: table.id as any });
    return changed.length;
  };

  const app = new OpenAPIHono<AppEnv>();

  const batchRoute = createRoute(
    auditedRoute({
      method: 'post',
      path: '/batch',
      tags: [tag],
      summary: batch.summary,
      middleware: batch.guard,
      security,
      request: { body: jsonBody(BatchBody) },
      responses: jsonResponse(z.object({ changed: z.number() })),
    }),
  );
  app.openapi(batchRoute, async (c) => {
    const body = c.req.valid('json') as Body;
    const needs = batch.restricted?.[body.action];
    if (needs) requirePermission(c, needs);
    const changed = await guarded(() =>
      transaction(c.get('deps').db, async (tx) => {
        const ids = await lockRows(tx, table, body.ids, undefined, batch.lock ?? 'update');
        const n = isReview(body.action)
          ? await transitionMany(c, tx, body.action, ids, body.reason)
          : await batch.actions[body.action](tx, ids, body as any, c);
        // The batch's own fields besides action and ids (a reason, a target column…), secrets redacted.
        const { action: _a, ids: _i, ...rest } = body as Record<string, unknown>;
        await auditBatch(tx, c, { resource: tag, action: body.action, ids, changed: n, extra: redact(rest) });
        return n;
      }),
    );
    return ok(c, { changed });
  });

  for (const action of REVIEW_ACTIONS) {
    const from = REVIEW_TRANSITIONS[action].from.join(', ');
    const extra = precondition?.actions.includes(action) ? precondition.summary : '';
    const route = createRoute(
      auditedRoute({
        method: 'post',
        path: `/{id}/${action}`,
        tags: [tag],
        summary: `${action}: allowed from ${from}${extra}; an optional version is checked`,
        middleware: guard,
        security,
        request: {
          params: idParam,
          body: {
            required: action === 'reject',
            content: { 'application/json': { schema: transitionBody(action) } },
          },
        },
        responses: jsonResponse(decl.schema),
      }),
    );
    app.openapi(route, async (c) => {
      const { id } = c.req.valid('param');
      const body = ((c.req.valid as any)('json') ?? {}) as { reason?: string; version?: number };
      const { db } = c.get('deps');
      await transaction(db, async (tx) => {
        const [row] = await tx
          .select({ ...checked, version: table.version as any })
          .from(table as PgTable)
          .where(eq(table.id, id))
          .for('update');
        if (!row) throw notFound();
        if (body.version !== undefined && body.version !== row.version) throw conflict();
        check(c, [row], action, false);
        await tx
          .update(table)
          .set(transitionValues(c, table, action, body.reason) as any)
          .where(eq(table.id, id));
        await audit(tx, c, {
          resource: tag,
          action,
          recordId: id,
          changes: {
            before: { status: (row as Row).status },
            after: { status: REVIEW_TRANSITIONS[action].to, ...(body.reason ? { reason: body.reason } : {}) },
          },
        });
      });
      const answer = await decl.read(db, id);
      if (!answer) throw notFound(); // deleted between the change and this read
      return ok(c, answer);
    });
  }

  return app;
}
