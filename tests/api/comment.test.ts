import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startApi, type TestApi, USER_PASSWORD } from './harness';

/** Issue #14: comment and guestbook lists, threads, review transitions, the inline reply, roles and bad input. */
let api: TestApi;
let admin: string;
let user: string;
let movieId: number;
let alice: number;
const C = '/app/admin/comment/comments';
const G = '/app/admin/comment/guestbook';

const insertComment = async (over: Record<string, unknown> = {}) => {
  const o = {
    status: 'pending',
    content: '好看',
    parentId: null,
    reports: 0,
    address: '198.51.100.1',
    ...over,
  };
  const [r] = await api.query<{ id: number }>(sql`
    insert into comments (tenant, target_type, target_id, user_id, parent_id, content, status, reports, address)
    values (2, 'movie', ${movieId}, ${alice}, ${o.parentId}, ${o.content}, ${o.status}, ${o.reports}, ${o.address})
    returning id`);
  return r.id;
};
const insertEntry = async (content: string, reply = '') => {
  const [r] = await api.query<{ id: number }>(sql`
    insert into guestbook (tenant, user_id, content, status, reply, replied_at)
    values (2, ${alice}, ${content}, 'online', ${reply}, ${reply ? new Date() : null}) returning id`);
  return r.id;
};

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  await api.createOperator(admin, { account: 'reader' });
  user = await api.login('reader', USER_PASSWORD);
  const [m] = await api.query<{ id: number }>(
    sql`insert into movies (title, status) values ('评论测试片', 'online') returning id`,
  );
  movieId = m.id;
  const [u] = await api.query<{ id: number }>(
    sql`insert into site_users (tenant, account) values (2, 'alice') returning id`,
  );
  alice = u.id;
});
afterAll(() => api.close());

describe('comments', () => {
  test('the list names the target and the member, counts replies, filters and threads', async () => {
    const parent = await insertComment({ content: '父评论', reports: 2 });
    await insertComment({ content: '回复一', parentId: parent, status: 'online' });
    await insertComment({ content: '回复二', parentId: parent, status: 'online' });
    const r = await api.call('GET', `${C}?topLevel=true&reported=true`, { token: user });
    expect(r.body.code).toBe(20000);
    expect(r.body.data.list).toHaveLength(1);
    expect(r.body.data.list[0]).toMatchObject({
      id: parent,
      targetTitle: '评论测试片',
      userAccount: 'alice',
      replyCount: 2,
      reports: 2,
    });
    const replies = await api.call('GET', `${C}?parentId=${parent}&sort=createdAt&order=asc`, {
      token: user,
    });
    expect(replies.body.data.list.map((c: any) => c.content)).toEqual(['回复一', '回复二']);
    expect((await api.call('GET', `${C}?q=回复&status=online`, { token: user })).body.data.total).toBe(2);
    expect((await api.call('GET', `${C}?userId=${alice}`, { token: user })).body.data.total).toBe(3);
    expect(
      (await api.call('GET', `${C}?address=198.51.100.1&targetType=movie`, { token: user })).body.data.total,
    ).toBe(3);
  });

  test('review transitions follow the kit; delete is admin-only and takes replies with it', async () => {
    const id = await insertComment({ content: '待审' });
    const approve = await api.call('POST', `${C}/${id}/approve`, { token: user });
    expect(approve.body.data).toMatchObject({ status: 'online', version: 2 });
    expect((await api.call('POST', `${C}/${id}/approve`, { token: user })).body.code).toBe(40900);
    expect((await api.call('POST', `${C}/${id}/offline`, { token: user })).body.data.status).toBe('offline');
    expect(
      (await api.call('POST', `${C}/${id}/online`, { token: user, body: { version: 1 } })).body.code,
    ).toBe(40900);
    const other = await insertComment({ content: '另一条' });
    const reply = await insertComment({ content: '它的回复', parentId: other });
    const reject = await api.call('POST', `${C}/batch`, {
      token: user,
      body: { action: 'reject', ids: [other] },
    });
    expect(reject.body.code).toBe(40000); // a reason is needed
    const mixed = await api.call('POST', `${C}/batch`, {
      token: user,
      body: { action: 'reject', ids: [other, id], reason: '广告' },
    });
    expect(mixed.body.code).toBe(40900); // `id` is offline: nothing changes
    const [{ status }] = await api.query<{ status: string }>(
      sql`select status from comments where id = ${other}`,
    );
    expect(status).toBe('pending');
    const del = { action: 'delete', ids: [other] };
    expect((await api.call('POST', `${C}/batch`, { token: user, body: del })).body.code).toBe(40300);
    expect((await api.call('POST', `${C}/batch`, { token: admin, body: del })).body.data.changed).toBe(1);
    expect((await api.call('GET', `${C}/${reply}`, { token: user })).body.code).toBe(40400);
  });

  test('bad input is 40000 naming the field; no session is refused', async () => {
    for (const q of [
      'status=shown',
      'targetType=song',
      'reported=maybe',
      'sort=content',
      'createdFrom=yesterday',
      'x=1',
    ])
      expect(Object.keys((await api.call('GET', `${C}?${q}`, { token: user })).body.data.fields)).toEqual([
        q.split('=')[0],
      ]);
    const range = await api.call('GET', `${C}?createdFrom=2026-06-02&createdTo=2026-06-01`, { token: user });
    expect(Object.keys(range.body.data.fields)).toEqual(['createdTo']);
    expect((await api.call('GET', C)).body.code).toBe(50008);
    expect((await api.call('GET', G)).body.code).toBe(50008);
    expect((await api.call('GET', '/app/admin/comment/filters')).body.code).toBe(50008);
  });
});

describe('guestbook', () => {
  test('reply inline with the version read; replied and unreplied filter', async () => {
    const open = await insertEntry('求片');
    await insertEntry('已处理', '好的');
    const unreplied = await api.call('GET', `${G}?replied=false`, { token: user });
    expect(unreplied.body.data.list.map((e: any) => e.id)).toEqual([open]);
    const r = await api.call('PUT', `${G}/${open}/reply`, {
      token: user,
      body: { reply: '已上架', version: 1 },
    });
    expect(r.body.data).toMatchObject({
      reply: '已上架',
      version: 2,
      repliedAt: api.clock.now().toISOString(),
    });
    const stale = await api.call('PUT', `${G}/${open}/reply`, {
      token: user,
      body: { reply: '再答', version: 1 },
    });
    expect(stale.body.code).toBe(40900);
    expect((await api.call('GET', `${G}?replied=true`, { token: user })).body.data.total).toBe(2);
    const empty = await api.call('PUT', `${G}/${open}/reply`, {
      token: user,
      body: { reply: '  ', version: 2 },
    });
    expect(Object.keys(empty.body.data.fields)).toEqual(['reply']);
    expect(
      (await api.call('PUT', `${G}/999999/reply`, { token: user, body: { reply: 'x', version: 1 } })).body
        .code,
    ).toBe(40400);
  });

  test('guestbook review: hide and show, delete admin-only', async () => {
    const id = await insertEntry('隐藏我');
    expect((await api.call('POST', `${G}/${id}/offline`, { token: user })).body.data.status).toBe('offline');
    const del = { action: 'delete', ids: [id] };
    expect((await api.call('POST', `${G}/batch`, { token: user, body: del })).body.code).toBe(40300);
    expect((await api.call('POST', `${G}/batch`, { token: admin, body: del })).body.data.changed).toBe(1);
  });
});

describe('exact totals from the kept counts (migration 0111)', () => {
  /** Every (tenant, status, target type) whose kept count differs from the rows' count. */
  const drift = () =>
    api.query(sql`select tenant, status, target_type, top_level, reported, k.n as kept, r.n as counted
      from comment_counts k
      full join (select tenant, status, target_type, parent_id is null as top_level, reports > 0 as reported,
          count(*)::int as n from comments group by 1, 2, 3, 4, 5) r
        using (tenant, status, target_type, top_level, reported)
      where coalesce(k.n, 0) <> coalesce(r.n, 0)`);
  const total = async (query: string) => {
    const r = await api.call('GET', `${C}?${query}`, { token: user });
    expect(r.body.code, query).toBe(20000);
    return { total: r.body.data.total, totalExact: r.body.data.totalExact };
  };
  const counted = async (where: ReturnType<typeof sql>) =>
    (
      await api.query<{ n: number }>(
        sql`select count(*)::int as n from comments where tenant = 2 and ${where}`,
      )
    )[0].n;

  test('no filter, a status, a target type, top level, reported: exact beyond 10,000, kept through posts, reviews, reports, deletes and raw SQL', async () => {
    await api.query(sql`insert into comments (tenant, target_type, target_id, content, status, reports)
      select 2, (array['movie', 'novel'])[1 + i % 2], ${movieId}, '批量 ' || i,
        (array['pending', 'online', 'online', 'rejected'])[1 + i % 4], (i % 3 = 0)::int
      from generate_series(1, 10050) as i`);
    // Replies to some of them: not top level.
    await api.query(sql`insert into comments (tenant, target_type, target_id, content, status, parent_id)
      select 2, 'movie', ${movieId}, '批量回复 ' || id, 'online', id from comments
      where tenant = 2 and content like '批量 %' and id % 7 = 0`);
    try {
      expect(await drift()).toEqual([]);
      const all = await counted(sql`true`);
      expect(all).toBeGreaterThan(10_000);
      expect(await total('pageSize=20')).toEqual({ total: all, totalExact: true });
      expect(await total('status=online&pageSize=20')).toEqual({
        total: await counted(sql`status = 'online'`),
        totalExact: true,
      });
      expect(await total('targetType=novel&pageSize=20')).toEqual({
        total: await counted(sql`target_type = 'novel'`),
        totalExact: true,
      });
      expect(await total('status=pending&targetType=movie&pageSize=20')).toEqual({
        total: await counted(sql`status = 'pending' and target_type = 'movie'`),
        totalExact: true,
      });
      for (const [query, where] of [
        ['topLevel=true', sql`parent_id is null`],
        ['reported=true', sql`reports > 0`],
        ['reported=false&status=online', sql`reports = 0 and status = 'online'`],
        [
          'topLevel=true&reported=false&targetType=movie',
          sql`parent_id is null and reports = 0 and target_type = 'movie'`,
        ],
      ] as const)
        expect(await total(`${query}&pageSize=20`), query).toEqual({
          total: await counted(where),
          totalExact: true,
        });
      expect(await total('topLevel=false&pageSize=20')).toEqual({ total: all, totalExact: true });
      // Any other filter is counted up to the cap, as before.
      expect(await total('createdFrom=2000-01-01&pageSize=20')).toEqual({ total: 10_000, totalExact: false });
      // A review through the API, a thread deleted with its reply, raw SQL moves: the counts follow.
      const id = await insertComment({ content: '计数' });
      await api.call('POST', `${C}/${id}/approve`, { token: user });
      const reply = await insertComment({ content: '计数的回复', parentId: id });
      expect(reply).toBeGreaterThan(id);
      await api.call('POST', `${C}/batch`, { token: admin, body: { action: 'delete', ids: [id] } });
      await api.query(sql`update comments set status = 'offline', target_type = 'chapter'
        where tenant = 2 and content like '批量 1%'`);
      await api.query(sql`update comments set likes = likes + 1 where tenant = 2 and content like '批量 2%'`);
      await api.query(
        sql`update comments set reports = reports + 1 where tenant = 2 and content like '批量 3%'`,
      );
      await api.query(
        sql`update comments set parent_id = null where tenant = 2 and content like '批量回复 4%'`,
      );
      expect(await drift()).toEqual([]);
      expect(await total('status=offline&targetType=chapter&pageSize=20')).toEqual({
        total: await counted(sql`status = 'offline' and target_type = 'chapter'`),
        totalExact: true,
      });
    } finally {
      await api.query(sql`delete from comments where tenant = 2 and content like '批量%'`);
    }
    expect(await drift()).toEqual([]);
  });
});
