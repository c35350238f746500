import { OpenAPIHono, z } from '@hono/zod-openapi';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { isLandingUrl, MAX_BATCH_ADS, MAX_FIND, patternProblem, replaceLink } from '../../../common/ad';
import { Code } from '../../../common/codes';
import { PAGE_SIZES } from '../../../common/paging';
import { auditedRoute, auditMany, readOnlyRoute } from '../../core/audit';
import { can, security } from '../../core/auth';
import type { AppContext, AppEnv } from '../../core/context';
import { idParam, PG_INT_MAX } from '../../core/crud';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { ApiError, invalidField, notFound } from '../../core/errors';
import { createRoute } from '../../core/route';
import { iso, transaction } from '../../core/shared';
import { tenantOf } from '../../core/tenant';
import type { Executor } from '../../db/types';
import { type AdFilter, adFilters, adWhere, touchAds } from './routes';
import { type AdChangeScope, adAdvertisers, adChangeRows, adChangeSets, adPositions, ads } from './schema';

const tags = ['ad link replacement'];

const ReplaceBody = z
  .object({
    mode: z.enum(['text', 'pattern']),
    find: z.string().min(1).max(MAX_FIND),
    replace: z.string().max(1024),
    /** The selected ads; or else `filter`: every ad matching the list's filters (`{}`: every ad). */
    ids: z.array(z.number().int().positive().max(PG_INT_MAX)).min(1).max(MAX_BATCH_ADS).optional(),
    filter: z
      .object(adFilters)
      .strict()
      .optional()
      .openapi({ description: 'The list filters, as in its query string' }),
  })
  .strict()
  .openapi('AdReplace');

const ApplyBody = ReplaceBody.extend({
  /** The versions the preview showed: any ad changed since is 40900 naming it, and nothing is written. */
  versions: z.record(z.string().regex(/^\d{1,10}$/), z.number().int().positive().max(PG_INT_MAX)).optional(),
}).openapi('AdReplaceApply');

const PreviewRow = z.object({
  id: z.number(),
  title: z.string(),
  before: z.string(),
  after: z.string(),
  version: z.number(),
  valid: z.boolean().openapi({ description: 'The result is an http(s) URL' }),
});

const ChangeSet = z
  .object({
    id: z.number(),
    operatorName: z.string(),
    mode: z.enum(['text', 'pattern']),
    find: z.string(),
    replace: z.string(),
    count: z.number(),
    createdAt: z.string(),
    rolledBackAt: z.string().nullable(),
    rolledBackBy: z.string().nullable(),
    scope: z
      .union([
        z.object({ ids: z.array(z.number()) }),
        z.object({
          filter: z.record(z.string(), z.union([z.string(), z.number()])),
          names: z.object({ advertiserId: z.string().optional(), positionId: z.string().optional() }),
        }),
      ])
      .nullable()
      .openapi({
        description: 'The selected ads, or the list filter with its advertiser and position names then',
      }),
  })
  .openapi('AdChangeSet');

type Replace = z.infer<typeof ReplaceBody>;

/** The `find` of a pattern replacement must be a safe pattern: 40000 on `find` otherwise. */
function checkFind(body: Replace) {
  if (body.ids === undefined && body.filter === undefined) throw invalidField('ids', 'ad.replaceScope');
  if (body.mode !== 'pattern') return;
  const problem = patternProblem(body.find);
  if (problem) throw invalidField('find', `ad.pattern.${problem}`);
}

/**
 * The rows a replacement touches (the ads whose link changes), in id order, and each one's new link. `lock` locks
 * them (apply); a link the replacement would grow past MAX_RESULT is 40000 on `find`.
 */
async function matches(db: Executor, c: AppContext, body: Replace, lock: boolean) {
  const tenant = tenantOf(c);
  const where = and(
    eq(ads.tenant, tenant),
    body.ids ? inArray(ads.id, body.ids) : undefined,
    ...(body.filter ? adWhere(body.filter as AdFilter, c.get('deps').clock.now()) : []),
    // plain text: only links that contain it (a pattern is tested here)
    body.mode === 'text' ? sql`strpos(${ads.landingUrl}, ${body.find}) > 0` : undefined,
  );
  const q = db
    .select({ id: ads.id, title: ads.title, before: ads.landingUrl, version: ads.version })
    .from(ads)
    .where(where)
    .orderBy(asc(ads.id))
    .limit(MAX_BATCH_ADS + 1);
  const rows = lock ? await q.for('update') : await q;
  if (rows.length > MAX_BATCH_ADS) throw invalidField('filter', 'ad.replaceTooMany', { max: MAX_BATCH_ADS });
  if (body.ids) {
    // Every selected id must be the tenant's (a text find may leave some out: their link does not contain it).
    const found = await db
      .select({ n: count() })
      .from(ads)
      .where(and(eq(ads.tenant, tenant), inArray(ads.id, body.ids)));
    if (Number(found[0].n) !== new Set(body.ids).size) throw notFound();
  }
  const out: { id: number; title: string; before: string; after: string; version: number; valid: boolean }[] =
    [];
  for (const r of rows) {
    let after: string;
    try {
      after = replaceLink(r.before, body.find, body.replace, body.mode);
    } catch (err) {
      if (err instanceof RangeError) throw invalidField('find', 'ad.pattern.result');
      throw err;
    }
    if (after !== r.before) out.push({ ...r, after, valid: isLandingUrl(after) });
  }
  return out;
}

const routes = {
  preview: createRoute(
    readOnlyRoute({
      method: 'post',
      path: '/preview',
      tags,
      security,
      summary:
        'Preview a find-and-replace on landing URLs (admin): every changed row before and after, whether each result is an http(s) URL, and the count; nothing is written',
      middleware: can('ad.edit'),
      request: { body: jsonBody(ReplaceBody) },
      responses: jsonResponse(
        z.object({ count: z.number(), invalid: z.number(), rows: z.array(PreviewRow) }),
      ),
    }),
  ),
  apply: createRoute({
    method: 'post',
    path: '/',
    tags,
    security,
    summary:
      'Apply a find-and-replace on landing URLs (admin): one transaction saved as a change set; a result that is not an http(s) URL is 40000 naming the rows, an ad changed since the preview (versions) is 40900 naming it',
    middleware: can('ad.edit'),
    request: { body: jsonBody(ApplyBody) },
    responses: jsonResponse(z.object({ changeSet: ChangeSet })),
  }),
  list: createRoute({
    method: 'get',
    path: '/',
    tags,
    security,
    summary: 'The change sets of the landing-link replacement, newest first',
    middleware: can('ad.read'),
    request: {
      query: z.object({
        page: z
          .string()
          .regex(/^\d{1,7}$/)
          .transform(Number)
          .pipe(z.number().int().min(1))
          .optional(),
        pageSize: z
          .enum(PAGE_SIZES.map(String) as [string, ...string[]])
          .transform(Number)
          .optional(),
      }),
    },
    responses: jsonResponse(z.object({ list: z.array(ChangeSet), total: z.number() })),
  }),
  get: createRoute({
    method: 'get',
    path: '/{id}',
    tags,
    security,
    summary: 'One change set with every row it changed (before, after)',
    middleware: can('ad.read'),
    request: { params: idParam },
    responses: jsonResponse(
      ChangeSet.extend({
        rows: z.array(z.object({ adId: z.number(), before: z.string(), after: z.string() })),
      }),
    ),
  }),
  rollback: createRoute({
    method: 'post',
    path: '/{id}/rollback',
    tags,
    security,
    summary:
      'Roll a change set back (admin): every link it changed gets its old value in one transaction; refused (40900, naming the rows) when an ad was edited or deleted since, or when it was rolled back already',
    middleware: can('ad.edit'),
    request: { params: idParam },
    responses: jsonResponse(z.object({ changeSet: ChangeSet })),
  }),
};

const changeSetToApi = (r: typeof adChangeSets.$inferSelect) => ({
  id: r.id,
  operatorName: r.operatorName,
  mode: r.mode,
  find: r.find,
  replace: r.replace,
  count: r.count,
  createdAt: iso(r.createdAt) as string,
  rolledBackAt: iso(r.rolledBackAt),
  rolledBackBy: r.rolledBackBy,
  scope: r.scope ?? null,
});

/** The scope saved with a change set: the filter's advertiser and position by their names at the time. */
async function scopeOf(tx: Executor, tenant: number, body: Replace): Promise<AdChangeScope> {
  if (body.ids) return { ids: [...new Set(body.ids)] };
  const filter = Object.fromEntries(
    Object.entries(body.filter ?? {}).filter(([, v]) => v !== undefined && v !== ''),
  ) as Record<string, string | number>;
  const names: { advertiserId?: string; positionId?: string } = {};
  if (filter.advertiserId !== undefined) {
    const [a] = await tx
      .select({ name: adAdvertisers.name })
      .from(adAdvertisers)
      .where(and(eq(adAdvertisers.tenant, tenant), eq(adAdvertisers.id, Number(filter.advertiserId))));
    if (a) names.advertiserId = a.name;
  }
  if (filter.positionId !== undefined) {
    const [p] = await tx
      .select({ name: adPositions.name })
      .from(adPositions)
      .where(and(eq(adPositions.tenant, tenant), eq(adPositions.id, Number(filter.positionId))));
    if (p) names.positionId = p.name;
  }
  return { filter, names };
}

const idsText = (ids: number[]) => ids.slice(0, 20).join(', ') + (ids.length > 20 ? '…' : '');

/** Sets each ad's link and bumps its version: one statement; answers each id's new version. */
async function setLinks(tx: Executor, rows: { id: number; url: string }[], now: Date) {
  const out = await tx.execute(sql`
    update ads set landing_url = v.url, version = ads.version + 1, updated_at = ${now}
    from unnest(${sql.param(rows.map((r) => r.id))}::integer[], ${sql.param(rows.map((r) => r.url))}::text[]) as v(id, url)
    where ads.id = v.id returning ads.id, ads.version`);
  const list = ((out as { rows?: unknown[] }).rows ?? out) as { id: number; version: number }[];
  return new Map(list.map((r) => [Number(r.id), Number(r.version)]));
}

/** Find-and-replace on landing URLs, previewed and applied as a change set: /app/admin/ad/replace. */
export function replaceRoutes() {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(routes.preview, async (c) => {
    const body = c.req.valid('json');
    checkFind(body);
    const rows = await matches(c.get('deps').db, c, body, false);
    return ok(c, { count: rows.length, invalid: rows.filter((r) => !r.valid).length, rows });
  });

  app.openapi(auditedRoute(routes.apply), async (c) => {
    const body = c.req.valid('json');
    checkFind(body);
    const { db, clock } = c.get('deps');
    const operator = c.get('operator');
    const tenant = tenantOf(c);
    const set = await transaction(db, async (tx) => {
      const now = clock.now();
      const rows = await matches(tx, c, body, true);
      if (!rows.length) throw invalidField('find', 'ad.replaceNothing');
      const bad = rows.filter((r) => !r.valid).map((r) => r.id);
      if (bad.length) throw invalidField('replace', 'ad.replaceBadResult', { ids: idsText(bad) });
      if (body.versions) {
        const stale = rows.filter((r) => body.versions?.[String(r.id)] !== r.version).map((r) => r.id);
        if (stale.length)
          throw new ApiError(Code.CONFLICT, 'ad.replaceStale', { ids: idsText(stale) }, { ids: stale });
      }
      const versions = await setLinks(
        tx,
        rows.map((r) => ({ id: r.id, url: r.after })),
        now,
      );
      const [cs] = await tx
        .insert(adChangeSets)
        .values({
          tenant,
          operatorId: operator.id,
          operatorName: operator.account,
          mode: body.mode,
          find: body.find,
          replace: body.replace,
          count: rows.length,
          createdAt: now,
          scope: await scopeOf(tx, tenant, body),
        })
        .returning();
      await tx.insert(adChangeRows).values(
        rows.map((r) => ({
          changeSetId: cs.id,
          adId: r.id,
          before: r.before,
          after: r.after,
          versionAfter: versions.get(r.id) as number,
        })),
      );
      await touchAds(tx, tenant, now);
      await auditMany(tx, c, {
        resource: 'ad link replacement',
        action: 'replace',
        recordId: cs.id,
        ids: rows.map((r) => r.id),
        changed: rows.length,
        extra: {
          mode: body.mode,
          find: body.find,
          replace: body.replace,
          scope: cs.scope,
          links: rows.map((r) => ({ id: r.id, before: r.before, after: r.after })),
        },
      });
      return cs;
    });
    return ok(c, { changeSet: changeSetToApi(set) });
  });
  return app;
}

/** The change sets the replacements saved, and their rollback: /app/admin/ad/changes. */
export function changeRoutes() {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(routes.list, async (c) => {
    const { page = 1, pageSize = 20 } = c.req.valid('query');
    const db = c.get('deps').db;
    const where = eq(adChangeSets.tenant, tenantOf(c));
    const [rows, [{ n }]] = await Promise.all([
      db
        .select()
        .from(adChangeSets)
        .where(where)
        .orderBy(desc(adChangeSets.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
      db.select({ n: count() }).from(adChangeSets).where(where),
    ]);
    return ok(c, { list: rows.map(changeSetToApi), total: Number(n) });
  });

  app.openapi(routes.get, async (c) => {
    const db = c.get('deps').db;
    const { id } = c.req.valid('param');
    const [cs] = await db
      .select()
      .from(adChangeSets)
      .where(and(eq(adChangeSets.id, id), eq(adChangeSets.tenant, tenantOf(c))));
    if (!cs) throw notFound();
    const rows = await db
      .select({ adId: adChangeRows.adId, before: adChangeRows.before, after: adChangeRows.after })
      .from(adChangeRows)
      .where(eq(adChangeRows.changeSetId, id))
      .orderBy(asc(adChangeRows.adId));
    return ok(c, { ...changeSetToApi(cs), rows });
  });

  app.openapi(auditedRoute(routes.rollback), async (c) => {
    const { db, clock } = c.get('deps');
    const { id } = c.req.valid('param');
    const tenant = tenantOf(c);
    const operator = c.get('operator');
    const set = await transaction(db, async (tx) => {
      const now = clock.now();
      const [cs] = await tx
        .select()
        .from(adChangeSets)
        .where(and(eq(adChangeSets.id, id), eq(adChangeSets.tenant, tenant)))
        .for('update');
      if (!cs) throw notFound();
      if (cs.rolledBackAt) throw new ApiError(Code.CONFLICT, 'ad.alreadyRolledBack');
      const rows = await tx
        .select()
        .from(adChangeRows)
        .where(eq(adChangeRows.changeSetId, id))
        .orderBy(asc(adChangeRows.adId));
      const ids = rows.map((r) => r.adId);
      const current = await tx
        .select({ id: ads.id, version: ads.version })
        .from(ads)
        .where(and(eq(ads.tenant, tenant), inArray(ads.id, ids)))
        .orderBy(asc(ads.id))
        .for('update');
      const versionOf = new Map(current.map((r) => [r.id, r.version]));
      const edited = rows.filter((r) => versionOf.get(r.adId) !== r.versionAfter).map((r) => r.adId);
      if (edited.length)
        throw new ApiError(Code.CONFLICT, 'ad.rollbackConflict', { ids: idsText(edited) }, { ids: edited });
      await setLinks(
        tx,
        rows.map((r) => ({ id: r.adId, url: r.before })),
        now,
      );
      const [done] = await tx
        .update(adChangeSets)
        .set({ rolledBackAt: now, rolledBackBy: operator.account })
        .where(eq(adChangeSets.id, id))
        .returning();
      await touchAds(tx, tenant, now);
      // Each link goes from what the change set made it back to what it was.
      await auditMany(tx, c, {
        resource: 'ad link replacement',
        action: 'rollback',
        recordId: id,
        ids,
        changed: rows.length,
        extra: { links: rows.map((r) => ({ id: r.adId, before: r.after, after: r.before })) },
      });
      return done;
    });
    return ok(c, { changeSet: changeSetToApi(set) });
  });

  return app;
}
