import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ServerModule } from '../../server/core/module';
import { modules } from '../../server/modules';
import { seed } from '../../server/seed';
import { startApi, type TestApi } from './harness';

/**
 * A module joins the shared answers from its own folder (issue #10 §4): an extra module, declared only in its own
 * declaration (here added to the registry the app is made with), shows up in the platform usage counts, in the public site answer
 * and its OpenAPI schema, and in the seed generator, without any other module's file naming it.
 */
const log = { seeds: [] as unknown[] };

async function registry(): Promise<readonly ServerModule[]> {
  const { z } = await import('@hono/zod-openapi');
  return [
    ...modules,
    {
      name: 'extras',
      mount: {},
      platformUsage: {
        field: 'extras',
        count: async (_db: unknown, tenant: number, keys: number[]) =>
          new Map(keys.map((k) => [k, k * 10 + tenant])),
      },
      site: {
        field: 'extra',
        schema: z.object({ hello: z.string() }),
        read: async (_db: unknown, at: { tenant: number; platform: number }) => ({
          hello: `tenant ${at.tenant}, platform ${at.platform}`,
        }),
      },
      seed: async (_db: unknown, at: { seed: number; reviewer: number | null }) => {
        log.seeds.push({ seed: at.seed, reviewer: at.reviewer });
      },
    },
  ];
}

let api: TestApi;
let withExtras: readonly ServerModule[];
let admin: string;

beforeAll(async () => {
  withExtras = await registry();
  api = await startApi({}, { modules: withExtras });
  admin = await api.login();
});
afterAll(() => api.close());

test('platform usage: the module counts its rows per key, beside the others, and in the total', async () => {
  const r = await api.call('GET', '/app/admin/setting/platform-usage?keys=4,5', { token: admin });
  expect(r.body.code).toBe(20000);
  expect(r.body.data.usage).toEqual([
    { key: 4, movies: 0, notices: 0, apps: 0, snippets: 0, ads: 0, extras: 42, total: 42 },
    { key: 5, movies: 0, notices: 0, apps: 0, snippets: 0, ads: 0, extras: 52, total: 52 },
  ]);
  const doc = (await api.call('GET', '/app/openapi.json')).body;
  expect(Object.keys(doc.components.schemas.PlatformUsage.properties)).toEqual([
    'key',
    'movies',
    'notices',
    'apps',
    'snippets',
    'ads',
    'extras',
    'total',
  ]);
});

test('the site answer carries the part under its field, after the others; the document names it', async () => {
  const key = (await api.call('POST', '/app/admin/setting/site-key/regenerate', { token: admin })).body.data
    .key;
  const res = await api.app.request('/app/site/config?platform=2', { headers: { 'Site-Key': key } });
  const body = await res.json();
  expect(body.code).toBe(20000);
  expect(Object.keys(body.data)).toEqual([
    'tenant',
    'platform',
    'site',
    'notices',
    'apps',
    'statistics',
    'extra',
  ]);
  expect(body.data.extra).toEqual({ hello: 'tenant 2, platform 2' });
  const doc = (await api.call('GET', '/app/openapi.json')).body;
  expect(doc.components.schemas.PublicSite.properties.extra.properties.hello.type).toBe('string');
});

test('the seed generator runs the module seeder once, with the seed and the first admin as reviewer', async () => {
  // The extra module's seeder alone: the others' (a month of statistics events and its rollup) are the demo
  // snapshot's to test, and cost this file most of its time.
  const extras = withExtras.filter((m) => m.name === 'extras');
  const options = { seed: 7, movies: 3, actresses: 2, now: api.clock.now(), modules: extras };
  await seed(api.database.db, api.config, options);
  await seed(api.database.db, api.config, options);
  const [first] = await api.query<{ id: number }>(
    (await import('drizzle-orm')).sql`select min(id)::int as id from operators`,
  );
  expect(log.seeds).toEqual([{ seed: 7, reviewer: first.id }]);
}, 180_000); // two runs of the sample seed: the limit only guards against a hang
