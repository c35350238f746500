import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { seed } from '../../server/seed';
import { startApi, type TestApi } from './harness';

/** Issue #52: the sample data bound domains to channels ag1006 and ag1010, which no agent had. */
let api: TestApi;

beforeAll(async () => {
  api = await startApi();
  await seed(api.database.db, api.config, { movies: 10, actresses: 2, now: api.clock.now() });
});
afterAll(() => api.close());

test('every channel the seed binds a domain or a member to is an agent’s', async () => {
  const bound = await api.query<{ channel: string; n: number }>(
    sql`select channel, count(*)::int as n from domains where channel is not null group by channel`,
  );
  expect(bound.length).toBeGreaterThan(0);
  const orphans = await api.query<{ channel: string }>(
    sql`select distinct c.channel from (
        select channel from domains where channel is not null and channel <> ''
        union all select channel from site_users where channel <> '') c
      where not exists (select 1 from agents a where a.channel = c.channel)`,
  );
  expect(orphans).toEqual([]);
});
