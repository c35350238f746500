import { afterAll, beforeAll, expect, test } from 'vitest';
import { startApi, type TestApi } from './harness';

/**
 * Which mutating admin routes write what into the audit log (issue #52, docs/audit.md), from the OpenAPI document:
 *
 * - `x-audit: true`: the route writes its own entry in its transaction, with the changed fields before and after (or a
 *   batch's ids and counts): every crudResource, review kit and column tree route, updateSetting, the operators, and
 *   each module's own routes;
 * - `x-audit: "read"`: a POST that changes nothing (previews, trials, test fetches): no entry;
 * - neither: only the route-level entry (the route, its id, the request body with secrets redacted) would be written
 *   in each transaction the route commits. No route of the app is left so: a new route that does not say what it
 *   changed fails this test.
 */
/** Sessions, not changes (core/audit.ts NOT_AUDITED). */
const NOT_AUDITED = ['POST /app/admin/login', 'POST /app/admin/logout'];

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

test('every mutating admin route is audited with its changes or read-only: none is left to the route-level entry', async () => {
  const doc = (await api.call('GET', '/app/openapi.json')).body;
  const kinds: Record<'changes' | 'read' | 'route', string[]> = { changes: [], read: [], route: [] };
  for (const [path, ops] of Object.entries<Record<string, { 'x-audit'?: true | 'read' }>>(doc.paths))
    for (const [method, op] of Object.entries(ops)) {
      const name = `${method.toUpperCase()} ${path}`;
      if (!['post', 'put', 'patch', 'delete'].includes(method) || !path.startsWith('/app/admin/')) continue;
      if (NOT_AUDITED.includes(name)) continue;
      kinds[op['x-audit'] === true ? 'changes' : op['x-audit'] === 'read' ? 'read' : 'route'].push(name);
    }
  expect(kinds.route).toEqual([]);
  expect(kinds.read.sort()).toEqual([
    'POST /app/admin/ad/replace/preview',
    'POST /app/admin/collect/sources/{id}/test',
    'POST /app/admin/comment/filters/{module}/trial',
    'POST /app/admin/novel/novels/{id}/import/preview',
  ]);
  // The shared places: the resource factory, the batch route, the review kit, the column tree, the settings.
  expect(kinds.changes).toEqual(
    expect.arrayContaining([
      'POST /app/admin/setting/notices',
      'PUT /app/admin/setting/notices/{id}',
      'DELETE /app/admin/setting/notices/{id}',
      'POST /app/admin/setting/promotion-apps/batch',
      'POST /app/admin/movie/movies/{id}/approve',
      'POST /app/admin/movie/movies/batch',
      'POST /app/admin/movie/columns',
      'POST /app/admin/movie/columns/{id}/move-items',
      'POST /app/admin/sys/updateSetting',
      'POST /app/admin/operators/{id}/reset-password',
      'PUT /app/admin/setting/audit/settings',
      // A module's own routes (issue #52: each says what it changed).
      'POST /app/admin/actresses/{id}/movies',
      'POST /app/admin/collect/runs',
      'POST /app/admin/stats/rollup',
      'POST /app/admin/upload/image',
      'PUT /app/admin/comment/guestbook/{id}/reply',
    ]),
  );
  console.info(
    `audit coverage: ${kinds.changes.length} routes with their changes, ${kinds.route.length} route-level, ${kinds.read.length} read-only`,
  );
});
