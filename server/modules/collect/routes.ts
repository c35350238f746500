import { OpenAPIHono, z } from '@hono/zod-openapi';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { Code } from '../../../common/codes';
import { audit, auditedRoute, diff, readOnlyRoute, snapshot } from '../../core/audit';
import { can, security } from '../../core/auth';
import type { AppContext, AppEnv } from '../../core/context';
import { idParam, type ListParams, listPage, listQuery } from '../../core/crud';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { ApiError, invalidField, notFound } from '../../core/errors';
import { type MessageKey, translate } from '../../core/i18n';
import { crudResource } from '../../core/resource';
import { createRoute } from '../../core/route';
import { assertRefs, id, intQuery, iso, rejectUnknownQuery, transaction } from '../../core/shared';
import { listTotalShape } from '../../core/totals';
import { movieColumns } from '../movie/schema';
import { novelColumns } from '../novel/schema';
import { outboundAllowList } from '../sys/settings';
import { runImages } from './covers';
import { KEY_MASK, maskedUrl, splitKey } from './key';
import {
  executeRun,
  MAX_RUN_PAGES,
  RunFailure,
  readSourceError,
  reapInterrupted,
  rememberTypes,
  runClaim,
  testSource,
} from './run';
import {
  COLLECT_FORMATS,
  collectBindings,
  collectRuns,
  collectSources,
  IMAGE_MODES,
  RUN_KINDS,
  RUN_STATUSES,
  SOURCE_KINDS,
  type SourceKind,
} from './schema';

const Source = z
  .object({
    id: z.number(),
    name: z.string(),
    /** The base URL: a parameter named like a secret is answered masked. */
    url: z.string(),
    /** What the site serves (vod, art, actor): fixed when it is added. */
    kind: z.enum(SOURCE_KINDS),
    /** The site's key: KEY_MASK when one is set (sent back unchanged, the key stays), '' when none. */
    apiKey: z.string(),
    format: z.enum(COLLECT_FORMATS),
    trusted: z.boolean(),
    imageMode: z.enum(IMAGE_MODES),
    scheduleMinutes: z.number(),
    scheduleHours: z.number(),
    enabled: z.boolean(),
    nextRunAt: z.string().nullable(),
    failCount: z.number(),
    /** The last real run's failure: its message key (collect.fail.*), or empty. */
    lastError: z.string(),
    /** That failure in the reader's language, with the site's words. */
    lastErrorText: z.string(),
    lastRunAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number(),
  })
  .openapi('CollectSource');

const fields = {
  name: z.string().trim().min(1).max(64),
  /** The provide API's base: an http(s) URL without credentials (the outbound guard checks the address itself). */
  url: z
    .string()
    .trim()
    .min(1)
    .max(512)
    .refine((v) => /^https?:\/\/[^\s/?#@]+[^\s]*$/i.test(v), { params: { key: 'collect.url' } }),
  /** The site's key (`key=`); a key written in the URL moves here when the source is saved. */
  apiKey: z
    .string()
    .trim()
    .max(128)
    .refine((v) => /^[^\s&#]*$/.test(v), { params: { key: 'field.invalid' } }),
  format: z.enum(COLLECT_FORMATS),
  trusted: z.boolean(),
  imageMode: z.enum(IMAGE_MODES),
  scheduleMinutes: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 60),
  scheduleHours: z
    .number()
    .int()
    .min(1)
    .max(24 * 30),
  enabled: z.boolean(),
};

/** Sources: every operator reads them; adding, editing, trusting and deleting one is the admin's. */
export const sourceRoutes = () => {
  const app = crudResource({
    path: '/sources',
    tag: 'collect sources',
    table: collectSources,
    schema: Source,
    sorts: { id: collectSources.id, name: collectSources.name, createdAt: collectSources.createdAt },
    defaultSort: 'id',
    filters: {},
    fields,
    create: z.object({
      ...fields,
      // Its bindings and item records are of this kind: chosen when the source is added, not changed after.
      kind: z.enum(SOURCE_KINDS).optional().default('vod'),
      apiKey: fields.apiKey.optional().default(''),
      format: fields.format.optional().default('json'),
      trusted: fields.trusted.optional().default(false),
      imageMode: fields.imageMode.optional().default('remote'),
      scheduleMinutes: fields.scheduleMinutes.optional().default(0),
      scheduleHours: fields.scheduleHours.optional().default(24),
      enabled: fields.enabled.optional().default(true),
    }),
    toApi: (r, c) => ({
      ...r,
      ...lastErrorOf(c, r.lastError),
      url: maskedUrl(String(r.url)),
      apiKey: r.apiKey ? KEY_MASK : '',
      nextRunAt: iso(r.nextRunAt),
      lastRunAt: iso(r.lastRunAt),
      claimedUntil: undefined,
      createdAt: iso(r.createdAt),
      updatedAt: iso(r.updatedAt),
    }),
    read: can('collect.read'),
    write: can('collect.settings'),
    security,
    unique: 'name',
    beforeSave: async (_tx, body, { c }) => {
      const out = { ...body };
      // A key written in the URL is the site's key: kept apart, so the URL every operator reads never holds it.
      if (typeof out.url === 'string') {
        const { url, key } = splitKey(out.url);
        out.url = url;
        if (key && (!out.apiKey || out.apiKey === KEY_MASK)) out.apiKey = key;
      }
      // The mask sent back (the form as it was read): the stored key stays.
      if (out.apiKey === KEY_MASK) delete out.apiKey;
      // A changed schedule starts counting from now.
      if (out.scheduleMinutes !== undefined) out.nextRunAt = c.get('deps').clock.now();
      return out;
    },
    summaries: {
      create: 'Add a resource site (admin): its provide API base URL, format, trust, schedule',
      update: 'Edit a resource site (admin)',
      remove:
        'Delete a resource site (admin) with its bindings, runs and item records; collected movies stay',
    },
  });

  const Class = z.object({ typeId: z.number(), typeName: z.string() });
  app.openapi(
    createRoute(
      readOnlyRoute({
        method: 'post',
        path: '/sources/{id}/test',
        tags: ['collect sources'],
        security,
        summary:
          "Read the site's ac=list (admin): its types and total, or the readable reason it failed; the types are listed for binding",
        middleware: can('collect.settings'),
        request: { params: idParam },
        responses: jsonResponse(
          z.object({
            ok: z.boolean(),
            total: z.number(),
            pageCount: z.number(),
            classes: z.array(Class),
            error: z.string(),
          }),
        ),
      }),
    ),
    async (c) => {
      const { db, outbound } = c.get('deps');
      const source = await mustSource(c, c.req.valid('param').id);
      try {
        const tenant = c.get('deps').config.defaultTenant;
        const r = await testSource(outbound, await outboundAllowList(db, tenant), source);
        // A performer site's types are shown, not bound: actresses have no columns.
        if (source.kind !== 'actor') await rememberTypes(db, source.id, r.classes);
        return ok(c, { ok: true, ...r, error: '' });
      } catch (err) {
        if (!(err instanceof RunFailure)) throw err;
        return ok(c, {
          ok: false,
          total: 0,
          pageCount: 0,
          classes: [],
          error: failText(c, err.key, err.detail),
        });
      }
    },
  );

  const Binding = z
    .object({
      remoteTypeId: z.number(),
      remoteTypeName: z.string(),
      columnId: z.number().nullable(),
      columnName: z.string().nullable(),
      skipped: z.boolean(),
      bound: z.boolean(),
    })
    .openapi('CollectBinding');
  app.openapi(
    createRoute({
      method: 'get',
      path: '/sources/{id}/bindings',
      tags: ['collect sources'],
      security,
      summary:
        "The site's types (from its test and its runs) and what each is bound to; unbound ones listed first",
      middleware: can('collect.read'),
      request: { params: idParam },
      responses: jsonResponse(z.object({ list: z.array(Binding), unbound: z.number() })),
    }),
    async (c) => {
      const source = await mustSource(c, c.req.valid('param').id);
      const list = await readBindings(c, source);
      return ok(c, { list, unbound: list.filter((b) => !b.bound).length });
    },
  );

  app.openapi(
    createRoute(
      auditedRoute({
        method: 'put',
        path: '/sources/{id}/bindings',
        tags: ['collect sources'],
        security,
        summary:
          'Bind remote types to columns or mark them skipped (admin); types not sent are left as they are',
        middleware: can('collect.settings'),
        request: {
          params: idParam,
          body: jsonBody(
            z.object({
              bindings: z
                .array(
                  z.object({
                    remoteTypeId: z.number().int().min(0).max(2_147_483_647),
                    remoteTypeName: z.string().trim().max(64).optional(),
                    columnId: id.nullable(),
                    skipped: z.boolean(),
                  }),
                )
                .max(500),
            }),
          ),
        },
        responses: jsonResponse(z.object({ list: z.array(Binding), unbound: z.number() })),
      }),
    ),
    async (c) => {
      const { db } = c.get('deps');
      const source = await mustSource(c, c.req.valid('param').id);
      const { bindings } = c.req.valid('json');
      const columns = [...new Set(bindings.flatMap((b) => (b.columnId === null ? [] : [b.columnId])))];
      bindings.forEach((b, i) => {
        if (b.skipped && b.columnId !== null)
          throw invalidField(`bindings.${i}.columnId`, 'collect.skippedBound');
      });
      if (source.kind === 'actor' && bindings.length) throw invalidField('bindings', 'collect.actorTypes');
      // An article site's types bind to novel columns, a video site's to movie columns.
      const art = source.kind === 'art';
      await transaction(db, async (tx) => {
        if (columns.length)
          await (art
            ? assertRefs(tx, novelColumns, novelColumns.id, columns, 'bindings')
            : assertRefs(tx, movieColumns, movieColumns.id, columns, 'bindings'));
        const typeIds = bindings.map((b) => b.remoteTypeId);
        const bindingsOf = async () =>
          typeIds.length
            ? await tx
                .select()
                .from(collectBindings)
                .where(
                  and(
                    eq(collectBindings.sourceId, source.id),
                    inArray(collectBindings.remoteTypeId, typeIds),
                  ),
                )
            : [];
        // Each remote type sent is a field of the entry: its name, column and skip mark before and after.
        const byType = (rows: (typeof collectBindings.$inferSelect)[]) =>
          Object.fromEntries(
            rows.map((r) => [
              String(r.remoteTypeId),
              { name: r.remoteTypeName, columnId: r.columnId ?? r.novelColumnId, skipped: r.skipped },
            ]),
          );
        const before = byType(await bindingsOf());
        for (const b of bindings)
          await tx
            .insert(collectBindings)
            .values({
              sourceId: source.id,
              remoteTypeId: b.remoteTypeId,
              remoteTypeName: b.remoteTypeName ?? '',
              columnId: art ? null : b.columnId,
              novelColumnId: art ? b.columnId : null,
              skipped: b.skipped,
            })
            .onConflictDoUpdate({
              target: [collectBindings.sourceId, collectBindings.remoteTypeId],
              set: {
                columnId: art ? null : b.columnId,
                novelColumnId: art ? b.columnId : null,
                skipped: b.skipped,
                ...(b.remoteTypeName ? { remoteTypeName: b.remoteTypeName } : {}),
              },
            });
        await audit(tx, c, {
          resource: 'collect sources',
          action: 'bind-types',
          recordId: source.id,
          changes: diff(before, byType(await bindingsOf())),
        });
      });
      const list = await readBindings(c, source);
      return ok(c, { list, unbound: list.filter((x) => !x.bound).length });
    },
  );
  return app;
};

async function mustSource(c: AppContext, sourceId: number) {
  const [source] = await c
    .get('deps')
    .db.select()
    .from(collectSources)
    .where(eq(collectSources.id, sourceId));
  if (!source) throw notFound();
  return source;
}

/** A source's bindings, each with its column's name: a movie column's, or a novel column's for an article site. */
async function readBindings(c: AppContext, source: { id: number; kind: string }) {
  const art = source.kind === 'art';
  const rows = await c
    .get('deps')
    .db.select({
      remoteTypeId: collectBindings.remoteTypeId,
      remoteTypeName: collectBindings.remoteTypeName,
      columnId: art ? collectBindings.novelColumnId : collectBindings.columnId,
      columnName: art ? novelColumns.name : movieColumns.name,
      skipped: collectBindings.skipped,
    })
    .from(collectBindings)
    .leftJoin(movieColumns, eq(movieColumns.id, collectBindings.columnId))
    .leftJoin(novelColumns, eq(novelColumns.id, collectBindings.novelColumnId))
    .where(eq(collectBindings.sourceId, source.id))
    .orderBy(asc(collectBindings.remoteTypeId));
  return rows
    .map((r) => ({ ...r, columnName: r.columnName ?? null, bound: r.skipped || r.columnId !== null }))
    .sort((a, b) => Number(a.bound) - Number(b.bound));
}

function lastErrorOf(c: AppContext, stored: string) {
  const { key, detail } = readSourceError(stored);
  if (!key.startsWith('collect.fail.')) return { lastError: stored, lastErrorText: stored };
  return { lastError: key, lastErrorText: failText(c, key, detail) };
}

function failText(c: AppContext, key: string, detail: string) {
  const locale = c.get('locale');
  const reason = key === 'collect.fail.refused' && detail ? `collect.refused.${detail}` : '';
  const known = reason && translate(locale, reason as MessageKey) !== reason;
  return translate(locale, key as MessageKey, {
    detail: known ? translate(locale, reason as MessageKey) : detail,
  });
}

// --- runs ------------------------------------------------------------------------------------------------------

const Run = z
  .object({
    id: z.number(),
    sourceId: z.number(),
    sourceName: z.string(),
    /** The source's kind: what the log's ids name (movies, novels or actresses). */
    sourceKind: z.enum(SOURCE_KINDS),
    kind: z.enum(RUN_KINDS),
    params: z.record(z.string(), z.unknown()),
    dryRun: z.boolean(),
    status: z.enum(RUN_STATUSES),
    startedBy: z.number().nullable(),
    startedByName: z.string(),
    pagesDone: z.number(),
    pageCount: z.number(),
    added: z.number(),
    updated: z.number(),
    skipped: z.number(),
    failed: z.number(),
    error: z.string(),
    errorText: z.string(),
    cancelRequested: z.boolean(),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
    durationMs: z.number(),
    log: z.array(z.record(z.string(), z.unknown())).optional(),
  })
  .openapi('CollectRun');

function runToApi(
  c: AppContext,
  r: typeof collectRuns.$inferSelect & { sourceName: string | null; sourceKind: SourceKind },
  withLog: boolean,
) {
  const end = r.finishedAt ? new Date(r.finishedAt).getTime() : c.get('deps').clock.now().getTime();
  const { log, errorDetail, ...rest } = r;
  const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
  return {
    ...rest,
    params: parse(r.params) as Record<string, unknown>,
    sourceName: r.sourceName ?? '',
    claimedUntil: undefined,
    errorText: r.error ? failText(c, r.error, errorDetail) : '',
    startedAt: iso(r.startedAt) as string,
    finishedAt: iso(r.finishedAt),
    durationMs: Math.max(0, end - new Date(r.startedAt).getTime()),
    ...(withLog ? { log: parse(log) as Record<string, unknown>[] } : {}),
  };
}

const runSorts = { id: collectRuns.id, startedAt: collectRuns.startedAt } as const;
const RunQuery = listQuery(['id', 'startedAt'], {
  sourceId: intQuery().optional(),
  status: z.enum(RUN_STATUSES).optional(),
});

const StartRun = z
  .object({
    sourceId: id,
    kind: z.enum(RUN_KINDS),
    dryRun: z.boolean().optional().default(false),
    hours: z
      .number()
      .int()
      .min(1)
      .max(24 * 30)
      .optional(),
    pageFrom: z.number().int().min(1).max(1_000_000).optional(),
    pageTo: z.number().int().min(1).max(1_000_000).optional(),
    keyword: z.string().trim().min(1).max(64).optional(),
    ids: z.array(z.number().int().min(1).max(2_147_483_647)).min(1).max(200).optional(),
  })
  .openapi('CollectRunStart');

/** Runs: any operator may start, watch and cancel one (what it writes waits in the review queue). */
export const runRoutes = () => {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/runs',
      tags: ['collect runs'],
      security,
      summary: 'Runs, newest first: counts, status, who started them (empty for the schedule), duration',
      middleware: can('collect.read'),
      request: { query: RunQuery },
      responses: jsonResponse(z.object({ list: z.array(Run), ...listTotalShape })),
    }),
    async (c) => {
      rejectUnknownQuery(c, RunQuery);
      const q = c.req.valid('query') as z.infer<typeof RunQuery> & ListParams;
      const page = await listPage<typeof collectRuns.$inferSelect>(c.get('deps').db, {
        table: collectRuns,
        where: and(
          q.sourceId ? eq(collectRuns.sourceId, q.sourceId) : undefined,
          q.status ? eq(collectRuns.status, q.status) : undefined,
        ),
        orderBy: runSorts[(q.sort as keyof typeof runSorts) ?? 'id'],
        query: { ...q, order: c.req.query('order') ? q.order : 'desc' },
      });
      const names = await sourceNames(
        c,
        page.list.map((r) => r.sourceId),
      );
      return ok(c, {
        list: page.list.map((r) => runToApi(c, { ...r, ...sourceOf(names, r.sourceId) }, false)),
        total: page.total,
        totalExact: page.totalExact,
      });
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/runs/{id}',
      tags: ['collect runs'],
      security,
      summary:
        'One run with its per-item log (remote id, name, outcome, reason, locked fields): the screen polls it',
      middleware: can('collect.read'),
      request: { params: idParam },
      responses: jsonResponse(Run),
    }),
    async (c) => ok(c, await readRun(c, c.req.valid('param').id)),
  );

  app.openapi(
    createRoute(
      auditedRoute({
        method: 'post',
        path: '/runs',
        tags: ['collect runs'],
        security,
        summary:
          'Start a run: by hours (h), a page range, a keyword (wd) or ids; dryRun reports without writing. Answers the run at once; poll it',
        middleware: can('collect.edit'),
        request: { body: jsonBody(StartRun) },
        responses: jsonResponse(Run),
      }),
    ),
    async (c) => {
      const deps = c.get('deps');
      const body = c.req.valid('json');
      const params: Record<string, unknown> = {};
      if (body.kind === 'hours') params.hours = body.hours ?? 24;
      if (body.kind === 'pages') {
        if (body.pageFrom === undefined) throw invalidField('pageFrom', 'field.required');
        const to = body.pageTo ?? body.pageFrom;
        if (to < body.pageFrom) throw invalidField('pageTo', 'collect.pageOrder');
        if (to - body.pageFrom + 1 > MAX_RUN_PAGES)
          throw invalidField('pageTo', 'collect.pageSpan', { max: MAX_RUN_PAGES });
        params.pageFrom = body.pageFrom;
        params.pageTo = to;
      }
      if (body.kind === 'keyword') {
        if (!body.keyword) throw invalidField('keyword', 'field.required');
        params.keyword = body.keyword;
      }
      if (body.kind === 'ids') {
        if (!body.ids) throw invalidField('ids', 'field.required');
        params.ids = [...new Set(body.ids)];
      }
      if (!deps.outbound) throw new ApiError(Code.INVALID, 'collect.fail.noOutbound', { detail: '' });
      const operator = c.get('operator');
      const runId = await transaction(deps.db, async (tx) => {
        const [source] = await tx
          .select()
          .from(collectSources)
          .where(eq(collectSources.id, body.sourceId))
          .for('update');
        if (!source) throw invalidField('sourceId', 'field.notFound');
        if (!source.enabled) throw invalidField('sourceId', 'collect.disabled');
        // A run left running by a stopped process does not hold the source: it is marked interrupted here.
        await reapInterrupted(tx, deps.clock.now(), source.id);
        const [busy] = await tx
          .select({ id: collectRuns.id })
          .from(collectRuns)
          .where(and(eq(collectRuns.sourceId, source.id), eq(collectRuns.status, 'running')));
        if (busy) throw new ApiError(Code.CONFLICT, 'collect.busy', { id: busy.id });
        const [run] = await tx
          .insert(collectRuns)
          .values({
            sourceId: source.id,
            kind: body.kind,
            params,
            dryRun: body.dryRun,
            startedBy: operator.id,
            startedByName: operator.nickname || operator.account,
            startedAt: deps.clock.now(),
            claimedUntil: runClaim(deps.clock.now()),
          })
          .returning({ id: collectRuns.id });
        // What the run was asked to do; what it then writes goes to the review queue, not this entry.
        await audit(tx, c, {
          resource: 'collect runs',
          action: 'start',
          recordId: run.id,
          changes: {
            after: snapshot({
              sourceId: source.id,
              sourceName: source.name,
              kind: body.kind,
              params,
              dryRun: body.dryRun,
            }),
          },
        });
        return run.id;
      });
      // The run goes on after the answer (the screen polls it); it writes every outcome onto its row.
      void executeRun(
        {
          db: deps.db,
          outbound: deps.outbound,
          now: () => deps.clock.now(),
          tenant: deps.config.defaultTenant,
          images: runImages(deps),
        },
        runId,
      ).catch((err) => deps.logger.error({ err: (err as Error).message, runId }, 'collect run failed'));
      return ok(c, await readRun(c, runId));
    },
  );

  app.openapi(
    createRoute(
      auditedRoute({
        method: 'post',
        path: '/runs/{id}/cancel',
        tags: ['collect runs'],
        security,
        summary: 'Cancel a running run: it stops between pages and before a page is written',
        middleware: can('collect.edit'),
        request: { params: idParam },
        responses: jsonResponse(Run),
      }),
    ),
    async (c) => {
      const runId = c.req.valid('param').id;
      const rows = await transaction(c.get('deps').db, async (tx) => {
        const changed = await tx
          .update(collectRuns)
          .set({ cancelRequested: true })
          .where(and(eq(collectRuns.id, runId), eq(collectRuns.status, 'running')))
          .returning({ id: collectRuns.id });
        if (changed.length)
          await audit(tx, c, {
            resource: 'collect runs',
            action: 'cancel',
            recordId: runId,
            changes: { after: { cancelRequested: true } },
          });
        return changed;
      });
      if (!rows.length) {
        await readRun(c, runId); // 40400 when there is none
        throw new ApiError(Code.CONFLICT, 'collect.notRunning');
      }
      return ok(c, await readRun(c, runId));
    },
  );
  return app;
};

async function sourceNames(c: AppContext, ids: number[]) {
  if (!ids.length) return new Map<number, { name: string; kind: SourceKind }>();
  const rows = await c
    .get('deps')
    .db.select({ id: collectSources.id, name: collectSources.name, kind: collectSources.kind })
    .from(collectSources)
    .where(inArray(collectSources.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, { name: r.name, kind: r.kind }]));
}

const sourceOf = (names: Awaited<ReturnType<typeof sourceNames>>, id: number) => {
  const s = names.get(id);
  return { sourceName: s?.name ?? '', sourceKind: s?.kind ?? ('vod' as const) };
};

async function readRun(c: AppContext, runId: number) {
  const [r] = await c.get('deps').db.select().from(collectRuns).where(eq(collectRuns.id, runId));
  if (!r) throw notFound();
  const names = await sourceNames(c, [r.sourceId]);
  return runToApi(c, { ...r, ...sourceOf(names, r.sourceId) }, true);
}
