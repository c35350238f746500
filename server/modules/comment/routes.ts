import { OpenAPIHono, z } from '@hono/zod-openapi';
import { and, eq, inArray } from 'drizzle-orm';
import { Code } from '../../../common/codes';
import {
  COMMENT_TARGETS,
  cleanBlacklistEntry,
  compileFilter,
  FILTER_MODULES,
  type FilterModule,
  type FilterRules,
  GUESTBOOK_KINDS,
  MAX_BLACKLIST,
  MAX_CONTENT,
  MAX_WORD_LENGTH,
  MAX_WORDS,
  normaliseWord,
  parseAddress,
} from '../../../common/comment';
import { REVIEW_STATUSES } from '../../../common/review';
import { audit, auditedRoute, auditMany, diff, readOnlyRoute } from '../../core/audit';
import { can, security } from '../../core/auth';
import type { AppContext, AppEnv } from '../../core/context';
import { idParam, updateVersioned } from '../../core/crud';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { conflict, type FieldErrors, invalidField, notFound, ValidationError } from '../../core/errors';
import { listGetRoutes } from '../../core/resource';
import { reviewRoutes } from '../../core/review';
import { createRoute } from '../../core/route';
import { id, transaction, version } from '../../core/shared';
import { tenantOf } from '../../core/tenant';
import { eitherSecurity, isSigned, optionalSignature, siteKeyGate, siteTenantOf } from '../site/routes';
import { compiledOf, readFilter, readFilters, toSimplified, writeFilter } from './filter';
import {
  Comment,
  CommentQuery,
  GuestbookEntry,
  GuestbookQuery,
  readComment,
  readComments,
  readGuestbook,
  readGuestbookEntry,
  targetExists,
} from './model';
import { applyRules, checkPost, tryRules } from './rules';
import { comments, guestbook } from './schema';

const deleteAction = (table: typeof comments | typeof guestbook) => async (tx: any, ids: number[]) =>
  (await tx.delete(table).where(inArray(table.id, ids)).returning({ id: table.id })).length;

/** `/app/admin/comment/comments`: the list (filters, threads by parentId), one comment, the review kit. */
export function commentRoutes() {
  const app = listGetRoutes({
    tag: 'comments',
    schema: Comment,
    query: CommentQuery,
    guard: can('comment.read'),
    security,
    summaries: {
      list: 'List comments: status, targetType/targetId, reported, q (content contains), userId, address, parentId (the replies of one), topLevel, created dates',
      get: 'One comment',
    },
    list: (c, q) => readComments(c.get('deps').db, tenantOf(c), q),
    get: (c, id) => readComment(c.get('deps').db, id, tenantOf(c)),
  });
  return app.route(
    '/',
    reviewRoutes({
      table: comments,
      tag: 'comments',
      guard: can('comment.review'),
      security,
      schema: Comment,
      read: (db, id) => readComment(db, id),
      messages: 'comment',
      batch: {
        summary:
          'approve, reject (reason), offline (hide), online (show), delete (admin; replies go with it): one transaction, all or nothing',
        fields: {},
        actions: { delete: deleteAction(comments) },
        guard: can('comment.batch'),
        restricted: { delete: 'comment.settings' },
      },
    }),
  );
}

const ReplyBody = z.object({ reply: z.string().trim().min(1).max(1000), version }).openapi('GuestbookReply');

/** `/app/admin/comment/guestbook`: the list (replied or not), one entry, the inline reply, the review kit. */
export function guestbookRoutes() {
  const tags = ['guestbook'];
  const app = listGetRoutes({
    tag: 'guestbook',
    schema: GuestbookEntry,
    query: GuestbookQuery,
    guard: can('comment.read'),
    security,
    summaries: {
      list: 'List guestbook entries: status, kind, replied, q, userId, address, created dates',
      get: 'One guestbook entry',
    },
    list: (c, q) => readGuestbook(c.get('deps').db, tenantOf(c), q),
    get: (c, id) => readGuestbookEntry(c.get('deps').db, id, tenantOf(c)),
  });
  app.openapi(
    createRoute(
      auditedRoute({
        method: 'put',
        path: '/{id}/reply',
        tags,
        security,
        summary: "The operator's reply (optimistic locking on version); replacing it sets a new reply time",
        middleware: can('comment.edit'),
        request: { params: idParam, body: jsonBody(ReplyBody) },
        responses: jsonResponse(GuestbookEntry),
      }),
    ),
    async (c) => {
      const { id: entryId } = c.req.valid('param');
      const body = c.req.valid('json');
      const { db, clock } = c.get('deps');
      await transaction(db, async (tx) => {
        const replyOf = (r: Record<string, unknown> | undefined) => ({
          reply: r?.reply ?? null,
          repliedAt: r?.repliedAt ?? null,
          repliedBy: r?.repliedBy ?? null,
        });
        const [before] = await tx
          .select()
          .from(guestbook)
          .where(and(eq(guestbook.id, entryId), eq(guestbook.tenant, tenantOf(c))));
        const after = await updateVersioned<Record<string, unknown>>(
          tx,
          guestbook,
          entryId,
          body.version,
          {
            reply: body.reply,
            repliedAt: clock.now(),
            repliedBy: c.get('operator').id,
            updatedAt: clock.now(),
          },
          eq(guestbook.tenant, tenantOf(c)),
        );
        await audit(tx, c, {
          resource: 'guestbook',
          action: 'reply',
          recordId: entryId,
          changes: diff(replyOf(before), replyOf(after)),
        });
      });
      const entry = await readGuestbookEntry(db, entryId);
      if (!entry) throw notFound(); // deleted between the change and this read
      return ok(c, entry);
    },
  );
  return app.route(
    '/',
    reviewRoutes({
      table: guestbook,
      tag: 'guestbook',
      guard: can('comment.review'),
      security,
      schema: GuestbookEntry,
      read: (db, id) => readGuestbookEntry(db, id),
      messages: 'guestbook',
      batch: {
        summary:
          'approve, reject (reason), offline (hide), online (show), delete (admin): one transaction, all or nothing',
        fields: {},
        actions: { delete: deleteAction(guestbook) },
        guard: can('comment.batch'),
        restricted: { delete: 'comment.settings' },
      },
    }),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// The filter settings

const words = z.array(z.string().trim().min(1).max(MAX_WORD_LENGTH)).max(MAX_WORDS);
const Rules = z
  .object({
    enabled: z.boolean(),
    reviewFirst: z.boolean(),
    loginRequired: z.boolean(),
    userInterval: z.number().int().min(0).max(86_400),
    addressInterval: z.number().int().min(0).max(86_400),
    maskWords: words,
    blockWords: words,
    holdWords: words,
    blacklist: z.array(z.string().trim().min(1).max(64)).max(MAX_BLACKLIST),
  })
  .strict()
  .openapi('CommentFilterRules');
const Filter = Rules.extend({
  module: z.enum(FILTER_MODULES),
  version: z.number(),
  updatedAt: z.string().nullable(),
}).openapi('CommentFilter');
const SaveBody = Rules.extend({ version: z.number().int().min(0) }).openapi('CommentFilterSave');
const moduleParam = z.object({
  module: z.enum(FILTER_MODULES).openapi({ param: { name: 'module', in: 'path' } }),
});
const TrialAnswer = z
  .object({
    checked: z.number(),
    block: z.number(),
    hold: z.number(),
    mask: z.number(),
    pass: z.number(),
    examples: z.array(
      z.object({
        id: z.number(),
        outcome: z.enum(['block', 'hold', 'mask']),
        text: z.string(),
        content: z.string(),
        words: z.array(z.string()),
        to: z.string(),
      }),
    ),
  })
  .openapi('CommentFilterTrial');
const ApplyAnswer = TrialAnswer.omit({ examples: true })
  .extend({ changed: z.number() })
  .openapi('CommentFilterApply');

/** Words kept as typed (trimmed, each once); a word with nothing left after normalisation is refused by name. */
function cleanRules(rules: FilterRules): FilterRules {
  const clean = (field: 'maskWords' | 'blockWords' | 'holdWords') => {
    const seen = new Set<string>();
    const out: string[] = [];
    rules[field].forEach((w, i) => {
      if (!normaliseWord(w, toSimplified)) throw invalidField(`${field}.${i}`, 'comment.emptyWord');
      if (!seen.has(w)) out.push(w);
      seen.add(w);
    });
    return out;
  };
  const blacklist = rules.blacklist.map((e, i) => {
    const entry = cleanBlacklistEntry(e);
    if (!entry) throw invalidField(`blacklist.${i}`, 'comment.badAddress');
    return entry;
  });
  return {
    ...rules,
    maskWords: clean('maskWords'),
    blockWords: clean('blockWords'),
    holdWords: clean('holdWords'),
    blacklist: [...new Set(blacklist)],
  };
}

/** `/app/admin/comment/filters`: read (any operator), save (admin), trial (any operator), apply (admin). */
export function filterRoutes() {
  const app = new OpenAPIHono<AppEnv>();
  const tags = ['comment filter'];
  app.openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      security,
      summary: 'The comment and guestbook filters',
      middleware: can('comment.read'),
      responses: jsonResponse(z.object({ list: z.array(Filter) })),
    }),
    async (c) => ok(c, { list: await readFilters(c.get('deps').db, tenantOf(c)) }),
  );
  app.openapi(
    createRoute(
      auditedRoute({
        method: 'put',
        path: '/{module}',
        tags,
        security,
        summary: "Save a module's filter (admin; version 0 for the first save; a stale version is 40900)",
        middleware: can('comment.settings'),
        request: { params: moduleParam, body: jsonBody(SaveBody) },
        responses: jsonResponse(Filter),
      }),
    ),
    async (c) => {
      const { module } = c.req.valid('param');
      const { version: v, ...body } = c.req.valid('json');
      const rules = cleanRules(body);
      const { db, clock } = c.get('deps');
      const saved = await transaction(db, async (tx) => {
        const current = await readFilter(tx, tenantOf(c), module, true);
        if (current.version !== v) throw conflict();
        const written = await writeFilter(tx, tenantOf(c), module, rules, clock.now());
        // The rules that changed (word lists, intervals, switches), before and after.
        await audit(tx, c, {
          resource: 'filters',
          action: 'update',
          recordId: module,
          changes: diff({ ...current }, { ...written }),
        });
        return written;
      });
      return ok(c, saved);
    },
  );
  app.openapi(
    createRoute(
      readOnlyRoute({
        method: 'post',
        path: '/{module}/trial',
        tags,
        security,
        summary:
          'Try rules (saved or not) on the newest 5,000 shown or pending items: how many would be blocked (hidden), held (back to review), masked, with examples. Changes nothing',
        middleware: can('comment.edit'),
        request: { params: moduleParam, body: jsonBody(Rules) },
        responses: jsonResponse(TrialAnswer),
      }),
    ),
    async (c) => {
      const { module } = c.req.valid('param');
      const filter = compileFilter(cleanRules(c.req.valid('json')), toSimplified);
      return ok(c, await tryRules(c.get('deps').db, tenantOf(c), module, filter));
    },
  );
  app.openapi(
    createRoute(
      auditedRoute({
        method: 'post',
        path: '/{module}/apply',
        tags,
        security,
        summary:
          'Apply the saved rules (at the version the caller tried) to the same items the trial reads, in one transaction',
        middleware: can('comment.settings'),
        request: { params: moduleParam, body: jsonBody(z.object({ version: z.number().int().min(1) })) },
        responses: jsonResponse(ApplyAnswer),
      }),
    ),
    async (c) => {
      const { module } = c.req.valid('param');
      const { db, clock } = c.get('deps');
      const tenant = tenantOf(c);
      const answer = await transaction(db, async (tx) => {
        const f = await readFilter(tx, tenant, module, true);
        if (f.version !== c.req.valid('json').version) throw conflict();
        const { changedIds, ...applied } = await applyRules(
          tx,
          tenant,
          module,
          compiledOf(db, tenant, f),
          clock.now(),
        );
        // The items whose status or text the rules changed, and what the rules found in all they read.
        await auditMany(tx, c, {
          resource: 'comment filter',
          action: 'apply',
          recordId: module,
          ids: changedIds,
          changed: applied.changed,
          extra: { version: f.version, ...applied },
        });
        return applied;
      });
      return ok(c, answer);
    },
  );
  return app;
}

// ---------------------------------------------------------------------------------------------------------------
// The site's posts

const address = z
  .string()
  .trim()
  .max(45)
  .refine((a) => !!parseAddress(a), { params: { key: 'comment.badAddress' } });
const author = {
  /** The member posting (the site's server names them, signed); none for a guest. */
  userId: id.optional(),
  guestName: z.string().trim().max(32).optional(),
  /**
   * The address the member posted from, as the site's server saw it (signed requests only); without it, and always
   * for the browser key, the connection's (or the trusted proxy's).
   */
  address: address.optional(),
  content: z.string().trim().min(1).max(MAX_CONTENT),
};
const CommentPost = z
  .object({
    targetType: z.enum(COMMENT_TARGETS),
    targetId: id,
    parentId: id.optional(),
    ...author,
  })
  .strict()
  .openapi('SiteCommentPost');
const GuestbookPost = z
  .object({
    kind: z.enum(GUESTBOOK_KINDS).optional().default('message'),
    movieId: id.optional(),
    contact: z.string().trim().max(128).optional(),
    ...author,
  })
  .strict()
  .openapi('SiteGuestbookPost');
const PostAnswer = z
  .object({ id: z.number(), status: z.enum(REVIEW_STATUSES), content: z.string() })
  .openapi('SitePostAnswer');

async function postFilter(c: AppContext, module: FilterModule) {
  const tenant = siteTenantOf(c);
  const f = await readFilter(c.get('deps').db, tenant, module);
  return { tenant, filter: compiledOf(c.get('deps').db, tenant, f) };
}

/**
 * Who is posting, from where: a signed request (the site's server) may name the member and the address it saw; the
 * browser key posts as a guest from its connection's address, and naming a member or an address refuses the post
 * (40300) rather than letting anyone speak for a member or step around the blacklist and the intervals.
 */
function authorOf(c: AppContext, body: { userId?: number; address?: string }) {
  if (!isSigned(c)) {
    const fields: FieldErrors = {};
    if (body.userId !== undefined) fields.userId = { key: 'site.serverOnlyField' };
    if (body.address !== undefined) fields.address = { key: 'site.serverOnlyField' };
    if (Object.keys(fields).length) throw new ValidationError(fields, Code.FORBIDDEN);
  }
  return { userId: body.userId, address: body.address ?? c.get('deps').clientAddress(c) };
}

/**
 * `POST /app/site/comments` and `/app/site/guestbook`: posts through the filter, a guest's with the browser key, a
 * member's signed by the site's server.
 */
function sitePostRoutes(module: FilterModule) {
  const app = new OpenAPIHono<AppEnv>();
  app.use('*', siteKeyGate);
  app.use('*', optionalSignature);
  const description = [
    "Two doors: with the browser key alone a guest's post, from the connection's address (`userId` or `address` is",
    "40300); signed by the site's server (Site-Timestamp, Site-Signature), a member's post, with the address the site's",
    "server saw (or the connection's). The filter decides: a switched-off member, a blacklisted address (single or CIDR),",
    'a post sooner than the interval of its member or address (42900), a block word (40000 on content) are refused; hold',
    'words and review-first store it pending; mask words are masked. Answers the stored status and content.',
  ].join(' ');
  const postRoute = {
    method: 'post' as const,
    path: '/',
    tags: ['site (public)'],
    security: eitherSecurity,
    description,
    responses: jsonResponse(PostAnswer),
  };
  /** What both posts start with: the author checked, the tenant's filter, the time; and the columns they share. */
  const posting = async <P extends { userId?: number; address?: string; guestName?: string }>(
    c: AppContext,
    input: P,
  ) => {
    const { userId, address, ...post } = input;
    const body = { ...post, ...authorOf(c, { userId, address }) };
    const { tenant, filter } = await postFilter(c, module);
    const now = c.get('deps').clock.now();
    const columns = (v: Awaited<ReturnType<typeof checkPost>>) => ({
      tenant,
      userId: body.userId ?? null,
      guestName: body.guestName ?? '',
      content: v.content,
      originalContent: v.original,
      address: body.address,
      status: v.status,
      createdAt: now,
      updatedAt: now,
    });
    return { body, tenant, filter, now, columns };
  };
  if (module === 'comment')
    app.openapi(
      createRoute({
        ...postRoute,
        summary: "A member's (or a guest's) comment on a movie, novel, chapter or actress, or a reply",
        request: { body: jsonBody(CommentPost) },
      }),
      async (c) => {
        const { db } = c.get('deps');
        const { body, tenant, filter, now, columns } = await posting(c, c.req.valid('json'));
        if (!(await targetExists(db, body.targetType, body.targetId)))
          throw invalidField('targetId', 'field.notFound');
        const row = await transaction(db, async (tx) => {
          if (body.parentId !== undefined) {
            const [p] = await tx
              .select({ id: comments.id })
              .from(comments)
              .where(
                and(
                  eq(comments.id, body.parentId),
                  eq(comments.tenant, tenant),
                  eq(comments.targetType, body.targetType),
                  eq(comments.targetId, body.targetId),
                ),
              );
            if (!p) throw invalidField('parentId', 'field.notFound');
          }
          const v = await checkPost(tx, { tenant, module, filter, ...body, now });
          const [r] = await tx
            .insert(comments)
            .values({
              ...columns(v),
              targetType: body.targetType,
              targetId: body.targetId,
              parentId: body.parentId ?? null,
            })
            .returning({ id: comments.id, status: comments.status, content: comments.content });
          return r;
        });
        return ok(c, row);
      },
    );
  else
    app.openapi(
      createRoute({
        ...postRoute,
        summary: 'A guestbook message, or a report that a movie does not play (kind broken, with movieId)',
        request: { body: jsonBody(GuestbookPost) },
      }),
      async (c) => {
        const { db } = c.get('deps');
        const { body, tenant, filter, now, columns } = await posting(c, c.req.valid('json'));
        if (body.kind === 'broken' && body.movieId === undefined)
          throw invalidField('movieId', 'field.required');
        if (body.movieId !== undefined && !(await targetExists(db, 'movie', body.movieId)))
          throw invalidField('movieId', 'field.notFound');
        const row = await transaction(db, async (tx) => {
          const v = await checkPost(tx, { tenant, module, filter, ...body, now });
          const [r] = await tx
            .insert(guestbook)
            .values({
              ...columns(v),
              kind: body.kind,
              movieId: body.movieId ?? null,
              contact: body.contact ?? '',
            })
            .returning({ id: guestbook.id, status: guestbook.status, content: guestbook.content });
          return r;
        });
        return ok(c, row);
      },
    );
  return app;
}

export const siteCommentRoutes = () => sitePostRoutes('comment');
export const siteGuestbookRoutes = () => sitePostRoutes('guestbook');
