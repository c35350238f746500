import { REGION_AREAS } from '../../../common/actresses';
import { artPagesText, chapterHtml } from '../../../common/art-pages';
import { formatEpisodeList, LINE_SEPARATOR, type PlayLine } from '../../../common/episodes';
import { partsIn } from '../../../common/period';
import type { ProvideQuery } from './params';
import type { Column, ProvidedActress, ProvidedMovie, ProvidedNovel, ProvidedPage } from './read';

/**
 * MacCMS's provide answers (application/api/controller/Provide.php): JSON with `code` 1, `msg`, `page`,
 * `pagecount`, `limit` (a string, as MacCMS's configured page size is), `total`, `list[]` and, for `ac=list`,
 * `class[]`; or the XML of `at=xml` (`<rss version="5.1">`). What a list item carries depends on `ac`: `list` the
 * short form (its `vod_play_from` joined by commas, as MacCMS lists it), `videolist`/`detail` every field with
 * `vod_play_url`.
 */

export interface FormatContext {
  /** Where a stored cover path is served from: imgdomain, or this server's image host. */
  imageHost: string;
  timeZone: string;
}

/** `YYYY-MM-DD HH:MM:SS` in the tenant's time zone, as MacCMS writes `vod_time`. */
export function vodTime(isoTime: string, timeZone: string): string {
  const { day, hour, minute, second } = partsIn(new Date(isoTime), timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${day} ${two(hour)}:${two(minute)}:${two(second)}`;
}

function picOf(cover: string, host: string): string {
  if (!cover || /^(?:https?:)?\/\//i.test(cover)) return cover;
  return `${host.replace(/\/+$/, '')}/${cover.replace(/^\/+/, '')}`;
}

const pageCount = (total: number, size: number) => Math.ceil(total / size);
const detailed = (q: ProvideQuery) => q.ac !== 'list';

function item(m: ProvidedMovie, q: ProvideQuery, ctx: FormatContext) {
  const codes = m.lines.map((l) => l.code);
  const short = {
    vod_id: m.id,
    vod_name: m.title,
    type_id: m.columnId ?? 0,
    type_name: m.columnName ?? '',
    vod_en: '',
    vod_time: vodTime(m.updatedAt, ctx.timeZone),
    vod_remarks: remarksOf(m.lines),
    vod_play_from: codes.join(detailed(q) ? LINE_SEPARATOR : ','),
  };
  if (!detailed(q)) return short;
  return {
    ...short,
    vod_pic: picOf(m.cover, ctx.imageHost),
    vod_actor: m.actors.join(','),
    vod_director: '',
    vod_area: '',
    vod_lang: '',
    vod_year: m.releaseDate?.slice(0, 4) ?? '',
    vod_content: m.description,
    vod_play_server: m.lines.map(() => 'no').join(LINE_SEPARATOR),
    vod_play_note: m.lines.map(() => '').join(LINE_SEPARATOR),
    vod_play_url: m.lines.map((l) => formatEpisodeList(l.episodes)).join(LINE_SEPARATOR),
  };
}

/** A series' note: its last episode's name on its longest line (第12集); nothing for a single feature. */
function remarksOf(lines: readonly PlayLine[]): string {
  const longest = lines.reduce<PlayLine | undefined>(
    (a, l) => (!a || l.episodes.length > a.episodes.length ? l : a),
    undefined,
  );
  if (!longest || longest.episodes.length < 2) return '';
  return longest.episodes[longest.episodes.length - 1].name.replace(/[$#\r\n]+/g, ' ').trim();
}

/** MacCMS's JSON envelope: paging, the page's items, and the types (`class`) of a short list. */
function jsonEnvelope<T>(total: number, q: ProvideQuery, list: T[], detail: boolean, columns: Column[]) {
  return {
    code: 1,
    msg: '数据列表',
    page: q.pg,
    pagecount: pageCount(total, q.pageSize),
    limit: String(q.pageSize),
    total,
    list,
    ...(detail
      ? {}
      : { class: columns.map((c) => ({ type_id: c.id, type_pid: c.parentId ?? 0, type_name: c.name })) }),
  };
}

export function provideJson(page: ProvidedPage, q: ProvideQuery, columns: Column[], ctx: FormatContext) {
  return jsonEnvelope(
    page.total,
    q,
    page.list.map((m) => item(m, q, ctx)),
    detailed(q),
    columns,
  );
}

/** XML 1.0 cannot carry most control characters at all, escaped or not: they go. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed
const xmlChars = (s: string) => s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '');
const text = (s: string | number) =>
  xmlChars(String(s)).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
/** A CDATA section holds anything but its own end: `]]>` is split across two sections. */
const cdata = (s: string) => `<![CDATA[${xmlChars(s).replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;

/** The XML answer's start: `<rss>` and the list's paging attributes. */
const xmlHead = (total: number, q: ProvideQuery) => [
  '<?xml version="1.0" encoding="utf-8"?><rss version="5.1">',
  `<list page="${q.pg}" pagecount="${pageCount(total, q.pageSize)}" pagesize="${q.pageSize}" recordcount="${total}">`,
];

/** The XML answer's end: the list closed, the types (`<class>`) of a short list, `</rss>`. */
function xmlTail(out: string[], detail: boolean, columns: Column[]) {
  out.push('</list>');
  if (!detail)
    out.push('<class>', ...columns.map((c) => `<ty id="${c.id}">${text(c.name)}</ty>`), '</class>');
  out.push('</rss>');
  return out.join('');
}

export function provideXml(
  page: ProvidedPage,
  q: ProvideQuery,
  columns: Column[],
  ctx: FormatContext,
): string {
  const out = xmlHead(page.total, q);
  for (const m of page.list) {
    out.push(
      '<video>',
      `<last>${text(vodTime(m.updatedAt, ctx.timeZone))}</last>`,
      `<id>${m.id}</id>`,
      `<tid>${m.columnId ?? 0}</tid>`,
      `<name>${cdata(m.title)}</name>`,
      `<type>${text(m.columnName ?? '')}</type>`,
    );
    if (detailed(q)) {
      out.push(
        `<pic>${text(picOf(m.cover, ctx.imageHost))}</pic>`,
        '<lang></lang>',
        '<area></area>',
        `<year>${text(m.releaseDate?.slice(0, 4) ?? '')}</year>`,
        '<state></state>',
        `<note>${cdata(remarksOf(m.lines))}</note>`,
        `<actor>${cdata(m.actors.join(','))}</actor>`,
        '<director><![CDATA[]]></director>',
        '<dl>',
        ...m.lines.map((l) => `<dd flag="${text(l.code)}">${cdata(formatEpisodeList(l.episodes))}</dd>`),
        '</dl>',
        `<des>${cdata(m.description)}</des>`,
      );
    } else {
      out.push(
        `<dt>${text(m.lines.map((l) => l.code).join(','))}</dt>`,
        `<note>${cdata(remarksOf(m.lines))}</note>`,
      );
    }
    out.push('</video>');
  }
  return xmlTail(out, detailed(q), columns);
}

// --- articles (our novels) and performers (our actresses) ------------------------------------------------------

/**
 * MacCMS serves `provide/art` and `provide/actor` as JSON only, with the envelope of `provide/vod` and its own field
 * names (`art_*`, `actor_*`): `ac=detail` every field, any other `ac` the short list with `class[]`. The XML of
 * `at=xml` is ours, built as the video list's is (`<rss><list …><art>…</art></list><class>…</class></rss>`, one
 * child element per field without its prefix), so our own collector can read either.
 */
export type ArtActorKind = 'art' | 'actor';

const artDetailed = (q: ProvideQuery) => q.ac === 'detail' || q.ac === 'videolist';

/** A novel's fields, in MacCMS's order: the short list's, then the detail's. */
function artFields(n: ProvidedNovel, q: ProvideQuery, ctx: FormatContext): [string, string | number][] {
  const short: [string, string | number][] = [
    ['art_id', n.id],
    ['art_name', n.title],
    ['type_id', n.columnId ?? 0],
    ['type_name', n.columnName ?? ''],
    ['art_en', ''],
    ['art_time', vodTime(n.updatedAt, ctx.timeZone)],
    ['art_author', n.author],
    ['art_from', ''],
    ['art_remarks', n.serialStatus === 'completed' ? '完结' : ''],
    ['art_pic', picOf(n.cover, ctx.imageHost)],
  ];
  if (!artDetailed(q)) return short;
  const pages = artPagesText(n.chapters);
  return [
    ...short,
    ['art_tag', n.tags.join(',')],
    ['art_blurb', n.description],
    ['art_title', pages.titles],
    ['art_content', pages.content],
  ];
}

/** An actress's fields as MacCMS's actor: the short list's, then the detail's. Our actresses have no types. */
function actorFields(a: ProvidedActress, q: ProvideQuery, ctx: FormatContext): [string, string | number][] {
  const short: [string, string | number][] = [
    ['actor_id', a.id],
    ['actor_name', a.name],
    ['type_id', 0],
    ['type_name', ''],
    ['actor_en', ''],
    ['actor_area', a.region ? REGION_AREAS[a.region] : ''],
    ['actor_time', vodTime(a.updatedAt, ctx.timeZone)],
    ['actor_alias', a.aliases.join(',')],
    ['actor_sex', '女'],
    ['actor_pic', picOf(a.avatar, ctx.imageHost)],
  ];
  if (!artDetailed(q)) return short;
  return [
    ...short,
    ['actor_height', a.height ? String(a.height) : ''],
    ['actor_birthday', a.birthday ?? ''],
    ['actor_tag', a.tags.join(',')],
    ['actor_blurb', [...a.biography.replace(/\s+/g, ' ').trim()].slice(0, 100).join('')],
    ['actor_content', chapterHtml(a.biography)],
  ];
}

interface ArtActorPage {
  total: number;
  list: (ProvidedNovel | ProvidedActress)[];
}

const fieldsOf = (
  kind: ArtActorKind,
  row: ProvidedNovel | ProvidedActress,
  q: ProvideQuery,
  ctx: FormatContext,
) => (kind === 'art' ? artFields(row as ProvidedNovel, q, ctx) : actorFields(row as ProvidedActress, q, ctx));

export function artActorJson(
  kind: ArtActorKind,
  page: ArtActorPage,
  q: ProvideQuery,
  columns: Column[],
  ctx: FormatContext,
) {
  return jsonEnvelope(
    page.total,
    q,
    page.list.map((row) => Object.fromEntries(fieldsOf(kind, row, q, ctx))),
    artDetailed(q),
    columns,
  );
}

/** Fields whose text may hold anything (names, HTML): written as CDATA; the rest escaped. */
const CDATA_FIELDS = new Set(['name', 'author', 'remarks', 'tag', 'blurb', 'title', 'content', 'alias']);

export function artActorXml(
  kind: ArtActorKind,
  page: ArtActorPage,
  q: ProvideQuery,
  columns: Column[],
  ctx: FormatContext,
): string {
  const out = xmlHead(page.total, q);
  for (const row of page.list) {
    out.push(`<${kind}>`);
    for (const [field, value] of fieldsOf(kind, row, q, ctx)) {
      const name =
        field === 'type_id' ? 'tid' : field === 'type_name' ? 'type' : field.replace(/^[a-z]+_/, '');
      const v = String(value);
      out.push(`<${name}>${CDATA_FIELDS.has(name) ? cdata(v) : text(v)}</${name}>`);
    }
    out.push(`</${kind}>`);
  }
  return xmlTail(out, artDetailed(q), columns);
}
