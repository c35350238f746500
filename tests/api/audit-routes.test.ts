import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { adFixture, createAd, material } from './ad-helpers';
import { startApi, type TestApi } from './harness';
import { IMAGES } from './images-fixtures';
import { addChapter, createNovel } from './novels-helpers';
import { event, rollup, siteSender } from './stats-helpers';

/**
 * The modules' own mutating routes each write their own audit entry in the change's transaction (issue #52,
 * docs/audit.md): the record with its fields before and after, or the record and the ids it reached with the counts;
 * never the route-level `{body}` entry. One route (or two) per module.
 */
let api: TestApi;
let admin: string;
let tenant: number;

interface Row {
  section: string;
  resource: string;
  action: string;
  record_id: string | null;
  route: string;
  operator_account: string;
  changes: any;
}
const entries = () =>
  api.query<Row>(
    sql`select section, resource, action, record_id, route, operator_account, changes from audit_log order by id`,
  );
const ok = async (method: string, path: string, body?: unknown) => {
  const r = await api.call(method, `/app/admin${path}`, { token: admin, body });
  expect(r.body.code, JSON.stringify(r.body)).toBe(20000);
  return r.body.data;
};
const one = <T>(rows: T[]) => rows[0] as T;
const insert = async (q: ReturnType<typeof sql>) => Number(one(await api.query<{ id: number }>(q)).id);

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  tenant = api.config.defaultTenant;
});
afterAll(() => api.close());
beforeEach(async () => {
  await api.query(sql`select zg_audit_purge('infinity'::timestamptz)`);
});

/** The entries written since the last purge, none of them the route-level fallback. */
async function written() {
  const rows = await entries();
  expect(rows.filter((r) => r.action === 'route' || 'body' in r.changes)).toEqual([]);
  expect(rows.every((r) => r.operator_account === 'admin')).toBe(true);
  await api.query(sql`select zg_audit_purge('infinity'::timestamptz)`);
  return rows;
}

describe('a record and the others it reaches: ids and counts', () => {
  test('actresses: linking and unlinking movies names the actress and the movies', async () => {
    const actress = await insert(sql`insert into actresses (name) values ('审计演员') returning id`);
    const m1 = await insert(sql`insert into movies (title) values ('审计一') returning id`);
    const m2 = await insert(sql`insert into movies (title) values ('审计二') returning id`);
    await ok('POST', `/actresses/${actress}/movies`, { movieIds: [m1, m2, m1] });
    await ok('POST', `/actresses/${actress}/unlink-movies`, { movieIds: [m2] });
    const [link, unlink] = await written();
    expect(link).toMatchObject({
      section: 'actresses',
      resource: 'actresses',
      action: 'link-movies',
      record_id: String(actress),
      route: 'POST /app/admin/actresses/:id/movies',
    });
    expect(link.changes).toEqual({ ids: [m1, m2], count: 2, changed: 2, added: [m1, m2], movieCount: 2 });
    expect(unlink).toMatchObject({ action: 'unlink-movies', record_id: String(actress) });
    expect(unlink.changes).toEqual({ ids: [m2], count: 1, changed: 1, removed: [m2], movieCount: 1 });
  });

  test('ad: a replacement and its rollback list each link before and after', async () => {
    const fx = await adFixture(api, admin, 'audit');
    const ad = await createAd(api, admin, material(fx, { landingUrl: 'https://old.example.com/a' }));
    await written();
    const { changeSet } = await ok('POST', '/ad/replace', {
      mode: 'text',
      find: 'old.example.com',
      replace: 'new.example.com',
      ids: [ad.id],
    });
    await ok('POST', `/ad/changes/${changeSet.id}/rollback`);
    const [replace, rollback] = await written();
    expect(replace).toMatchObject({
      section: 'ad',
      resource: 'ad link replacement',
      action: 'replace',
      record_id: String(changeSet.id),
    });
    expect(replace.changes).toMatchObject({
      ids: [ad.id],
      count: 1,
      changed: 1,
      mode: 'text',
      find: 'old.example.com',
      replace: 'new.example.com',
      links: [{ id: ad.id, before: 'https://old.example.com/a', after: 'https://new.example.com/a' }],
    });
    expect(rollback).toMatchObject({ action: 'rollback', record_id: String(changeSet.id) });
    expect(rollback.changes.links).toEqual([
      { id: ad.id, before: 'https://new.example.com/a', after: 'https://old.example.com/a' },
    ]);
  });

  test('agents: binding domains names the agent, the domains bound and freed', async () => {
    const agent = await insert(
      sql`insert into agents (tenant, name, channel) values (${tenant}, '审计代理', 'aud01') returning id`,
    );
    const d1 = await insert(
      sql`insert into domains (tenant, hostname, registrable) values (${tenant}, 'a.audit.example', 'audit.example') returning id`,
    );
    const d2 = await insert(
      sql`insert into domains (tenant, hostname, registrable) values (${tenant}, 'b.audit.example', 'audit.example') returning id`,
    );
    await ok('PUT', `/agents/${agent}/domains`, { ids: [d1] });
    await ok('PUT', `/agents/${agent}/domains`, { ids: [d2] });
    const [first, second] = await written();
    expect(first).toMatchObject({ section: 'agents', action: 'bind-domains', record_id: String(agent) });
    expect(first.changes).toEqual({
      ids: [d1],
      count: 1,
      changed: 1,
      channel: 'aud01',
      bound: ['a.audit.example'],
      freed: [],
    });
    expect(second.changes).toMatchObject({
      ids: [d2, d1],
      bound: ['b.audit.example'],
      freed: ['a.audit.example'],
    });
  });

  test('domain: an import names the new domains; a batch its ids, what it asked and which changed', async () => {
    const report = await ok('POST', '/domain/domains/import', {
      text: 'one.import-audit.example\ntwo.import-audit.example',
    });
    expect(report.saved).toBe(2);
    const ids = (
      await api.query<{ id: number }>(
        sql`select id from domains where hostname like '%.import-audit.example' order by hostname desc`,
      )
    ).map((r) => Number(r.id));
    await ok('POST', '/domain/domains/batch', { action: 'status', ids, status: 'active' });
    // A dry run changes nothing and leaves nothing.
    await ok('POST', '/domain/domains/import', { text: 'three.import-audit.example', dryRun: true });
    const [imported, batch] = await written();
    expect(imported).toMatchObject({
      section: 'domain',
      resource: 'domains',
      action: 'import',
      record_id: null,
    });
    expect(imported.changes).toMatchObject({
      count: 2,
      changed: 2,
      hostnames: ['one.import-audit.example', 'two.import-audit.example'],
      status: 'standby',
    });
    expect([...imported.changes.ids].sort()).toEqual([...ids].sort());
    expect(batch).toMatchObject({ action: 'batch:status' });
    expect(batch.changes).toMatchObject({ count: 2, changed: 2, status: 'active' });
    expect([...batch.changes.changedIds].sort()).toEqual([...ids].sort());
  });

  test('domain: a swap names both domains and each field before and after; its dry run leaves nothing', async () => {
    const a = await insert(
      sql`insert into domains (tenant, hostname, registrable, channel, status) values (${tenant}, 'a.swap-audit.example', 'swap-audit.example', 'swp01', 'active') returning id`,
    );
    const b = await insert(
      sql`insert into domains (tenant, hostname, registrable, status) values (${tenant}, 'b.swap-audit.example', 'swap-audit.example', 'standby') returning id`,
    );
    const body = { channel: 'swp01', fromId: a, toId: b, reason: '被墙' };
    await ok('POST', '/domain/config/swap', { ...body, dryRun: true });
    await ok('POST', '/domain/config/swap', body);
    const [swap] = await written();
    expect(swap).toMatchObject({ resource: 'domain config', action: 'swap', record_id: String(a) });
    expect(swap.changes).toMatchObject({ ids: [a, b], channel: 'swp01', reason: '被墙' });
    expect(swap.changes.fields).toEqual(
      expect.arrayContaining([
        { id: a, hostname: 'a.swap-audit.example', field: 'channel', before: 'swp01', after: '' },
        { id: a, hostname: 'a.swap-audit.example', field: 'status', before: 'active', after: 'retired' },
        { id: b, hostname: 'b.swap-audit.example', field: 'channel', before: '', after: 'swp01' },
        { id: b, hostname: 'b.swap-audit.example', field: 'status', before: 'standby', after: 'active' },
      ]),
    );
  });

  test('movie: a tag merge names the surviving tag, the merged ones and the movies moved', async () => {
    const keep = await insert(sql`insert into movie_tags (name) values ('留下') returning id`);
    const gone = await insert(sql`insert into movie_tags (name, "group") values ('并入', 'g') returning id`);
    const movie = await insert(sql`insert into movies (title) values ('标签片') returning id`);
    await api.query(sql`insert into movie_tag_links (movie_id, tag_id) values (${movie}, ${gone})`);
    await ok('POST', `/movie/tags/${keep}/merge`, { ids: [gone] });
    const [merge] = await written();
    expect(merge).toMatchObject({
      section: 'movie',
      resource: 'movie tags',
      action: 'merge',
      record_id: String(keep),
    });
    expect(merge.changes).toMatchObject({
      ids: [gone],
      changed: 1,
      into: '留下',
      merged: [{ id: gone, name: '并入', group: 'g' }],
      movieIds: [movie],
    });
  });

  test('novel: a move is the chapter number before and after; a reorder names the chapters that moved', async () => {
    const n = await createNovel(api, admin, { title: '审计小说', author: '某' });
    const a = await addChapter(api, admin, n.id, '一', '甲');
    const b = await addChapter(api, admin, n.id, '二', '乙');
    const c = await addChapter(api, admin, n.id, '三', '丙');
    await written();
    await ok('POST', `/novel/chapters/${c.id}/move`, { direction: 'up' });
    await ok('POST', `/novel/novels/${n.id}/chapters/reorder`, { ids: [a.id, b.id, c.id] });
    const [move, reorder] = await written();
    expect(move).toMatchObject({
      section: 'novel',
      resource: 'chapters',
      action: 'move',
      record_id: String(c.id),
    });
    expect(move.changes).toEqual({
      before: { number: 3 },
      after: { number: 2 },
      novelId: n.id,
      swappedWith: b.id,
    });
    expect(reorder).toMatchObject({ action: 'reorder', record_id: String(n.id) });
    expect(reorder.changes).toEqual({ ids: [b.id, c.id], count: 2, changed: 2, chapters: 3 });
  });

  test('novel: a TXT import names the novel, the file and the new chapters', async () => {
    const n = await createNovel(api, admin, { title: '导入审计', author: '某' });
    await written();
    const f = new FormData();
    f.append(
      'file',
      new File([new TextEncoder().encode('第一章 起\n正文一\n第二章 承\n正文二\n')], 'book.txt'),
    );
    const r = await api.call('POST', `/app/admin/novel/novels/${n.id}/import`, { token: admin, raw: f });
    expect(r.body.code, JSON.stringify(r.body)).toBe(20000);
    const [imported] = await written();
    const chapters = (
      await api.query<{ id: number }>(
        sql`select id from novel_chapters where novel_id = ${n.id} order by number`,
      )
    ).map((x) => Number(x.id));
    expect(imported).toMatchObject({ action: 'import', record_id: String(n.id) });
    expect(imported.changes).toMatchObject({
      ids: chapters,
      count: 2,
      file: 'book.txt',
      encoding: 'utf-8',
      titles: ['第一章 起', '第二章 承'],
      chapterCount: 2,
    });
  });

  test('promotion apps: a reorder gives each moved app its position before and after', async () => {
    const app = (name: string) =>
      ok('POST', '/setting/promotion-apps', {
        name,
        url: `https://${name}.example`,
        os: 'ios',
        platforms: [2],
      });
    const x = await app('x');
    const y = await app('y');
    await written();
    await ok('POST', '/setting/promotion-apps/reorder', { ids: [y.id, x.id] });
    const [reorder] = await written();
    expect(reorder).toMatchObject({
      section: 'promotion-apps',
      resource: 'promotion apps',
      action: 'reorder',
    });
    expect(reorder.changes).toEqual({
      ids: [x.id, y.id],
      count: 2,
      changed: 2,
      sort: [
        { id: x.id, before: 1, after: 2 },
        { id: y.id, before: 2, after: 1 },
      ],
    });
  });
});

describe('a record before and after', () => {
  test('collect: bindings are each remote type before and after', async () => {
    const source = await insert(
      sql`insert into collect_sources (name, url) values ('审计站', 'https://res.example/api.php/provide/vod/') returning id`,
    );
    await ok('PUT', `/collect/sources/${source}/bindings`, {
      bindings: [{ remoteTypeId: 7, remoteTypeName: '电影', columnId: null, skipped: true }],
    });
    await ok('PUT', `/collect/sources/${source}/bindings`, {
      bindings: [{ remoteTypeId: 7, columnId: null, skipped: false }],
    });
    const [first, second] = await written();
    expect(first).toMatchObject({
      section: 'collect',
      resource: 'collect sources',
      action: 'bind-types',
      record_id: String(source),
    });
    expect(first.changes).toEqual({
      before: { 7: null },
      after: { 7: { name: '电影', columnId: null, skipped: true } },
    });
    expect(second.changes).toEqual({
      before: { 7: { name: '电影', columnId: null, skipped: true } },
      after: { 7: { name: '电影', columnId: null, skipped: false } },
    });
  });

  test('agents: a settlement is the agent’s entry, the settled period and its figures after', async () => {
    const agent = await ok('POST', '/agents', {
      name: '结算',
      channel: 'settle-a',
      model: 'share',
      rate: 10,
    });
    const send = await siteSender(api, admin);
    await send([
      event({ visitor: 's1', channel: 'settle-a', time: '2026-05-20T02:00:00Z' }),
      event({ visitor: 's1', type: 'recharge', amount: 10, time: '2026-05-21T02:00:00Z' }),
    ]);
    await rollup(api, admin);
    await written();
    const made = await ok('POST', `/agents/stat/${agent.id}/settlements`, {
      from: '2026-05-20',
      to: '2026-05-21',
    });
    const [settle] = await written();
    expect(settle).toMatchObject({
      section: 'agents',
      resource: 'agents',
      action: 'settle',
      record_id: String(agent.id),
    });
    expect(settle.changes.after).toMatchObject({
      id: made.id,
      agentId: agent.id,
      from: '2026-05-20',
      to: '2026-05-21',
      rechargeAmount: made.rechargeAmount,
      commission: made.commission,
    });
  });

  test('collect: starting a run is the run’s entry, with what it was asked to do', async () => {
    // An app whose outbound fetch always fails: the run starts (the entry is the start's), then fails on its own.
    const other = await startApi({}, { outbound: async () => Promise.reject(new Error('offline')) });
    try {
      const token = await other.login();
      const [src] = await other.query<{ id: number }>(
        sql`insert into collect_sources (name, url) values ('审计站', 'https://res.example/api.php/provide/vod/') returning id`,
      );
      const r = await other.call('POST', '/app/admin/collect/runs', {
        token,
        body: { sourceId: src.id, kind: 'keyword', keyword: '审计', dryRun: true },
      });
      expect(r.body.code, JSON.stringify(r.body)).toBe(20000);
      for (
        let i = 0;
        i < 400 &&
        (await other.call('GET', `/app/admin/collect/runs/${r.body.data.id}`, { token })).body.data.status ===
          'running';
        i++
      )
        await new Promise((res) => setTimeout(res, 25));
      const rows = await other.query<Row>(
        sql`select section, resource, action, record_id, route, operator_account, changes from audit_log where section = 'collect'`,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        resource: 'collect runs',
        action: 'start',
        record_id: String(r.body.data.id),
      });
      expect(rows[0].changes).toEqual({
        after: {
          sourceId: src.id,
          sourceName: '审计站',
          kind: 'keyword',
          params: { keyword: '审计' },
          dryRun: true,
        },
      });
    } finally {
      await other.close();
    }
  });

  test('comment: a guestbook reply is the reply, its time and its author before and after', async () => {
    const entry = await insert(
      sql`insert into guestbook (tenant, content, status) values (${tenant}, '留言', 'online') returning id`,
    );
    await ok('PUT', `/comment/guestbook/${entry}/reply`, { reply: '谢谢', version: 1 });
    const [reply] = await written();
    const [op] = await api.query<{ id: number }>(sql`select id from operators where account = 'admin'`);
    expect(reply).toMatchObject({
      section: 'comment',
      resource: 'guestbook',
      action: 'reply',
      record_id: String(entry),
    });
    expect(reply.changes).toEqual({
      before: { reply: '', repliedAt: null, repliedBy: null },
      after: { reply: '谢谢', repliedAt: api.clock.now().toISOString(), repliedBy: op.id },
    });
  });

  test('comment: applying a filter names the items it changed and what it found', async () => {
    await ok('PUT', '/comment/filters/guestbook', {
      version: 0,
      enabled: true,
      reviewFirst: false,
      loginRequired: false,
      userInterval: 0,
      addressInterval: 0,
      maskWords: [],
      blockWords: ['坏词'],
      holdWords: [],
      blacklist: [],
    });
    const bad = await insert(
      sql`insert into guestbook (tenant, content, status) values (${tenant}, '有坏词的留言', 'online') returning id`,
    );
    await written();
    await ok('POST', '/comment/filters/guestbook/apply', { version: 1 });
    const [apply] = await written();
    expect(apply).toMatchObject({ resource: 'comment filter', action: 'apply', record_id: 'guestbook' });
    expect(apply.changes).toMatchObject({ ids: [bad], changed: 1, version: 1, block: 1 });
  });

  test('statistics: adopting a keyword is the record’s aliases before and after; the rollup says what it did', async () => {
    const actress = await insert(
      sql`insert into actresses (name, aliases) values ('采纳', array['旧名']) returning id`,
    );
    await ok('POST', '/stats/keywords/adopt', {
      keyword: '新名',
      target: 'actress',
      id: actress,
      as: 'alias',
    });
    await ok('POST', '/stats/rollup');
    const [adopt, rollup] = await written();
    expect(adopt).toMatchObject({
      section: 'statistics',
      resource: 'actresses',
      action: 'adopt-keyword',
      record_id: String(actress),
    });
    expect(adopt.changes).toEqual({
      before: { aliases: ['旧名'] },
      after: { aliases: ['旧名', '新名'] },
      keyword: '新名',
    });
    expect(rollup).toMatchObject({ resource: 'statistics', action: 'rollup', record_id: null });
    expect(rollup.changes.after).toMatchObject({ ran: true, stuck: [] });
    expect(Array.isArray(rollup.changes.after.days)).toBe(true);
  });

  test('images: an upload is written outside a transaction, its entry after it: the file’s path, name, size, type', async () => {
    const f = new FormData();
    f.append('file', new File([IMAGES.png as Uint8Array<ArrayBuffer>], 'logo.png'));
    const r = await api.call('POST', '/app/admin/upload/image', { token: admin, raw: f });
    expect(r.body.code, JSON.stringify(r.body)).toBe(20000);
    const [upload] = await written();
    expect(upload).toMatchObject({ section: 'images', action: 'upload', record_id: r.body.data.path });
    expect(upload.changes).toEqual({
      after: {
        path: r.body.data.path,
        name: 'logo.png',
        size: IMAGES.png.length,
        type: 'image/png',
        width: 3,
        height: 2,
      },
    });
  });
});
