import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fieldLabel, hasMessage, translate } from '../../server/core/i18n';
import { startApi, type TestApi } from './harness';

/**
 * Every field a public or admin route validates has a name in both languages (`label.<field>`): the walk reads the
 * OpenAPI document (each request body's properties, nested ones included, and each query parameter), so a field added
 * later without a name fails here rather than showing its key to an operator or a site developer.
 */
let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

function resolve(doc: any, schema: any): any {
  let s = schema;
  for (let i = 0; s?.$ref && i < 10; i++)
    s = s.$ref
      .split('/')
      .slice(1)
      .reduce((o: any, k: string) => o?.[k], doc);
  return s;
}

/** The property names of a schema and of every schema inside it (objects, arrays, unions). */
function propertyNames(doc: any, schema: any, into: Set<string>, seen = new Set<any>()) {
  const s = resolve(doc, schema);
  if (!s || typeof s !== 'object' || seen.has(s)) return;
  seen.add(s);
  for (const [name, sub] of Object.entries<any>(s.properties ?? {})) {
    into.add(name);
    propertyNames(doc, sub, into, seen);
  }
  if (s.items) propertyNames(doc, s.items, into, seen);
  if (s.additionalProperties && typeof s.additionalProperties === 'object')
    propertyNames(doc, s.additionalProperties, into, seen);
  for (const k of ['anyOf', 'oneOf', 'allOf'])
    for (const sub of s[k] ?? []) propertyNames(doc, sub, into, seen);
}

describe('field names', () => {
  test('every field of every public and admin route has a zh-CN and an en-US name', async () => {
    const doc = (await api.call('GET', '/app/openapi.json')).body;
    const fields = new Map<string, string>();
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      if (!path.startsWith('/app/admin/') && !path.startsWith('/app/site/')) continue;
      for (const [method, op] of Object.entries<any>(ops)) {
        const names = new Set<string>();
        propertyNames(doc, op.requestBody?.content?.['application/json']?.schema, names);
        for (const p of op.parameters ?? []) if (p.in === 'query') names.add(p.name);
        for (const n of names) if (!fields.has(n)) fields.set(n, `${method.toUpperCase()} ${path}`);
      }
    }
    expect(fields.size).toBeGreaterThan(100);
    const missing = [...fields].filter(([n]) => !hasMessage(`label.${n}`)).map(([n, at]) => `${n} (${at})`);
    expect(missing).toEqual([]);
    // en-US is typed key by key against zh-CN: a name in one is a name in the other.
    for (const n of fields.keys()) expect(fieldLabel('en-US', n), n).not.toBe(n);
  });

  test('a period is said as its start and end dates, not a target', () => {
    expect(fieldLabel('zh-CN', 'from')).toBe('开始日期');
    expect(fieldLabel('zh-CN', 'to')).toBe('结束日期');
    expect(fieldLabel('en-US', 'from')).toBe('Start date');
    expect(fieldLabel('en-US', 'to')).toBe('End date');
    expect(translate('zh-CN', 'label.userId')).toBe('会员');
  });
});
