import { OpenAPIHono, z } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import { statisticsSettingsPermissions } from '../../../common/permissions/statistics-settings';
import { audit, auditedRoute, diff } from '../../core/audit';
import { can, security } from '../../core/auth';
import type { AppEnv } from '../../core/context';
import { isUniqueViolation } from '../../core/crud';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { conflict } from '../../core/errors';
import { defineModule } from '../../core/module';
import { createRoute } from '../../core/route';
import { transaction } from '../../core/shared';
import { tenantOf } from '../../core/tenant';
import type { Executor } from '../../db/types';
import { bumpSiteVersion } from '../site/state';
import { assertKnownPlatforms } from '../sys/platforms';
import { statisticsSettings } from './schema';

/** The events the content site's collector knows. */
export const STAT_EVENTS = ['pageView', 'play', 'search', 'adImpression', 'adClick', 'tagClick'] as const;
export type StatEvent = (typeof STAT_EVENTS)[number];
export const SNIPPET_MAX = 20_000;

export interface StatisticsDoc {
  events: Record<StatEvent, boolean>;
  /** Percentage of visits whose events are collected, 1–100. */
  sampleRate: number;
  /** Days raw events are kept; after that only the daily rollups remain. */
  rawRetentionDays: number;
  /** Days a visitor's first channel touch keeps the credit for their signups and recharges (channel agents). */
  attributionDays: number;
  /** Third-party analytics code per platform: stored as text, never run by the admin. */
  snippets: { platform: number; code: string }[];
}

export const DEFAULT_STATISTICS: StatisticsDoc = {
  events: { pageView: true, play: true, search: true, adImpression: true, adClick: true, tagClick: true },
  sampleRate: 100,
  rawRetentionDays: 30,
  attributionDays: 30,
  snippets: [],
};

const Events = z.object(
  Object.fromEntries(STAT_EVENTS.map((e) => [e, z.boolean()])) as Record<StatEvent, z.ZodBoolean>,
);
const Snippet = z.object({
  platform: z.number().int().min(0).max(9999),
  code: z.string().max(SNIPPET_MAX),
});

const Statistics = z
  .object({
    tenant: z.number(),
    version: z.number().openapi({ description: '0 until the first save' }),
    events: Events,
    sampleRate: z.number(),
    rawRetentionDays: z.number(),
    attributionDays: z.number(),
    snippets: z.array(Snippet),
  })
  .openapi('StatisticsSettings');

const Patch = z
  .strictObject({
    version: z.number().int().min(0).max(2_147_483_647),
    events: Events.partial().strict().optional(),
    sampleRate: z.number().int().min(1).max(100).optional(),
    rawRetentionDays: z.number().int().min(1).max(3650).optional(),
    attributionDays: z.number().int().min(1).max(365).optional(),
    snippets: z
      .array(Snippet)
      .max(50)
      .refine((a) => new Set(a.map((s) => s.platform)).size === a.length, {
        params: { key: 'field.duplicate' },
      })
      .optional(),
  })
  .openapi('StatisticsSettingsPatch');

const routes = {
  get: createRoute({
    method: 'get',
    path: '/',
    tags: ['statistics settings'],
    security,
    summary: "What the site's event collector does (defaults until the first save)",
    middleware: can('statistics-settings.read'),
    responses: jsonResponse(Statistics),
  }),
  save: createRoute(
    auditedRoute({
      method: 'put',
      path: '/',
      tags: ['statistics settings'],
      security,
      summary:
        "Save the collector's settings (admin; fields not sent are kept; a stale version is 40900; snippets are text, never run)",
      middleware: can('statistics-settings.edit'),
      request: { body: jsonBody(Patch) },
      responses: jsonResponse(Statistics),
    }),
  ),
};

/** Named query (site API, collector): a tenant's statistics settings, defaults filled in. */
export async function readStatistics(db: Executor, tenant: number) {
  const [row] = await db.select().from(statisticsSettings).where(eq(statisticsSettings.tenant, tenant));
  const data = (row?.data ?? {}) as Partial<StatisticsDoc>;
  return {
    tenant,
    version: row?.version ?? 0,
    events: { ...DEFAULT_STATISTICS.events, ...(data.events ?? {}) },
    sampleRate: data.sampleRate ?? DEFAULT_STATISTICS.sampleRate,
    rawRetentionDays: data.rawRetentionDays ?? DEFAULT_STATISTICS.rawRetentionDays,
    attributionDays: data.attributionDays ?? DEFAULT_STATISTICS.attributionDays,
    snippets: data.snippets ?? [],
  };
}

/** Named query (the statistics' retention): the tenants whose statistics settings were saved. */
export async function tenantsWithStatistics(db: Executor): Promise<number[]> {
  const rows = await db.select({ tenant: statisticsSettings.tenant }).from(statisticsSettings);
  return rows.map((r) => Number(r.tenant));
}

/** Named query (platform usage): how many snippets each platform has (0 or 1). */
export async function snippetsPerPlatform(db: Executor, tenant: number, keys: number[]) {
  const { snippets } = await readStatistics(db, tenant);
  return new Map(keys.map((k) => [k, snippets.filter((s) => s.platform === k && s.code.trim()).length]));
}

/** The routes: every operator reads the settings; admins save them. */
function statisticsSettingsRoutes() {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(routes.get, async (c) => ok(c, await readStatistics(c.get('deps').db, tenantOf(c))));

  app.openapi(routes.save, async (c) => {
    const { db, clock } = c.get('deps');
    const tenant = tenantOf(c);
    const { version, ...patch } = c.req.valid('json');
    try {
      await transaction(db, async (tx) => {
        const [row] = await tx
          .select()
          .from(statisticsSettings)
          .where(eq(statisticsSettings.tenant, tenant))
          .for('update');
        const current = row?.version ?? 0;
        if (version !== current) throw conflict();
        const before = await readStatistics(tx, tenant);
        const old = (row?.data ?? {}) as Partial<StatisticsDoc>;
        if (patch.snippets) {
          const kept = (old.snippets ?? []).map((s) => s.platform);
          const keys = patch.snippets.map((s) => s.platform);
          await assertKnownPlatforms(tx, tenant, keys, (i) => `snippets.${i}.platform`, kept);
        }
        const data: Partial<StatisticsDoc> = {
          ...old,
          ...patch,
          events: { ...DEFAULT_STATISTICS.events, ...(old.events ?? {}), ...(patch.events ?? {}) },
        };
        const values = {
          data: data as Record<string, unknown>,
          version: current + 1,
          updatedAt: clock.now(),
          updatedBy: c.get('operator').id,
        };
        if (row) await tx.update(statisticsSettings).set(values).where(eq(statisticsSettings.tenant, tenant));
        else await tx.insert(statisticsSettings).values({ tenant, ...values });
        await bumpSiteVersion(tx, tenant, clock.now());
        await audit(tx, c, {
          resource: 'settings',
          action: 'update',
          recordId: tenant,
          // As read (defaults filled in), so a first save shows only what the admin changed.
          changes: diff(before, await readStatistics(tx, tenant)),
        });
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(); // two first saves at once
      throw err;
    }
    return ok(c, await readStatistics(db, tenant));
  });

  return app;
}

/**
 * Statistics settings (SPEC.md §2 /setting/statistics, API /app/admin/setting/statistics): which events the site
 * collects, sampling, retention and each platform's snippet.
 */
export default defineModule({
  name: 'statistics-settings',
  permissions: [statisticsSettingsPermissions],
  order: 100,
  mount: { '/admin/setting/statistics': statisticsSettingsRoutes },
  platformUsage: { field: 'snippets', count: snippetsPerPlatform },
  site: {
    field: 'statistics',
    schema: z.object({
      events: z.array(z.enum(STAT_EVENTS)),
      sampleRate: z.number().openapi({ description: 'Percent of visits to collect' }),
      snippet: z.string().openapi({ description: "This platform's third-party analytics code, as stored" }),
    }),
    read: async (db, { tenant, platform }) => {
      const stats = await readStatistics(db, tenant);
      return {
        events: STAT_EVENTS.filter((e) => stats.events[e]),
        sampleRate: stats.sampleRate,
        snippet: stats.snippets.find((x) => x.platform === platform)?.code ?? '',
      };
    },
  },
});
