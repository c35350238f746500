import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { COUNT_CAP } from '../../common/paging';
import { containsPattern } from '../../server/core/shared';
import { learnTerm, termCounterTotal } from '../../server/modules/comment/terms';
import { onPostgres, startApi, type TestApi } from './harness';

/**
 * Issue #18: a content search of the comments list that matches more than the count cap learns its total (migration
 * 0121, comment/terms.ts), alone and within a status, kept exact by triggers through every write, learned without
 * locking the site's writers out.
 */
let api: TestApi;
let admin: string;
const C = '/app/admin/comment/comments';
const T = 2; // the tenant of the admin's site

const list = async (query: string) => {
  const r = await api.call('GET', `${C}?${query}`, { token: admin });
  expect(r.body.code, JSON.stringify(r.body)).toBe(20000);
  return r.body.data;
};

/** The comments whose content contains `q` in any case (the list's own test), per status. */
async function real(q: string) {
  const rows = await api.query<{ status: string; n: number }>(
    sql`select status, count(*)::int as n from comments where tenant = ${T} and content ilike ${containsPattern(q)}
      group by status order by status`,
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/** The kept counts of `term`, per status (zeros left out). */
async function kept(term: string) {
  const rows = await api.query<{ status: string; n: number }>(
    sql`select status, n from comment_search_counts where tenant = ${T} and term = ${term} and n <> 0 order by status`,
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

const terms = async () =>
  api.query<{ term: string; ready: boolean; common: boolean }>(
    sql`select term, ready, common from comment_search_terms where tenant = ${T} order by term`,
  );

const matchesOf = (q: string) =>
  sql`select status from comments where tenant = ${T} and content ilike ${containsPattern(q)}`;

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  // COUNT_CAP + 600 "The Ending" comments in four statuses, every tenth a reply; and a few hundred others.
  await api.query(sql`insert into comments (tenant, target_type, target_id, content, status, created_at)
    select ${T}, 'movie', 1 + i % 7, case when i % 3 = 0 then 'The ENDING #' else 'what an ending #' end || i,
      (array['online', 'pending', 'rejected', 'offline'])[1 + i % 4],
      timestamp '2026-01-01' + i * interval '1 minute'
    from generate_series(1, ${COUNT_CAP + 600}) as i`);
  await api.query(sql`insert into comments (tenant, target_type, target_id, parent_id, content)
    select ${T}, 'movie', 1, i, '回复 ending ' || i from generate_series(1, 300) as i`);
  await api.query(sql`insert into comments (tenant, target_type, target_id, content)
    select ${T}, 'novel', 2, '好看 #' || i from generate_series(1, 400) as i`);
});
afterAll(() => api?.close());

describe('learning a content search', () => {
  test('a search over the cap learns its total: exact, alone and within each status', async () => {
    expect(await terms()).toEqual([]);
    const all = await real('ending');
    const total = Object.values(all).reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(COUNT_CAP);
    const first = await list('q=Ending&sort=createdAt&order=desc&pageSize=20');
    expect(first).toMatchObject({ total, totalExact: true });
    expect(await terms()).toEqual([{ term: 'ending', ready: true, common: false }]);
    expect(await kept('ending')).toEqual(all);
    for (const status of ['online', 'pending', 'rejected', 'offline'])
      expect(await list(`q=ending&status=${status}&pageSize=10`), status).toMatchObject({
        total: all[status],
        totalExact: true,
      });
    // Its pages, read by walking the sort index, are the table's.
    for (const page of [1, 3, 40]) {
      const got = await list(`q=ending&status=pending&sort=createdAt&order=desc&pageSize=20&page=${page}`);
      const expected = await api.query<{ id: number }>(
        sql`select id from comments where tenant = ${T} and status = 'pending' and content ilike '%ending%'
          order by created_at desc, id desc limit 20 offset ${(page - 1) * 20}`,
      );
      expect(got.list.map((c: any) => c.id)).toEqual(expected.map((r) => r.id));
    }
    // Under the cap, or beside another filter, nothing is learned.
    expect(await list(`q=${encodeURIComponent('好看')}&pageSize=10`)).toMatchObject({
      total: 400,
      totalExact: true,
    });
    expect(await list('q=ending&targetType=movie&pageSize=10')).toMatchObject({
      total: COUNT_CAP,
      totalExact: false,
    });
    expect((await terms()).map((t) => t.term)).toEqual(['ending']);
  });

  test('every kind of write keeps the kept counts exact', async () => {
    await api.query(sql`insert into comments (tenant, target_type, target_id, content, status)
      values (${T}, 'movie', 3, 'no end', 'online'), (${T}, 'movie', 3, 'the ending again', 'pending')`);
    const [some] = await api.query<{ ids: number[] }>(
      sql`select array_agg(id) as ids from (select id from comments where content ilike '%ending%'
        and status = 'pending' order by id limit 5) as x`,
    );
    const review = await api.call('POST', `${C}/batch`, {
      token: admin,
      body: { action: 'approve', ids: some.ids },
    });
    expect(review.body.code, JSON.stringify(review.body)).toBe(20000);
    await api.query(sql`update comments set status = 'offline' where status = 'online' and id % 11 = 0`);
    await api.query(sql`update comments set content = 'rewritten' where content like 'what an ending #1%'`);
    await api.query(sql`update comments set content = content || ' (ending)' where content like '好看 #1%'`);
    await api.query(sql`update comments set likes = likes + 1`);
    // A parent deleted takes its replies with it (ON DELETE CASCADE fires the delete trigger too).
    await api.query(sql`delete from comments where id in (1, 2, 3)`);
    await api.query(sql`delete from comments where content like 'The ENDING #2%'`);
    expect(await kept('ending')).toEqual(await real('ending'));
    const all = await real('ending');
    expect(await list('q=ending&pageSize=10')).toMatchObject({
      total: Object.values(all).reduce((a, b) => a + b, 0),
      totalExact: true,
    });
  });

  test('a term matching too many is marked common: not kept, not tried again; the least recently searched leave', async () => {
    const limits = { kept: 2, upTo: 500, waitMs: 2_000 };
    expect(await learnTerm(api.database.db, T, 'What', matchesOf('what'), limits)).toBe(false);
    expect(await terms()).toContainEqual({ term: 'what', ready: false, common: true });
    expect(await kept('what')).toEqual({});
    expect(await termCounterTotal(api.database.db, T, 'what')).toBe('common');
    // The list counts it as before ("10,000+" would need more; here its capped count is exact), learning nothing.
    const r = await list('q=what&pageSize=10');
    expect(r.totalExact).toBe(true);
    expect(await terms()).toContainEqual({ term: 'what', ready: false, common: true });
    // Two kept at most: "好看" sends the least recently searched ("ending") away with its counts.
    await api.query(sql`update comment_search_terms set used_on = date '2026-01-01' where term = 'ending'`);
    expect(await learnTerm(api.database.db, T, '好看', matchesOf('好看'), limits)).toBe(true);
    expect((await terms()).map((t) => t.term)).toEqual(['what', '好看']);
    expect(await kept('ending')).toEqual({});
    expect(await kept('好看')).toEqual(await real('好看'));
    // Learning again changes nothing (the last step is idempotent).
    expect(await learnTerm(api.database.db, T, '好看', matchesOf('好看'), limits)).toBe(true);
    expect(await kept('好看')).toEqual(await real('好看'));
  });

  test.runIf(onPostgres)(
    'a learner waits for the writes in flight, counting each once; past its wait it leaves the term for later',
    async () => {
      const url = (api.database as { url?: string }).url;
      const writer = new pg.Client({ connectionString: url });
      await writer.connect();
      try {
        // A write in flight before the term is known: its trigger did not count it.
        await writer.query('begin');
        await writer.query(
          `insert into comments (tenant, target_type, target_id, content, status) values (${T}, 'movie', 5, 'in flight: ending', 'pending')`,
        );
        const learning = learnTerm(api.database.db, T, 'flight', matchesOf('flight'), {
          kept: 10,
          upTo: 100_000,
          waitMs: 10_000,
        });
        await new Promise((resolve) => setTimeout(resolve, 300));
        // Registered, still waiting; a write after registration counts itself.
        expect(await terms()).toContainEqual({ term: 'flight', ready: false, common: false });
        await api.query(sql`insert into comments (tenant, target_type, target_id, content, status)
        values (${T}, 'movie', 5, 'after: flight', 'online')`);
        await writer.query('commit');
        expect(await learning).toBe(true);
        expect(await kept('flight')).toEqual({ online: 1, pending: 1 });
        // A long transaction that writes no comment does not hold a learner back.
        await writer.query('begin');
        await writer.query(`insert into site_users (tenant, account) values (2, 'long-txn')`);
        expect(
          await learnTerm(api.database.db, T, 'flight', matchesOf('flight'), {
            kept: 10,
            upTo: 100_000,
            waitMs: 200,
          }),
        ).toBe(true);
        await writer.query('rollback');
        // A writer held past the wait: the learner gives up, the term stays not ready; the next search finishes it.
        await writer.query('begin');
        await writer.query(
          `insert into comments (tenant, target_type, target_id, content) values (${T}, 'movie', 5, 'slow ending')`,
        );
        expect(
          await learnTerm(api.database.db, T, 'slow', matchesOf('slow'), {
            kept: 10,
            upTo: 100_000,
            waitMs: 200,
          }),
        ).toBe(false);
        expect(await terms()).toContainEqual({ term: 'slow', ready: false, common: false });
        expect(await termCounterTotal(api.database.db, T, 'slow')).toBeUndefined();
        await writer.query('commit');
        expect(
          await learnTerm(api.database.db, T, 'slow', matchesOf('slow'), {
            kept: 10,
            upTo: 100_000,
            waitMs: 200,
          }),
        ).toBe(true);
        expect(await kept('slow')).toEqual(await real('slow'));
      } finally {
        await writer.end();
      }
    },
  );
});
