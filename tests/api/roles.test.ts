import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startApi, type TestApi, USER_PASSWORD } from './harness';
import { signedHeaders } from './site-door';

/**
 * DESIGN.md §7: the server enforces roles. Every route in the OpenAPI document that is not listed here as open to
 * every operator must answer 40300 to a `user`, so a route added later is covered without touching this file. A
 * section that opens routes to `user` adds them to this list on purpose, where a reviewer sees it.
 */
const FOR_EVERY_OPERATOR = new Set([
  'POST /app/admin/login',
  'POST /app/admin/logout',
  'GET /app/admin/info',
  'POST /app/admin/password',
  'GET /app/admin/sys/getSetting',
  'GET /app/health',
  'GET /app/openapi.json',
]);

/**
 * Section routes a `user` may call, as the sections declare them (`asAnyOperator` in server/modules/<section>).
 * Movies: operators review, edit and publish content; only deleting and managing columns, tags and sources is
 * for admins.
 */
const SECTION_ROUTES_FOR_EVERY_OPERATOR = [
  // Who reviewed or changed something, by name (issue #17): every operator reads the names, nothing else.
  'GET /app/admin/operators/names',
  'GET /app/admin/movie/movies',
  'POST /app/admin/movie/movies',
  'GET /app/admin/movie/movies/{id}',
  'PUT /app/admin/movie/movies/{id}',
  'POST /app/admin/movie/movies/batch',
  'POST /app/admin/movie/movies/{id}/approve',
  'POST /app/admin/movie/movies/{id}/reject',
  'POST /app/admin/movie/movies/{id}/offline',
  'POST /app/admin/movie/movies/{id}/online',
  'GET /app/admin/movie/columns',
  'GET /app/admin/movie/columns/{id}',
  'GET /app/admin/movie/tags',
  'GET /app/admin/movie/tags/{id}',
  'GET /app/admin/movie/sources',
  'GET /app/admin/movie/sources/{id}',
  // Actresses: operators keep the profiles and their movie links; deleting one (alone or in a batch) is for admins.
  'GET /app/admin/actresses',
  'POST /app/admin/actresses',
  'GET /app/admin/actresses/{id}',
  'PUT /app/admin/actresses/{id}',
  'POST /app/admin/actresses/batch',
  'GET /app/admin/actresses/{id}/movies',
  'POST /app/admin/actresses/{id}/movies',
  'POST /app/admin/actresses/{id}/unlink-movies',
  // Novels: operators review and edit novels and their chapters (import, reorder, delete chapters); deleting a novel
  // and changing the column tree are for admins.
  'GET /app/admin/novel/novels',
  'POST /app/admin/novel/novels',
  'GET /app/admin/novel/novels/{id}',
  'PUT /app/admin/novel/novels/{id}',
  'POST /app/admin/novel/novels/batch',
  'POST /app/admin/novel/novels/{id}/approve',
  'POST /app/admin/novel/novels/{id}/reject',
  'POST /app/admin/novel/novels/{id}/offline',
  'POST /app/admin/novel/novels/{id}/online',
  'POST /app/admin/novel/novels/{id}/chapters/reorder',
  'POST /app/admin/novel/novels/{id}/import/preview',
  'POST /app/admin/novel/novels/{id}/import',
  'GET /app/admin/novel/chapters',
  'POST /app/admin/novel/chapters',
  'GET /app/admin/novel/chapters/{id}',
  'PUT /app/admin/novel/chapters/{id}',
  'DELETE /app/admin/novel/chapters/{id}',
  'POST /app/admin/novel/chapters/batch',
  'POST /app/admin/novel/chapters/{id}/move',
  'GET /app/admin/novel/columns',
  'GET /app/admin/novel/columns/{id}',
  // Images: every operator edits content with pictures, so every operator uploads them and needs the key to see them.
  'POST /app/admin/upload/image',
  'GET /app/admin/upload/cipher',
  // Settings: every operator sees the notices, promotion apps and statistics settings (read-only); admins write them.
  'GET /app/admin/setting/notices',
  'GET /app/admin/setting/notices/{id}',
  'GET /app/admin/setting/promotion-apps',
  'GET /app/admin/setting/promotion-apps/{id}',
  'GET /app/admin/setting/statistics',
  // Statistics (issue #12): every operator reads the reports; running the rollup and adopting a keyword are admins'.
  'GET /app/admin/stats/meta',
  'GET /app/admin/stats/reports/keywords',
  'GET /app/admin/stats/reports/movies',
  'GET /app/admin/stats/reports/tags',
  'GET /app/admin/stats/reports/unseen',
  'GET /app/admin/stats/reports/domains',
  'GET /app/admin/stats/reports/domain-hours',
  'GET /app/admin/stats/reports/visits',
  // Collection (issue #49): every operator reads the resource sites and their bindings, starts and cancels runs and
  // reads them (filling the site is operators' daily work); adding, changing, binding and testing a site are admins'.
  'GET /app/admin/collect/sources',
  'GET /app/admin/collect/sources/{id}',
  'GET /app/admin/collect/sources/{id}/bindings',
  'GET /app/admin/collect/runs',
  'GET /app/admin/collect/runs/{id}',
  'POST /app/admin/collect/runs',
  'POST /app/admin/collect/runs/{id}/cancel',
  // Comments (issue #14): operators read, review and reply, and try filter rules; deleting, saving and applying
  // the filter are admins'. Members: operators read and run the batches but VIP extension; banning is admins'.
  'GET /app/admin/comment/comments',
  'GET /app/admin/comment/comments/{id}',
  'POST /app/admin/comment/comments/batch',
  'POST /app/admin/comment/comments/{id}/approve',
  'POST /app/admin/comment/comments/{id}/reject',
  'POST /app/admin/comment/comments/{id}/offline',
  'POST /app/admin/comment/comments/{id}/online',
  'GET /app/admin/comment/guestbook',
  'GET /app/admin/comment/guestbook/{id}',
  'PUT /app/admin/comment/guestbook/{id}/reply',
  'POST /app/admin/comment/guestbook/batch',
  'POST /app/admin/comment/guestbook/{id}/approve',
  'POST /app/admin/comment/guestbook/{id}/reject',
  'POST /app/admin/comment/guestbook/{id}/offline',
  'POST /app/admin/comment/guestbook/{id}/online',
  'GET /app/admin/comment/filters',
  'POST /app/admin/comment/filters/{module}/trial',
  'GET /app/admin/users',
  'GET /app/admin/users/{id}',
  'POST /app/admin/users/batch',
  // A member's page (issue #52): every operator reads their bans; the edit and the reset code are admins'.
  'GET /app/admin/users/{id}/bans',
  // Domains (issue #15): operators read everything, import, edit, change in batches and swap channel domains (blocked
  // domains are replaced daily); pools, settings and deleting a domain (alone or in a batch) are for admins.
  'GET /app/admin/domain/domains',
  'POST /app/admin/domain/domains',
  'GET /app/admin/domain/domains/{id}',
  'PUT /app/admin/domain/domains/{id}',
  'POST /app/admin/domain/domains/batch',
  'POST /app/admin/domain/domains/import',
  'GET /app/admin/domain/pools',
  'GET /app/admin/domain/pools/{id}',
  'GET /app/admin/domain/overview/runway',
  'GET /app/admin/domain/overview/carousel',
  'GET /app/admin/domain/config/channels',
  'POST /app/admin/domain/config/swap',
  'GET /app/admin/domain/history',
  'GET /app/admin/domain/setting',
  // Ads (issue #13): every operator reads materials, advertisers, positions, change sets and reports; writes are admins'.
  'GET /app/admin/ad/ads',
  'GET /app/admin/ad/ads/{id}',
  'GET /app/admin/ad/advertisers',
  'GET /app/admin/ad/advertisers/{id}',
  'GET /app/admin/ad/positions',
  'GET /app/admin/ad/positions/{id}',
  'GET /app/admin/ad/changes',
  'GET /app/admin/ad/changes/{id}',
  'GET /app/admin/ad/reports/positions',
  'GET /app/admin/ad/reports/advertisers',
  'GET /app/admin/ad/reports/materials',
  'GET /app/admin/ad/reports/daily',
  'GET /app/admin/ad/reports/advertiser',
  'GET /app/admin/ad/reports/position',
  'GET /app/admin/ad/reports/material',
  // Agents (issue #16): every operator reads agents, their bound domains, their stat and settlements; writes, domain
  // bindings and settling are admins'.
  'GET /app/admin/agents',
  'GET /app/admin/agents/{id}',
  'GET /app/admin/agents/{id}/domains',
  'GET /app/admin/agents/stat',
  'GET /app/admin/agents/stat/daily',
  'GET /app/admin/agents/stat/{id}/settlements',
];

/**
 * The public site API: no operator session at all, a tenant's site key instead (security `SiteKey`). A `user`'s
 * Admin-Token opens nothing there: without the key the answer is 40100. Any route outside /app/admin must be listed
 * here or in FOR_EVERY_OPERATOR, so a public route is never added by accident.
 */
const SITE_ROUTES = new Set([
  'GET /app/site/config',
  'POST /app/site/events',
  'POST /app/site/comments',
  'POST /app/site/guestbook',
  'POST /app/site/users',
  'POST /app/site/users/login',
  'POST /app/site/users/reset',
  'GET /app/site/domains/resolve',
  'GET /app/site/ads',
]);

/**
 * The doors of the site routes (DESIGN.md decision 11): signed by the site's server only, either door (the browser key
 * for anonymous traffic and guests, the signature for the rest), or the browser key (reads).
 */
const SIGNED_ONLY = new Set([
  'POST /app/site/users',
  'POST /app/site/users/login',
  'POST /app/site/users/reset',
]);
const EITHER = new Set(['POST /app/site/events', 'POST /app/site/comments', 'POST /app/site/guestbook']);
/** Site routes whose valid body below speaks for a member: sent signed. */
const SENT_SIGNED = new Set([
  'POST /app/site/users',
  'POST /app/site/users/login',
  'POST /app/site/users/reset',
  'POST /app/site/comments',
]);

/** A valid body for a site route that takes one (the events ingestion). */
const siteBody = (method: string, path: string) =>
  path === '/app/site/users'
    ? { account: 'roles-signup', address: '198.51.100.1', password: 'roles-pass-1' }
    : path === '/app/site/users/login'
      ? { account: 'roles-signup', password: 'roles-pass-1' }
      : path === '/app/site/users/reset'
        ? { account: 'roles', code: siteResetCode, newPassword: 'member-pass-1' }
        : path === '/app/site/comments'
          ? {
              targetType: 'movie',
              targetId: siteMovieId,
              userId: siteUserId,
              address: '198.51.100.1',
              content: 'hi',
            }
          : path === '/app/site/guestbook'
            ? { guestName: 'roles', content: 'hi' }
            : method === 'POST' && path === '/app/site/events'
              ? {
                  events: [
                    {
                      id: 'roles-test-event-1',
                      type: 'pageview',
                      time: '2026-06-01T07:00:00Z',
                      domain: 'a.example',
                      path: '/',
                      visitor: 'v1',
                    },
                  ],
                }
              : undefined;

/** What the document must list at least (so an empty or broken document cannot pass the walk vacuously). */
const KNOWN_ADMIN_ROUTES = [
  'GET /app/admin/operators',
  'POST /app/admin/operators',
  'GET /app/admin/operators/{id}',
  'PUT /app/admin/operators/{id}',
  'DELETE /app/admin/operators/{id}',
  'POST /app/admin/operators/{id}/disable',
  'POST /app/admin/operators/{id}/enable',
  'POST /app/admin/operators/{id}/reset-password',
  'POST /app/admin/operators/batch',
  'POST /app/admin/sys/updateSetting',
  'POST /app/admin/setting/notices',
  'POST /app/admin/setting/promotion-apps/reorder',
  'PUT /app/admin/setting/statistics',
  'GET /app/admin/setting/site-key',
  'POST /app/admin/setting/site-key/regenerate',
  'GET /app/admin/setting/platform-usage',
  'POST /app/admin/stats/rollup',
  'POST /app/admin/stats/keywords/adopt',
  // The audit log (issue #52): admins only, reading and setting its retention.
  'GET /app/admin/setting/audit',
  'GET /app/admin/setting/audit/{id}',
  'GET /app/admin/setting/audit/sections',
  'GET /app/admin/setting/audit/settings',
  'PUT /app/admin/setting/audit/settings',
];

let api: TestApi;
let admin: string;
let user: string;
let userId: number;
let victimId: number;
let routes: { method: string; path: string; op: any }[];
let siteKey: string;
let siteSecret: string;
let siteMovieId: number;
let siteUserId: number;
let siteResetCode: string;

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  userId = await api.createOperator(admin, { account: 'plainuser', role: 'user' });
  victimId = await api.createOperator(admin, { account: 'victim', role: 'user' });
  user = await api.login('plainuser', USER_PASSWORD);
  // A movie and a site member for the site's comment post (issue #14).
  [{ id: siteMovieId }] = await api.query<{ id: number }>(
    sql`insert into movies (title) values ('roles') returning id`,
  );
  [{ id: siteUserId }] = await api.query<{ id: number }>(
    sql`insert into site_users (tenant, account) values (2, 'roles') returning id`,
  );
  // The one-time code an admin gave that member, for the site's password reset.
  siteResetCode = (await api.call('POST', `/app/admin/users/${siteUserId}/reset-code`, { token: admin })).body
    .data.code;
  await api.call('POST', '/app/admin/sys/updateSetting', {
    token: admin,
    body: { imgdomain: 'https://img.a' },
  });
  // Records with id 1 in the settings tables, so that the walk's id-1 requests have something to change.
  const notice = await api.call('POST', '/app/admin/setting/notices', {
    token: admin,
    body: { type: 'marquee', title: 'n', content: 'x', platforms: [2], startAt: '2026-06-01T00:00:00Z' },
  });
  const app = await api.call('POST', '/app/admin/setting/promotion-apps', {
    token: admin,
    body: { name: 'a', url: 'https://a.example', os: 'android', platforms: [2] },
  });
  expect([notice.body.data.id, app.body.data.id]).toEqual([1, 1]);
  siteKey = (await api.call('POST', '/app/admin/setting/site-key/regenerate', { token: admin })).body.data
    .key;
  siteSecret = (await api.call('POST', '/app/admin/setting/site-key/secret', { token: admin })).body.data
    .secret;
  const doc = (await api.call('GET', '/app/openapi.json')).body;
  routes = [];
  for (const [path, item] of Object.entries<any>(doc.paths))
    for (const method of ['get', 'post', 'put', 'patch', 'delete'])
      if (item[method]) routes.push({ method: method.toUpperCase(), path, op: item[method] });
});
afterAll(() => api.close());

/** Everything a route could change: operators, sessions, settings (with notices, apps, statistics, site key). */
async function snapshot() {
  return JSON.stringify([
    await api.query(sql`select * from operators order by id`),
    await api.query(sql`select id, operator_id, revoked_at, revoked_reason from sessions order by id`),
    await api.query(sql`select * from system_settings order by tenant`),
    await api.query(sql`select * from notices order by id`),
    await api.query(sql`select * from promotion_apps order by id`),
    await api.query(sql`select * from statistics_settings order by tenant`),
    await api.query(sql`select * from site_state order by tenant`),
  ]);
}

/** A body that the route would accept from an admin, so only the role stands between the user and the change. */
function plausibleBody(method: string, path: string, targetId: number): unknown {
  if (path.endsWith('/batch')) return { action: 'delete', ids: [targetId] };
  if (path.endsWith('/reset-password')) return { password: 'taken-over-9' };
  if (path === '/app/admin/operators' && method === 'POST')
    return { account: 'sneaky', password: 'sneaky-pass-1', role: 'admin' };
  if (path === '/app/admin/operators/{id}' && method === 'PUT')
    return { role: 'admin', nickname: 'pwned', version: 1 };
  if (path.endsWith('/updateSetting')) return { imgdomain: 'https://evil.example', tenant: 2 };
  if (path === '/app/admin/setting/notices' || path === '/app/admin/setting/notices/{id}')
    return {
      type: 'popup',
      title: 'pwned',
      content: 'x',
      platforms: [2],
      startAt: '2026-06-01T00:00:00Z',
      version: 1,
    };
  if (path === '/app/admin/setting/promotion-apps' || path === '/app/admin/setting/promotion-apps/{id}')
    return { name: 'evil', url: 'https://evil.example', os: 'android', platforms: [2], version: 1 };
  if (path.endsWith('/reorder')) return { ids: [1] };
  if (path === '/app/admin/setting/statistics') return { version: 0, sampleRate: 1 };
  return method === 'GET' || method === 'DELETE' ? undefined : {};
}

function adminOnly() {
  return routes.filter(
    (r) =>
      !FOR_EVERY_OPERATOR.has(`${r.method} ${r.path}`) &&
      !SECTION_ROUTES_FOR_EVERY_OPERATOR.includes(`${r.method} ${r.path}`) &&
      !SITE_ROUTES.has(`${r.method} ${r.path}`),
  );
}

describe('role enforcement', () => {
  test('the OpenAPI document lists every known admin route and the operator routes', () => {
    const listed = new Set(routes.map((r) => `${r.method} ${r.path}`));
    for (const r of KNOWN_ADMIN_ROUTES) expect(listed, r).toContain(r);
    for (const r of FOR_EVERY_OPERATOR) if (r !== 'GET /app/openapi.json') expect(listed, r).toContain(r);
    expect(adminOnly().length).toBeGreaterThanOrEqual(KNOWN_ADMIN_ROUTES.length);
  });

  test('a user gets 40300 from every admin-only route in the document, and nothing changes', async () => {
    const before = await snapshot();
    const walked: string[] = [];
    for (const { method, path } of adminOnly()) {
      for (const targetId of [victimId, userId, 1]) {
        const url = path.replace(/\{id\}/g, String(targetId));
        const body = plausibleBody(method, path, targetId);
        const r = await api.call(method, url, { token: user, body });
        expect(r.status, `${method} ${url}`).toBe(200);
        expect(r.body.code, `${method} ${url} → ${JSON.stringify(r.body)}`).toBe(40300);
        expect(r.body.data).toBeNull();
        // A hostile body does not get past the role check either (it is not even validated).
        if (method !== 'GET') {
          const junk = await api.call(method, url, {
            token: user,
            raw: '{"oops',
            headers: { 'Content-Type': 'application/json' },
          });
          expect(junk.body.code, `${method} ${url} junk`).toBe(40300);
        }
        if (!path.includes('{id}')) break;
      }
      walked.push(`${method} ${path}`);
    }
    expect(walked.sort()).toEqual(expect.arrayContaining(KNOWN_ADMIN_ROUTES));
    expect(await snapshot()).toBe(before);
    // The user is still a user, the victim still can log in with its password, the settings are the admin's.
    expect((await api.call('GET', '/app/admin/info', { token: user })).body.data.role).toBe('user');
    expect(await api.login('victim', USER_PASSWORD)).toBeTruthy();
    expect(
      (
        await api.call('POST', '/app/admin/login', {
          body: { username: 'sneaky', password: 'sneaky-pass-1' },
        })
      ).body.code,
    ).toBe(40100);
    const s = await api.call('GET', '/app/admin/sys/getSetting', { token: user });
    expect(s.body.data.imgdomain).toBe('https://img.a');
  });

  test('the same routes work for an admin (the 40300 is about the role, not the request)', async () => {
    const list = await api.call('GET', '/app/admin/operators', { token: admin });
    expect(list.body.code).toBe(20000);
    const one = await api.call('GET', `/app/admin/operators/${victimId}`, { token: admin });
    expect(one.body.code).toBe(20000);
    const save = await api.call('POST', '/app/admin/sys/updateSetting', {
      token: admin,
      body: { imgdomain: 'https://img.b' },
    });
    expect(save.body.code).toBe(20000);
  });

  test("the built-in user's permissions cover every route listed for every operator (issue #52)", async () => {
    const mine = new Set((await api.call('GET', '/app/admin/info', { token: user })).body.data.permissions);
    const needed = routes
      .filter((r) => SECTION_ROUTES_FOR_EVERY_OPERATOR.includes(`${r.method} ${r.path}`))
      .filter((r) => r.op['x-permission'] && !mine.has(r.op['x-permission']))
      .map((r) => `${r.method} ${r.path} ${r.op['x-permission']}`);
    expect(needed).toEqual([]);
  });

  test('a user may use the routes for every operator', async () => {
    expect((await api.call('GET', '/app/admin/info', { token: user })).body.code).toBe(20000);
    expect((await api.call('GET', '/app/admin/sys/getSetting', { token: user })).body.code).toBe(20000);
    expect((await api.call('GET', '/app/admin/sys/getSetting?tenant=7', { token: user })).body.code).toBe(
      20000,
    );
    const pw = await api.call('POST', '/app/admin/password', {
      token: user,
      body: { oldPassword: USER_PASSWORD, newPassword: 'my-own-pass-2' },
    });
    expect(pw.body.code).toBe(20000);
    expect((await api.call('POST', '/app/admin/logout', { token: user })).body.code).toBe(20000);
  });

  test('a user promoted to admin gains the routes on its existing session; demoted, loses them', async () => {
    const id = await api.createOperator(admin, { account: 'promoted' });
    const token = await api.login('promoted', USER_PASSWORD);
    expect((await api.call('GET', '/app/admin/operators', { token })).body.code).toBe(40300);
    const up = await api.call('PUT', `/app/admin/operators/${id}`, {
      token: admin,
      body: { role: 'admin', version: 1 },
    });
    expect(up.body.code).toBe(20000);
    expect((await api.call('GET', '/app/admin/operators', { token })).body.code).toBe(20000);
    const down = await api.call('PUT', `/app/admin/operators/${id}`, {
      token: admin,
      body: { role: 'user', version: 2 },
    });
    expect(down.body.code).toBe(20000);
    expect((await api.call('GET', '/app/admin/operators', { token })).body.code).toBe(40300);
  });

  test('public routes are only the listed ones; the site routes take a site key, never an operator session', async () => {
    const outside = routes
      .filter((r) => !r.path.startsWith('/app/admin/'))
      .map((r) => `${r.method} ${r.path}`)
      .filter((r) => !FOR_EVERY_OPERATOR.has(r));
    expect(outside.sort()).toEqual([...SITE_ROUTES].sort());
    // The domain resolve endpoint answers a pool's live domain: one exists before the walk.
    const pool = await api.call('POST', '/app/admin/domain/pools', {
      token: admin,
      body: { name: 'roles-pool' },
    });
    await api.call('POST', '/app/admin/domain/domains', {
      token: admin,
      body: { hostname: 'roles.example.com', status: 'active', poolId: pool.body.data.id },
    });
    const before = await snapshot();
    for (const { method, path, op } of routes.filter((r) => SITE_ROUTES.has(`${r.method} ${r.path}`))) {
      const route = `${method} ${path}`;
      expect(op.security, path).toEqual(
        SIGNED_ONLY.has(route)
          ? [{ SiteKey: [], SiteSignature: [] }]
          : EITHER.has(route)
            ? [{ SiteKey: [] }, { SiteKey: [], SiteSignature: [] }]
            : [{ SiteKey: [] }],
      );
      const url =
        path === '/app/site/domains/resolve' ? `${path}?pool=roles-pool&visitor=v1` : `${path}?platform=2`;
      // An operator's token, even an admin's, is not a site key.
      for (const token of [user, admin]) {
        const r = await api.call(method, url, { token, body: siteBody(method, path) });
        expect(r.body.code, `${method} ${url}`).toBe(40100);
        expect(r.body.data).toBeNull();
      }
      const text = JSON.stringify(siteBody(method, path));
      const ok = await api.call(method, url, {
        headers: {
          'Site-Key': siteKey,
          ...(SENT_SIGNED.has(route)
            ? { 'Content-Type': 'application/json', ...signedHeaders(siteSecret, text, api.clock.now()) }
            : {}),
        },
        ...(SENT_SIGNED.has(route) ? { raw: text } : { body: siteBody(method, path) }),
      });
      expect(ok.body.code, `${method} ${url}`).toBe(20000);
    }
    expect(await snapshot()).toBe(before);
  });
});
