import { sql } from 'drizzle-orm';
import { MAX_ACTRESS_BIOGRAPHY } from '../../../common/actresses';
import { artChapters } from '../../../common/art-pages';
import { MAX_LINE_CODE, parsePlayLines } from '../../../common/episodes';
import { foldForMatch } from '../../../common/fold';
import { dateOf } from '../../../common/maccms-lists';
import { MAX_MOVIE_DESCRIPTION } from '../../../common/movie';
import { richTextToPlain, sanitizeRichText } from '../../../common/rich-text';
import { CopyData, copyField } from '../../db/copy-in';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';
import type { ReportLine } from './report';
import type { SourceRow } from './source';
import { cut, decodeText, ipv4, safeUrl, splitList, unixTime } from './text';
import { type Col, copyRows, intsOf, rowWriter, txCopier } from './write';

/**
 * Each MacCMS table the move reads and how its rows become ours. A kind turns a row into a plain value (`prepare`,
 * which also names what it had to change), and writes new and changed values in one batch (`insert`, `update`).
 * The value is what the digest is taken of, so a second run sees a row as unchanged exactly when what it would
 * write is the same.
 */

export interface Ctx {
  tenant: number;
  now: Date;
  /** MacCMS type id → our movie or novel column id (from the `type` kind's mapping). */
  movieColumns: Map<number, number>;
  novelColumns: Map<number, number>;
  /** Per batch: MacCMS ids → our ids of the kinds a row refers to (filled by `refs`). */
  refs: Map<string, Map<number, number>>;
  /** Video source codes this run created (each reported once). */
  sourcesCreated: Set<string>;
  /** On the bulk path: ids of the tables in its `ownIds`, handed out by the move (write.ts ownIds). */
  ownIds?: Map<string, (n: number) => number[]>;
}

export interface Prepared<V> {
  mid: number;
  value?: V;
  /** Set when the row is not moved. */
  skip?: string;
  skipDetail?: string;
  lines: ReportLine[];
}

export interface Kind<V = any> {
  /** Our name for it (`--only`, the mapping table). */
  kind: string;
  /** The MacCMS table without prefix, and its key. */
  table: string;
  pk: string;
  /**
   * The MacCMS columns `prepare` and `refs` read, the only ones read from MariaDB: mac_vod has 87, most of them never
   * moved, and each read is a buffer made and freed. One missing from the table (an older MacCMS) reads as absent.
   */
  columns: readonly string[];
  /** Our table its rows become (for the mapping's existence check). */
  target: string;
  batch: number;
  /** Before prepare: ids of other kinds this batch refers to, to be looked up ({ kind: [ids] }). */
  refs?(rows: SourceRow[]): Record<string, { table: string; ids: number[] }>;
  prepare(row: SourceRow, ctx: Ctx): Prepared<V>;
  /**
   * Rows of this batch that would break a unique rule here (mid → reason): skipped, never half written. It may also
   * change a value to what can be written beside the rows there (after its digest was taken) and say so in `lines`.
   */
  conflicts?(
    ex: Executor,
    items: { mid: number; value: V; ourId: number }[],
    ctx: Ctx,
    lines: ReportLine[],
  ): Promise<Map<number, string>>;
  insert(ex: Executor, items: { value: V; ourId: number }[], ctx: Ctx): Promise<void>;
  update(ex: Executor, items: { value: V; ourId: number }[], ctx: Ctx): Promise<void>;
  /**
   * A first move of many rows into an empty `target` may take the bulk path (run.ts): one transaction, with the
   * indexes, keys and count triggers of `tables` set aside while it writes (write.ts loosenTables) and `finish`
   * recomputing what the triggers would have kept.
   */
  bulk?: {
    batch: number;
    tables: string[];
    triggers: string[];
    /** Tables of `tables` whose ids the move hands out (none of their rows is written elsewhere meanwhile). */
    ownIds?: string[];
    finish(ex: Executor): Promise<void>;
  };
}

/** Reads a text field, noting what decoding did and cutting it to `max`. */
function textOf(row: SourceRow, field: string, lines: ReportLine[], id: number, max?: number): string {
  const { text, fixes } = decodeText(row[field] as Uint8Array | string | null | undefined);
  for (const f of fixes) lines.push({ id, outcome: 'fixed', reason: f, detail: field });
  if (max === undefined) return text;
  const c = cut(text, max);
  if (c.cut) lines.push({ id, outcome: 'cut', reason: 'tooLong', detail: `${field} to ${max} characters` });
  return c.text;
}

const num = (v: unknown) => {
  const n = Number(v);
  return Number.isFinite(n) ? n : 0;
};
const int32 = (v: unknown) => Math.max(0, Math.min(2_147_483_647, Math.trunc(num(v))));

/** A picture as we keep it: MacCMS's `mac://` means http(s) on its site; refused and too long ones left out, with a line. */
function pictureOf(row: SourceRow, field: string, lines: ReportLine[], id: number): string {
  let url = textOf(row, field, lines, id).trim();
  if (url.startsWith('mac://')) url = `http://${url.slice(6)}`;
  if (!safeUrl(url)) {
    lines.push({ id, outcome: 'cut', reason: 'badUrl', detail: `${field}: ${url.slice(0, 80)}` });
    return '';
  }
  if (url.length > 512) {
    lines.push({ id, outcome: 'cut', reason: 'urlTooLong', detail: field });
    return '';
  }
  return url;
}

/** A time that must exist here (creation): MacCMS's 0 becomes the move's time, with a line. */
function requiredTime(row: SourceRow, field: string, ctx: Ctx, lines: ReportLine[], id: number): string {
  const t = unixTime(row[field]);
  if (t) return t.toISOString();
  lines.push({ id, outcome: 'note', reason: 'zeroDate', detail: field });
  return ctx.now.toISOString();
}
const optionalTime = (v: unknown) => unixTime(v)?.toISOString() ?? null;

/** HTML content through our sanitizer, noting when it changed something beyond whitespace. */
function htmlOf(row: SourceRow, field: string, lines: ReportLine[], id: number): string {
  const raw = textOf(row, field, lines, id);
  if (!raw.trim()) return '';
  const clean = sanitizeRichText(raw);
  if (clean.replace(/\s+/g, '') !== raw.replace(/\s+/g, ''))
    lines.push({ id, outcome: 'fixed', reason: 'html', detail: field });
  return clean;
}

/** MacCMS review states (0 pending, 1 passed, 2 rejected, 3 draft, 4 scheduled; in the recycle bin when recycle_time > 0). */
function reviewOf(status: unknown, recycled: unknown): 'pending' | 'online' | 'rejected' | 'offline' {
  if (num(recycled) > 0) return 'offline';
  const s = num(status);
  return s === 1 ? 'online' : s === 2 ? 'rejected' : 'pending';
}

// ---------------------------------------------------------------------------------------------------------------
// mac_type → movie and novel columns

export interface TypeValue {
  tree: 'movie' | 'novel';
  parent: number;
  name: string;
  sort: number;
  visible: boolean;
}

/** type_mid 1 is video, 2 article; the others (3 topic, 8 actor, 9 role, 11 website, 12 manga) have no columns here. */
export function typeKind(): Kind<TypeValue> {
  return {
    kind: 'type',
    table: 'type',
    columns: ['type_id', 'type_name', 'type_mid', 'type_pid', 'type_sort', 'type_status'],
    pk: 'type_id',
    target: 'movie_columns',
    batch: 1000,
    prepare(row) {
      const mid = num(row.type_id);
      const lines: ReportLine[] = [];
      const m = num(row.type_mid);
      if (m !== 1 && m !== 2) return { mid, skip: 'kindNotMoved', skipDetail: `type_mid ${m}`, lines };
      const name = textOf(row, 'type_name', lines, mid, 64).trim();
      if (!name) return { mid, skip: 'emptyName', lines };
      return {
        mid,
        value: {
          tree: m === 1 ? 'movie' : 'novel',
          parent: num(row.type_pid),
          name,
          sort: int32(row.type_sort),
          visible: num(row.type_status) === 1,
        },
        lines,
      };
    },
    // Columns are written one at a time (a site has tens), parents first by the order run.ts gives.
    async insert() {},
    async update() {},
  };
}

// ---------------------------------------------------------------------------------------------------------------
// mac_actor → actresses

interface ActorValue {
  name: string;
  aliases: string[];
  avatar: string;
  birthday: string | null;
  height: number | null;
  biography: string;
  tags: string[];
  visible: boolean;
  createdAt: string;
}

const ACTOR_COLS: Col[] = [
  ['id', 'int'],
  ['name', 'text'],
  ['aliases', 'texts'],
  ['avatar', 'text'],
  ['birthday', 'date'],
  ['height', 'int'],
  ['biography', 'text'],
  ['tags', 'texts'],
  ['visible', 'bool'],
  ['created_at', 'timestamptz'],
];
const actorRow = (v: ActorValue, id: number) => [
  id,
  v.name,
  v.aliases,
  v.avatar,
  v.birthday,
  v.height,
  v.biography,
  v.tags,
  v.visible,
  v.createdAt,
];

export function actorKind(): Kind<ActorValue> {
  return {
    kind: 'actor',
    table: 'actor',
    columns: [
      'actor_id',
      'actor_name',
      'actor_alias',
      'actor_pic',
      'actor_birthday',
      'actor_height',
      'actor_content',
      'actor_blurb',
      'actor_tag',
      'actor_status',
      'actor_time_add',
    ],
    pk: 'actor_id',
    target: 'actresses',
    batch: 1000,
    prepare(row, ctx) {
      const mid = num(row.actor_id);
      const lines: ReportLine[] = [];
      const name = textOf(row, 'actor_name', lines, mid, 64).trim();
      if (!name) return { mid, skip: 'emptyName', lines };
      const height = Number.parseInt(textOf(row, 'actor_height', lines, mid), 10);
      const content = textOf(row, 'actor_content', lines, mid);
      const field = content.trim() ? 'actor_content' : 'actor_blurb';
      let biography = field === 'actor_content' ? richTextToPlain(content) : textOf(row, field, lines, mid);
      // What the actress form and API accept, counted as they count (UTF-16 units), never splitting a pair.
      if (biography.length > MAX_ACTRESS_BIOGRAPHY) {
        biography = biography.slice(0, MAX_ACTRESS_BIOGRAPHY).replace(/[\uD800-\uDBFF]$/, '');
        lines.push({
          id: mid,
          outcome: 'cut',
          reason: 'tooLong',
          detail: `${field} to ${MAX_ACTRESS_BIOGRAPHY} characters`,
        });
      }
      return {
        mid,
        value: {
          name,
          aliases: splitList(textOf(row, 'actor_alias', lines, mid))
            .filter((a) => a !== name)
            .map((a) => cut(a, 64).text)
            .slice(0, 20),
          avatar: pictureOf(row, 'actor_pic', lines, mid),
          birthday: dateOf(textOf(row, 'actor_birthday', lines, mid)),
          height: height > 50 && height < 260 ? height : null,
          biography,
          tags: splitList(textOf(row, 'actor_tag', lines, mid))
            .map((t) => cut(t, 32).text)
            .slice(0, 20),
          visible: num(row.actor_status) === 1,
          createdAt: requiredTime(row, 'actor_time_add', ctx, lines, mid),
        },
        lines,
      };
    },
    ...rowWriter('actresses', ACTOR_COLS, actorRow),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// mac_vod → movies, with tags, actresses and every source line's episodes

interface VodValue {
  title: string;
  description: string;
  cover: string;
  columnId: number | null;
  duration: number;
  releaseDate: string | null;
  free: boolean;
  recommended: boolean;
  views: number;
  likes: number;
  status: string;
  rejectReason: string;
  publishedAt: string | null;
  createdAt: string;
  tags: string[];
  actresses: string[];
  lines: { code: string; episodes: { name: string; url: string }[] }[];
}

const MOVIE_COLS: Col[] = [
  ['id', 'int'],
  ['title', 'text'],
  ['description', 'text'],
  ['cover', 'text'],
  ['column_id', 'int'],
  ['duration', 'int'],
  ['release_date', 'date'],
  ['free', 'bool'],
  ['recommended', 'bool'],
  ['views', 'int'],
  ['likes', 'int'],
  ['status', 'text'],
  ['reject_reason', 'text'],
  ['published_at', 'timestamptz'],
  ['tag_ids', 'ints'],
  ['created_at', 'timestamptz'],
];
/**
 * `tag_ids` is what the tag links' trigger (zg_movie_tag_ids) would set: written with the row, the trigger finds it
 * right and leaves the movie alone instead of updating each one again (and the bulk path runs without it).
 */
const movieRow = (v: VodValue, id: number, names: Names) => [
  id,
  v.title,
  v.description,
  v.cover,
  v.columnId,
  v.duration,
  v.releaseDate,
  v.free,
  v.recommended,
  v.views,
  v.likes,
  v.status,
  v.rejectReason,
  v.publishedAt,
  intsOf([...new Set(v.tags.map((t) => names.tags.get(t) as number))].sort((a, b) => a - b)),
  v.createdAt,
];
const movies = rowWriter('movies', MOVIE_COLS, movieRow);

/** MacCMS's duration is free text: `90`, `90分钟` (minutes) or `1:30:00` / `45:00`; seconds here. */
function durationOf(s: string): number {
  const t = s.trim();
  const hms = /^(\d{1,3}):(\d{1,2})(?::(\d{1,2}))?$/.exec(t);
  if (hms) return hms[3] !== undefined ? +hms[1] * 3600 + +hms[2] * 60 + +hms[3] : +hms[1] * 60 + +hms[2];
  const minutes = /^(\d{1,5})/.exec(t);
  return minutes ? Math.min(864_000, +minutes[1] * 60) : 0;
}

/** The source a line without a code is put on. */
export const UNNAMED_SOURCE = 'maccms';

export function vodKind(): Kind<VodValue> {
  return {
    kind: 'vod',
    table: 'vod',
    columns: [
      'vod_id',
      'type_id',
      'vod_name',
      'vod_content',
      'vod_blurb',
      'vod_play_from',
      'vod_play_url',
      'vod_status',
      'vod_recycle_time',
      'vod_tag',
      'vod_class',
      'vod_actor',
      'vod_pic',
      'vod_duration',
      'vod_pubdate',
      'vod_points_play',
      'vod_points',
      'vod_level',
      'vod_hits',
      'vod_up',
      'vod_audit_remark',
      'vod_time_add',
      'vod_time',
    ],
    pk: 'vod_id',
    target: 'movies',
    batch: 500,
    prepare(row, ctx) {
      const mid = num(row.vod_id);
      const lines: ReportLine[] = [];
      const title = textOf(row, 'vod_name', lines, mid, 200).trim();
      if (!title) return { mid, skip: 'emptyName', lines };
      const typeId = num(row.type_id);
      const columnId = ctx.movieColumns.get(typeId) ?? null;
      if (columnId === null && typeId)
        lines.push({ id: mid, outcome: 'note', reason: 'columnMissing', detail: `type_id ${typeId}` });
      let description = htmlOf(row, 'vod_content', lines, mid);
      if (!description) {
        const blurb = textOf(row, 'vod_blurb', lines, mid).trim();
        description = blurb
          ? sanitizeRichText(`<p>${blurb.replace(/[<>&]/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`)
          : '';
      }
      // What the movie form can save again (a cut may end inside a tag: sanitized again, then bounded).
      if (description.length > MAX_MOVIE_DESCRIPTION) {
        description = sanitizeRichText(description.slice(0, MAX_MOVIE_DESCRIPTION)).slice(
          0,
          MAX_MOVIE_DESCRIPTION,
        );
        lines.push({
          id: mid,
          outcome: 'cut',
          reason: 'tooLong',
          detail: `vod_content to ${MAX_MOVIE_DESCRIPTION} characters`,
        });
      }
      const parsed = parsePlayLines(
        textOf(row, 'vod_play_from', lines, mid),
        textOf(row, 'vod_play_url', lines, mid),
      );
      for (const p of parsed.problems)
        lines.push({
          id: mid,
          outcome: p.reason === 'lineWithoutCode' ? 'note' : 'cut',
          reason: p.reason === 'lineWithoutCode' ? 'lineWithoutCode' : 'episodes',
          detail: `line ${p.line + 1}${p.piece >= 0 ? ` piece ${p.piece + 1}` : ''}: ${p.reason} ${p.text}`,
        });
      const playLines = parsed.value.map((l) => ({
        code: (l.code || UNNAMED_SOURCE).slice(0, MAX_LINE_CODE),
        episodes: l.episodes,
      }));
      if (!playLines.length) lines.push({ id: mid, outcome: 'note', reason: 'noEpisodes' });
      const status = reviewOf(row.vod_status, row.vod_recycle_time);
      const tags = splitList(`${textOf(row, 'vod_tag', lines, mid)},${textOf(row, 'vod_class', lines, mid)}`);
      const longTags = tags.filter((t) => [...t].length > 32);
      if (longTags.length)
        lines.push({
          id: mid,
          outcome: 'cut',
          reason: 'tooLong',
          detail: `tags to 32 characters: ${longTags[0]}`,
        });
      const actresses = splitList(textOf(row, 'vod_actor', lines, mid));
      return {
        mid,
        value: {
          title,
          description,
          cover: pictureOf(row, 'vod_pic', lines, mid),
          columnId,
          duration: durationOf(textOf(row, 'vod_duration', lines, mid)),
          releaseDate: dateOf(textOf(row, 'vod_pubdate', lines, mid)),
          free: num(row.vod_points_play) === 0 && num(row.vod_points) === 0,
          recommended: num(row.vod_level) > 0,
          views: int32(row.vod_hits),
          likes: int32(row.vod_up),
          status,
          rejectReason: status === 'rejected' ? textOf(row, 'vod_audit_remark', lines, mid, 500) : '',
          publishedAt:
            status === 'online' || status === 'offline'
              ? ((unixTime(row.vod_time_add) ?? unixTime(row.vod_time))?.toISOString() ??
                ctx.now.toISOString())
              : null,
          createdAt: requiredTime(row, 'vod_time_add', ctx, lines, mid),
          tags: [...new Set(tags.map((t) => [...t].slice(0, 32).join('')))].slice(0, 50),
          actresses: actresses.map((a) => cut(a, 64).text).slice(0, 50),
          lines: playLines,
        },
        lines,
      };
    },
    async insert(ex, items, ctx) {
      const names = await namesOf(ex, items, ctx);
      await movies.insert(ex, items, names);
      await writeMovieChildren(ex, items, names, ctx);
    },
    async update(ex, items, ctx) {
      const names = await namesOf(ex, items, ctx);
      await movies.update(ex, items, names);
      const ids = items.map((i) => i.ourId);
      await ex.execute(sql`delete from movie_tag_links where movie_id = any(${sql.param(ids)}::int[])`);
      await ex.execute(sql`delete from movie_actresses where movie_id = any(${sql.param(ids)}::int[])`);
      await ex.execute(sql`delete from movie_plays where movie_id = any(${sql.param(ids)}::int[])`);
      await writeMovieChildren(ex, items, names, ctx);
    },
    bulk: {
      batch: 2000,
      tables: ['movies', 'movie_tag_links', 'movie_actresses', 'movie_plays'],
      // Twenty and more a movie: one nextval each cost more than writing the row.
      ownIds: ['movie_plays'],
      // The counts zg_movie_counts_rebuild() recomputes, the column, tag and actress counts, and tag_ids (written
      // with each movie).
      triggers: [
        'zg_movie_counts',
        'zg_movie_tag_link_counts',
        'zg_movie_gram_counts',
        'zg_movie_search_counts',
        'zg_movie_count_weeks',
        'zg_movie_search_matches',
        'zg_ref_counts',
        'zg_movie_tag_ids',
      ],
      async finish(ex) {
        await ex.execute(sql`select zg_movie_counts_rebuild()`);
        await ex.execute(sql`update actresses a set movie_count = x.n
          from (select actress_id, count(*)::int as n from movie_actresses group by actress_id) x
          where a.id = x.actress_id and a.movie_count <> x.n`);
      },
    },
  };
}

/** Ids by name in a name-unique table, creating the missing names (tags, sources). */
async function idsByName(
  ex: Executor,
  table: 'movie_tags' | 'video_sources',
  names: string[],
  created: Set<string>,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (!names.length) return out;
  const key = table === 'movie_tags' ? 'name' : 'code';
  const made =
    table === 'movie_tags'
      ? await ex.execute(
          sql`insert into movie_tags (name) select unnest(${sql.param(names)}::text[]) on conflict (name) do nothing returning name`,
        )
      : await ex.execute(
          sql`insert into video_sources (name, code, base_url) select c, c, '' from unnest(${sql.param(names)}::text[]) as c on conflict (code) do nothing returning code as name`,
        );
  if (table === 'video_sources') for (const r of rowsOf<{ name: string }>(made)) created.add(r.name);
  const rows = rowsOf<{ id: number; name: string }>(
    await ex.execute(
      sql`select id, ${sql.raw(key)} as name from ${sql.raw(table)} where ${sql.raw(key)} = any(${sql.param(names)}::text[])`,
    ),
  );
  for (const r of rows) out.set(r.name, Number(r.id));
  return out;
}

/** Actresses by name: the lowest id of that name (a moved mac_actor row or one made here before); missing ones created. */
async function actressIds(ex: Executor, names: string[], now: Date): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (!names.length) return out;
  const find = async () => {
    for (const r of rowsOf<{ id: number; name: string }>(
      await ex.execute(
        sql`select min(id)::int as id, name from actresses where name = any(${sql.param(names)}::text[]) group by name`,
      ),
    ))
      out.set(r.name, Number(r.id));
  };
  await find();
  const missing = names.filter((n) => !out.has(n));
  if (missing.length) {
    await ex.execute(
      sql`insert into actresses (name, created_at) select unnest(${sql.param(missing)}::text[]), ${now.toISOString()}::timestamptz`,
    );
    await find();
  }
  return out;
}

/** The ids of a batch's tags, sources and actresses by name (missing ones made). */
interface Names {
  tags: Map<string, number>;
  sources: Map<string, number>;
  actresses: Map<string, number>;
}

async function namesOf(ex: Executor, items: { value: VodValue }[], ctx: Ctx): Promise<Names> {
  return {
    tags: await idsByName(ex, 'movie_tags', [...new Set(items.flatMap((i) => i.value.tags))], new Set()),
    sources: await idsByName(
      ex,
      'video_sources',
      [...new Set(items.flatMap((i) => i.value.lines.map((l) => l.code)))],
      ctx.sourcesCreated,
    ),
    actresses: await actressIds(ex, [...new Set(items.flatMap((i) => i.value.actresses))], ctx.now),
  };
}

async function writeMovieChildren(
  ex: Executor,
  items: { value: VodValue; ourId: number }[],
  { tags: tagIds, sources: sourceIds, actresses: actIds }: Names,
  ctx: Ctx,
) {
  const tagLinks: unknown[][] = [];
  const actLinks: unknown[][] = [];
  let plays = 0;
  for (const { value, ourId } of items) {
    for (const t of value.tags) tagLinks.push([ourId, tagIds.get(t)]);
    for (const a of new Set(value.actresses.map((n) => actIds.get(n)))) actLinks.push([ourId, a]);
    for (const l of value.lines) plays += l.episodes.length;
  }
  await copyRows(
    ex,
    'movie_tag_links',
    [
      ['movie_id', 'int'],
      ['tag_id', 'int'],
    ],
    tagLinks,
  );
  await copyRows(
    ex,
    'movie_actresses',
    [
      ['movie_id', 'int'],
      ['actress_id', 'int'],
    ],
    actLinks,
  );
  if (!plays) return;
  const playIds = ctx.ownIds?.get('movie_plays')?.(plays);
  const cols: Col[] = [
    ...(playIds ? ([['id', 'int']] as Col[]) : []),
    ['movie_id', 'int'],
    ['source_id', 'int'],
    ['line', 'int'],
    ['name', 'text'],
    ['path', 'text'],
    ['sort', 'int'],
  ];
  const copier = txCopier(ex);
  // Twenty and more a movie, the most rows of the move: their lines are written straight into COPY's text, with no
  // array a row in between.
  let i = 0;
  if (copier) {
    const data = new CopyData();
    for (const { value, ourId } of items)
      value.lines.forEach((l, line) => {
        const head = `${ourId}\t${sourceIds.get(l.code) ?? '\\N'}\t${line}\t`;
        l.episodes.forEach((e, sort) => {
          data.add(
            `${playIds ? `${playIds[i++]}\t` : ''}${head}${copyField(e.name)}\t${copyField(e.url)}\t${sort}\n`,
          );
        });
      });
    await copier.send('movie_plays', cols, data);
    return;
  }
  const rows: unknown[][] = [];
  for (const { value, ourId } of items)
    value.lines.forEach((l, line) => {
      l.episodes.forEach((e, sort) => {
        const row = [ourId, sourceIds.get(l.code), line, e.name, e.url, sort];
        rows.push(playIds ? [playIds[i++], ...row] : row);
      });
    });
  await copyRows(ex, 'movie_plays', cols, rows);
}

// ---------------------------------------------------------------------------------------------------------------
// mac_art → novels, an article's pages → chapters

interface ArtValue {
  title: string;
  author: string;
  cover: string;
  columnId: number | null;
  tags: string[];
  description: string;
  status: string;
  publishedAt: string | null;
  views: number;
  createdAt: string;
  chapters: { title: string; content: string; words: number }[];
}

const NOVEL_COLS: Col[] = [
  ['id', 'int'],
  ['title', 'text'],
  ['author', 'text'],
  ['cover', 'text'],
  ['column_id', 'int'],
  ['tags', 'texts'],
  ['description', 'text'],
  ['status', 'text'],
  ['published_at', 'timestamptz'],
  ['views', 'int'],
  ['created_at', 'timestamptz'],
];
const novelRow = (v: ArtValue, id: number) => [
  id,
  v.title,
  v.author,
  v.cover,
  v.columnId,
  v.tags,
  v.description,
  v.status,
  v.publishedAt,
  v.views,
  v.createdAt,
];

const novels = rowWriter('novels', NOVEL_COLS, novelRow);

export function artKind(): Kind<ArtValue> {
  return {
    kind: 'art',
    table: 'art',
    columns: [
      'art_id',
      'type_id',
      'art_name',
      'art_title',
      'art_content',
      'art_author',
      'art_pic',
      'art_tag',
      'art_class',
      'art_blurb',
      'art_status',
      'art_recycle_time',
      'art_hits',
      'art_time_add',
      'art_time',
    ],
    pk: 'art_id',
    target: 'novels',
    batch: 200,
    prepare(row, ctx) {
      const mid = num(row.art_id);
      const lines: ReportLine[] = [];
      const title = textOf(row, 'art_name', lines, mid, 200).trim();
      if (!title) return { mid, skip: 'emptyName', lines };
      const typeId = num(row.type_id);
      const columnId = ctx.novelColumns.get(typeId) ?? null;
      if (columnId === null && typeId)
        lines.push({ id: mid, outcome: 'note', reason: 'columnMissing', detail: `type_id ${typeId}` });
      const html = textOf(row, 'art_content', lines, mid);
      const chapters = artChapters(title, html, textOf(row, 'art_title', lines, mid));
      if (/<(script|iframe|style)/i.test(html))
        lines.push({ id: mid, outcome: 'fixed', reason: 'html', detail: 'art_content' });
      const status = reviewOf(row.art_status, row.art_recycle_time);
      return {
        mid,
        value: {
          title,
          author: textOf(row, 'art_author', lines, mid, 64).trim(),
          cover: pictureOf(row, 'art_pic', lines, mid),
          columnId,
          tags: splitList(`${textOf(row, 'art_tag', lines, mid)},${textOf(row, 'art_class', lines, mid)}`)
            .map((t) => cut(t, 32).text)
            .slice(0, 20),
          description: textOf(row, 'art_blurb', lines, mid),
          status,
          publishedAt:
            status === 'online' || status === 'offline'
              ? ((unixTime(row.art_time_add) ?? unixTime(row.art_time))?.toISOString() ??
                ctx.now.toISOString())
              : null,
          views: int32(row.art_hits),
          createdAt: requiredTime(row, 'art_time_add', ctx, lines, mid),
          chapters,
        },
        lines,
      };
    },
    async insert(ex, items, ctx) {
      await novels.insert(ex, items, ctx);
      await writeChapters(ex, items);
    },
    async update(ex, items, ctx) {
      await novels.update(ex, items, ctx);
      await ex.execute(
        sql`delete from novel_chapters where novel_id = any(${sql.param(items.map((i) => i.ourId))}::int[])`,
      );
      await writeChapters(ex, items);
    },
  };
}

async function writeChapters(ex: Executor, items: { value: ArtValue; ourId: number }[]) {
  const rows: unknown[][] = [];
  for (const { value, ourId } of items)
    value.chapters.forEach((c, i) => {
      rows.push([ourId, i + 1, c.title, c.content, c.words]);
    });
  await copyRows(
    ex,
    'novel_chapters',
    [
      ['novel_id', 'int'],
      ['number', 'int'],
      ['title', 'text'],
      ['content', 'text'],
      ['word_count', 'int'],
    ],
    rows,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// mac_user → site members

interface UserValue {
  account: string;
  /**
   * The account folded (common/fold.ts), as a signup here stores it: what refuses a later look-alike signup. Null when
   * an earlier member holds it (see userKind's conflicts) or the account folds to nothing.
   */
  accountKey: string | null;
  nickname: string;
  phone: string;
  email: string;
  group: string;
  vipLevel: number;
  vipExpiresAt: string | null;
  points: number;
  status: string;
  signupAt: string;
  signupAddress: string;
  lastLoginAt: string | null;
  lastLoginAddress: string;
  inviter: number | null;
  legacyPassword: string | null;
}

const USER_COLS: Col[] = [
  ['id', 'int'],
  ['account', 'text'],
  ['account_key', 'text'],
  ['nickname', 'text'],
  ['phone', 'text'],
  ['email', 'text'],
  ['group', 'text'],
  ['vip_level', 'int'],
  ['vip_expires_at', 'timestamptz'],
  ['points', 'int'],
  ['status', 'text'],
  ['signup_at', 'timestamptz'],
  ['signup_address', 'text'],
  ['last_login_at', 'timestamptz'],
  ['last_login_address', 'text'],
  ['inviter', 'int'],
  ['legacy_password', 'text'],
  ['tenant', 'int'],
];
const userRow = (v: UserValue, id: number, { tenant }: Ctx) => [
  id,
  v.account,
  v.accountKey,
  v.nickname,
  v.phone,
  v.email,
  v.group,
  v.vipLevel,
  v.vipExpiresAt,
  v.points,
  v.status,
  v.signupAt,
  v.signupAddress,
  v.lastLoginAt,
  v.lastLoginAddress,
  v.inviter,
  v.legacyPassword,
  tenant,
];

/**
 * MacCMS groups: 1 guest, 2 member, 3 VIP, higher ones made by the site (paid tiers). A member of group 3 or above
 * is VIP here (level 1) until user_end_time (none: for life); group_id may list several ids, the highest counts.
 */
function groupOf(
  groupIds: string,
  endTime: unknown,
): { group: string; vipLevel: number; vipExpiresAt: string | null } {
  const top = Math.max(0, ...groupIds.split(',').map((g) => Number.parseInt(g, 10) || 0));
  if (top < 3) return { group: 'normal', vipLevel: 0, vipExpiresAt: null };
  return { group: 'vip', vipLevel: 1, vipExpiresAt: optionalTime(endTime) };
}

export function userKind(): Kind<UserValue> {
  return {
    kind: 'user',
    table: 'user',
    columns: [
      'user_id',
      'user_pid',
      'user_name',
      'user_pwd',
      'user_nick_name',
      'user_phone',
      'user_email',
      'group_id',
      'user_end_time',
      'user_points',
      'user_status',
      'user_reg_time',
      'user_reg_ip',
      'user_login_time',
      'user_login_ip',
    ],
    pk: 'user_id',
    target: 'site_users',
    batch: 1000,
    refs: (rows) => ({
      user: { table: 'site_users', ids: rows.map((r) => num(r.user_pid)).filter((n) => n > 0) },
    }),
    prepare(row, ctx) {
      const mid = num(row.user_id);
      const lines: ReportLine[] = [];
      const account = textOf(row, 'user_name', lines, mid, 64).trim();
      if (!account) return { mid, skip: 'emptyName', lines };
      const pwd = textOf(row, 'user_pwd', lines, mid).trim();
      return {
        mid,
        value: {
          account,
          accountKey: foldForMatch(account) || null,
          nickname: textOf(row, 'user_nick_name', lines, mid, 64),
          phone: textOf(row, 'user_phone', lines, mid, 32),
          email: textOf(row, 'user_email', lines, mid, 128),
          ...groupOf(textOf(row, 'group_id', lines, mid), row.user_end_time),
          points: int32(row.user_points),
          status: num(row.user_status) === 1 ? 'active' : 'disabled',
          signupAt: requiredTime(row, 'user_reg_time', ctx, lines, mid),
          signupAddress: ipv4(row.user_reg_ip),
          lastLoginAt: optionalTime(row.user_login_time),
          lastLoginAddress: ipv4(row.user_login_ip),
          inviter: ctx.refs.get('user')?.get(num(row.user_pid)) ?? null,
          legacyPassword: pwd ? pwd.slice(0, 255) : null,
        },
        lines,
      };
    },
    /**
     * An account another member holds is refused (accounts are unique). A look-alike of another member's account
     * (`Alice01` and `alice01`, `ＡＤＭＩＮ` and `admin`: one folded key) is still moved, so it can log in, but without
     * the key, which stays with the member who has it here or else the lowest MacCMS user_id; a line names both.
     */
    async conflicts(ex, items, ctx, lines) {
      const out = new Map<number, string>();
      const holders = new Map<string, number>();
      for (const r of rowsOf<{ id: number; account: string }>(
        await ex.execute(sql`select id, account from site_users where tenant = ${ctx.tenant}
          and account = any(${sql.param(items.map((i) => i.value.account))}::text[])`),
      ))
        holders.set(r.account, Number(r.id));
      for (const i of items) {
        const holder = holders.get(i.value.account);
        if (holder !== undefined && holder !== i.ourId) out.set(i.mid, 'accountTaken');
        else holders.set(i.value.account, i.ourId);
      }
      const keys = new Map<string, { id: number; account: string }>();
      const wanted = items.flatMap((i) => (i.value.accountKey === null ? [] : [i.value.accountKey]));
      if (wanted.length)
        for (const r of rowsOf<{ id: number; account: string; key: string }>(
          await ex.execute(sql`select id, account, account_key as key from site_users where tenant = ${ctx.tenant}
            and account_key = any(${sql.param(wanted)}::text[])`),
        ))
          keys.set(r.key, { id: Number(r.id), account: r.account });
      for (const i of [...items].sort((a, b) => a.mid - b.mid)) {
        const key = i.value.accountKey;
        if (out.has(i.mid) || key === null) continue;
        const holder = keys.get(key);
        if (!holder || holder.id === i.ourId) {
          keys.set(key, { id: i.ourId, account: i.value.account });
          continue;
        }
        i.value.accountKey = null;
        lines.push({
          id: i.mid,
          outcome: 'note',
          reason: 'lookalike',
          detail: `${i.value.account} ~ ${holder.account}`,
        });
      }
      return out;
    },
    ...rowWriter('site_users', USER_COLS, userRow),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// mac_comment → comments, mac_gbook → guestbook

interface CommentValue {
  targetType: string;
  targetId: number;
  userId: number | null;
  guestName: string;
  parentId: number | null;
  content: string;
  address: string;
  likes: number;
  reports: number;
  status: string;
  createdAt: string;
}

const COMMENT_COLS: Col[] = [
  ['id', 'int'],
  ['target_type', 'text'],
  ['target_id', 'int'],
  ['user_id', 'int'],
  ['guest_name', 'text'],
  ['parent_id', 'int'],
  ['content', 'text'],
  ['address', 'text'],
  ['likes', 'int'],
  ['reports', 'int'],
  ['status', 'text'],
  ['created_at', 'timestamptz'],
  ['tenant', 'int'],
];
const commentRow = (v: CommentValue, id: number, { tenant }: Ctx) => [
  id,
  v.targetType,
  v.targetId,
  v.userId,
  v.guestName,
  v.parentId,
  v.content,
  v.address,
  v.likes,
  v.reports,
  v.status,
  v.createdAt,
  tenant,
];

/** comment_mid: 1 video, 2 article, 8 actor; the rest (3 topic, 9 role, 11 website, 12 manga) have no home. */
const COMMENT_TARGETS: Record<number, { kind: string; table: string; type: string }> = {
  1: { kind: 'vod', table: 'movies', type: 'movie' },
  2: { kind: 'art', table: 'novels', type: 'novel' },
  8: { kind: 'actor', table: 'actresses', type: 'actress' },
};

export function commentKind(): Kind<CommentValue> {
  return {
    kind: 'comment',
    table: 'comment',
    columns: [
      'comment_id',
      'comment_mid',
      'comment_rid',
      'comment_pid',
      'comment_content',
      'comment_name',
      'user_id',
      'comment_ip',
      'comment_up',
      'comment_report',
      'comment_status',
      'comment_time',
    ],
    pk: 'comment_id',
    target: 'comments',
    batch: 1000,
    refs(rows) {
      const out: Record<string, { table: string; ids: number[] }> = {
        user: { table: 'site_users', ids: rows.map((r) => num(r.user_id)).filter((n) => n > 0) },
        comment: { table: 'comments', ids: rows.map((r) => num(r.comment_pid)).filter((n) => n > 0) },
      };
      for (const [mid, t] of Object.entries(COMMENT_TARGETS))
        out[t.kind] = {
          table: t.table,
          ids: rows.filter((r) => num(r.comment_mid) === Number(mid)).map((r) => num(r.comment_rid)),
        };
      return out;
    },
    prepare(row, ctx) {
      const mid = num(row.comment_id);
      const lines: ReportLine[] = [];
      const target = COMMENT_TARGETS[num(row.comment_mid)];
      if (!target)
        return { mid, skip: 'kindNotMoved', skipDetail: `comment_mid ${num(row.comment_mid)}`, lines };
      const targetId = ctx.refs.get(target.kind)?.get(num(row.comment_rid));
      if (targetId === undefined)
        return { mid, skip: 'orphanTarget', skipDetail: `${target.kind} ${num(row.comment_rid)}`, lines };
      const pid = num(row.comment_pid);
      const parentId = pid > 0 ? ctx.refs.get('comment')?.get(pid) : null;
      if (parentId === undefined) return { mid, skip: 'orphanParent', skipDetail: `comment ${pid}`, lines };
      const content = textOf(row, 'comment_content', lines, mid).trim();
      if (!content) return { mid, skip: 'emptyContent', lines };
      const { userId, guestName } = memberOf(row, 'comment_name', ctx, lines, mid);
      return {
        mid,
        value: {
          targetType: target.type,
          targetId,
          userId,
          guestName,
          parentId,
          content,
          address: ipv4(row.comment_ip),
          likes: int32(row.comment_up),
          reports: int32(row.comment_report),
          status: num(row.comment_status) === 1 ? 'online' : 'pending',
          createdAt: requiredTime(row, 'comment_time', ctx, lines, mid),
        },
        lines,
      };
    },
    ...rowWriter('comments', COMMENT_COLS, commentRow),
  };
}

/** The member a row names, or the guest it showed when the member is 0 or was not moved (with a line). */
function memberOf(row: SourceRow, nameField: string, ctx: Ctx, lines: ReportLine[], mid: number) {
  const uid = num(row.user_id);
  const userId = uid > 0 ? (ctx.refs.get('user')?.get(uid) ?? null) : null;
  if (uid > 0 && userId === null)
    lines.push({ id: mid, outcome: 'note', reason: 'memberGone', detail: `user ${uid}` });
  const guestName = userId === null ? textOf(row, nameField, lines, mid, 32).trim() : '';
  return { userId, guestName };
}

interface GbookValue {
  userId: number | null;
  guestName: string;
  kind: string;
  movieId: number | null;
  content: string;
  address: string;
  reply: string;
  repliedAt: string | null;
  status: string;
  createdAt: string;
}

const GBOOK_COLS: Col[] = [
  ['id', 'int'],
  ['user_id', 'int'],
  ['guest_name', 'text'],
  ['kind', 'text'],
  ['movie_id', 'int'],
  ['content', 'text'],
  ['address', 'text'],
  ['reply', 'text'],
  ['replied_at', 'timestamptz'],
  ['status', 'text'],
  ['created_at', 'timestamptz'],
  ['tenant', 'int'],
];
const gbookRow = (v: GbookValue, id: number, { tenant }: Ctx) => [
  id,
  v.userId,
  v.guestName,
  v.kind,
  v.movieId,
  v.content,
  v.address,
  v.reply,
  v.repliedAt,
  v.status,
  v.createdAt,
  tenant,
];

/** gbook_rid names the video a "broken video" report (报错) is about; 0 for a plain message. */
export function gbookKind(): Kind<GbookValue> {
  return {
    kind: 'gbook',
    table: 'gbook',
    columns: [
      'gbook_id',
      'gbook_rid',
      'gbook_content',
      'gbook_name',
      'user_id',
      'gbook_ip',
      'gbook_reply',
      'gbook_reply_time',
      'gbook_status',
      'gbook_time',
    ],
    pk: 'gbook_id',
    target: 'guestbook',
    batch: 1000,
    refs: (rows) => ({
      user: { table: 'site_users', ids: rows.map((r) => num(r.user_id)).filter((n) => n > 0) },
      vod: { table: 'movies', ids: rows.map((r) => num(r.gbook_rid)).filter((n) => n > 0) },
    }),
    prepare(row, ctx) {
      const mid = num(row.gbook_id);
      const lines: ReportLine[] = [];
      const content = textOf(row, 'gbook_content', lines, mid).trim();
      if (!content) return { mid, skip: 'emptyContent', lines };
      const rid = num(row.gbook_rid);
      const movieId = rid > 0 ? (ctx.refs.get('vod')?.get(rid) ?? null) : null;
      if (rid > 0 && movieId === null)
        lines.push({ id: mid, outcome: 'note', reason: 'brokenVideoGone', detail: `vod ${rid}` });
      const reply = textOf(row, 'gbook_reply', lines, mid).trim();
      return {
        mid,
        value: {
          ...memberOf(row, 'gbook_name', ctx, lines, mid),
          kind: movieId !== null ? 'broken' : 'message',
          movieId,
          content,
          address: ipv4(row.gbook_ip),
          reply,
          repliedAt: reply ? optionalTime(row.gbook_reply_time) : null,
          status: num(row.gbook_status) === 1 ? 'online' : 'pending',
          createdAt: requiredTime(row, 'gbook_time', ctx, lines, mid),
        },
        lines,
      };
    },
    ...rowWriter('guestbook', GBOOK_COLS, gbookRow),
  };
}
