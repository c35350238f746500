import { readdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { can, security } from '../../server/core/auth';
import type { AppEnv } from '../../server/core/context';
import { jsonResponse, ok } from '../../server/core/envelope';
import { defineModule, discoverModules, type ServerModule } from '../../server/core/module';
import { modules } from '../../server/modules';
import { startApi, type TestApi } from './harness';

/**
 * A server module registers by being a folder (issue #50 §6): `server/modules/index.ts` finds every
 * `<name>/index.ts` (and the one-file `health.ts`) with `import.meta.glob`, in their `order`. A throw-away module
 * given to the same discovery is mounted, guarded and documented without any list naming it.
 */
const root = resolve(import.meta.dirname, '../..');

function trialRoutes() {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags: ['trial'],
      summary: 'A throw-away module (admins)',
      middleware: can('operators.settings'),
      security,
      responses: jsonResponse(z.object({ hello: z.string() })),
    }),
    (c) => ok(c, { hello: c.get('operator').account }),
  );
  return app;
}

const trial = defineModule({ name: 'trial', order: 190, mount: { '/admin/trial': trialRoutes } });
/** The real modules as the glob gives them (path → exports), plus the throw-away folder. */
const found = {
  ...Object.fromEntries(modules.map((m) => [`./${m.name}/index.ts`, { default: m }])),
  './trial/index.ts': { default: trial },
};

describe('the real registry', () => {
  test('has every folder of server/modules with an index.ts, and health.ts, in their order', () => {
    const dir = resolve(root, 'server/modules');
    const folders = readdirSync(dir).filter((name) => {
      try {
        return statSync(resolve(dir, name, 'index.ts')).isFile();
      } catch {
        return false;
      }
    });
    expect(modules.map((m) => m.name).sort()).toEqual([...folders, 'health'].sort());
    const orders = modules.map((m) => m.order!);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    // the order that matters: the session resolver first, members seeded before the comments written by them
    expect(modules[0].name).toBe('health');
    expect(modules.findIndex((m) => m.name === 'users')).toBeLessThan(
      modules.findIndex((m) => m.name === 'comment'),
    );
  });

  test('refuses a module named unlike its folder, one without an order, and two at one order', () => {
    expect(() => discoverModules({ './other/index.ts': { default: trial } })).toThrow('its folder "other"');
    expect(() =>
      discoverModules({ './trial/index.ts': { default: { ...trial, order: undefined } } }),
    ).toThrow('no order');
    expect(() =>
      discoverModules({
        './trial/index.ts': { default: trial },
        './twin.ts': { default: { ...trial, name: 'twin' } },
      }),
    ).toThrow('same order 190');
    expect(() => discoverModules({ './empty/index.ts': {} })).toThrow('no module declaration');
  });
});

describe('a throw-away module', () => {
  let api: TestApi;
  let withTrial: ServerModule[];
  beforeAll(async () => {
    withTrial = discoverModules(found);
    api = await startApi({}, { modules: withTrial });
  });
  afterAll(() => api.close());

  test('is placed by its order (190, after every module of ours) and mounted under /app with its guard', async () => {
    expect(withTrial.at(-1)?.name).toBe('trial');
    expect(withTrial.at(-2)?.order).toBeLessThan(190);
    const admin = await api.login();
    const r = await api.call('GET', '/app/admin/trial', { token: admin });
    expect(r.body).toMatchObject({ code: 20000, data: { hello: 'admin' } });
    expect((await api.call('GET', '/app/admin/trial')).body.code).toBe(50008);
    const doc = (await api.call('GET', '/app/openapi.json')).body;
    expect(doc.paths['/app/admin/trial'].get.summary).toBe('A throw-away module (admins)');
  });
});
