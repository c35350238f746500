import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { createMiddleware } from 'hono/factory';
import { Code } from '../../../common/codes';
import { audit, auditedRoute, REDACTED } from '../../core/audit';
import { can, security } from '../../core/auth';
import type { AppContext, AppEnv } from '../../core/context';
import { envelopeOf, jsonResponse, ok } from '../../core/envelope';
import { ApiError } from '../../core/errors';
import type { SitePart, TenantSettings } from '../../core/module';
import { createRoute } from '../../core/route';
import { intQuery, transaction } from '../../core/shared';
import { tenantOf } from '../../core/tenant';
import {
  firstSighting,
  openSecret,
  REPLAY_WINDOW_S,
  SIGNATURE_HEADER,
  sameHex,
  signatureOf,
  TIMESTAMP_HEADER,
} from './secret';
import { readSiteHead, readSiteKey, regenerateSiteKey, rotateSiteSecret } from './state';

type SiteHead = NonNullable<Awaited<ReturnType<typeof readSiteHead>>>;
/** The site row a request's key named (set by `requireSiteKey`, read by the handler). */
const heads = new WeakMap<Request, SiteHead>();

/** How long a cache may keep an answer when no notice starts or ends sooner. */
export const SITE_MAX_AGE = 60;
export const SITE_KEY_HEADER = 'Site-Key';
const siteSecurity = [{ SiteKey: [] }];
/** A route the site's server signs (SiteKey names the tenant, SiteSignature proves the secret). */
export const signedSecurity: Record<string, string[]>[] = [{ SiteKey: [], SiteSignature: [] }];
/** A route both doors use: the browser key for anonymous traffic, the signature for the rest. */
export const eitherSecurity: Record<string, string[]>[] = [
  { SiteKey: [] },
  { SiteKey: [], SiteSignature: [] },
];

/** The public answer: the tenant, the platform, and every module's part (ServerModule.site) by its field. */
const configRoute = (parts: readonly SitePart[]) => {
  const PublicSite = z
    .object({
      tenant: z.number(),
      platform: z.object({ key: z.number(), name: z.string() }),
      ...Object.fromEntries(parts.map((p) => [p.field, p.schema])),
    })
    .openapi('PublicSite');
  return createRoute({
    method: 'get',
    path: '/config',
    tags: ['site (public)'],
    security: siteSecurity,
    summary:
      "What the content site shows on a platform: its live notices, its promotion apps and the site's public settings",
    description: [
      'Public and read-only: no Admin-Token, the tenant is named by its site key in the `Site-Key` header (a missing',
      'or wrong key is code 40100, never cached). Answers carry `ETag` and `Cache-Control: public, max-age=…` (at most',
      `${SITE_MAX_AGE} s, and never past the next instant a notice starts or ends); a request with a matching`,
      '`If-None-Match` is answered 304 without a body after one read of one small row, whatever the number of',
      'operators, notices or admin requests. `Vary: Site-Key, Accept-Language`. CORS is open (`*`).',
    ].join(' '),
    request: {
      headers: z.object({
        'site-key': z.string().optional().openapi({ description: "The tenant's site key (required)" }),
        'if-none-match': z.string().optional(),
      }),
      query: z.object({
        platform: intQuery(0, 9999).openapi({ description: 'A platform key of the settings' }),
      }),
    },
    responses: {
      200: {
        description: 'Envelope `{code, msg, data}`',
        headers: z.object({
          ETag: z.string().openapi({ example: 'W/"2-1a-0-2-zh-CN"' }),
          'Cache-Control': z.string().openapi({ example: 'public, max-age=60' }),
        }),
        content: { 'application/json': { schema: envelopeOf(PublicSite) } },
      },
      304: { description: 'Not modified (If-None-Match matched the current ETag)' },
    },
  });
};

const SiteKey = z
  .object({
    key: z.string().nullable(),
    updatedAt: z.string().nullable(),
    secretUpdatedAt: z.string().nullable().openapi({
      description: "When the site's server secret was made (null: none yet); the secret is never answered",
    }),
  })
  .openapi('SiteKey');
const SiteSecret = z
  .object({
    secret: z.string().openapi({ description: 'The new secret: answered this once, never again' }),
    secretUpdatedAt: z.string(),
  })
  .openapi('SiteSecret');

const keyRoutes = {
  get: createRoute({
    method: 'get',
    path: '/',
    tags: ['site (public)'],
    security,
    summary: "The tenant's site key for the public site API (admin; null until one is made)",
    middleware: can('site.settings'),
    responses: jsonResponse(SiteKey),
  }),
  regenerate: createRoute(
    auditedRoute({
      method: 'post',
      path: '/regenerate',
      tags: ['site (public)'],
      security,
      summary: 'Make a new site key (admin); the old one stops working at once',
      middleware: can('site.settings'),
      responses: jsonResponse(SiteKey),
    }),
  ),
  rotateSecret: createRoute(
    auditedRoute({
      method: 'post',
      path: '/secret',
      tags: ['site (public)'],
      security,
      summary:
        "Make a new server secret for the site's server (admin): answered once, stored encrypted, never shown again; the old one stops working at once",
      middleware: can('site.settings'),
      responses: jsonResponse(SiteSecret),
    }),
  ),
};

/** The site key names the tenant; a missing or unknown one is 40100 (and never cached). */
export const requireSiteKey = createMiddleware<AppEnv>(async (c, next) => {
  const key = c.req.header(SITE_KEY_HEADER)?.trim() ?? '';
  const head = /^sk_[A-Za-z0-9_-]{20,60}$/.test(key) ? await readSiteHead(c.get('deps').db, key) : undefined;
  if (!head) {
    c.header('Cache-Control', 'no-store');
    throw new ApiError(Code.BAD_CREDENTIALS, 'site.badKey');
  }
  heads.set(c.req.raw, head);
  await next();
});

/** The requests whose signature was verified (`verifySignature`). */
const signed = new WeakSet<Request>();
/** Whether the site's server signed this request (the signature was checked: a bad one never gets this far). */
export const isSigned = (c: { req: { raw: Request } }) => signed.has(c.req.raw);
/** Whether the request carries a signature at all (then it must be a good one). */
export const claimsSignature = (c: AppContext) =>
  c.req.header(SIGNATURE_HEADER) !== undefined || c.req.header(TIMESTAMP_HEADER) !== undefined;

const SIGNATURE_RE = /^v1=([0-9a-f]{64})$/;

/**
 * Checks the site server's signature (after `requireSiteKey`): the timestamp within REPLAY_WINDOW_S of the server's
 * clock, HMAC-SHA256 with the tenant's secret over `<timestamp>.<raw body>` compared in constant time, and the
 * signature never accepted before (in the database, so every instance agrees). The body is read here, within the
 * route's body limit; the route's validator then gets the same value. Each refusal is 40100 saying why.
 */
export async function verifySignature(c: AppContext) {
  const { db, clock, config } = c.get('deps');
  const refuse = (key: 'site.badTimestamp' | 'site.badSignature' | 'site.noSecret' | 'site.replayed') => {
    c.header('Cache-Control', 'no-store');
    return new ApiError(Code.BAD_CREDENTIALS, key, { window: REPLAY_WINDOW_S });
  };
  const timestamp = c.req.header(TIMESTAMP_HEADER)?.trim() ?? '';
  const now = clock.now();
  if (
    !/^\d{1,12}$/.test(timestamp) ||
    Math.abs(Number(timestamp) * 1000 - now.getTime()) > REPLAY_WINDOW_S * 1000
  )
    throw refuse('site.badTimestamp');
  const given = SIGNATURE_RE.exec(c.req.header(SIGNATURE_HEADER)?.trim().toLowerCase() ?? '')?.[1];
  if (!given) throw refuse('site.badSignature');
  const head = heads.get(c.req.raw)!;
  const secret = head.secretCipher ? await openSecret(config.siteSecretKey, head.secretCipher) : undefined;
  if (!secret) throw refuse('site.noSecret');
  const body = c.req.raw.body ? new Uint8Array(await c.req.arrayBuffer()) : new Uint8Array(0);
  if (!sameHex(await signatureOf(secret, timestamp, body), given)) throw refuse('site.badSignature');
  if (!(await firstSighting(db, head.tenant, given, now))) throw refuse('site.replayed');
  signed.add(c.req.raw);
}

/** Only the site's server may call this route: a request without a good signature is refused. */
export const requireSignature = createMiddleware<AppEnv>(async (c, next) => {
  if (!claimsSignature(c)) {
    c.header('Cache-Control', 'no-store');
    throw new ApiError(Code.FORBIDDEN, 'site.signatureRequired', { path: c.req.path });
  }
  await verifySignature(c);
  await next();
});

/** Both doors: a request that carries a signature must carry a good one; one without is the browser's. */
export const optionalSignature = createMiddleware<AppEnv>(async (c, next) => {
  if (claimsSignature(c)) await verifySignature(c);
  await next();
});

/** The tenant whose site key the request carried (after `requireSiteKey`). */
export const siteTenantOf = (c: { req: { raw: Request } }) => heads.get(c.req.raw)!.tenant;
/** The site version the request read with its key (`bumpSiteVersion` moves it on every write the site sees). */
export const siteVersionOf = (c: { req: { raw: Request } }) => heads.get(c.req.raw)!.siteVersion;

/** `If-None-Match` against an ETag, by weak comparison (RFC 9110 §13.1.2): a compressing proxy weakens ETags. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || bare(t) === bare(etag));
}

/**
 * What the ETag and the freshness of an answer are made of at `now`: the tenant's site version (every write to
 * what the site shows bumps it), the last notice boundary crossed (a notice starting or ending changes the answer
 * without a write), the platform and the locale of `msg`. A cache may keep the answer until the next boundary.
 */
export function freshness(
  head: Pick<SiteHead, 'tenant' | 'siteVersion' | 'boundaries'>,
  platform: number,
  locale: string,
  now: Date,
) {
  return freshUntilBoundary(
    head.boundaries,
    now,
    `${head.tenant.toString(36)}-${head.siteVersion.toString(36)}`,
    `${platform}-${locale}`,
  );
}

/**
 * The ETag and Cache-Control of an answer that changes with what `before` and `after` name and at each of
 * `boundaries`: the ETag carries the last boundary passed, and a cache may keep the answer until the next one.
 */
export function freshUntilBoundary(boundaries: readonly Date[], now: Date, before: string, after: string) {
  const t = now.getTime();
  let passed = 0;
  let next = Number.POSITIVE_INFINITY;
  for (const b of boundaries) {
    const bt = b.getTime();
    if (bt <= t) passed = Math.max(passed, bt);
    else next = Math.min(next, bt);
  }
  const maxAge = Math.max(0, Math.min(SITE_MAX_AGE, Math.floor((next - t) / 1000)));
  return { etag: `W/"${before}-${passed.toString(36)}-${after}"`, cacheControl: `public, max-age=${maxAge}` };
}

const siteGetCorsHeaders = cors({
  origin: '*',
  allowMethods: ['GET', 'OPTIONS'],
  allowHeaders: [SITE_KEY_HEADER, 'If-None-Match', 'Accept-Language'],
  exposeHeaders: ['ETag'],
  maxAge: 86_400,
});
/**
 * CORS for the site's cached reads. A preflight (OPTIONS asking for a method) is answered 204 by cors(); any other
 * OPTIONS is a request like the others and gets an envelope (no key: 40100), not an empty 204.
 */
export const siteGetCors: MiddlewareHandler<AppEnv> = (c, next) =>
  c.req.method === 'OPTIONS' && !c.req.header('access-control-request-method')
    ? next()
    : siteGetCorsHeaders(c, next);

const sitePostCors = cors({
  origin: '*',
  allowMethods: ['POST', 'OPTIONS'],
  allowHeaders: [SITE_KEY_HEADER, 'Content-Type', 'Accept-Language'],
  maxAge: 86_400,
});

/**
 * The gate of the site's backend posts (members, comments, guestbook): as the events ingestion, a CORS preflight is
 * answered 204; any other request, an OPTIONS included, needs the key.
 */
export const siteKeyGate: MiddlewareHandler<AppEnv> = (c, next) => {
  if (c.req.method !== 'OPTIONS') return sitePostCors(c, () => requireSiteKey(c, next) as Promise<void>);
  return c.req.header('access-control-request-method') ? sitePostCors(c, next) : requireSiteKey(c, next);
};

/** The public site API, mounted at /app/site: the parts of the modules that join (ServerModule.site). */
export function siteRoutes(parts: readonly SitePart[], tenantSettings: TenantSettings) {
  const app = new OpenAPIHono<AppEnv>();
  app.openAPIRegistry.registerComponent('securitySchemes', 'SiteKey', {
    type: 'apiKey',
    in: 'header',
    name: SITE_KEY_HEADER,
    description: [
      "The tenant's browser key (Settings → Base settings, admins): names the tenant; public by design (it is in the",
      "site's pages, CORS is open). Alone it may read the site API and send anonymous traffic events (page views, plays,",
      "searches, ad impressions and clicks, tag clicks) and guest posts; never money, signups or a member's identity.",
    ].join(' '),
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'SiteSignature', {
    type: 'apiKey',
    in: 'header',
    name: SIGNATURE_HEADER,
    description: [
      "The site's server signs what moves money, registers members or speaks for a member, beside its Site-Key:",
      `\`${TIMESTAMP_HEADER}: <unix seconds>\` and \`${SIGNATURE_HEADER}: v1=<hex>\`, the hex being HMAC-SHA256 with the`,
      "tenant's server secret (Settings → Base settings, shown once when made) over the bytes `<timestamp>.<raw body>`.",
      `The timestamp must be within ${REPLAY_WINDOW_S} s of the server's clock and a signature is accepted once`,
      '(40100 otherwise). Never send the secret itself, and never from a browser.',
    ].join(' '),
  });

  // Scoped to this route: another module's route under /app/site (the statistics module's POST /app/site/events)
  // brings its own CORS and key check.
  app.use('/config', siteGetCors);
  app.use('/config', requireSiteKey);

  app.openapi(configRoute(parts), async (c) => {
    const { db, clock } = c.get('deps');
    const head = heads.get(c.req.raw)!;
    const { platform } = c.req.valid('query');
    const now = clock.now();
    const { etag, cacheControl } = freshness(head, platform, c.get('locale'), now);
    c.header('Vary', `${SITE_KEY_HEADER}, Accept-Language`);
    if (etagMatches(c.req.header('if-none-match'), etag)) {
      c.header('ETag', etag);
      c.header('Cache-Control', cacheControl);
      return c.body(null, 304) as any;
    }
    const tenant = head.tenant;
    const { settings, platforms } = await tenantSettings(db, tenant);
    const name = platforms.get(platform);
    if (name === undefined) {
      c.header('Cache-Control', 'no-store');
      throw new ApiError(Code.NOT_FOUND, 'site.unknownPlatform', { platform });
    }
    const at = { tenant, platform, now, settings: settings as Record<string, unknown> };
    const values = await Promise.all(parts.map((p) => p.read(db, at)));
    c.header('ETag', etag);
    c.header('Cache-Control', cacheControl);
    return ok(c, {
      tenant,
      platform: { key: platform, name },
      ...Object.fromEntries(parts.map((p, i) => [p.field, values[i]])),
    });
  });

  return app;
}

/** The admin routes of the tenant's site key. */
export function siteKeyRoutes() {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(keyRoutes.get, async (c) => ok(c, await readSiteKey(c.get('deps').db, tenantOf(c))));
  app.openapi(keyRoutes.regenerate, async (c) => {
    const { db, clock } = c.get('deps');
    const tenant = tenantOf(c);
    // That a new key was made, by whom: never the key (the log is no place for credentials).
    const made = await transaction(db, async (tx) => {
      const m = await regenerateSiteKey(tx, tenant, clock.now());
      await audit(tx, c, {
        resource: 'site key',
        action: 'regenerate',
        recordId: tenant,
        changes: { after: { siteKey: REDACTED } },
      });
      return m;
    });
    return ok(c, { ...made, secretUpdatedAt: (await readSiteKey(db, tenant)).secretUpdatedAt });
  });
  app.openapi(keyRoutes.rotateSecret, async (c) => {
    const { db, clock, config } = c.get('deps');
    c.header('Cache-Control', 'no-store');
    const tenant = tenantOf(c);
    const made = await transaction(db, async (tx) => {
      const m = await rotateSiteSecret(tx, tenant, clock.now(), config.siteSecretKey);
      await audit(tx, c, {
        resource: 'site secret',
        action: 'rotate',
        recordId: tenant,
        changes: { after: { secret: REDACTED } },
      });
      return m;
    });
    return ok(c, made);
  });

  return app;
}
