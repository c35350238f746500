import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fieldLabel } from '../../server/core/i18n';
import { startApi, type TestApi } from './harness';

/**
 * Issue #17 "Errors an operator can read": a field error names the field by its name in the request's language
 * (never its key), says what to do, and a value another record holds is a field error too. The walk covers every
 * create and edit route of the OpenAPI document, so a field added later without a name fails here.
 */
let api: TestApi;
let admin: string;
beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
});
afterAll(() => api.close());

const call = (method: string, path: string, body: unknown, locale = 'zh-CN') =>
  api.call(method, path, { token: admin, body, headers: { 'Accept-Language': locale } });

/** A field key or path as code spells it: `baseUrl`, `plays.0.path`, `name` among Chinese text. */
const RAW_KEY = /(^|[^A-Za-z])([a-z]+[A-Z]\w*|[a-z]+(\.\w+)+)([^A-Za-z]|$)/;

describe('a value another record holds', () => {
  test('a duplicate tag, source code or operator account: 40900 naming the field, in both languages', async () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['/app/admin/movie/tags', { name: '重复标签' }, 'name', '名称'],
      [
        '/app/admin/movie/sources',
        { name: 'S', code: 'dup-src', baseUrl: 'https://a.example', type: 'mp4' },
        'code',
        '代码',
      ],
      [
        '/app/admin/operators',
        { account: 'dupacct', password: 'Pass-word-1', role: 'user' },
        'account',
        '账号',
      ],
    ];
    for (const [path, body, field, label] of cases) {
      expect((await call('POST', path, body)).body.code, path).toBe(20000);
      const zh = await call('POST', path, body);
      expect(zh.body.code).toBe(40900);
      expect(zh.body.msg).toBe(`${label}：已被其他记录使用，请换一个`);
      expect(zh.body.data.fields).toEqual({ [field]: '已被其他记录使用，请换一个' });
      const en = await call('POST', path, body, 'en-US');
      expect(en.body.msg).toBe(
        `${fieldLabel('en-US', field)}: Already used by another record: choose another`,
      );
    }
  });
});

describe('field names in messages', () => {
  test('a path is said with names and positions', async () => {
    const r = await call('POST', '/app/admin/movie/movies', {
      title: 'x',
      plays: [{ sourceId: 1, path: ' ' }],
    });
    expect(r.body.code).toBe(40000);
    expect(r.body.msg).toMatch(/^播放条目 · 第 1 项 · 路径：/);
    const en = await call('POST', '/app/admin/movie/movies', { title: 'x', platforms: [3] }, 'en-US');
    expect(en.body.msg).toBe('Platforms › item 1: Does not exist');
  });

  test('every create and edit route names every field it refuses, in both languages', async () => {
    const doc = (await api.call('GET', '/app/openapi.json')).body;
    const routes: [string, string, Record<string, unknown>][] = [];
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      if (!path.startsWith('/app/admin/') || path.endsWith('/batch')) continue;
      for (const method of ['post', 'put']) {
        const schema = ops[method]?.requestBody?.content?.['application/json']?.schema;
        if (!schema) continue;
        const props = schema.properties ?? resolve(doc, schema.$ref)?.properties ?? {};
        routes.push([method.toUpperCase(), path.replace(/\{id\}/g, '1'), props]);
      }
    }
    expect(routes.length).toBeGreaterThan(15);
    const unnamed = new Set<string>();
    for (const [method, path, props] of routes) {
      // Every property of a wrong type at once: each field the route takes gets its own error.
      const wrong = Object.fromEntries(Object.keys(props).map((k) => [k, { wrong: true }]));
      for (const body of [{}, wrong]) {
        for (const locale of ['zh-CN', 'en-US']) {
          const r = await call(method, path, body, locale);
          if (r.body.code !== 40000) continue;
          for (const field of Object.keys(r.body.data.fields ?? {}))
            if (RAW_KEY.test(fieldLabel(locale as 'zh-CN', field)) || fieldLabel('zh-CN', field) === field)
              unnamed.add(`${method} ${path}: ${field}`);
          expect(r.body.msg, `${method} ${path}`).not.toMatch(/\[object Object\]|undefined/);
        }
      }
    }
    expect([...unnamed]).toEqual([]);
  });
});

function resolve(doc: any, ref?: string) {
  if (!ref) return undefined;
  return ref
    .split('/')
    .slice(1)
    .reduce((o: any, k) => o?.[k], doc);
}
