import { OpenAPIHono, z } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import { Code } from '../../../common/codes';
import { parseAllowEntry } from '../../../common/hosts';
import { isTimeZone } from '../../../common/period';
import { sysPermissions } from '../../../common/permissions/sys';
import { audit, auditedRoute, diff } from '../../core/audit';
import { asAnyOperator, can, hasPermission, security } from '../../core/auth';
import type { AppEnv } from '../../core/context';
import { isUniqueViolation } from '../../core/crud';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { ApiError, conflict, invalidField } from '../../core/errors';
import { defineModule } from '../../core/module';
import { createRoute } from '../../core/route';
import { imageField } from '../images/paths';
import { bumpSiteVersion } from '../site/state';
import { platformUsageRoutes } from './platform-usage';
import { platformsOf } from './platforms';
import { systemSettings } from './schema';
import { readSettings } from './settings';

export { readSettings };

const tenant = z.number().int().min(1).max(1_000_000);

const Platform = z.object({ key: z.number().int().min(0).max(9999), name: z.string().trim().min(1).max(32) });

/** The most entries the outbound allow-list holds (each is checked on every server-side fetch). */
const MAX_OUTBOUND_ALLOW = 100;

/** '' or an uploaded image path or an http(s) URL (the site logo). */
const imageRef = imageField();

/**
 * The base settings the settings screen edits, besides imgdomain and platforms: all optional, checked
 * when sent. The site API answers exactly these (PUBLIC_SETTINGS), never any other stored field.
 */
export const baseFields = {
  siteName: z.string().trim().max(64),
  logo: imageRef,
  contactEmail: z
    .string()
    .trim()
    .max(128)
    .refine((v) => v === '' || /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(v), {
      params: { key: 'field.invalid' },
    }),
  contactPhone: z
    .string()
    .trim()
    .max(32)
    .refine((v) => /^[+\d\s()-]*$/.test(v), { params: { key: 'field.invalid' } }),
  contactTelegram: z.string().trim().max(64),
  contactQQ: z
    .string()
    .trim()
    .max(20)
    .refine((v) => /^\d*$/.test(v), { params: { key: 'field.invalid' } }),
  registrationOpen: z.boolean(),
  commentsOpen: z.boolean(),
};

/** MacCMS's provide API (`/api.php/provide/vod/`, server/modules/provide): off until an admin opens it. */
const provideFields = {
  provideOpen: z.boolean(),
  /** The key a collecting site must send (`?key=`); '' serves anyone who knows the URL. */
  provideKey: z
    .string()
    .trim()
    .max(64)
    .refine((v) => /^[A-Za-z0-9_-]*$/.test(v), { params: { key: 'field.invalid' } }),
};

/** Fields an operator without the admin role never reads: the provide API's key opens the catalogue to other sites. */
const ADMIN_ONLY = new Set(['provideKey']);

/** Known fields are checked; any other field is kept as sent (SPEC.md §3: copied into the store as received). */
const SettingsPatch = z
  .object({
    tenant: tenant.optional(),
    version: z.number().int().min(0).optional(), // 0: never saved (what getSetting answers before the first save)
    imgdomain: z
      .string()
      .trim()
      .max(512)
      .refine((v) => v === '' || /^https?:\/\/[^\s/]+/.test(v) || v.startsWith('/'), {
        params: { key: 'field.invalid' },
      })
      .optional(),
    platforms: z.array(Platform).max(50).optional(),
    /** The tenant's time zone for statistics days (IANA name; Asia/Shanghai when never set). */
    timeZone: z
      .string()
      .refine(isTimeZone, { params: { key: 'field.timeZone' } })
      .optional(),
    ...z.object(baseFields).partial().shape,
    /** Internal hosts server-side fetches may reach (outbound guard): hostnames, `*.` subdomains, IPs, CIDRs. */
    outboundAllow: z
      .array(
        z
          .string()
          .trim()
          .max(300)
          .refine((v) => parseAllowEntry(v) !== null, { params: { key: 'field.outboundAllow' } }),
      )
      .max(MAX_OUTBOUND_ALLOW)
      .optional(),
    ...z.object(provideFields).partial().shape,
  })
  .catchall(z.unknown())
  .openapi('SettingsPatch');

const Settings = z
  .object({ tenant: z.number(), version: z.number(), imgdomain: z.string(), platforms: z.array(Platform) })
  .catchall(z.unknown())
  .openapi('Settings');

const getSetting = createRoute({
  method: 'get',
  path: '/getSetting',
  tags: ['system'],
  summary: "A tenant's system settings (defaults merged with what was saved)",
  middleware: asAnyOperator,
  security,
  request: {
    query: z.object({
      tenant: z
        .string()
        .regex(/^\d{1,7}$/)
        .transform(Number)
        .pipe(tenant)
        .optional(),
    }),
  },
  responses: jsonResponse(Settings),
});

const updateSetting = createRoute(
  auditedRoute({
    method: 'post',
    path: '/updateSetting',
    tags: ['system'],
    summary: "Save fields of a tenant's settings (others are kept; a stale version is 40900)",
    middleware: can('sys.settings'),
    security,
    request: { body: jsonBody(SettingsPatch) },
    responses: jsonResponse(Settings),
  }),
);

/** The most a tenant's settings document may hold, all fields together (known and unknown). */
const MAX_SETTINGS_CHARS = 64 * 1024;
const MAX_SETTINGS_KEYS = 100;

/** The system settings of SPEC.md §7 (`getSetting`, `updateSetting`). */
function settingRoutes() {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(getSetting, async (c) => {
    const { defaultTenant } = c.get('deps').config;
    const t = c.req.valid('query').tenant ?? defaultTenant;
    const settings = await readSettings(c.get('deps').db, t);
    // An operator (role user) reads all of the tenant the admin works on; of another tenant only what the site
    // shows anyway (the base fields, imgdomain, platforms), never the fields kept as sent.
    if (t !== defaultTenant && !hasPermission(c, 'sys.settings')) {
      const visible = new Set(['tenant', 'version', 'imgdomain', 'platforms', ...Object.keys(baseFields)]);
      return ok(
        c,
        Object.fromEntries(Object.entries(settings).filter(([k]) => visible.has(k))) as typeof settings,
      );
    }
    if (!hasPermission(c, 'sys.settings'))
      return ok(
        c,
        Object.fromEntries(Object.entries(settings).filter(([k]) => !ADMIN_ONLY.has(k))) as typeof settings,
      );
    return ok(c, settings);
  });

  app.openapi(updateSetting, async (c) => {
    const { db, clock } = c.get('deps');
    const { tenant: t0, version, ...fields } = c.req.valid('json');
    const t = t0 ?? c.get('deps').config.defaultTenant;
    if (fields.platforms) {
      const keys = fields.platforms.map((p) => p.key);
      if (new Set(keys).size !== keys.length) throw invalidField('platforms', 'field.invalid');
    }
    try {
      await db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(systemSettings)
          .where(eq(systemSettings.tenant, t))
          .for('update');
        const current = row?.version ?? 0;
        if (version !== undefined && version !== current) throw conflict();
        const data = { ...(row?.data ?? {}), ...fields };
        // Unknown fields are kept as sent (SPEC), but the document stays small: one jsonb row read on every call.
        if (Object.keys(data).length > MAX_SETTINGS_KEYS || JSON.stringify(data).length > MAX_SETTINGS_CHARS)
          throw new ApiError(Code.INVALID, 'invalid.tooLarge', { limit: `${MAX_SETTINGS_CHARS / 1024} KB` });
        const values = {
          data,
          version: current + 1,
          updatedAt: clock.now(),
          updatedBy: c.get('operator').id,
        };
        if (row) await tx.update(systemSettings).set(values).where(eq(systemSettings.tenant, t));
        else await tx.insert(systemSettings).values({ tenant: t, ...values });
        await bumpSiteVersion(tx, t, clock.now()); // the site API answers the public settings
        // The fields that changed, before and after (provideKey and any other secret by name, redacted).
        await audit(tx, c, {
          resource: 'settings',
          action: 'update',
          recordId: t,
          changes: diff(row?.data ?? {}, data),
        });
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(); // two first saves of one tenant at once
      throw err;
    }
    return ok(c, await readSettings(db, t));
  });

  return app;
}

/**
 * System settings (SPEC.md §7, API /app/admin/sys; SPA section setting/base): the tenant's settings with its
 * platform list, and how much uses each platform (/app/admin/setting/platform-usage, from every module's
 * `platformUsage`).
 */
export default defineModule({
  name: 'sys',
  permissions: [sysPermissions],
  order: 30,
  mount: {
    '/admin/sys': settingRoutes,
    '/admin/setting/platform-usage': (modules) =>
      platformUsageRoutes(modules.flatMap((m) => (m.platformUsage ? [m.platformUsage] : []))),
  },
  tenantSettings: async (db, tenant) => {
    const [settings, platforms] = await Promise.all([readSettings(db, tenant), platformsOf(db, tenant)]);
    return { settings: settings as Record<string, unknown>, platforms };
  },
  site: {
    field: 'site',
    schema: z.object({
      name: z.string(),
      logo: z
        .string()
        .openapi({ description: 'An image path on `imgdomain` (encrypted), an http(s) URL, or empty' }),
      imgdomain: z.string(),
      contact: z.object({ email: z.string(), phone: z.string(), telegram: z.string(), qq: z.string() }),
      registrationOpen: z.boolean(),
      commentsOpen: z.boolean(),
    }),
    read: async (_db, { settings: s }) => {
      const str = (k: string) => (typeof s[k] === 'string' ? (s[k] as string) : '');
      const bool = (k: string) => (typeof s[k] === 'boolean' ? (s[k] as boolean) : true);
      return {
        name: str('siteName'),
        logo: str('logo'),
        imgdomain: str('imgdomain'),
        contact: {
          email: str('contactEmail'),
          phone: str('contactPhone'),
          telegram: str('contactTelegram'),
          qq: str('contactQQ'),
        },
        registrationOpen: bool('registrationOpen'),
        commentsOpen: bool('commentsOpen'),
      };
    },
  },
});
