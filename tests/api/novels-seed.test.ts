import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { countWords } from '../../common/words';
import { seed } from '../../server/seed';
import { seedNovels } from '../../server/seed/novels';
import { startApi, type TestApi } from './harness';
import { expectCountsRight, N, okData } from './novels-helpers';

/** Issue #4: demo mode's novels come from the one seed generator, deterministic, with their counts right. */
let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

test('seed() makes novels in every status with chapters; counts match; online ones have chapters; once only', async () => {
  await seed(api.database.db, api.config, { seed: 42, movies: 5, actresses: 2, modules: [] });
  const token = await api.login();
  const all = await okData(api.call('GET', `${N}?pageSize=50`, { token }));
  expect(all.total).toBe(12);
  expect(new Set(all.list.map((n: any) => n.status))).toEqual(
    new Set(['pending', 'online', 'offline', 'rejected']),
  );
  for (const n of all.list.filter((x: any) => x.status === 'online'))
    expect(n.chapterCount).toBeGreaterThan(0);
  expect(all.list.find((n: any) => n.status === 'rejected').rejectReason).not.toBe('');
  await expectCountsRight(api, countWords);
  const [{ words }] = await api.query<{ words: number }>(
    sql`select sum(word_count)::int as words from novels`,
  );
  expect(words).toBeGreaterThan(10_000);
  const search = await okData(api.call('GET', `${N}?q=${encodeURIComponent('长安')}`, { token }));
  expect(search.list.map((n: any) => n.title)).toEqual(['长安夜雨']);
  expect(await seedNovels(api.database.db)).toEqual({ seeded: 0 });
});

test('the same seed writes the same chapters', async () => {
  const other = await startApi();
  try {
    await seedNovels(other.database.db, { seed: 42 });
    const q = sql`select n.title, c.number, c.title as chapter, c.word_count from novel_chapters c join novels n on n.id = c.novel_id order by n.id, c.number`;
    expect(await other.query(q)).toEqual(await api.query(q));
  } finally {
    await other.close();
  }
});
