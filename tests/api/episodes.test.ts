import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  formatPlayLines,
  MAX_EPISODES,
  MAX_LINES,
  parseEpisodeList,
  parsePlayLines,
} from '../../common/episodes';
import { migrate } from '../../server/db/migrate';
import { databaseBefore, startApi, type TestApi } from './harness';
import { createMovie, type MovieFixture, makeFixture, okData } from './movies-helpers';

/** Episodes (issue #49): MacCMS's `vod_play_from` / `vod_play_url` notation, and a movie's lines of episodes. */

describe("MacCMS's notation", () => {
  test('lines in vod_play_from order, episodes in their order, names kept', () => {
    const { value, problems } = parsePlayLines(
      'm3u8$$$mp4',
      '第1集$https://a.example/1.m3u8#第2集$https://a.example/2.m3u8$$$正片$https://b.example/x.mp4',
    );
    expect(problems).toEqual([]);
    expect(value).toEqual([
      {
        code: 'm3u8',
        episodes: [
          { name: '第1集', url: 'https://a.example/1.m3u8' },
          { name: '第2集', url: 'https://a.example/2.m3u8' },
        ],
      },
      { code: 'mp4', episodes: [{ name: '正片', url: 'https://b.example/x.mp4' }] },
    ]);
  });

  test('odd separators: doubled and trailing #, line breaks, a nameless episode, a $ in a name', () => {
    const { value, problems } = parseEpisodeList(
      '第1集$https://a.example/1.m3u8##第2集$https://a.example/2.m3u8#\r\nhttps://a.example/3.m3u8\n第$4$集$https://a.example/4.m3u8#',
    );
    expect(problems).toEqual([]);
    expect(value).toEqual([
      { name: '第1集', url: 'https://a.example/1.m3u8' },
      { name: '第2集', url: 'https://a.example/2.m3u8' },
      { name: '', url: 'https://a.example/3.m3u8' },
      { name: '第$4$集', url: 'https://a.example/4.m3u8' },
    ]);
  });

  test('each bad piece is named with its line, place and reason; the good ones stay', () => {
    const { value, problems } = parsePlayLines(
      'm3u8$$$bad code$$$mp4$$$extra',
      `第1集$javascript:alert(1)#第2集$#第3集$https://a.example/3.m3u8#${'名'.repeat(65)}$https://a.example/4.m3u8$$$x$https://b.example/x$$$正片$https://c.example/c.mp4`,
    );
    expect(value.map((l) => l.code)).toEqual(['m3u8', 'mp4']);
    expect(value[0].episodes).toEqual([{ name: '第3集', url: 'https://a.example/3.m3u8' }]);
    expect(problems.map((p) => [p.line, p.piece, p.reason])).toEqual([
      [0, 0, 'badUrl'],
      [0, 1, 'noUrl'],
      [0, 3, 'nameTooLong'],
      [1, -1, 'badCode'],
      [3, -1, 'codeWithoutLine'],
    ]);
  });

  test('a URL line without a code is kept and reported; more lines than the bound are cut and reported', () => {
    const one = parsePlayLines('', 'https://a.example/1.m3u8');
    expect(one.value).toEqual([{ code: '', episodes: [{ name: '', url: 'https://a.example/1.m3u8' }] }]);
    expect(one.problems.map((p) => p.reason)).toEqual(['lineWithoutCode']);
    const many = parsePlayLines(
      Array.from({ length: MAX_LINES + 3 }, (_, i) => `c${i}`).join('$$$'),
      Array.from({ length: MAX_LINES + 3 }, (_, i) => `https://a.example/${i}`).join('$$$'),
    );
    expect(many.value).toHaveLength(MAX_LINES);
    expect(many.problems.map((p) => [p.line, p.reason])).toEqual([[MAX_LINES, 'tooManyLines']]);
  });

  test('episodes past the bound are cut and reported once', () => {
    const text = Array.from({ length: MAX_EPISODES + 5 }, (_, i) => `${i}$https://a.example/${i}`).join('#');
    const { value, problems } = parseEpisodeList(text);
    expect(value).toHaveLength(MAX_EPISODES);
    expect(problems.map((p) => [p.piece, p.reason])).toEqual([[MAX_EPISODES, 'tooManyEpisodes']]);
  });

  test('formatting reads back to the same lines; separators inside names do not break it', () => {
    const lines = [
      {
        code: 'm3u8',
        episodes: [
          { name: '第1集', url: 'https://a.example/1.m3u8' },
          { name: 'a#b$c', url: 'https://a.example/2.m3u8' },
          { name: '', url: 'https://a.example/3.m3u8' },
        ],
      },
      { code: 'mp4', episodes: [{ name: 'HD', url: 'v/2.mp4' }] },
    ];
    const { from, url } = formatPlayLines(lines);
    expect(from).toBe('m3u8$$$mp4');
    const back = parsePlayLines(from, url);
    expect(back.problems).toEqual([]);
    expect(back.value[0].episodes[1].name).toBe('a b c');
    expect(back.value.map((l) => l.episodes.map((e) => e.url))).toEqual(
      lines.map((l) => l.episodes.map((e) => e.url)),
    );
  });
});

describe('a movie’s lines of episodes', () => {
  let api: TestApi;
  let admin: string;
  let fx: MovieFixture;
  const M = '/app/admin/movie/movies';
  beforeAll(async () => {
    api = await startApi();
    admin = await api.login();
    fx = await makeFixture(api, admin);
  });
  afterAll(() => api.close());

  test('episodes keep their line, name and order; read back in line then episode order', async () => {
    const m = await createMovie(api, admin, {
      title: '连续剧',
      plays: [
        { sourceId: fx.sources.cdn2, line: 1, name: 'HD', path: 'x.mp4', sort: 0 },
        { sourceId: fx.sources.cdn1, line: 0, name: '第2集', path: '2.m3u8', sort: 1 },
        { sourceId: fx.sources.cdn1, line: 0, name: '第1集', path: '1.m3u8', sort: 0 },
      ],
    });
    expect(m.plays.map((p: any) => [p.line, p.name, p.url])).toEqual([
      [0, '第1集', 'https://v1.example.com/hls/1.m3u8'],
      [0, '第2集', 'https://v1.example.com/hls/2.m3u8'],
      [1, 'HD', 'https://v2.example.com/x.mp4'],
    ]);
  });

  test('entries sent without lines are a line each, as before episodes', async () => {
    const m = await createMovie(api, admin, {
      title: '旧表单',
      plays: [
        { sourceId: fx.sources.cdn1, path: 'a.m3u8' },
        { sourceId: fx.sources.cdn2, path: 'b.mp4' },
      ],
    });
    expect(m.plays.map((p: any) => [p.line, p.name, p.sort])).toEqual([
      [0, '', 0],
      [1, '', 0],
    ]);
  });

  test('a line whose episodes name two sources is refused, naming the episode', async () => {
    const r = await api.call('POST', M, {
      token: admin,
      body: {
        title: '两个源',
        plays: [
          { sourceId: fx.sources.cdn1, line: 0, path: '1.m3u8' },
          { sourceId: fx.sources.cdn2, line: 0, path: '2.m3u8' },
        ],
      },
    });
    expect(r.body.code).toBe(40000);
    expect(Object.keys(r.body.data.fields)).toEqual(['plays.1.sourceId']);
    expect(r.body.data.fields['plays.1.sourceId']).toContain('第 1 条线路');
  });

  test('bad names and lines are refused naming the field', async () => {
    for (const [play, field] of [
      [{ sourceId: fx.sources.cdn1, line: MAX_LINES, path: 'a' }, 'plays.0.line'],
      [{ sourceId: fx.sources.cdn1, line: 0, name: '名'.repeat(65), path: 'a' }, 'plays.0.name'],
    ] as const) {
      const r = await api.call('POST', M, { token: admin, body: { title: 'x', plays: [play] } });
      expect(r.body.code).toBe(40000);
      expect(Object.keys(r.body.data.fields)).toEqual([field]);
    }
  });

  test('an update replaces the episodes whole', async () => {
    const m = await createMovie(api, admin, {
      title: '改剧集',
      plays: [{ sourceId: fx.sources.cdn1, line: 0, name: '第1集', path: '1.m3u8' }],
    });
    const after = await okData(
      api.call('PUT', `${M}/${m.id}`, {
        token: admin,
        body: {
          version: m.version,
          plays: [
            { sourceId: fx.sources.cdn1, line: 0, name: '第1集', path: '1.m3u8', sort: 0 },
            { sourceId: fx.sources.cdn1, line: 0, name: '第2集', path: '2.m3u8', sort: 1 },
          ],
        },
      }),
    );
    expect(after.plays.map((p: any) => p.name)).toEqual(['第1集', '第2集']);
  });
});

test('the migration makes each entry made before a line of one nameless episode, in its order', async () => {
  const database = await databaseBefore('0145');
  try {
    await database.db.execute(
      sql`insert into video_sources (name, code, base_url) values ('s', 's', 'https://s')`,
    );
    await database.db.execute(sql`insert into movies (title) values ('a'), ('b')`);
    await database.db.execute(sql`insert into movie_plays (movie_id, source_id, path, sort)
      select m.id, 1, v.path, v.sort from movies m, (values ('p2', 5), ('p1', 2), ('p3', 9)) v(path, sort)`);
    expect(await migrate(database.db)).toContain('0145_movie_episodes');
    const rows = await database.db.execute(
      sql`select movie_id, line, sort, name, path from movie_plays order by movie_id, line`,
    );
    const list = ((rows as { rows?: unknown[] }).rows ?? rows) as Record<string, unknown>[];
    expect(list.map((r) => [Number(r.line), Number(r.sort), r.name, r.path])).toEqual([
      [0, 0, '', 'p1'],
      [1, 0, '', 'p2'],
      [2, 0, '', 'p3'],
      [0, 0, '', 'p1'],
      [1, 0, '', 'p2'],
      [2, 0, '', 'p3'],
    ]);
  } finally {
    await database.close();
  }
});
