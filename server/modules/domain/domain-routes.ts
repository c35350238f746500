import { z } from '@hono/zod-openapi';
import { eq, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import punycode from 'punycode/punycode.js';
import { Code } from '../../../common/codes';
import {
  DOMAIN_ROLES,
  DOMAIN_STATUSES,
  MAX_IMPORT_LINES,
  MAX_WEIGHT,
  parsePaste,
} from '../../../common/domain';
import { allowListed, internalHostname } from '../../../common/hosts';
import { auditBatch, auditedRoute, auditMany } from '../../core/audit';
import { can, requirePermission, security } from '../../core/auth';
import { ownBodyLimit } from '../../core/body';
import type { AppContext } from '../../core/context';
import { lockRows, PG_INT_MAX } from '../../core/crud';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { ApiError, invalidField } from '../../core/errors';
import { translate } from '../../core/i18n';
import { crudResource, saveErrors } from '../../core/resource';
import { createRoute } from '../../core/route';
import { boolQuery, containsPattern, id, intQuery, transaction } from '../../core/shared';
import { tenantOf } from '../../core/tenant';
import { rowsOf } from '../../db/migrate';
import type { Tx } from '../../db/types';
import { outboundAllowList } from '../sys/settings';
import {
  type Actor,
  actorOf,
  assertPool,
  bumpResolveVersion,
  checkHostname,
  Domain,
  type DomainRow,
  domainFields,
  domainToApi,
  type HistoryEntry,
  hostnameField,
  recordHistory,
  registrableOf,
  statusValues,
} from './model';
import { domains } from './schema';

const tags = ['domains'];
const IMPORT_MAX_BYTES = 8 * 1024 * 1024;
/** The report lists at most this many problem lines (the counts are always whole). */
const MAX_REPORTED = 2000;

/** A search: ASCII or Unicode, the start of the hostname or of its registrable domain (an index range, no scan). */
function hostPrefix(q: string): SQL | undefined {
  let s = q
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  if (!s) return undefined;
  try {
    s = punycode.toASCII(s);
  } catch {
    // not encodable: matches nothing as typed
  }
  const pattern = `${containsPattern(s).slice(1)}`;
  return or(sql`${domains.hostname} like ${pattern}`, sql`${domains.registrable} like ${pattern}`);
}

const today = (c: AppContext) => c.get('deps').clock.now();
const dayPlus = (now: Date, days: number) =>
  new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10);

/** The fields an edit may change, with their history action. */
const tracked = [
  'role',
  'weight',
  'registrar',
  'expiresOn',
  'certExpiresOn',
  'channel',
  'retireReason',
] as const;
const show = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** History rows for an edit of `current` into `next` (only what changed). */
function editHistory(current: DomainRow, next: Record<string, any>, reason: string): HistoryEntry[] {
  const base = {
    domainId: current.id,
    hostname: current.hostname,
    poolId: current.poolId,
    channel: current.channel,
  };
  const out: HistoryEntry[] = [];
  if (next.status !== undefined && next.status !== current.status)
    out.push({
      ...base,
      action: next.status === 'retired' ? 'retire' : 'status',
      from: current.status,
      to: next.status,
      reason,
    });
  if (next.poolId !== undefined && next.poolId !== current.poolId)
    out.push({ ...base, action: 'move', from: show(current.poolId), to: show(next.poolId), reason });
  for (const f of tracked)
    if (next[f] !== undefined && show(next[f]) !== show(current[f]))
      out.push({
        ...base,
        action: 'edit',
        from: `${f}: ${show(current[f])}`,
        to: `${f}: ${show(next[f])}`,
        reason,
      });
  return out;
}

export const BATCH_ACTIONS = ['status', 'move', 'retire', 'delete'] as const;
const BatchBody = z
  .object({
    action: z.enum(BATCH_ACTIONS),
    ids: z.array(z.number().int().positive().max(PG_INT_MAX)).min(1).max(1000),
    status: z.enum(DOMAIN_STATUSES).optional(),
    poolId: id.nullable().optional(),
    reason: z.string().trim().max(256).optional().default(''),
  })
  .strict()
  .openapi('DomainBatch');

const batchRoute = createRoute({
  method: 'post',
  path: '/batch',
  tags,
  security,
  summary:
    'Change the status of, move, retire or delete (admin) up to 1,000 domains: all or nothing, a history row each',
  middleware: can('domain.batch'),
  request: { body: jsonBody(BatchBody) },
  responses: jsonResponse(z.object({ changed: z.number() })),
});

const ImportBody = z
  .object({
    text: z.string().min(1).max(IMPORT_MAX_BYTES),
    poolId: id.nullable().optional().default(null),
    role: z.enum(DOMAIN_ROLES).optional().default('landing'),
    status: z.enum(['active', 'standby']).optional().default('standby'),
    weight: z.number().int().min(0).max(MAX_WEIGHT).optional().default(1),
    registrar: z.string().trim().max(64).optional().default(''),
    channel: domainFields.channel.optional().default(null),
    dryRun: z.boolean().optional().default(false),
    skipBad: z.boolean().optional().default(false),
  })
  .strict()
  .openapi('DomainImport');

const ImportAnswer = z
  .object({
    lines: z.number().openapi({ description: 'Non-blank, non-comment lines read' }),
    valid: z.number(),
    invalid: z.number(),
    duplicates: z.number(),
    exists: z.number(),
    saved: z.number(),
    problems: z.array(
      z.object({
        line: z.number(),
        input: z.string(),
        error: z.string(),
        message: z.string(),
        firstLine: z.number().optional(),
      }),
    ),
  })
  .openapi('DomainImportReport');

const importRoute = createRoute({
  method: 'post',
  path: '/import',
  tags,
  security,
  summary:
    'Import pasted hostnames: a line-by-line report first (dryRun), then all valid lines in one statement',
  description: [
    'Each non-blank line is a hostname (or a URL); lines starting with # are skipped. The report names each invalid',
    'line, each duplicate of an earlier line and each hostname already in the store, by line number. Without `dryRun`',
    'nothing is saved while a line has a problem (40000 with the report as `data`) unless `skipBad`: then the valid',
    'lines are saved, all in one transaction.',
  ].join(' '),
  middleware: [
    ...can('domain.edit'),
    ownBodyLimit(() => ({
      maxBytes: IMPORT_MAX_BYTES,
      refuse: () => new ApiError(Code.INVALID, 'invalid.tooLarge', { limit: '8 MB' }),
    })),
  ],
  request: { body: jsonBody(ImportBody) },
  responses: jsonResponse(ImportAnswer),
});

/** Reads the paste: each line checked (shared rules and the public suffix list), against itself and the store. */
async function importReport(tx: Tx, tenant: number, text: string, locale: AppContext['var']['locale']) {
  const { lines } = parsePaste(text);
  if (lines.length > MAX_IMPORT_LINES)
    throw invalidField('text', 'domain.import.tooMany', { max: MAX_IMPORT_LINES });
  const good: { host: string; registrable: string; line: number; input: string }[] = [];
  const problems: { line: number; input: string; error: string; firstLine?: number }[] = [];
  const allow = await outboundAllowList(tx, tenant);
  for (const l of lines) {
    // A name of the inside the admin allowed (outbound allow-list) is imported like any other.
    if (l.error === 'internal' && l.host && allowListed(l.host, allow)) l.error = undefined;
    if (l.error) {
      problems.push({ line: l.line, input: l.input, error: l.error, firstLine: l.firstLine });
      continue;
    }
    // Already normalised by parsePaste: only the public suffix list is left to ask.
    const registrable = registrableOf(l.host!) ?? (l.host && internalHostname(l.host) ? l.host : null);
    if (!registrable) problems.push({ line: l.line, input: l.input, error: 'suffix' });
    else good.push({ host: l.host!, registrable, line: l.line, input: l.input });
  }
  const existing = good.length
    ? new Set(
        rowsOf<{ hostname: string }>(
          await tx.execute(
            sql`select hostname from domains where tenant = ${tenant} and hostname = any(${sql.param(good.map((g) => g.host))}::text[])`,
          ),
        ).map((r) => r.hostname),
      )
    : new Set<string>();
  const fresh = good.filter((g) => !existing.has(g.host));
  for (const g of good)
    if (existing.has(g.host)) problems.push({ line: g.line, input: g.input, error: 'exists' });
  problems.sort((a, b) => a.line - b.line);
  const count = (e: string) => problems.filter((p) => p.error === e).length;
  const report = {
    lines: lines.length,
    valid: fresh.length,
    invalid: problems.length - count('duplicate') - count('exists'),
    duplicates: count('duplicate'),
    exists: count('exists'),
    saved: 0,
    problems: problems.slice(0, MAX_REPORTED).map((p) => ({
      ...p,
      message: translate(
        locale,
        p.error === 'duplicate'
          ? 'domain.import.duplicate'
          : p.error === 'exists'
            ? 'domain.import.exists'
            : (`domain.host.${p.error}` as any),
        { line: p.firstLine ?? 0 },
      ),
    })),
  };
  return { report, fresh };
}

/** Applies a batch to the locked rows; answers how many changed. */
async function runBatch(tx: Tx, c: AppContext, body: z.infer<typeof BatchBody>, ids: number[], actor: Actor) {
  const tenant = tenantOf(c);
  const now = c.get('deps').clock.now();
  const rows = await tx.select().from(domains).where(inArray(domains.id, ids));
  let changed: DomainRow[] = [];
  const history: HistoryEntry[] = [];
  const entry = (r: DomainRow) => ({
    domainId: r.id,
    hostname: r.hostname,
    poolId: r.poolId,
    channel: r.channel,
  });
  if (body.action === 'delete') {
    requirePermission(c, 'domain.settings');
    await tx.delete(domains).where(inArray(domains.id, ids));
    changed = rows;
    for (const r of rows)
      history.push({ ...entry(r), action: 'delete', from: r.status, reason: body.reason });
  } else if (body.action === 'move') {
    if (body.poolId === undefined) throw invalidField('poolId', 'field.required');
    await assertPool(tx, tenant, body.poolId);
    changed = rows.filter((r) => r.poolId !== body.poolId);
    if (changed.length)
      await tx
        .update(domains)
        .set({ poolId: body.poolId, version: sql`${domains.version} + 1`, updatedAt: now })
        .where(
          inArray(
            domains.id,
            changed.map((r) => r.id),
          ),
        );
    for (const r of changed)
      history.push({
        ...entry(r),
        action: 'move',
        from: String(r.poolId ?? ''),
        to: String(body.poolId ?? ''),
        reason: body.reason,
      });
  } else {
    const status = body.action === 'retire' ? 'retired' : body.status;
    if (!status) throw invalidField('status', 'field.required');
    changed = rows.filter((r) => r.status !== status);
    if (changed.length)
      await tx
        .update(domains)
        .set({
          ...statusValues(status, now, status === 'retired' ? body.reason : undefined),
          version: sql`${domains.version} + 1`,
          updatedAt: now,
        } as any)
        .where(
          inArray(
            domains.id,
            changed.map((r) => r.id),
          ),
        );
    for (const r of changed)
      history.push({
        ...entry(r),
        action: status === 'retired' ? 'retire' : 'status',
        from: r.status,
        to: status,
        reason: body.reason,
      });
  }
  if (history.length) {
    await recordHistory(tx, tenant, actor, now, history);
    await bumpResolveVersion(tx, tenant);
  }
  // Each changed domain's value before is in the domain history; the entry names the ones that changed.
  await auditBatch(tx, c, {
    resource: 'domains',
    action: body.action,
    ids,
    changed: changed.length,
    extra: {
      status: body.status ?? null,
      poolId: body.poolId ?? null,
      reason: body.reason,
      changedIds: changed.map((r) => r.id),
    },
  });
  return changed.length;
}

/**
 * The domain store (`/domain/store`, `storeAdd`): every operator reads, imports, edits and changes domains in batches
 * (daily work: blocked domains are replaced every day); deleting is for admins. Each change is a history row.
 */
export function domainRoutes() {
  const createFields = { hostname: hostnameField, ...domainFields };
  const app = crudResource({
    tag: tags[0],
    table: domains,
    schema: Domain,
    scope: { field: 'tenant', value: tenantOf },
    sorts: {
      id: domains.id,
      hostname: domains.hostname,
      status: domains.status,
      role: domains.role,
      weight: domains.weight,
      expiresOn: domains.expiresOn,
      certExpiresOn: domains.certExpiresOn,
      checkedAt: domains.checkedAt,
      createdAt: domains.createdAt,
      updatedAt: domains.updatedAt,
    },
    defaultSort: 'id',
    filters: {
      q: z.string().trim().max(253).optional(),
      status: z.enum(DOMAIN_STATUSES).optional(),
      role: z.enum(DOMAIN_ROLES).optional(),
      poolId: intQuery(0).optional().openapi({ description: '0: in no pool' }),
      channel: z.string().trim().min(1).max(64).optional(),
      registrar: z.string().trim().min(1).max(64).optional(),
      checkOk: boolQuery.optional(),
      expiringWithin: intQuery(0, 3650).optional().openapi({ description: 'Domain expires within n days' }),
      certExpiringWithin: intQuery(0, 3650)
        .optional()
        .openapi({ description: 'Certificate expires within n days' }),
    },
    where: (q, c) => [
      q.q ? hostPrefix(q.q) : undefined,
      q.status ? eq(domains.status, q.status) : undefined,
      q.role ? eq(domains.role, q.role) : undefined,
      q.poolId === 0 ? sql`${domains.poolId} is null` : q.poolId ? eq(domains.poolId, q.poolId) : undefined,
      q.channel ? eq(domains.channel, q.channel) : undefined,
      q.registrar ? eq(domains.registrar, q.registrar) : undefined,
      q.checkOk !== undefined ? eq(domains.checkOk, q.checkOk) : undefined,
      q.expiringWithin !== undefined
        ? lte(domains.expiresOn, dayPlus(today(c), q.expiringWithin))
        : undefined,
      q.certExpiringWithin !== undefined
        ? lte(domains.certExpiresOn, dayPlus(today(c), q.certExpiringWithin))
        : undefined,
    ],
    fields: domainFields,
    create: z
      .object({
        ...createFields,
        role: createFields.role.optional().default('landing'),
        poolId: createFields.poolId.optional().default(null),
        weight: createFields.weight.optional().default(1),
        status: createFields.status.optional().default('standby'),
        registrar: createFields.registrar.optional().default(''),
        expiresOn: createFields.expiresOn.optional().default(null),
        certExpiresOn: createFields.certExpiresOn.optional().default(null),
        channel: createFields.channel.optional().default(null),
        retireReason: createFields.retireReason.optional().default(''),
      })
      .openapi('DomainCreate'),
    updateName: 'DomainUpdate',
    toApi: (r) => domainToApi(r as DomainRow),
    read: can('domain.read'),
    write: can('domain.edit'),
    remove: can('domain.settings'),
    security,
    unique: 'hostname',
    beforeSave: async (tx, body, { c, current }) => {
      const tenant = tenantOf(c);
      const now = c.get('deps').clock.now();
      if (body.poolId !== undefined) await assertPool(tx, tenant, body.poolId);
      const values: Record<string, unknown> = { ...body };
      if (body.status !== undefined && (!current || body.status !== current.status))
        Object.assign(values, statusValues(body.status, now, body.retireReason));
      if (!current) {
        const checked = checkHostname(body.hostname, await outboundAllowList(tx, tenant));
        if ('error' in checked) throw invalidField('hostname', `domain.host.${checked.error}`);
        values.registrable = checked.registrable;
        return values;
      }
      const history = editHistory(current as DomainRow, values, String(body.retireReason ?? ''));
      await recordHistory(tx, tenant, actorOf(c), now, history);
      return values;
    },
    afterWrite: async (tx, row, c, kind) => {
      const tenant = tenantOf(c);
      if (kind !== 'update') {
        const r = row as DomainRow;
        await recordHistory(tx, tenant, actorOf(c), c.get('deps').clock.now(), [
          {
            domainId: r.id,
            hostname: r.hostname,
            poolId: r.poolId,
            channel: r.channel,
            action: kind,
            to: kind === 'create' ? r.status : '',
            from: kind === 'delete' ? r.status : '',
          },
        ]);
      }
      await bumpResolveVersion(tx, tenant);
    },
    summaries: {
      list: 'List the store: filters on every field (q: the start of the hostname or its registrable domain, in ASCII or Unicode), server paging',
      create: 'Add one domain (any operator)',
      update: 'Edit a domain (any operator; a stale version is 40900; each changed field is a history row)',
      remove: 'Delete a domain (admin; the history keeps its rows)',
    },
  });

  app.openapi(auditedRoute(batchRoute), async (c) => {
    const body = c.req.valid('json');
    const actor = actorOf(c);
    try {
      const changed = await transaction(c.get('deps').db, async (tx) => {
        const ids = await lockRows(tx, domains, body.ids, eq(domains.tenant, tenantOf(c)));
        return runBatch(tx, c as AppContext, body, ids, actor);
      });
      return ok(c, { changed });
    } catch (err) {
      return saveErrors()(err);
    }
  });

  app.openapi(auditedRoute(importRoute), async (c) => {
    const body = c.req.valid('json');
    const tenant = tenantOf(c);
    const { db, clock } = c.get('deps');
    const actor = actorOf(c);
    try {
      const report = await transaction(db, async (tx) => {
        await assertPool(tx, tenant, body.poolId);
        const { report, fresh } = await importReport(tx, tenant, body.text, c.get('locale'));
        if (body.dryRun) return report;
        if (report.problems.length && !body.skipBad)
          throw new ApiError(
            Code.INVALID,
            'domain.import.problems',
            { count: report.problems.length },
            report,
          );
        if (!fresh.length) return report;
        const now = clock.now();
        // One statement for the domains and their history rows, however many lines.
        const inserted = rowsOf<{ domain_id: number }>(
          await tx.execute(sql`
            with ins as (
              insert into domains (tenant, hostname, registrable, role, pool_id, weight, status, registrar, channel,
                                   created_at, updated_at)
              select ${tenant}, u.h, u.r, ${body.role}, ${body.poolId}::integer, ${body.weight}, ${body.status},
                     ${body.registrar}, ${body.channel}::varchar, ${now}, ${now}
              from unnest(${sql.param(fresh.map((f) => f.host))}::text[], ${sql.param(fresh.map((f) => f.registrable))}::text[]) as u(h, r)
              returning id, hostname, pool_id, channel, status
            )
            insert into domain_history (tenant, at, domain_id, hostname, pool_id, channel, action, to_value, actor_id, actor)
            select ${tenant}, ${now}, id, hostname, pool_id, channel, 'import', status, ${actor.id}::integer, ${actor.name}
            from ins
            returning domain_id`),
        );
        await bumpResolveVersion(tx, tenant);
        await auditMany(tx, c, {
          resource: 'domains',
          action: 'import',
          ids: inserted.map((r) => Number(r.domain_id)),
          changed: inserted.length,
          extra: {
            hostnames: fresh.map((f) => f.host),
            poolId: body.poolId,
            role: body.role,
            status: body.status,
            weight: body.weight,
            registrar: body.registrar,
            channel: body.channel,
            lines: report.lines,
            skipped: report.problems.length,
          },
        });
        return { ...report, saved: inserted.length };
      });
      return ok(c, report);
    } catch (err) {
      return saveErrors('hostname')(err);
    }
  });

  return app;
}
