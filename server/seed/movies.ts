import { count, sql } from 'drizzle-orm';
import { rowsOf } from '../db/migrate';
import type { Db, Executor } from '../db/types';
import { type MovieStatus, movieColumns, movies, movieTags, videoSources } from '../modules/movie/schema';
import { rng } from './random';

/** Columns as a tree: top level → children. */
const COLUMNS: [string, string[]][] = [
  ['电影', ['动作', '喜剧', '爱情', '科幻']],
  ['剧集', ['国产剧', '美剧', '韩剧']],
  ['综艺', ['真人秀', '脱口秀']],
  ['动漫', ['国漫', '日漫']],
  ['纪录片', []],
];
const TAGS: [string, string][] = [
  ['热门', '推荐'],
  ['新片', '推荐'],
  ['经典', '推荐'],
  ['独家', '推荐'],
  ['高清', '画质'],
  ['蓝光', '画质'],
  ['4K', '画质'],
  ['国语', '语言'],
  ['粤语', '语言'],
  ['英语', '语言'],
  ['日语', '语言'],
  ['悬疑', '题材'],
  ['犯罪', '题材'],
  ['武侠', '题材'],
  ['古装', '题材'],
  ['青春', '题材'],
  ['家庭', '题材'],
  ['冒险', '题材'],
  ['战争', '题材'],
  ['奇幻', '题材'],
];
const SOURCES = [
  {
    name: '主线路',
    code: 'main',
    baseUrl: 'https://cdn1.example.com/hls',
    type: 'hls' as const,
    priority: 10,
  },
  {
    name: '备用线路',
    code: 'backup',
    baseUrl: 'https://cdn2.example.com/hls',
    type: 'hls' as const,
    priority: 5,
  },
  {
    name: 'MP4 直链',
    code: 'mp4',
    baseUrl: 'https://files.example.com/mp4',
    type: 'mp4' as const,
    priority: 1,
  },
];
// Title parts: a Chinese title is a place or mood, a noun and an optional suffix (14,000 combinations and more with
// the numbered ones); an English one is an adjective and a noun. `视频`, `夏日`, `video` and `city` are common
// enough to make the benchmark's searches match tens of thousands of titles at a million movies.
const ZH_A = [
  '夏日',
  '午夜',
  '城市',
  '江湖',
  '星空',
  '海边',
  '雪山',
  '老街',
  '深海',
  '远方',
  '少年',
  '归途',
  '长安',
  '迷雾',
  '春风',
  '秋水',
  '东城',
  '西域',
  '南国',
  '北漂',
  '山河',
  '烟火',
  '月光',
  '黎明',
  '风暴',
  '红尘',
  '青春',
  '故乡',
  '天涯',
  '人间',
];
const ZH_B = [
  '的秘密',
  '之恋',
  '追踪',
  '传奇',
  '往事',
  '大冒险',
  '风云',
  '日记',
  '来信',
  '之歌',
  '列车',
  '迷局',
  '侦探',
  '食堂',
  '旅馆',
  '少女',
  '英雄',
  '快递',
  '花园',
  '约定',
  '守望',
  '猎人',
  '密码',
  '告白',
  '奇遇',
];
const ZH_C = [
  '',
  '',
  '',
  '',
  '',
  '',
  '视频',
  '精选',
  '合集',
  '第二季',
  '第三季',
  '导演剪辑版',
  '特别篇',
  '高清版',
  '番外',
  '纪录',
  '视频版',
  '完整版',
];
const EN_A = [
  'Midnight',
  'Silent',
  'Golden',
  'Lost',
  'Wild',
  'Hidden',
  'Broken',
  'Electric',
  'Last',
  'Summer',
  'Crimson',
  'Frozen',
  'Distant',
  'Secret',
  'Little',
  'Northern',
];
const EN_B = [
  'River',
  'City',
  'Dream',
  'Road',
  'Signal',
  'Garden',
  'Storm',
  'Video',
  'Echo',
  'Harbor',
  'Station',
  'Letter',
  'Kingdom',
  'Island',
  'Diary',
  'Frontier',
];
const STATUS_WHEEL: MovieStatus[] = [
  'online',
  'online',
  'online',
  'online',
  'online',
  'online',
  'offline',
  'pending',
  'pending',
  'rejected',
];
const PLATFORM_KEYS = [2, 1, 4, 5, 6];

export interface SeededMovie {
  title: string;
  description: string;
  leaf: number;
  tagIdx: number[];
  actressIds: number[];
  platforms: number[];
  duration: number;
  releaseDate: string;
  free: boolean;
  sortWeight: number;
  recommended: boolean;
  views: number;
  likes: number;
  comments: number;
  status: MovieStatus;
  createdAt: Date;
  plays: { source: number; path: string }[];
}

/** The movies of one seed, as plain data (deterministic: the same seed and count give the same list). */
export function* generateMovies(seed: number, n: number, now: Date): Generator<SeededMovie> {
  const r = rng(seed);
  const leaves = COLUMNS.reduce((k, [, kids]) => k + Math.max(kids.length, 1), 0);
  for (let i = 0; i < n; i++) {
    const english = r.next() < 0.25;
    const title = english
      ? `${r.pick(EN_A)} ${r.pick(EN_B)}${r.next() < 0.3 ? ` ${r.int(2, 9)}` : ''}`
      : `${r.pick(ZH_A)}${r.pick(ZH_B)}${r.pick(ZH_C)}`;
    const tagCount = r.int(0, 4);
    const tagIdx = [...new Set(Array.from({ length: tagCount }, () => r.int(0, TAGS.length - 1)))];
    const platforms = PLATFORM_KEYS.filter(() => r.next() < 0.5);
    const status = r.pick(STATUS_WHEEL);
    const createdAt = new Date(now.getTime() - r.int(0, 365 * 86_400) * 1000);
    const views = Math.floor(r.next() ** 4 * 2_000_000);
    const plays = [{ source: 0, path: `v/${seed}/${i}/index.m3u8` }];
    if (r.next() < 0.4)
      plays.push({
        source: r.int(1, 2),
        path: `v/${seed}/${i}/${r.next() < 0.5 ? 'index.m3u8' : 'main.mp4'}`,
      });
    yield {
      title,
      description: english
        ? `${title}: a ${r.pick(['moving', 'thrilling', 'quiet', 'funny'])} story.`
        : `${title}，${r.pick(['一段动人的故事', '紧张刺激', '温暖治愈', '笑料不断'])}。`,
      leaf: r.int(0, leaves - 1),
      tagIdx,
      actressIds: r.next() < 0.5 ? [r.int(1, 300)] : [],
      platforms,
      duration: r.int(5 * 60, 150 * 60),
      releaseDate: new Date(createdAt.getTime() - r.int(0, 3650) * 86_400_000).toISOString().slice(0, 10),
      free: r.next() < 0.6,
      sortWeight: r.next() < 0.1 ? r.int(1, 100) : 0,
      recommended: status === 'online' && r.next() < 0.08,
      views,
      likes: Math.floor(views * r.next() * 0.05),
      comments: Math.floor(views * r.next() * 0.005),
      status,
      createdAt,
      plays,
    };
  }
}

/** The ids the taxonomy got in the database: a seeded movie's `leaf`, `tagIdx` and play `source` index these. */
export interface Taxonomy {
  leafIds: number[];
  tagIds: number[];
  sourceIds: number[];
  /** Actresses a movie may link to (seeded by the actresses seeder); none: no actress links. */
  actressIds: number[];
}

/** Columns (a tree), tags and video sources of the seed. */
export async function seedTaxonomy(db: Executor, actressIds: number[] = []): Promise<Taxonomy> {
  const leafIds: number[] = [];
  for (const [i, [name, kids]] of COLUMNS.entries()) {
    const [top] = await db.insert(movieColumns).values({ name, sort: i }).returning({ id: movieColumns.id });
    if (!kids.length) leafIds.push(top.id);
    for (const [j, kid] of kids.entries()) {
      const [c] = await db
        .insert(movieColumns)
        .values({ name: kid, parentId: top.id, sort: j })
        .returning({ id: movieColumns.id });
      leafIds.push(c.id);
    }
  }
  const tagIds = (
    await db
      .insert(movieTags)
      .values(TAGS.map(([name, group], i) => ({ name, group, hot: i < 3 })))
      .returning({ id: movieTags.id })
  ).map((t) => t.id);
  const sourceIds = (await db.insert(videoSources).values(SOURCES).returning({ id: videoSources.id })).map(
    (s) => s.id,
  );
  return { leafIds, tagIds, sourceIds, actressIds };
}

type Value = string | number | boolean | null;
const reviewedAt = (m: SeededMovie) =>
  m.status === 'pending' ? null : new Date(m.createdAt.getTime() + 3_600_000).toISOString();

/**
 * The columns of `movies` a seed writes: name, SQL type, value. The one mapping from generated data to rows, used by
 * the batched INSERT below and by the bulk COPY of `bulk.ts`, so both write the same rows.
 */
export function movieColumnsOf(
  taxonomy: Taxonomy,
  reviewer: number | null,
): [string, string, (m: SeededMovie) => Value][] {
  return [
    ['title', 'text', (m) => m.title],
    ['description', 'text', (m) => m.description],
    ['column_id', 'integer', (m) => taxonomy.leafIds[m.leaf]],
    ['platforms', 'integer[]', (m) => `{${m.platforms.join(',')}}`],
    ['duration', 'integer', (m) => m.duration],
    ['release_date', 'date', (m) => m.releaseDate],
    ['free', 'boolean', (m) => m.free],
    ['sort_weight', 'integer', (m) => m.sortWeight],
    ['recommended', 'boolean', (m) => m.recommended],
    ['views', 'integer', (m) => m.views],
    ['likes', 'integer', (m) => m.likes],
    ['comments', 'integer', (m) => m.comments],
    ['status', 'text', (m) => m.status],
    ['reject_reason', 'text', (m) => (m.status === 'rejected' ? '内容不符合规范' : '')],
    ['reviewed_by', 'integer', (m) => (m.status === 'pending' ? null : reviewer)],
    ['reviewed_at', 'timestamptz', reviewedAt],
    [
      'published_at',
      'timestamptz',
      (m) => (m.status === 'online' || m.status === 'offline' ? reviewedAt(m) : null),
    ],
    ['created_at', 'timestamptz', (m) => m.createdAt.toISOString()],
    ['updated_at', 'timestamptz', (m) => reviewedAt(m) ?? m.createdAt.toISOString()],
  ];
}

/** The rows of the link tables of a batch of movies whose ids are `ids` (same order). */
export function linkRowsOf(taxonomy: Taxonomy, items: SeededMovie[], ids: number[]) {
  return {
    tags: items.flatMap((m, i) => m.tagIdx.map((t): [number, number] => [ids[i], taxonomy.tagIds[t]])),
    // A generated actress number (1…300) picks one of the seeded actresses.
    actresses: taxonomy.actressIds.length
      ? items.flatMap((m, i) =>
          m.actressIds.map((a): [number, number] => [
            ids[i],
            taxonomy.actressIds[(a - 1) % taxonomy.actressIds.length],
          ]),
        )
      : [],
    plays: items.flatMap((m, i) =>
      // Each seeded entry is a source line of one nameless episode (the main feature).
      m.plays.map((p, line): [number, number, string, number] => [
        ids[i],
        taxonomy.sourceIds[p.source],
        p.path,
        line,
      ]),
    ),
  };
}

/** Options shared by the batched seeder and the bulk one. */
export interface SeedMoviesOptions {
  seed?: number;
  movies?: number;
  batchSize?: number;
  now?: Date;
  reviewer?: number | null;
  /** The actresses movies link to (`seedActresses`); without them movies have no actresses. */
  actressIds?: number[];
}
export const SEED_NOW = new Date('2026-06-01T00:00:00Z');

/**
 * Columns, tags, sources and `movies` movies, in batches of `batchSize` (one INSERT per table per batch over
 * unnested arrays; the count triggers run once per statement).
 * For a million, `bulkSeedMovies` (bulk.ts) writes the same rows with COPY. Does nothing when movies already exist.
 */
export async function seedMovies(db: Db, options: SeedMoviesOptions = {}) {
  const [{ n }] = await db.select({ n: count() }).from(movies);
  if (Number(n) > 0) return { seeded: 0 };
  const taxonomy = await seedTaxonomy(db, options.actressIds);
  const columns = movieColumnsOf(taxonomy, options.reviewer ?? null);
  const batchSize = options.batchSize ?? 5000;
  let batch: SeededMovie[] = [];
  let seeded = 0;
  const flush = async () => {
    const items = batch;
    batch = [];
    if (!items.length) return;
    await db.transaction(async (tx) => {
      // One bind parameter per column (arrays, unnested in SQL): no parameter limit and little parsing, whatever
      // the batch size. Array-typed columns travel as text and are cast back.
      const names = sql.raw(columns.map(([name]) => name).join(', '));
      const selected = sql.raw(
        columns.map(([name, type]) => (type.endsWith('[]') ? `${name}::${type}` : name)).join(', '),
      );
      const arrays = sql.join(
        columns.map(
          ([, type, value]) =>
            sql`${sql.param(items.map(value))}::${sql.raw(type.endsWith('[]') ? 'text' : type)}[]`,
        ),
        sql`, `,
      );
      const inserted = rowsOf<{ id: number }>(
        await tx.execute(
          sql`insert into movies (${names}) select ${selected} from unnest(${arrays}) as u(${names}) returning id`,
        ),
      );
      // Serial ids are drawn in the order the rows are inserted, which is the order of the arrays.
      const ids = inserted.map((r) => Number(r.id)).sort((a, b) => a - b);
      const links = linkRowsOf(taxonomy, items, ids);
      const unnested = (rows: unknown[][], types: string[]) =>
        sql.join(
          types.map((type, k) => sql`${sql.param(rows.map((r) => r[k]))}::${sql.raw(type)}[]`),
          sql`, `,
        );
      if (links.tags.length)
        await tx.execute(
          sql`insert into movie_tag_links (movie_id, tag_id) select * from unnest(${unnested(links.tags, ['integer', 'integer'])})`,
        );
      if (links.actresses.length)
        await tx.execute(
          sql`insert into movie_actresses (movie_id, actress_id) select * from unnest(${unnested(links.actresses, ['integer', 'integer'])})`,
        );
      if (links.plays.length)
        await tx.execute(
          sql`insert into movie_plays (movie_id, source_id, path, line) select * from unnest(${unnested(links.plays, ['integer', 'integer', 'text', 'integer'])})`,
        );
    });
    seeded += items.length;
  };
  for (const m of generateMovies(options.seed ?? 42, options.movies ?? 200, options.now ?? SEED_NOW)) {
    batch.push(m);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  await db.execute(sql`analyze movies`);
  return { seeded };
}
