import { richTextToPlain } from '../../../common/rich-text';
import type { SourceKind } from './schema';

/**
 * Reading a resource site's provide API answer (MacCMS's `api.php/provide/vod/`, `…/art/` or `…/actor/`), JSON or
 * XML (`at=xml`), into one shape. The site is not trusted: everything is bounded here (lengths, counts, ids), and anything that is not the
 * expected shape is a `ReadFailure` with a stable reason the run reports in the operator's language.
 *
 * JSON: `{code, msg, page, pagecount, limit, total, list: [{vod_id, vod_name, type_id, type_name, vod_pic, vod_year,
 * vod_content, vod_remarks, vod_play_from, vod_play_url, vod_time}], class: [{type_id, type_pid, type_name}]}`.
 * XML: `<rss><list page pagecount pagesize recordcount><video><id/><tid/><name/><type/><pic/><year/><note/><des/>
 * <dl><dd flag="code">episodes</dd>…</dl></video>…</list><class><ty id="1">name</ty>…</class></rss>`.
 * Articles and performers: the same envelope, their items' fields named `art_*` / `actor_*` (MacCMS serves them as
 * JSON only; our XML has `<art>` / `<actor>` items with one child per field, its prefix dropped: `<name>`, `<pic>`,
 * `<author>`, `<content>`…), read by the field table `FIELDS` below.
 */

/** An id MacCMS hands out (an auto-increment integer), within PostgreSQL's integer. */
export const MAX_REMOTE_ID = 2_147_483_647;
/** More items than this on one page is not a provide API. */
export const MAX_PAGE_ITEMS = 200;
/** More types than this is not a site's type list. */
export const MAX_CLASSES = 500;
export const MAX_TITLE = 200;
export const MAX_DESCRIPTION = 5000;
export const MAX_COVER = 512;
export const MAX_TYPE_NAME = 64;
/** A `vod_play_url` longer than this is cut before it is read (it still yields at most MAX_LINES × MAX_EPISODES). */
const MAX_PLAY_TEXT = 512 * 1024;
/** An article's pages (`art_content`) are cut here: a page of the provide API is itself capped (MAX_PAGE_BYTES). */
export const MAX_ART_TEXT = 4 * 1024 * 1024;

export type ReadFailureReason = 'notJson' | 'notXml' | 'shape' | 'remoteError';

export class ReadFailure extends Error {
  constructor(
    readonly reason: ReadFailureReason,
    readonly detail = '',
  ) {
    super(`${reason}${detail ? `: ${detail}` : ''}`);
  }
}

export interface RemoteClass {
  typeId: number;
  typeName: string;
}

/** One remote item as read: strings still raw (bounded), validated by the run. */
export interface RemoteItem {
  /** NaN when the site sent no usable id. */
  remoteId: number;
  title: string;
  typeId: number;
  typeName: string;
  cover: string;
  year: string;
  description: string;
  remarks: string;
  playFrom: string;
  playUrl: string;
  /** An article's: its author, its pages' HTML and their titles (each joined by `$$$`), its tags. */
  author: string;
  content: string;
  pageTitles: string;
  tags: string;
  /** A performer's: aliases (comma-separated), area (`日本`…), height, birthday as the site writes them. */
  aliases: string;
  area: string;
  height: string;
  birthday: string;
}

type TextField = Exclude<keyof RemoteItem, 'remoteId' | 'typeId'>;

/**
 * Each kind's item fields: ours ← [the JSON name, the XML element, the longest kept]. A field a kind lacks is ''.
 * A performer's description is `actor_content`, or `actor_blurb` when that is empty (`blurb` below).
 */
const FIELDS: Record<SourceKind, Partial<Record<TextField | 'blurb', [string, string, number]>>> = {
  vod: {
    title: ['vod_name', 'name', MAX_TITLE * 2],
    typeName: ['type_name', 'type', MAX_TYPE_NAME],
    cover: ['vod_pic', 'pic', MAX_COVER * 2],
    year: ['vod_year', 'year', 16],
    description: ['vod_content', 'des', MAX_DESCRIPTION * 4],
    remarks: ['vod_remarks', 'note', 64],
  },
  art: {
    title: ['art_name', 'name', MAX_TITLE * 2],
    typeName: ['type_name', 'type', MAX_TYPE_NAME],
    cover: ['art_pic', 'pic', MAX_COVER * 2],
    description: ['art_blurb', 'blurb', MAX_DESCRIPTION * 4],
    remarks: ['art_remarks', 'remarks', 64],
    author: ['art_author', 'author', 256],
    content: ['art_content', 'content', MAX_ART_TEXT],
    pageTitles: ['art_title', 'title', 256 * 1024],
    tags: ['art_tag', 'tag', 2048],
  },
  actor: {
    title: ['actor_name', 'name', MAX_TITLE * 2],
    typeName: ['type_name', 'type', MAX_TYPE_NAME],
    cover: ['actor_pic', 'pic', MAX_COVER * 2],
    description: ['actor_content', 'content', MAX_DESCRIPTION * 16],
    blurb: ['actor_blurb', 'blurb', MAX_DESCRIPTION * 4],
    tags: ['actor_tag', 'tag', 2048],
    aliases: ['actor_alias', 'alias', 2048],
    area: ['actor_area', 'area', 64],
    height: ['actor_height', 'height', 16],
    birthday: ['actor_birthday', 'birthday', 32],
  },
};

/** An item's text fields, all empty: what a kind's reading fills in. */
export const EMPTY_ITEM: Omit<RemoteItem, 'remoteId' | 'typeId'> = {
  title: '',
  typeName: '',
  cover: '',
  year: '',
  description: '',
  remarks: '',
  playFrom: '',
  playUrl: '',
  author: '',
  content: '',
  pageTitles: '',
  tags: '',
  aliases: '',
  area: '',
  height: '',
  birthday: '',
};

/** An item's text fields of `kind`, each read by `read(json name, XML element, longest)`. */
function fieldsOf(kind: SourceKind, read: (json: string, xml: string, max: number) => string) {
  const out = { ...EMPTY_ITEM };
  let blurb = '';
  for (const [field, [json, xml, max]] of Object.entries(FIELDS[kind]) as [
    TextField | 'blurb',
    [string, string, number],
  ][]) {
    if (field === 'blurb') blurb = read(json, xml, max);
    else out[field] = read(json, xml, max);
  }
  if (!out.description.trim() && blurb) out.description = blurb;
  return out;
}

/** The item element of each kind's XML list. */
const XML_ITEM: Record<SourceKind, string> = { vod: 'video', art: 'art', actor: 'actor' };

export interface RemotePage {
  page: number;
  pageCount: number;
  total: number;
  items: RemoteItem[];
  classes: RemoteClass[];
}

const cut = (s: string, n: number) => (s.length > n ? s.slice(0, n) : s);
const text = (v: unknown, max: number) =>
  typeof v === 'string' ? cut(v, max) : typeof v === 'number' && Number.isFinite(v) ? String(v) : '';
/** A non-negative integer from a number or a digit string; NaN otherwise. */
function whole(v: unknown): number {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? v : Number.NaN;
  if (typeof v === 'string' && /^\s*\d{1,16}\s*$/.test(v)) return Number(v.trim());
  return Number.NaN;
}
const count = (v: unknown, fallback = 0) => {
  const n = whole(v);
  return Number.isNaN(n) ? fallback : n;
};

/**
 * Parses one answer. `format` is the source's; an answer of the other kind is still a failure (not guessed). `kind`
 * says whose field names its items carry.
 */
export function readAnswer(body: string, format: 'json' | 'xml', kind: SourceKind = 'vod'): RemotePage {
  return format === 'xml' ? readXml(body, kind) : readJson(body, kind);
}

function readJson(body: string, kind: SourceKind): RemotePage {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    throw new ReadFailure('notJson', cut(body.trim(), 60));
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new ReadFailure('shape', 'not an object');
  const d = doc as Record<string, unknown>;
  // MacCMS answers `code: 1` on success; another code is the site's own refusal (its msg says why).
  if (d.code !== undefined && Number(d.code) !== 1)
    throw new ReadFailure('remoteError', text(d.msg, 120) || String(d.code));
  if (d.list !== undefined && !Array.isArray(d.list)) throw new ReadFailure('shape', 'list');
  if (d.class !== undefined && !Array.isArray(d.class)) throw new ReadFailure('shape', 'class');
  if (d.list === undefined && d.class === undefined) throw new ReadFailure('shape', 'no list');
  const list = (d.list ?? []) as unknown[];
  if (list.length > MAX_PAGE_ITEMS) throw new ReadFailure('shape', `${list.length} items on one page`);
  const items = list.map((raw): RemoteItem => {
    const v = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    return {
      ...fieldsOf(kind, (json, _xml, max) => text(v[json], max)),
      remoteId: whole(v[`${kind}_id`]),
      typeId: whole(v.type_id),
      ...(kind === 'vod'
        ? { playFrom: text(v.vod_play_from, 4096), playUrl: text(v.vod_play_url, MAX_PLAY_TEXT) }
        : {}),
    };
  });
  const classes = ((d.class ?? []) as unknown[]).slice(0, MAX_CLASSES).flatMap((raw) => {
    const v = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const typeId = whole(v.type_id);
    if (Number.isNaN(typeId) || typeId > MAX_REMOTE_ID) return [];
    return [{ typeId, typeName: text(v.type_name, MAX_TYPE_NAME).trim() }];
  });
  return {
    page: count(d.page, 1),
    pageCount: count(d.pagecount, 1),
    total: count(d.total, items.length),
    items,
    classes,
  };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function decode(s: string): string {
  return s.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,4});/gi, (m, e: string) => {
    if (e[0] === '#') {
      const n = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
      return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : '';
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

/** An element's text: CDATA sections as they are, the rest with its entities decoded. */
function elementText(inner: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const start = inner.indexOf('<![CDATA[', at);
    if (start < 0) break;
    const end = inner.indexOf(']]>', start + 9);
    if (end < 0) throw new ReadFailure('notXml', 'unclosed CDATA');
    out += decode(inner.slice(at, start)) + inner.slice(start + 9, end);
    at = end + 3;
  }
  return out + decode(inner.slice(at));
}

/**
 * The elements named `tag` directly in `xml` from `from`, as `{attrs, inner}`, scanning with indexOf so any input
 * costs linear time (no backtracking pattern over the whole body). CDATA is skipped as a unit.
 */
function* elements(xml: string, tag: string, from = 0, to = xml.length) {
  let at = from;
  while (at < to) {
    const open = xml.indexOf(`<${tag}`, at);
    if (open < 0 || open >= to) return;
    const after = xml[open + tag.length + 1];
    if (
      after !== '>' &&
      after !== ' ' &&
      after !== '/' &&
      after !== '\t' &&
      after !== '\n' &&
      after !== '\r'
    ) {
      at = open + tag.length + 1;
      continue;
    }
    const headEnd = xml.indexOf('>', open);
    if (headEnd < 0 || headEnd >= to) throw new ReadFailure('notXml', `<${tag}> not closed`);
    const attrs = xml.slice(open + tag.length + 1, headEnd);
    if (attrs.endsWith('/')) {
      yield { attrs: attrs.slice(0, -1), inner: '' };
      at = headEnd + 1;
      continue;
    }
    // The closing tag, skipping CDATA (a description may well hold "</video>").
    let scan = headEnd + 1;
    let close = -1;
    for (;;) {
      close = xml.indexOf(`</${tag}>`, scan);
      const cdata = xml.indexOf('<![CDATA[', scan);
      if (cdata < 0 || close < 0 || close < cdata) break;
      const cdataEnd = xml.indexOf(']]>', cdata + 9);
      if (cdataEnd < 0) throw new ReadFailure('notXml', 'unclosed CDATA');
      scan = cdataEnd + 3;
    }
    if (close < 0 || close >= to) throw new ReadFailure('notXml', `</${tag}> missing`);
    yield { attrs, inner: xml.slice(headEnd + 1, close) };
    at = close + tag.length + 3;
  }
}

function attr(attrs: string, name: string): string {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*"([^"]{0,64})"`).exec(attrs);
  return m ? decode(m[1]) : '';
}

function child(inner: string, tag: string, max: number): string {
  for (const e of elements(inner, tag)) return cut(elementText(e.inner), max);
  return '';
}

function readXml(body: string, kind: SourceKind): RemotePage {
  const trimmed = body.trimStart();
  if (!trimmed.startsWith('<?xml') && !trimmed.startsWith('<rss'))
    throw new ReadFailure('notXml', cut(trimmed, 60));
  const rss = elements(body, 'rss').next().value;
  if (!rss) throw new ReadFailure('notXml', 'no <rss>');
  const listEl = elements(rss.inner, 'list').next().value;
  const classEl = elements(rss.inner, 'class').next().value;
  if (!listEl && !classEl) throw new ReadFailure('shape', 'no list');
  const items: RemoteItem[] = [];
  if (listEl)
    for (const v of elements(listEl.inner, XML_ITEM[kind])) {
      if (items.length >= MAX_PAGE_ITEMS) throw new ReadFailure('shape', 'too many items on one page');
      // <dl><dd flag="m3u8">…</dd></dl>: each dd a line; joined as vod_play_from / vod_play_url are.
      const froms: string[] = [];
      const urls: string[] = [];
      const dl = elements(v.inner, 'dl').next().value;
      if (dl)
        for (const dd of elements(dl.inner, 'dd')) {
          if (froms.length > 64) break;
          froms.push(attr(dd.attrs, 'flag'));
          urls.push(cut(elementText(dd.inner), MAX_PLAY_TEXT));
        }
      items.push({
        ...fieldsOf(kind, (_json, xml, max) => child(v.inner, xml, max)),
        remoteId: whole(child(v.inner, 'id', 24)),
        typeId: whole(child(v.inner, 'tid', 24)),
        playFrom: froms.join('$$$'),
        playUrl: cut(urls.join('$$$'), MAX_PLAY_TEXT),
      });
    }
  const classes: RemoteClass[] = [];
  if (classEl)
    for (const ty of elements(classEl.inner, 'ty')) {
      if (classes.length >= MAX_CLASSES) break;
      const typeId = whole(attr(ty.attrs, 'id'));
      if (Number.isNaN(typeId) || typeId > MAX_REMOTE_ID) continue;
      classes.push({ typeId, typeName: cut(elementText(ty.inner).trim(), MAX_TYPE_NAME) });
    }
  const a = listEl?.attrs ?? '';
  return {
    page: count(attr(a, 'page'), 1),
    pageCount: count(attr(a, 'pagecount'), 1),
    total: count(attr(a, 'recordcount'), items.length),
    items,
    classes,
  };
}

/** What the run keeps of a remote description: plain text (the movie's description is plain), bounded. */
export function plainDescription(html: string): string {
  return cut(richTextToPlain(html), MAX_DESCRIPTION);
}

/** A remote title as we store it: one line, spaces collapsed, control characters out. */
export function cleanTitle(raw: string): string {
  return (
    raw
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is removed
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** How titles are compared for the second kind of match (movies_title index: lower(btrim(title))). */
export const titleKey = (title: string) => title.trim().toLowerCase();

/** A cover URL we keep: absolute http(s) (or protocol-relative, made https), else none. */
export function cleanCover(raw: string): string {
  const s = raw.trim();
  const url = s.startsWith('//') ? `https:${s}` : s;
  if (url.length > MAX_COVER || !/^https?:\/\/[^\s/?#]+[^\s]*$/i.test(url)) return '';
  return url;
}
