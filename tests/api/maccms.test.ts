/**
 * The MacCMS move (issue #51) from a real MariaDB: a private mariadbd (tests/fixtures/maccms/mariadb.ts) loaded with
 * MacCMS v10's published schema and sample rows written here, hostile ones included, moved into a fresh database of
 * ours. Skipped, with one line saying so, where mariadbd is not installed.
 */
import { createHash } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { sql } from 'drizzle-orm';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../server/db/migrate';
import type { Database } from '../../server/db/types';
import { consumeLegacyPassword, verifyLegacyPassword } from '../../server/modules/users/legacy-password';
import { vodKind } from '../../server/node/maccms/kinds';
import type { MoveReport } from '../../server/node/maccms/report';
import { type MoveOptions, moveMaccms } from '../../server/node/maccms/run';
import { openMysql, type Source } from '../../server/node/maccms/source';
import { countDrift } from '../../server/seed/bulk';
import { mariadbInstalled, type PrivateMariadb, startMariadb } from '../fixtures/maccms/mariadb';
import { freshDatabase } from './harness';

const NOW = new Date('2026-06-01T08:00:00Z');
const md5 = (s: string) => createHash('md5').update(s).digest('hex');
/** Text as a latin1 connection would have written it into a utf8 table: each byte of `bytes` one character. */
const asLatin1 = (bytes: Buffer) => bytes.toString('latin1');

if (!mariadbInstalled)
  console.warn('maccms.test.ts: skipped, mariadbd is not installed (apt-get install mariadb-server)');

describe.skipIf(!mariadbInstalled)('MacCMS move from MariaDB', () => {
  let maria: PrivateMariadb;
  let source: Source;
  const dbs: Database[] = [];

  async function fresh() {
    const d = await freshDatabase({ migrated: true });
    dbs.push(d);
    return d;
  }
  const run = (database: Database, extra: Partial<MoveOptions> = {}) =>
    moveMaccms({ db: database.db, source, sourceName: 'test', tenant: 2, now: NOW, ...extra });
  const q = async <T = Record<string, any>>(d: Database, query: ReturnType<typeof sql>) =>
    rowsOf<T>(await d.db.execute(query));
  const table = (r: MoveReport, name: string) => {
    const t = r.tables.find((x) => x.table === name);
    if (!t) throw new Error(`no ${name} in the report`);
    return t;
  };
  const linesOf = (r: MoveReport, name: string, id: number) =>
    table(r, name)
      .lines.filter((l) => l.id === id)
      .map((l) => `${l.outcome}:${l.reason}`);

  beforeAll(async () => {
    maria = await startMariadb();
    const c = maria.conn;
    await c.query(`INSERT INTO mac_type (type_id, type_name, type_sort, type_mid, type_pid, type_status, type_extend) VALUES
      (1, '电影', 1, 1, 0, 1, ''), (2, '动作片', 2, 1, 1, 1, ''), (3, '资讯', 1, 2, 0, 1, ''),
      (4, '专题', 1, 3, 0, 1, ''), (5, '隐藏片', 9, 1, 0, 0, ''), (6, '电影', 3, 1, 0, 1, '')`);
    await c.query(`INSERT INTO mac_actor (actor_id, actor_name, actor_alias, actor_status, actor_height, actor_birthday,
      actor_pic, actor_time_add, actor_content) VALUES
      (1, '林青', '小青,Lin', 1, '165', '1993-08-16', 'https://img.example/a1.jpg', 1500000000, '<p>演员简介</p>'),
      (2, '', '', 1, '', '', '', 0, '')`);
    const vod = (o: Record<string, unknown>) => ({
      type_id: 2,
      vod_status: 1,
      vod_content: '',
      vod_play_from: '',
      vod_play_url: '',
      vod_down_url: '',
      vod_plot_name: '',
      vod_plot_detail: '',
      vod_time_add: 1600000000,
      ...o,
    });
    const vods = [
      vod({
        vod_id: 1,
        vod_name: '长安十二时辰',
        vod_tag: '古装,悬疑',
        vod_class: '剧情',
        vod_actor: '林青,新人甲/新人甲，新人乙',
        vod_pic: 'https://img.example/1.jpg',
        vod_hits: 1234,
        vod_up: 5,
        vod_level: 1,
        vod_duration: '45',
        vod_pubdate: '2019-06-27',
        vod_play_from: 'm3u8$$$mp4',
        vod_play_url:
          '第1集$https://v.example/1.m3u8#第2集$https://v.example/2.m3u8$$$正片$https://v.example/1.mp4',
        vod_content: '<p>好剧<script>alert(1)</script></p>',
      }),
      vod({
        vod_id: 2,
        vod_name: '空集',
        vod_status: 0,
        vod_time_add: 0,
        vod_play_from: 'm3u8',
        vod_play_url: '第1集$#第2集$https://v.example/a.m3u8##',
      }),
      vod({ vod_id: 3, vod_name: asLatin1(Buffer.from('庆余年', 'utf8')) }),
      vod({ vod_id: 4, vod_name: asLatin1(iconv.encode('甄嬛传', 'gbk')) }),
      vod({ vod_id: 5, vod_name: '' }),
      vod({ vod_id: 6, vod_name: '驳回片', vod_status: 2, vod_audit_remark: '画质差', type_id: 99 }),
      vod({
        vod_id: 8,
        vod_name: '坏图',
        vod_pic: 'javascript:alert(1)',
        vod_play_from: 'xx',
        vod_play_url: 'a$b c',
      }),
      vod({ vod_id: 9, vod_name: '长安十二时辰' }), // a duplicate title: two movies, as in MacCMS
    ];
    for (const v of vods) await c.query('INSERT INTO mac_vod SET ?', [v]);
    await c.query(`INSERT INTO mac_art (art_id, type_id, art_name, art_status, art_title, art_note, art_content, art_time_add)
      VALUES (1, 3, '新闻一', 1, '开篇$$$续篇', '', '<p>第一页</p>$$$<p>第二页</p>', 1600000000)`);
    const bob = bcrypt.hashSync('hunter22', 4).replace(/^\$2b\$/, '$2y$');
    await c.query(
      `INSERT INTO mac_user (user_id, group_id, user_name, user_pwd, user_status, user_points, user_reg_time, user_reg_ip,
        user_end_time, user_email) VALUES
      (1, '2', 'alice', ?, 1, 10, 1500000000, 16909060, 0, 'a@example.com'),
      (2, '3', 'bob', ?, 1, 0, 1500000001, 0, 1900000000, ''),
      (3, '2', 'alice', ?, 1, 0, 1500000002, 0, 0, ''),
      (4, '2', 'carol', '', 0, 0, 0, 0, 0, ''),
      (5, '2', 'ALICE', '', 1, 0, 1500000003, 0, 0, ''),
      (6, '2', 'ＡＤＭＩＮ', '', 1, 0, 1500000004, 0, 0, ''),
      (7, '2', 'admin', '', 1, 0, 1500000005, 0, 0, ''),
      (8, '2', 'Ｃａｒｏｌ', '', 1, 0, 1500000006, 0, 0, '')`,
      [md5('secret1'), bob, md5('x')],
    );
    await c.query(`INSERT INTO mac_comment (comment_id, comment_mid, comment_rid, comment_pid, user_id, comment_status,
      comment_name, comment_time, comment_content, comment_up) VALUES
      (1, 1, 1, 0, 1, 1, 'alice', 1600000100, '好看', 3),
      (2, 1, 1, 1, 0, 0, '游客', 1600000200, '同意', 0),
      (3, 1, 999, 0, 1, 1, 'alice', 1600000300, '视频没了', 0),
      (4, 1, 1, 3, 1, 1, 'alice', 1600000400, '回复孤儿', 0),
      (5, 3, 1, 0, 1, 1, 'alice', 1600000500, '专题评论', 0),
      (6, 1, 1, 0, 77, 1, '老会员', 1600000600, '会员已删', 0),
      (7, 2, 1, 0, 2, 1, 'bob', 0, '文章评论', 0)`);
    // A guestbook kept in a latin1 column, as old GBK-era sites did: its bytes are GBK, or broken.
    await c.query(
      'ALTER TABLE mac_gbook MODIFY gbook_content varchar(255) CHARACTER SET latin1 NOT NULL DEFAULT ""',
    );
    // Buffers are sent as hex literals: binary strings, stored in the latin1 column byte for byte.
    await c.query(
      `INSERT INTO mac_gbook (gbook_id, gbook_rid, user_id, gbook_status, gbook_name, gbook_time, gbook_reply_time,
      gbook_content, gbook_reply) VALUES
      (1, 0, 2, 1, 'bob', 1600000000, 1600000500, ?, '谢谢'),
      (2, 999, 0, 0, '路人', 1600000000, 0, ?, ''),
      (3, 1, 0, 1, '路人', 1600000000, 0, ?, '')`,
      [
        iconv.encode('网站很好', 'gbk'),
        Buffer.from([0x41, 0xe4, 0xb8, 0x42, 0xff]),
        Buffer.from('第2集打不开', 'utf8'),
      ],
    );
    await c.query(
      `INSERT INTO mac_link (link_id, link_name, link_url) VALUES (1, '友链', 'https://a.example')`,
    );
    source = await openMysql(maria.url);
  });

  afterAll(async () => {
    await source?.close();
    for (const d of dbs) await d.close();
    await maria?.close();
  });

  it('moves each table to its home and reports every hostile row', async () => {
    const d = await fresh();
    const r = await run(d);
    // Columns: the tree, its order and hidden state; video and article types to their own trees; a topic type skipped;
    // a second root "电影" merged into the first.
    const cols = await q(d, sql`select id, parent_id, name, sort, visible from movie_columns order by id`);
    expect(cols.map((c) => [c.name, c.sort, c.visible])).toEqual([
      ['电影', 1, true],
      ['隐藏片', 9, false],
      ['动作片', 2, true],
    ]);
    expect(cols[2].parent_id).toBe(cols[0].id);
    expect((await q(d, sql`select name from novel_columns`)).map((c) => c.name)).toEqual(['资讯']);
    expect(linesOf(r, 'mac_type', 4)).toEqual(['skipped:kindNotMoved']);
    expect(linesOf(r, 'mac_type', 6)).toEqual(['note:duplicateName']);

    // The series: fields, status, tags, actresses by name (linked to the moved mac_actor row, others created once),
    // cover, every line and episode on a source per line code (created with an empty base URL), hits as views.
    const [m] = await q(
      d,
      sql`select m.*, c.name as col from movies m left join movie_columns c on c.id = m.column_id where title = '长安十二时辰' order by m.id limit 1`,
    );
    expect(m).toMatchObject({
      col: '动作片',
      status: 'online',
      cover: 'https://img.example/1.jpg',
      views: 1234,
      likes: 5,
      duration: 2700,
      release_date: '2019-06-27',
      recommended: true,
    });
    expect(m.description).toBe('<p>好剧</p>');
    expect(new Date(m.published_at).toISOString()).toBe('2020-09-13T12:26:40.000Z');
    const tags = await q(
      d,
      sql`select t.name from movie_tag_links l join movie_tags t on t.id = l.tag_id where l.movie_id = ${m.id} order by t.name`,
    );
    expect(tags.map((t) => t.name).sort()).toEqual(['剧情', '古装', '悬疑'].sort());
    const acts = await q(
      d,
      sql`select a.name, a.height from movie_actresses l join actresses a on a.id = l.actress_id where l.movie_id = ${m.id} order by a.id`,
    );
    expect(acts).toEqual([
      { name: '林青', height: 165 },
      { name: '新人甲', height: null },
      { name: '新人乙', height: null },
    ]);
    const plays = await q(
      d,
      sql`select s.code, s.base_url, p.line, p.name, p.path, p.sort from movie_plays p join video_sources s on s.id = p.source_id
        where p.movie_id = ${m.id} order by p.line, p.sort`,
    );
    expect(plays).toEqual([
      { code: 'm3u8', base_url: '', line: 0, name: '第1集', path: 'https://v.example/1.m3u8', sort: 0 },
      { code: 'm3u8', base_url: '', line: 0, name: '第2集', path: 'https://v.example/2.m3u8', sort: 1 },
      { code: 'mp4', base_url: '', line: 1, name: '正片', path: 'https://v.example/1.mp4', sort: 0 },
    ]);
    expect(linesOf(r, 'mac_vod', 1)).toContain('fixed:html');
    expect(
      table(r, 'mac_vod')
        .lines.filter((l) => l.reason === 'sourceCreated')
        .map((l) => l.detail)
        .sort(),
    ).toEqual(['m3u8', 'mp4']);
    // Two MacCMS rows of one title stay two movies.
    expect((await q(d, sql`select count(*)::int as n from movies where title = '长安十二时辰'`))[0].n).toBe(
      2,
    );

    // Hostile rows: empty episodes, zero date, both mojibakes, empty title, missing type + rejected, bad cover.
    expect(linesOf(r, 'mac_vod', 2)).toEqual(['cut:episodes', 'note:zeroDate']);
    const [empty] = await q(d, sql`select status, created_at from movies where title = '空集'`);
    expect(empty.status).toBe('pending');
    expect(new Date(empty.created_at).toISOString()).toBe(NOW.toISOString());
    expect(
      (await q(d, sql`select count(*)::int as n from movies where title in ('庆余年', '甄嬛传')`))[0].n,
    ).toBe(2);
    expect(linesOf(r, 'mac_vod', 3)).toContain('fixed:utf8Mojibake');
    expect(linesOf(r, 'mac_vod', 4)).toContain('fixed:gbkMojibake');
    expect(linesOf(r, 'mac_vod', 5)).toEqual(['skipped:emptyName']);
    expect(linesOf(r, 'mac_vod', 6)).toEqual(['note:columnMissing', 'note:noEpisodes']);
    expect(
      await q(d, sql`select status, reject_reason, column_id from movies where title = '驳回片'`),
    ).toEqual([{ status: 'rejected', reject_reason: '画质差', column_id: null }]);
    expect(linesOf(r, 'mac_vod', 8)).toEqual(['cut:episodes', 'note:noEpisodes', 'cut:badUrl']);
    expect(table(r, 'mac_vod')).toMatchObject({ total: 8, read: 8, created: 7, skipped: 1, updated: 0 });

    // Actresses: the empty name skipped.
    expect(linesOf(r, 'mac_actor', 2)).toEqual(['skipped:emptyName']);
    expect((await q(d, sql`select aliases, birthday, avatar from actresses where name = '林青'`))[0]).toEqual(
      {
        aliases: ['小青', 'Lin'],
        birthday: '1993-08-16',
        avatar: 'https://img.example/a1.jpg',
      },
    );

    // An article's pages become chapters.
    const chapters = await q(
      d,
      sql`select c.number, c.title, c.content from novel_chapters c join novels n on n.id = c.novel_id where n.title = '新闻一' order by c.number`,
    );
    expect(chapters).toEqual([
      { number: 1, title: '开篇', content: '第一页' },
      { number: 2, title: '续篇', content: '第二页' },
    ]);

    // Members: status, VIP with expiry, points, addresses, the legacy hash; a second "alice" refused; a zero date.
    const users = await q(
      d,
      sql`select account, "group", vip_level, vip_expires_at, points, status, signup_address, legacy_password from site_users where tenant = 2 order by id`,
    );
    expect(users.map((u) => [u.account, u.group, u.vip_level, u.points, u.status, u.signup_address])).toEqual(
      [
        ['alice', 'normal', 0, 10, 'active', '1.2.3.4'],
        ['bob', 'vip', 1, 0, 'active', ''],
        ['carol', 'normal', 0, 0, 'disabled', ''],
        ['ALICE', 'normal', 0, 0, 'active', ''],
        ['ＡＤＭＩＮ', 'normal', 0, 0, 'active', ''],
        ['admin', 'normal', 0, 0, 'active', ''],
        ['Ｃａｒｏｌ', 'normal', 0, 0, 'active', ''],
      ],
    );
    expect(new Date(users[1].vip_expires_at).toISOString()).toBe('2030-03-17T17:46:40.000Z');
    expect(users[0].legacy_password).toBe(md5('secret1'));
    expect(linesOf(r, 'mac_user', 3)).toEqual(['skipped:accountTaken']);
    expect(linesOf(r, 'mac_user', 4)).toEqual(['note:zeroDate']);
    // Look-alike accounts (one folded key) are all moved; the key, which refuses a look-alike signup later, goes to
    // the lowest user_id and the others are listed.
    expect(await q(d, sql`select account, account_key from site_users where tenant = 2 order by id`)).toEqual(
      [
        { account: 'alice', account_key: 'alice' },
        { account: 'bob', account_key: 'bob' },
        { account: 'carol', account_key: 'carol' },
        { account: 'ALICE', account_key: null },
        { account: 'ＡＤＭＩＮ', account_key: 'admin' },
        { account: 'admin', account_key: null },
        { account: 'Ｃａｒｏｌ', account_key: null },
      ],
    );
    expect(table(r, 'mac_user').lines.filter((l) => l.reason === 'lookalike')).toEqual([
      { id: 5, outcome: 'note', reason: 'lookalike', detail: 'ALICE ~ alice' },
      { id: 7, outcome: 'note', reason: 'lookalike', detail: 'admin ~ ＡＤＭＩＮ' },
      { id: 8, outcome: 'note', reason: 'lookalike', detail: 'Ｃａｒｏｌ ~ carol' },
    ]);
    expect(table(r, 'mac_user')).toMatchObject({ read: 8, created: 7, skipped: 1, failed: 0 });

    // Comments: linked to members and content, replies to their parent, states; orphans and unknown kinds listed.
    const comments = await q(
      d,
      sql`select c.content, c.target_type, c.status, c.guest_name, u.account, p.content as parent, c.likes
        from comments c left join site_users u on u.id = c.user_id left join comments p on p.id = c.parent_id order by c.id`,
    );
    expect(comments).toEqual([
      {
        content: '好看',
        target_type: 'movie',
        status: 'online',
        guest_name: '',
        account: 'alice',
        parent: null,
        likes: 3,
      },
      {
        content: '同意',
        target_type: 'movie',
        status: 'pending',
        guest_name: '游客',
        account: null,
        parent: '好看',
        likes: 0,
      },
      {
        content: '会员已删',
        target_type: 'movie',
        status: 'online',
        guest_name: '老会员',
        account: null,
        parent: null,
        likes: 0,
      },
      {
        content: '文章评论',
        target_type: 'novel',
        status: 'online',
        guest_name: '',
        account: 'bob',
        parent: null,
        likes: 0,
      },
    ]);
    expect(linesOf(r, 'mac_comment', 3)).toEqual(['skipped:orphanTarget']);
    expect(linesOf(r, 'mac_comment', 4)).toEqual(['skipped:orphanParent']);
    expect(linesOf(r, 'mac_comment', 5)).toEqual(['skipped:kindNotMoved']);
    expect(linesOf(r, 'mac_comment', 6)).toEqual(['note:memberGone']);
    expect(linesOf(r, 'mac_comment', 7)).toEqual(['note:zeroDate']);

    // Guestbook: a reply with its time, GBK bytes decoded, broken bytes replaced and said, a broken-video report.
    const gb = await q(
      d,
      sql`select g.content, g.reply, g.replied_at, g.kind, g.status, m.title, u.account from guestbook g
        left join movies m on m.id = g.movie_id left join site_users u on u.id = g.user_id order by g.id`,
    );
    expect(gb.map((g) => [g.content, g.reply, g.kind, g.status, g.title, g.account])).toEqual([
      ['网站很好', '谢谢', 'message', 'online', null, 'bob'],
      ['A\ufffdB\ufffd', '', 'message', 'pending', null, null],
      ['第2集打不开', '', 'broken', 'online', '长安十二时辰', null],
    ]);
    expect(gb[0].replied_at).not.toBeNull();
    expect(linesOf(r, 'mac_gbook', 1)).toEqual(['fixed:gbk']);
    expect(linesOf(r, 'mac_gbook', 2)).toEqual(['fixed:badUtf8', 'note:brokenVideoGone']);

    // Friend links and topics have no home: listed as not moved.
    expect(table(r, 'mac_link')).toMatchObject({ total: 1, skipped: 1 });
    expect(linesOf(r, 'mac_link', 0)).toEqual(['skipped:noHome']);
  });

  it('a second run updates nothing, then picks up a change and a new row', async () => {
    const d = await fresh();
    await run(d);
    const counts = async () =>
      (
        await q(
          d,
          sql`select (select count(*) from movies)::int as movies, (select count(*) from movie_plays)::int as plays,
            (select count(*) from actresses)::int as actresses, (select count(*) from movie_tags)::int as tags,
            (select count(*) from site_users)::int as users, (select count(*) from comments)::int as comments,
            (select count(*) from guestbook)::int as guestbook, (select count(*) from novel_chapters)::int as chapters,
            (select count(*) from movie_columns)::int as columns, (select count(*) from video_sources)::int as sources`,
        )
      )[0];
    const before = await counts();
    const again = await run(d);
    expect(await counts()).toEqual(before);
    for (const t of again.tables.filter((x) => !['mac_link', 'mac_topic'].includes(x.table))) {
      expect(t, t.table).toMatchObject({ created: 0, updated: 0, failed: 0 });
      expect(t.unchanged + t.skipped, t.table).toBe(t.read);
    }
    expect(table(again, 'mac_vod').unchanged).toBe(7);

    await maria.conn.query(
      `UPDATE mac_vod SET vod_name = '长安十二时辰(修订)', vod_play_url = '第1集$https://v.example/1b.m3u8$$$正片$https://v.example/1.mp4' WHERE vod_id = 1`,
    );
    await maria.conn.query(
      `INSERT INTO mac_vod SET vod_id = 10, type_id = 1, vod_name = '新片', vod_status = 1, vod_content = '', vod_play_url = '',
        vod_down_url = '', vod_plot_name = '', vod_plot_detail = '', vod_time_add = 1600000000`,
    );
    try {
      const third = await run(d, { only: ['vod'] });
      expect(table(third, 'mac_vod')).toMatchObject({ created: 1, updated: 1, unchanged: 6 });
      expect(third.tables.map((t) => t.table)).toEqual(['mac_vod']);
      const [m] = await q(d, sql`select id, version from movies where title = '长安十二时辰(修订)'`);
      expect(m.version).toBe(2);
      expect(
        await q(d, sql`select name, path from movie_plays where movie_id = ${m.id} order by line, sort`),
      ).toEqual([
        { name: '第1集', path: 'https://v.example/1b.m3u8' },
        { name: '正片', path: 'https://v.example/1.mp4' },
      ]);
      expect((await counts()).movies).toBe(before.movies + 1);
    } finally {
      await maria.conn.query(
        `UPDATE mac_vod SET vod_name = '长安十二时辰', vod_play_url = '第1集$https://v.example/1.m3u8#第2集$https://v.example/2.m3u8$$$正片$https://v.example/1.mp4' WHERE vod_id = 1`,
      );
      await maria.conn.query('DELETE FROM mac_vod WHERE vod_id = 10');
    }
  });

  const snapshot = async (d: Database) =>
    q(
      d,
      sql`select 'movie' as k, title as a, status as b, (select string_agg(name || path, ',' order by line, sort) from movie_plays p where p.movie_id = m.id) as c from movies m
        union all select 'user', account, status || ' ' || coalesce(account_key, '-'), coalesce(legacy_password, '') from site_users
        union all select 'comment', content, status, coalesce((select content from comments p where p.id = c.parent_id), '') from comments c
        union all select 'map', kind, maccms_id::text, '' from maccms_ids
        union all select 'tags', title, array_to_string(array(select t.name from movie_tags t where t.id = any(m.tag_ids) order by t.name), ','), '' from movies m
        union all select 'actress', name, movie_count::text, '' from actresses
        union all select 'tag', name, item_count::text, '' from movie_tags
        union all select 'column', name, item_count::text, '' from movie_columns
        order by 1, 2, 3, 4`,
    );
  /** What the bulk path sets aside and must put back: indexes, keys and enabled triggers of the movie tables. */
  const shape = (d: Database) =>
    q(
      d,
      sql`select pg_get_indexdef(indexrelid) as def from pg_index
          where indrelid in ('movies'::regclass, 'movie_plays'::regclass, 'movie_tag_links'::regclass, 'movie_actresses'::regclass)
        union all select conrelid::regclass::text || ' ' || conname::text || ' ' || pg_get_constraintdef(oid) from pg_constraint
          where conrelid in ('movies'::regclass, 'movie_plays'::regclass, 'movie_tag_links'::regclass, 'movie_actresses'::regclass)
        union all select tgrelid::regclass::text || ' ' || tgname::text || ' ' || tgenabled::text from pg_trigger
          where tgrelid in ('movies'::regclass, 'movie_plays'::regclass, 'movie_tag_links'::regclass, 'movie_actresses'::regclass)
            and not tgisinternal
        order by 1`,
    );

  it('a first move of many rows into an empty target (bulk path) ends as the ordinary one; stopped, it leaves nothing', async () => {
    const clean = await fresh();
    await run(clean, { batchSize: 2 });
    const bulk = await fresh();
    const before = await shape(bulk);
    const said: string[] = [];
    await expect(
      run(bulk, {
        batchSize: 2,
        bulkFrom: 1,
        progress: (l) => said.push(l),
        beforeCommit: (kind, batch) => {
          if (kind === 'vod' && batch === 2) throw new Error('killed');
        },
      }),
    ).rejects.toThrow('killed');
    // One transaction for the whole table: nothing of it stays, and its indexes, keys and triggers are all back.
    expect((await q(bulk, sql`select count(*)::int as n from movies`))[0].n).toBe(0);
    expect(await shape(bulk)).toEqual(before);
    await run(bulk, { batchSize: 2, bulkFrom: 1, progress: (l) => said.push(l) });
    expect(said).toContain('maccms: mac_vod indexes, keys and counts');
    expect(await snapshot(bulk)).toEqual(await snapshot(clean));
    expect(await shape(bulk)).toEqual(before);
    expect(await countDrift(bulk.db)).toEqual([]);
    // The play ids it handed out itself: one each, and the sequence goes on after them.
    const [ids] = await q(
      bulk,
      sql`select count(*)::int as n, count(distinct id)::int as distinct, max(id) as max,
        nextval(pg_get_serial_sequence('movie_plays', 'id')) as next from movie_plays`,
    );
    expect(ids.distinct).toBe(ids.n);
    expect(Number(ids.next)).toBeGreaterThan(Number(ids.max));
    // A second run finds every row unchanged (the same digests) and takes the ordinary path.
    const again = await run(bulk, { only: ['vod'], bulkFrom: 1 });
    expect(table(again, 'mac_vod')).toMatchObject({ created: 0, updated: 0, unchanged: 7 });
  });

  it('movies deleted here after a move are moved again by the bulk path, their old mapping rows replaced', async () => {
    const d = await fresh();
    await run(d, { batchSize: 2 });
    await d.db.execute(sql`delete from movies`);
    // Each vod mapping row now names a movie that is gone: the bulk path must not trip over them.
    expect((await q(d, sql`select count(*)::int as n from maccms_ids where kind = 'vod'`))[0].n).toBe(7);
    const r = await run(d, { only: ['vod'], batchSize: 2, bulkFrom: 1 });
    expect(table(r, 'mac_vod')).toMatchObject({ created: 7, failed: 0 });
    const [m] = await q(
      d,
      sql`select count(*)::int as n, count(*) filter (where not exists (select 1 from movies where id = m.our_id))::int as gone
        from maccms_ids m where kind = 'vod'`,
    );
    expect(m).toEqual({ n: 7, gone: 0 });
    expect((await q(d, sql`select count(*)::int as n from movies`))[0].n).toBe(7);
    const again = await run(d, { only: ['vod'], bulkFrom: 1 });
    expect(table(again, 'mac_vod')).toMatchObject({ created: 0, updated: 0, unchanged: 7 });
  });

  it('a run stopped half way and started again ends as one clean run', async () => {
    const clean = await fresh();
    await run(clean, { batchSize: 2 });
    const killed = await fresh();
    await expect(
      run(killed, {
        batchSize: 2,
        beforeCommit: (kind, batch) => {
          if (kind === 'vod' && batch === 2) throw new Error('killed');
        },
      }),
    ).rejects.toThrow('killed');
    // What committed before the stop is there (two batches of two), nothing of the stopped batch.
    expect((await q(killed, sql`select count(*)::int as n from movies`))[0].n).toBe(4);
    await run(killed, { batchSize: 2 });
    expect(await snapshot(killed)).toEqual(await snapshot(clean));
  });

  it.each([
    ['ordinary', undefined],
    ['bulk', 1],
  ])('a row the database refuses is counted failed with its reason; its batch and the run go on (%s path)', async (_, bulkFrom) => {
    const d = await fresh();
    await d.db.execute(sql`create function maccms_test_refuse() returns trigger language plpgsql as $$
      begin if new.title = '空集' then raise exception 'refused for the test'; end if; return new; end $$`);
    await d.db.execute(
      sql`create trigger maccms_test_refuse before insert on movies for each row execute function maccms_test_refuse()`,
    );
    const r = await run(d, { only: ['type', 'vod', 'comment'], bulkFrom });
    expect(table(r, 'mac_vod')).toMatchObject({ read: 8, created: 6, failed: 1, skipped: 1 });
    expect(table(r, 'mac_vod').lines.find((l) => l.id === 2)).toMatchObject({
      outcome: 'failed',
      reason: 'error',
      detail: expect.stringContaining('refused for the test'),
    });
    expect(table(r, 'mac_comment').created).toBe(3); // the article's comment waits for its article (not in --only)
    await d.db.execute(sql`drop trigger maccms_test_refuse on movies`);
    const again = await run(d, { only: ['vod'] });
    expect(table(again, 'mac_vod')).toMatchObject({ created: 1, unchanged: 6, failed: 0 });
  });

  it('--dry-run writes nothing but reports what it would do; --only moves only the tables named', async () => {
    const d = await fresh();
    const r = await run(d, { dryRun: true });
    expect(r.dryRun).toBe(true);
    expect(table(r, 'mac_vod').created).toBe(7);
    expect(table(r, 'mac_comment').created).toBe(4); // later tables saw the earlier ones, as a real run
    expect(
      (
        await q(
          d,
          sql`select (select count(*) from movies)::int + (select count(*) from site_users)::int + (select count(*) from maccms_ids)::int
            + (select count(*) from movie_columns)::int + (select count(*) from video_sources)::int as n`,
        )
      )[0].n,
    ).toBe(0);

    const only = await run(d, { only: ['user'] });
    expect(only.tables.map((t) => t.table)).toEqual(['mac_user']);
    expect((await q(d, sql`select count(*)::int as n from site_users`))[0].n).toBe(7);
    expect((await q(d, sql`select count(*)::int as n from movies`))[0].n).toBe(0);

    // The site settings of maccms.php land in the tenant's settings, beside what was there.
    await d.db.execute(
      sql`insert into system_settings (tenant, data) values (2, '{"imgdomain":"https://img.example"}')`,
    );
    const conf = await run(d, { only: ['config'], settings: { siteName: '我的影院', siteKeywords: '电影' } });
    expect(conf.tables).toEqual([]);
    expect(conf.settings).toEqual({ siteName: '我的影院', siteKeywords: '电影' });
    expect((await q(d, sql`select data from system_settings where tenant = 2`))[0].data).toEqual({
      imgdomain: 'https://img.example',
      siteName: '我的影院',
      siteKeywords: '电影',
    });
  });

  it('reads from MariaDB only the columns the kinds name, and no kind reads one it did not name', async () => {
    const d = await fresh();
    const absent = new Set<string>();
    const selected = new Map<string, number>();
    const watched: Source = {
      ...source,
      has: (t) => source.has(t),
      size: (t, pk) => source.size(t, pk),
      async batch(table, pk, after, limit, columns) {
        const rows = await source.batch(table, pk, after, limit, columns);
        for (const r of rows) selected.set(table, Object.keys(r).length);
        return rows.map(
          (r) =>
            new Proxy(r, {
              get(target, key, receiver) {
                if (typeof key === 'string' && !(key in target)) absent.add(`${table}.${key}`);
                return Reflect.get(target, key, receiver);
              },
            }),
        );
      },
    };
    const r = await moveMaccms({ db: d.db, source: watched, sourceName: 'test', tenant: 2, now: NOW });
    expect(table(r, 'mac_vod').created).toBeGreaterThan(0);
    expect([...absent]).toEqual([]);
    // mac_vod has 87 columns; the move reads those it moves.
    expect(selected.get('mac_vod')).toBe(vodKind().columns.length);
  });

  it("a member's MacCMS password verifies once, then is gone", async () => {
    const d = await fresh();
    await run(d, { only: ['user'] });
    const [alice] = await q<{ id: number }>(d, sql`select id from site_users where account = 'alice'`);
    const [bob] = await q<{ id: number }>(d, sql`select id from site_users where account = 'bob'`);
    expect(await consumeLegacyPassword(d.db, 2, alice.id, 'wrong')).toBe(false);
    expect(await consumeLegacyPassword(d.db, 3, alice.id, 'secret1')).toBe(false); // another tenant's member
    expect(await consumeLegacyPassword(d.db, 2, alice.id, 'secret1')).toBe(true);
    expect(await consumeLegacyPassword(d.db, 2, alice.id, 'secret1')).toBe(false);
    expect(await consumeLegacyPassword(d.db, 2, bob.id, 'hunter22')).toBe(true); // bcrypt `$2y$`
    expect(
      await q(d, sql`select legacy_password from site_users where id in (${alice.id}, ${bob.id})`),
    ).toEqual([{ legacy_password: null }, { legacy_password: null }]);
  });
});

describe('legacy password forms (MacCMS v10 mac_verify_password)', () => {
  it('accepts md5, md5 of the escaped form, bcrypt and plain; never an md5 sent as the password', () => {
    expect(verifyLegacyPassword('secret1', md5('secret1'))).toBe(true);
    expect(verifyLegacyPassword('secret1', md5('secret1').toUpperCase())).toBe(true);
    expect(verifyLegacyPassword(' a&b ', md5('a&amp;b'))).toBe(true);
    expect(verifyLegacyPassword('secret2', md5('secret1'))).toBe(false);
    expect(verifyLegacyPassword('pw', bcrypt.hashSync('pw', 4).replace('$2b$', '$2y$'))).toBe(true);
    expect(verifyLegacyPassword('pw2', bcrypt.hashSync('pw', 4))).toBe(false);
    expect(verifyLegacyPassword('plain-old', 'plain-old')).toBe(true);
    expect(verifyLegacyPassword(md5('x'), md5('x'))).toBe(false);
    expect(verifyLegacyPassword('', '')).toBe(false);
  });
});
