import { expect } from 'vitest';
import type { TestApi } from './harness';

/** Shared set-up of the movies test files: a few columns, tags and sources made through the API. */
export interface MovieFixture {
  columns: Record<string, number>;
  tags: Record<string, number>;
  sources: Record<string, number>;
}

export async function okData(p: Promise<{ body: any }>, what = 'call') {
  const r = await p;
  expect(r.body.code, `${what} → ${JSON.stringify(r.body)}`).toBe(20000);
  return r.body.data;
}

export async function makeFixture(api: TestApi, admin: string): Promise<MovieFixture> {
  const post = (path: string, body: unknown) => okData(api.call('POST', path, { token: admin, body }), path);
  const columns: Record<string, number> = {};
  columns.movies = (await post('/app/admin/movie/columns', { name: '电影', sort: 1 })).id;
  columns.series = (await post('/app/admin/movie/columns', { name: '剧集', sort: 2 })).id;
  columns.action = (await post('/app/admin/movie/columns', { name: '动作', parentId: columns.movies })).id;
  columns.empty = (await post('/app/admin/movie/columns', { name: '空栏目' })).id;
  const tags: Record<string, number> = {};
  for (const [key, name, group] of [
    ['hot', '热门', 'mood'],
    ['new', '新片', 'mood'],
    ['hd', '高清', 'quality'],
    ['dup', '高清版', 'quality'],
  ])
    tags[key] = (await post('/app/admin/movie/tags', { name, group })).id;
  const sources: Record<string, number> = {};
  sources.cdn1 = (
    await post('/app/admin/movie/sources', {
      name: '线路一',
      code: 'cdn1',
      baseUrl: 'https://v1.example.com/hls/',
    })
  ).id;
  sources.cdn2 = (
    await post('/app/admin/movie/sources', {
      name: '线路二',
      code: 'cdn2',
      baseUrl: 'https://v2.example.com',
      type: 'mp4',
      priority: 5,
    })
  ).id;
  return { columns, tags, sources };
}

export async function createMovie(api: TestApi, token: string, body: Record<string, unknown>) {
  return okData(
    api.call('POST', '/app/admin/movie/movies', { token, body }),
    `create ${JSON.stringify(body)}`,
  );
}
