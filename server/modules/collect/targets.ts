import { sql } from 'drizzle-orm';
import { MAX_ACTRESS_BIOGRAPHY, regionOfArea } from '../../../common/actresses';
import { type ArtChapter, artChapters } from '../../../common/art-pages';
import { dateOf, splitList } from '../../../common/maccms-lists';
import { CHAPTER_MAX_CHARS } from '../../../common/novel';
import { richTextToPlain } from '../../../common/rich-text';
import { entry } from '../../core/maps';
import { arrayParam } from '../../db/array-literal';
import { rowsOf } from '../../db/migrate';
import type { Executor, Tx } from '../../db/types';
import {
  type Bindings,
  boundColumn,
  type Checked,
  type Current,
  checkName,
  nameMatch,
  type Planned,
  readyItem,
  recordBatch,
  type Source,
  setValuesCover,
  type Target,
} from './items';
import { cleanCover, plainDescription, type RemoteItem } from './reader';

/**
 * What article sites (MacCMS `provide/art`) and performer sites (`provide/actor`) collect into: novels with their
 * chapters, into the novels' review queue; actresses, into the actresses' list. Matching, the locked-field rule,
 * counts and the log are the run's (run.ts); here is what an item is and how a batch is written.
 */

/** Chapters one collected article makes at most (a page of the provide API is capped in bytes too). */
export const MAX_ART_PAGES = 2000;
const MAX_TAGS = 20;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is removed
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
/** Remote text as we store it: no control characters but tab and line ends (PostgreSQL refuses NUL). */
const clean = (s: string) => s.replace(CONTROLS, '');

/** A site's tags or aliases (`a,b，c`): each trimmed, cut to `max` characters, at most MAX_TAGS. */
const listOf = (s: string, max: number) =>
  splitList(clean(s))
    .map((t) => [...t].slice(0, max).join(''))
    .slice(0, MAX_TAGS);

const tagsText = (tags: readonly string[]) => tags.join('\n');

// --- novels ----------------------------------------------------------------------------------------------------

const NOVEL_FIELDS = ['title', 'author', 'description', 'cover', 'columnId', 'tags', 'chapters'] as const;

interface NovelValues {
  title: string;
  author: string;
  description: string;
  cover: string;
  columnId: number | null;
  tags: string[];
}

const chaptersText = (chapters: readonly { title: string; content: string }[]) =>
  chapters.map((c) => `${c.title}\t${c.content}`).join('\n\u0001');

const novelTexts = (v: NovelValues, chapters: readonly { title: string; content: string }[]) => ({
  title: v.title,
  author: v.author,
  description: v.description,
  cover: v.cover,
  columnId: String(v.columnId ?? ''),
  tags: tagsText(v.tags),
  chapters: chaptersText(chapters),
});

interface NovelData {
  values: NovelValues;
  chapters: ArtChapter[];
}

function checkArt(raw: RemoteItem, bindings: Bindings): Checked<NovelData> {
  const named = checkName(raw, 200);
  if (!named.ok) return named;
  const { remoteId, title, name } = named;
  const bound = boundColumn(raw, bindings, remoteId, name);
  if (!bound.ok) return bound;
  // MacCMS's pages, through the sanitizer to plain text: the one splitter the MacCMS move uses too.
  const chapters = artChapters(title, clean(raw.content), clean(raw.pageTitles), {
    maxPages: MAX_ART_PAGES,
    maxChars: CHAPTER_MAX_CHARS,
  });
  if (!chapters.length)
    return { ok: false, entry: { remoteId, name, outcome: 'failed', reason: 'noChapters' } };
  const values: NovelValues = {
    title,
    author: [...clean(raw.author).replace(/\s+/g, ' ').trim()].slice(0, 64).join(''),
    description: clean(plainDescription(raw.description)),
    cover: cleanCover(raw.cover),
    columnId: bound.columnId,
    tags: listOf(raw.tags, 32),
  };
  return readyItem(remoteId, title, '', novelTexts(values, chapters), { values, chapters });
}

async function currentNovels(db: Executor, ids: number[], lock: boolean) {
  const out = new Map<number, Current<NovelValues>>();
  const rows = rowsOf<Record<string, any>>(
    await db.execute(sql`
      select id, title, author, description, cover, column_id, tags from novels
      where id = any(${arrayParam(ids)}::integer[]) order by id ${lock ? sql`for update` : sql``}`),
  );
  const chapters = new Map<number, { title: string; content: string }[]>();
  for (const r of rowsOf<{ novel_id: number; title: string; content: string }>(
    await db.execute(sql`
      select novel_id, title, content from novel_chapters
      where novel_id = any(${arrayParam(ids)}::integer[]) order by novel_id, number`),
  )) {
    entry(chapters, Number(r.novel_id), () => []).push({ title: r.title, content: r.content });
  }
  for (const r of rows) {
    const data: NovelValues = {
      title: r.title,
      author: r.author,
      description: r.description,
      cover: r.cover,
      columnId: r.column_id === null ? null : Number(r.column_id),
      tags: r.tags ?? [],
    };
    out.set(Number(r.id), {
      id: Number(r.id),
      texts: novelTexts(data, chapters.get(Number(r.id)) ?? []),
      data,
    });
  }
  return out;
}

/** Ids for `n` new rows of `table`, drawn first so that their children and item records can name them. */
async function newIds(tx: Tx, sequence: 'novels_id_seq' | 'actresses_id_seq', n: number) {
  if (!n) return [];
  return rowsOf<{ id: number }>(
    await tx.execute(
      sql`select nextval(${sequence}::regclass)::int as id from generate_series(1, ${n}) order by 1`,
    ),
  ).map((r) => Number(r.id));
}

async function writeNovels(tx: Tx, source: Source, p: Planned<NovelData, NovelValues>, now: Date) {
  const ids = await newIds(tx, 'novels_id_seq', p.adds.length);
  const status = source.trusted ? 'online' : 'pending';
  const rows = [
    ...p.adds.map((a, i) => ({ id: ids[i], v: a.data.values })),
    ...p.updates
      .filter((u) => u.set.length)
      .map((u) => {
        const pick = <K extends keyof NovelValues>(f: K) =>
          u.set.includes(f) ? u.item.data.values[f] : u.current.data[f];
        return {
          id: u.current.id,
          v: {
            title: pick('title'),
            author: pick('author'),
            description: pick('description'),
            cover: pick('cover'),
            columnId: pick('columnId'),
            tags: pick('tags'),
          },
        };
      }),
  ];
  const adds = rows.slice(0, p.adds.length);
  const changed = rows.slice(p.adds.length);
  const values = (list: typeof rows) => sql`unnest(${arrayParam(list.map((r) => r.id))}::integer[],
      ${arrayParam(list.map((r) => r.v.title))}::text[], ${arrayParam(list.map((r) => r.v.author))}::text[],
      ${arrayParam(list.map((r) => r.v.description))}::text[], ${arrayParam(list.map((r) => r.v.cover))}::text[],
      ${arrayParam(list.map((r) => r.v.columnId))}::integer[], ${arrayParam(list.map((r) => JSON.stringify(r.v.tags)))}::text[])
      as u(id, title, author, description, cover, column_id, tags)`;
  const tagArray = sql`array(select jsonb_array_elements_text(u.tags::jsonb))`;
  if (adds.length)
    await tx.execute(sql`
      insert into novels (id, title, author, description, cover, column_id, tags, status, published_at, created_at, updated_at)
      select u.id, u.title, u.author, u.description, u.cover, u.column_id, ${tagArray}, ${status},
        ${source.trusted ? now : null}::timestamptz, ${now}, ${now}
      from ${values(adds)}`);
  if (changed.length)
    await tx.execute(sql`
      update novels n set title = u.title, author = u.author, description = u.description, cover = u.cover,
        column_id = u.column_id, tags = ${tagArray}, version = n.version + 1, updated_at = ${now}
      from ${values(changed)} where n.id = u.id`);
  // Chapters: every new novel's, and those of a novel whose chapters follow the site (replaced whole).
  const replaced = p.updates.filter((u) => u.set.includes('chapters'));
  if (replaced.length)
    await tx.execute(
      sql`delete from novel_chapters where novel_id = any(${arrayParam(replaced.map((u) => u.current.id))}::integer[])`,
    );
  const chapters = [
    ...p.adds.map((a, i) => ({ id: ids[i], chapters: a.data.chapters })),
    ...replaced.map((u) => ({ id: u.current.id, chapters: u.item.data.chapters })),
  ].flatMap((n) => n.chapters.map((c, i) => ({ novelId: n.id, number: i + 1, ...c })));
  if (chapters.length)
    await tx.execute(sql`
      insert into novel_chapters (novel_id, number, title, content, word_count, created_at, updated_at)
      select c.novel_id, c.number, c.title, c.content, c.words, ${now}, ${now}
      from unnest(${arrayParam(chapters.map((c) => c.novelId))}::integer[], ${arrayParam(chapters.map((c) => c.number))}::integer[],
        ${arrayParam(chapters.map((c) => c.title))}::text[], ${arrayParam(chapters.map((c) => c.content))}::text[],
        ${arrayParam(chapters.map((c) => c.words))}::integer[]) as c(novel_id, number, title, content, words)`);
  await recordBatch(tx, artTarget, source.id, p, ids, now);
  return undefined;
}

export const artTarget: Target<NovelData, NovelValues> = {
  fields: NOVEL_FIELDS,
  column: 'novel_id',
  logKey: 'novelId',
  typed: true,
  image: 'cover',
  setImage: setValuesCover,
  check: checkArt,
  byName: nameMatch('novels', 'title'),
  current: currentNovels,
  write: (tx, source, p, now) => writeNovels(tx, source, p, now),
};

// --- actresses -------------------------------------------------------------------------------------------------

const ACTRESS_FIELDS = [
  'name',
  'aliases',
  'avatar',
  'birthday',
  'height',
  'region',
  'biography',
  'tags',
] as const;

interface ActressValues {
  name: string;
  aliases: string[];
  avatar: string;
  birthday: string | null;
  height: number | null;
  region: string | null;
  biography: string;
  tags: string[];
}

const actressTexts = (v: ActressValues) => ({
  name: v.name,
  aliases: tagsText(v.aliases),
  avatar: v.avatar,
  birthday: v.birthday ?? '',
  height: v.height === null ? '' : String(v.height),
  region: v.region ?? '',
  biography: v.biography,
  tags: tagsText(v.tags),
});

/**
 * A performer: its types are not bound (actresses have no columns), so every item with a name is collected. Its
 * biography is `actor_content` (HTML, through the sanitizer) or else `actor_blurb`, as the MacCMS move takes it.
 */
function checkActor(raw: RemoteItem): Checked<ActressValues> {
  const named = checkName(raw, 64);
  if (!named.ok) return named;
  const { remoteId, title } = named;
  const height = Number.parseInt(raw.height, 10);
  const values: ActressValues = {
    name: title,
    aliases: listOf(raw.aliases, 64).filter((a) => a !== title),
    avatar: cleanCover(raw.cover),
    birthday: dateOf(raw.birthday),
    height: height >= 100 && height <= 250 ? height : null,
    region: regionOfArea(raw.area),
    biography: clean(richTextToPlain(raw.description))
      .slice(0, MAX_ACTRESS_BIOGRAPHY)
      .replace(/[\uD800-\uDBFF]$/, ''),
    tags: listOf(raw.tags, 32),
  };
  return readyItem(remoteId, title, '', actressTexts(values), values);
}

async function currentActresses(db: Executor, ids: number[], lock: boolean) {
  const out = new Map<number, Current<ActressValues>>();
  for (const r of rowsOf<Record<string, any>>(
    await db.execute(sql`
      select id, name, aliases, avatar, birthday::text as birthday, height, region, biography, tags from actresses
      where id = any(${arrayParam(ids)}::integer[]) order by id ${lock ? sql`for update` : sql``}`),
  )) {
    const data: ActressValues = {
      name: r.name,
      aliases: r.aliases ?? [],
      avatar: r.avatar,
      birthday: r.birthday ?? null,
      height: r.height === null ? null : Number(r.height),
      region: r.region ?? null,
      biography: r.biography,
      tags: r.tags ?? [],
    };
    out.set(Number(r.id), { id: Number(r.id), texts: actressTexts(data), data });
  }
  return out;
}

/**
 * New actresses of an untrusted site are added hidden (`visible` false): the actresses' list has no review queue, so
 * an operator shows them once looked at; a trusted site's are visible at once.
 */
async function writeActresses(tx: Tx, source: Source, p: Planned<ActressValues, ActressValues>, now: Date) {
  const ids = await newIds(tx, 'actresses_id_seq', p.adds.length);
  const rows = [
    ...p.adds.map((a, i) => ({ id: ids[i], v: a.data })),
    ...p.updates
      .filter((u) => u.set.length)
      .map((u) => ({
        id: u.current.id,
        v: Object.fromEntries(
          ACTRESS_FIELDS.map((f) => [f, u.set.includes(f) ? u.item.data[f] : u.current.data[f]]),
        ) as unknown as ActressValues,
      })),
  ];
  const values = (list: typeof rows) => sql`unnest(${arrayParam(list.map((r) => r.id))}::integer[],
      ${arrayParam(list.map((r) => r.v.name))}::text[], ${arrayParam(list.map((r) => JSON.stringify(r.v.aliases)))}::text[],
      ${arrayParam(list.map((r) => r.v.avatar))}::text[], ${arrayParam(list.map((r) => r.v.birthday))}::text[],
      ${arrayParam(list.map((r) => r.v.height))}::integer[], ${arrayParam(list.map((r) => r.v.region))}::text[],
      ${arrayParam(list.map((r) => r.v.biography))}::text[], ${arrayParam(list.map((r) => JSON.stringify(r.v.tags)))}::text[])
      as u(id, name, aliases, avatar, birthday, height, region, biography, tags)`;
  const list = (col: string) => sql`array(select jsonb_array_elements_text(${sql.raw(`u.${col}`)}::jsonb))`;
  const adds = rows.slice(0, p.adds.length);
  const changed = rows.slice(p.adds.length);
  if (adds.length)
    await tx.execute(sql`
      insert into actresses (id, name, aliases, avatar, birthday, height, region, biography, tags, visible,
        created_at, updated_at)
      select u.id, u.name, ${list('aliases')}, u.avatar, u.birthday::date, u.height, u.region, u.biography,
        ${list('tags')}, ${source.trusted}, ${now}, ${now}
      from ${values(adds)}`);
  if (changed.length)
    await tx.execute(sql`
      update actresses a set name = u.name, aliases = ${list('aliases')}, avatar = u.avatar, birthday = u.birthday::date,
        height = u.height, region = u.region, biography = u.biography, tags = ${list('tags')},
        version = a.version + 1, updated_at = ${now}
      from ${values(changed)} where a.id = u.id`);
  await recordBatch(tx, actorTarget, source.id, p, ids, now);
  return undefined;
}

export const actorTarget: Target<ActressValues, ActressValues> = {
  fields: ACTRESS_FIELDS,
  column: 'actress_id',
  logKey: 'actressId',
  typed: false,
  image: 'avatar',
  setImage: (item, path) => {
    item.data.avatar = path;
    item.texts.avatar = path;
  },
  check: checkActor,
  byName: nameMatch('actresses', 'name'),
  current: currentActresses,
  write: (tx, source, p, now) => writeActresses(tx, source, p, now),
};
