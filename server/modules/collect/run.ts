import { and, eq, sql } from 'drizzle-orm';
import { parsePlayLines, SOURCE_CODE_PATTERN } from '../../../common/episodes';
import { entry } from '../../core/maps';
import type { OutboundFetch } from '../../core/outbound';
import { refusalOf } from '../../core/outbound';
import { transaction } from '../../core/shared';
import { arrayParam } from '../../db/array-literal';
import { rowsOf } from '../../db/migrate';
import type { Db, Executor, Tx } from '../../db/types';
import { collectedImagePath } from '../images/paths';
import { outboundAllowList } from '../sys/settings';
import { type CoverEntry, fetchCovers, type RunImages, storedCovers } from './covers';
import {
  type Bindings,
  boundColumn,
  type Checked,
  type Current,
  checkName,
  fieldHash,
  hashesOf,
  type LogEntry,
  nameMatch,
  nonEmpty,
  type Planned,
  type Ready,
  readyItem,
  type Source,
  type SourceIds,
  setValuesCover,
  type Target,
} from './items';
import { withoutKey } from './key';
import {
  cleanCover,
  cleanTitle,
  MAX_REMOTE_ID,
  MAX_TITLE,
  plainDescription,
  ReadFailure,
  type RemoteItem,
  type RemotePage,
  readAnswer,
  titleKey,
} from './reader';
import { collectRuns, collectSources, type RUN_KINDS, type SourceKind } from './schema';
import { actorTarget, artTarget } from './targets';

export { fieldHash, type ItemReason, type LogEntry } from './items';

/** What a source of each kind collects into. */
const targetOf = (kind: SourceKind): Target =>
  kind === 'art' ? artTarget : kind === 'actor' ? actorTarget : vodTarget;

/**
 * A collection run: pages are fetched one at a time through the outbound guard (no transaction is open while the
 * network is waited on), each page's items are checked, matched and then written in one transaction with array
 * parameters (`unnest`), and the run row carries the progress the screen polls. A dry run does the same reading and
 * matching and writes nothing but its run row.
 */

/** One page's answer at most: a page of 20–100 items with long episode lists is well under it. */
export const MAX_PAGE_BYTES = 8 * 1024 * 1024;
export const PAGE_TIMEOUT_MS = 20_000;
/** Pages one run reads at most: a wider range is several runs (a `pagecount` beyond it fails a run by hours). */
export const MAX_RUN_PAGES = 1000;
/** Per-item log entries kept on a run (the counts still count every item). */
export const MAX_LOG = 1000;

export type RunKind = (typeof RUN_KINDS)[number];
export interface RunParams {
  hours?: number;
  pageFrom?: number;
  pageTo?: number;
  keyword?: string;
  ids?: number[];
}

/** Run failures: message keys (collect.fail.*) translated when the run is read. */
export type FailKey =
  | 'collect.fail.refused'
  | 'collect.fail.http'
  | 'collect.fail.notJson'
  | 'collect.fail.notXml'
  | 'collect.fail.shape'
  | 'collect.fail.remoteError'
  | 'collect.fail.tooManyPages'
  | 'collect.fail.noOutbound'
  | 'collect.fail.interrupted'
  | 'collect.fail.internal';

class RunFailure extends Error {
  constructor(
    readonly key: FailKey,
    readonly detail = '',
  ) {
    super(key);
  }
}

export interface RunDeps {
  db: Db;
  outbound?: OutboundFetch;
  now: () => Date;
  /** Whose allow-list of internal hosts the guard is given (sys setting outboundAllow). */
  tenant: number;
  /** Where a 'local' source's covers are stored (`runImages`). */
  images: RunImages;
}

/** What a request is made from: the source's base URL, its format and its key. */
type SourceAddress = Pick<Source, 'url' | 'format' | 'apiKey' | 'kind'>;

/**
 * The provide API's URL for one request: the source's base with `ac`, the run's filters, `at=xml` for XML and the
 * site's `key` when it has one.
 */
export function pageUrl(source: SourceAddress, query: Record<string, string | number>): string {
  const url = new URL(source.url);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
  if (source.format === 'xml') url.searchParams.set('at', 'xml');
  if (source.apiKey) url.searchParams.set('key', source.apiKey);
  return url.toString();
}

/** Fetches and reads one answer; every way it can go wrong is a RunFailure with a readable key. */
export async function fetchPage(
  outbound: OutboundFetch | undefined,
  allowHosts: readonly string[],
  source: SourceAddress,
  query: Record<string, string | number>,
): Promise<RemotePage> {
  try {
    return await fetchAnswer(outbound, allowHosts, source, query);
  } catch (err) {
    // The site's words and an error's message may repeat the URL asked, key and all: a run keeps them without it.
    if (err instanceof RunFailure) throw new RunFailure(err.key, withoutKey(err.detail, source.apiKey));
    throw new Error(withoutKey(String((err as Error)?.message ?? err), source.apiKey));
  }
}

async function fetchAnswer(
  outbound: OutboundFetch | undefined,
  allowHosts: readonly string[],
  source: SourceAddress,
  query: Record<string, string | number>,
): Promise<RemotePage> {
  if (!outbound) throw new RunFailure('collect.fail.noOutbound');
  let answer: Awaited<ReturnType<OutboundFetch>>;
  try {
    answer = await outbound(pageUrl(source, query), {
      timeoutMs: PAGE_TIMEOUT_MS,
      maxBytes: MAX_PAGE_BYTES,
      maxRedirects: 3,
      allowHosts,
      headers: { Accept: source.format === 'xml' ? 'application/xml, text/xml' : 'application/json' },
    });
  } catch (err) {
    const reason = refusalOf(err);
    throw new RunFailure(
      'collect.fail.refused',
      reason ?? String((err as Error).message ?? err).slice(0, 200),
    );
  }
  if (answer.status < 200 || answer.status > 299)
    throw new RunFailure('collect.fail.http', String(answer.status));
  let body: string;
  try {
    body = new TextDecoder('utf-8', { fatal: true }).decode(answer.body);
  } catch {
    throw new RunFailure(
      source.format === 'xml' ? 'collect.fail.notXml' : 'collect.fail.notJson',
      'not UTF-8',
    );
  }
  try {
    return readAnswer(body.replace(/^\uFEFF/, ''), source.format, source.kind);
  } catch (err) {
    if (err instanceof ReadFailure)
      throw new RunFailure(`collect.fail.${err.reason}`, err.detail.slice(0, 200));
    throw err;
  }
}

/** `ac=list`: the site's types and its total, for the source's test button and the bindings. */
export async function testSource(
  outbound: OutboundFetch | undefined,
  allowHosts: readonly string[],
  source: SourceAddress,
) {
  const page = await fetchPage(outbound, allowHosts, source, { ac: 'list' });
  return { total: page.total, pageCount: page.pageCount, classes: page.classes };
}

export { RunFailure };

// --- one page's items -----------------------------------------------------------------------------------------

const VOD_FIELDS = ['title', 'description', 'cover', 'columnId', 'plays'] as const;

interface Play {
  code: string;
  name: string;
  path: string;
}
const playsText = (plays: readonly Play[]) => plays.map((p) => `${p.code}\t${p.name}\t${p.path}`).join('\n');

interface VodValues {
  title: string;
  description: string;
  cover: string;
  columnId: number | null;
}
const vodTexts = (v: VodValues, plays: readonly Play[]) => ({
  title: v.title,
  description: v.description,
  cover: v.cover,
  columnId: String(v.columnId ?? ''),
  plays: playsText(plays),
});

interface VodData {
  values: VodValues;
  /** play lines: [code, name, path, line, sort] */
  lines: { code: string; line: number; sort: number; name: string; path: string }[];
}

/** Checks one remote video against the bindings: ready to match, or skipped/failed with its reason. */
function checkVod(raw: RemoteItem, bindings: Bindings): Checked<VodData> {
  const named = checkName(raw, MAX_TITLE);
  if (!named.ok) return named;
  const { remoteId, title, name } = named;
  const bound = boundColumn(raw, bindings, remoteId, name);
  if (!bound.ok) return bound;
  const parsed = parsePlayLines(raw.playFrom, raw.playUrl);
  const problems = parsed.problems.slice(0, 10).map((p) => `${p.reason}: ${p.text}`);
  const lines: VodData['lines'] = [];
  let lineNo = 0;
  for (const l of parsed.value) {
    // A line becomes our video source of that code; a code the source form could not hold is left out, said.
    if (!SOURCE_CODE_PATTERN.test(l.code)) {
      if (problems.length < 10) problems.push(`badCode: ${l.code.slice(0, 40)}`);
      continue;
    }
    l.episodes.forEach((e, sort) => {
      lines.push({ code: l.code, line: lineNo, sort, name: e.name, path: e.url });
    });
    lineNo++;
  }
  if (!lines.length)
    return { ok: false, entry: { remoteId, name, outcome: 'failed', reason: 'noEpisodes', problems } };
  const values: VodValues = {
    title,
    description: plainDescription(raw.description),
    cover: cleanCover(raw.cover),
    columnId: bound.columnId,
  };
  return readyItem(
    remoteId,
    title,
    /^\d{4}$/.test(raw.year.trim()) ? raw.year.trim() : '',
    vodTexts(
      values,
      lines.map((l) => ({ code: l.code, name: l.name, path: l.path })),
    ),
    { values, lines },
    problems,
  );
}

/** Movies with their plays, by id (the matched ones of a batch). */
async function currentMovies(db: Executor, ids: number[], lock: boolean) {
  const current = new Map<number, Current<VodValues>>();
  const plays = new Map<number, Play[]>();
  const rows = rowsOf<Record<string, any>>(
    await db.execute(sql`
      select id, title, description, cover, column_id from movies
      where id = any(${arrayParam(ids)}::integer[]) order by id ${lock ? sql`for update` : sql``}`),
  );
  for (const r of rowsOf<Record<string, any>>(
    await db.execute(sql`
      select p.movie_id, s.code, p.name, p.path from movie_plays p join video_sources s on s.id = p.source_id
      where p.movie_id = any(${arrayParam(ids)}::integer[]) order by p.movie_id, p.line, p.sort, p.id`),
  )) {
    entry(plays, Number(r.movie_id), () => []).push({ code: r.code, name: r.name, path: r.path });
  }
  for (const r of rows) {
    const data: VodValues = {
      title: r.title,
      description: r.description,
      cover: r.cover,
      columnId: r.column_id === null ? null : Number(r.column_id),
    };
    current.set(Number(r.id), {
      id: Number(r.id),
      texts: vodTexts(data, plays.get(Number(r.id)) ?? []),
      data,
    });
  }
  return current;
}

const vodTarget: Target<VodData, VodValues> = {
  fields: VOD_FIELDS,
  column: 'movie_id',
  logKey: 'movieId',
  typed: true,
  image: 'cover',
  setImage: setValuesCover,
  check: checkVod,
  byName: nameMatch('movies', 'title', 'extract(year from release_date)::int::text'),
  current: currentMovies,
  write: (tx, source, p, now, known) => writePage(tx, source, p, now, known),
};

/**
 * Matches a page's ready items with what we have (collect_items of this source first, then name + year) and plans
 * each: add, update (the fields not edited by hand since the last collection), or skip. `lock` reads the matched
 * rows FOR UPDATE (a real run, in its transaction); a dry run reads them plainly.
 */
async function plan(
  db: Executor,
  target: Target,
  sourceId: number,
  ready: Ready[],
  lock: boolean,
  dryAdds?: Set<string>,
): Promise<Planned> {
  const out: Planned = { adds: [], updates: [], entries: [] };
  if (!ready.length) return out;
  // One lookup for the page: its remote ids among this source's items, and its names among ours (every name of the
  // page, so that the two go in one statement; a known item's name rows are not used).
  const known = new Map<number, { id: number; hashes: Record<string, string> }>();
  const byTitle = new Map<string, { id: number; year: string }[]>();
  for (const r of rowsOf<{
    k: string;
    remote_id: number | null;
    id: number;
    hashes: Record<string, string> | string | null;
    t: string | null;
    y: string | null;
  }>(
    await db.execute(sql`
      select 'i' as k, remote_id, ${sql.raw(target.column)} as id, hashes, null::text as t, null::text as y
      from collect_items
      where source_id = ${sourceId} and remote_id = any(${arrayParam(ready.map((r) => r.remoteId))}::integer[])
        and ${sql.raw(target.column)} is not null
      union all
      ${target.byName([...new Set(ready.map((r) => r.key))])}
      order by 1, 3`),
  )) {
    if (r.k === 'i')
      known.set(Number(r.remote_id), {
        id: Number(r.id),
        hashes: typeof r.hashes === 'string' ? JSON.parse(r.hashes) : (r.hashes ?? {}),
      });
    else entry(byTitle, r.t ?? '', () => []).push({ id: Number(r.id), year: r.y ?? '' });
  }
  const matched = new Map<Ready, { id: number; hashes: Record<string, string> | null }>();
  const seenIds = new Set<number>();
  const seenKeys = new Set<string>();
  const keep: Ready[] = [];
  for (const r of ready) {
    // A dry run wrote nothing for its earlier pages: an item it would have matched there is said as a duplicate.
    const fresh = !known.has(r.remoteId);
    const dupe =
      seenIds.has(r.remoteId) ||
      (fresh && seenKeys.has(`${r.key}\u0000${r.year}`)) ||
      (fresh && !!dryAdds?.has(r.key));
    seenIds.add(r.remoteId);
    seenKeys.add(`${r.key}\u0000${r.year}`);
    if (dupe) {
      out.entries.push({
        remoteId: r.remoteId,
        name: r.title.slice(0, 80),
        outcome: 'skipped',
        reason: 'duplicate',
      });
      continue;
    }
    keep.push(r);
    const k = known.get(r.remoteId);
    if (k) {
      matched.set(r, k);
      continue;
    }
    // Same name, and the same year when both sides know it.
    const m = byTitle.get(r.key)?.find((c) => !r.year || !c.year || c.year === r.year);
    if (m) matched.set(r, { id: m.id, hashes: null });
  }
  const ids = [...new Set([...matched.values()].map((m) => m.id))];
  const current = ids.length ? await target.current(db, ids, lock) : new Map<number, Current>();
  for (const r of keep) {
    const m = matched.get(r);
    const cur = m && current.get(m.id);
    if (!m || !cur) {
      out.adds.push(r);
      out.entries.push({
        remoteId: r.remoteId,
        name: r.title.slice(0, 80),
        outcome: 'added',
        problems: nonEmpty(r.problems),
      });
      continue;
    }
    const set: string[] = [];
    const locked: string[] = [];
    const hashes: Record<string, string> = {};
    for (const f of target.fields) {
      const now = cur.texts[f] ?? '';
      const next = r.texts[f] ?? '';
      const last = m.hashes?.[f];
      // Never collected before (a name match): only what is empty on our side is filled in.
      const untouched = m.hashes ? last === fieldHash(now) : now === '';
      if (!untouched) {
        locked.push(f);
        if (last) hashes[f] = last;
        continue;
      }
      hashes[f] = fieldHash(next);
      if (now !== next) set.push(f);
    }
    out.updates.push({ item: r, current: cur, set, locked, hashes });
    out.entries.push({
      remoteId: r.remoteId,
      name: r.title.slice(0, 80),
      outcome: set.length ? 'updated' : 'skipped',
      ...(set.length ? {} : { reason: 'unchanged' as const }),
      [target.logKey]: cur.id,
      locked: nonEmpty(locked),
      ...(set.length ? { problems: nonEmpty(r.problems) } : {}),
    });
  }
  return out;
}

/**
 * Writes a planned page (in the caller's transaction): sources for new line codes, updates of matched movies, and
 * in one statement the new movies (ids drawn first, so each new item's plays and item record name its movie), every
 * play and every item record. Answers the sources it made or found, for the run to remember once this commits.
 */
async function writePage(
  tx: Tx,
  source: Source,
  p: Planned<VodData, VodValues>,
  now: Date,
  known: SourceIds,
) {
  const codes = [
    ...new Set(
      [
        ...p.adds.flatMap((a) => a.data.lines),
        ...p.updates.filter((u) => u.set.includes('plays')).flatMap((u) => u.item.data.lines),
      ].map((l) => l.code),
    ),
  ];
  const sourceIds = new Map<string, number>();
  const unknown = codes.filter((c) => !known.has(c));
  for (const c of codes) if (known.has(c)) sourceIds.set(c, known.get(c) as number);
  if (unknown.length) {
    // A remote line's code is our video source's code: made with an empty base URL (its episodes are full URLs)
    // when none exists, so the operator sees it under video sources and can set it. One statement: the sources made
    // now (RETURNING) beside those that were there (the select does not see the insert's rows, being of the
    // statement's snapshot).
    for (const r of rowsOf<{ id: number; code: string }>(
      await tx.execute(sql`
        with made as (
          insert into video_sources (name, code, base_url)
          select c, c, '' from unnest(${arrayParam(unknown)}::text[]) as c
          on conflict (code) do nothing
          returning id, code)
        select id, code from made
        union all select id, code from video_sources where code = any(${arrayParam(unknown)}::text[])`),
    ))
      sourceIds.set(r.code, Number(r.id));
  }
  // Plays and item records name their movie by id (an update) or by the new item's place in `adds` (1-based).
  const plays: {
    ord: number;
    movieId: number | null;
    line: number;
    sort: number;
    name: string;
    path: string;
    sourceId: number;
  }[] = [];
  const itemRows: { ord: number; movieId: number | null; remoteId: number; hashes: string }[] = [];
  p.adds.forEach((a, i) => {
    for (const l of a.data.lines)
      plays.push({
        ord: i + 1,
        movieId: null,
        line: l.line,
        sort: l.sort,
        name: l.name,
        path: l.path,
        sourceId: sourceIds.get(l.code) as number,
      });
    itemRows.push({
      ord: i + 1,
      movieId: null,
      remoteId: a.remoteId,
      hashes: JSON.stringify(hashesOf(vodTarget, a)),
    });
  });
  const changed = p.updates.filter((u) => u.set.length);
  if (changed.length) {
    const pick = <K extends 'title' | 'description' | 'cover' | 'columnId'>(
      u: (typeof changed)[number],
      f: K,
    ) => (u.set.includes(f) ? u.item.data.values[f] : u.current.data[f]);
    await tx.execute(sql`
      update movies m set title = u.title, description = u.description, cover = u.cover, column_id = u.column_id,
        version = m.version + 1, updated_at = ${now}
      from unnest(${arrayParam(changed.map((u) => u.current.id))}::integer[],
        ${arrayParam(changed.map((u) => pick(u, 'title')))}::text[], ${arrayParam(changed.map((u) => pick(u, 'description')))}::text[],
        ${arrayParam(changed.map((u) => pick(u, 'cover')))}::text[], ${arrayParam(changed.map((u) => pick(u, 'columnId')))}::integer[])
        as u(id, title, description, cover, column_id)
      where m.id = u.id`);
    const replaced = changed.filter((u) => u.set.includes('plays'));
    if (replaced.length) {
      await tx.execute(
        sql`delete from movie_plays where movie_id = any(${arrayParam(replaced.map((u) => u.current.id))}::integer[])`,
      );
      for (const u of replaced)
        for (const l of u.item.data.lines)
          plays.push({
            ord: 0,
            movieId: u.current.id,
            line: l.line,
            sort: l.sort,
            name: l.name,
            path: l.path,
            sourceId: sourceIds.get(l.code) as number,
          });
    }
  }
  for (const u of p.updates)
    itemRows.push({
      ord: 0,
      movieId: u.current.id,
      remoteId: u.item.remoteId,
      hashes: JSON.stringify(u.hashes),
    });
  if (itemRows.length) {
    const status = source.trusted ? 'online' : 'pending';
    // Each insert only when it has rows: an insert of none would still run the movies' statement triggers.
    const movieRows = p.adds.length
      ? sql`, m as (
          insert into movies (id, title, description, cover, column_id, status, published_at, created_at, updated_at)
          select ids.id, u.title, u.description, u.cover, u.column_id, ${status}, ${source.trusted ? now : null}::timestamptz, ${now}, ${now}
          from unnest(${arrayParam(p.adds.map((a) => a.data.values.title))}::text[],
            ${arrayParam(p.adds.map((a) => a.data.values.description))}::text[], ${arrayParam(p.adds.map((a) => a.data.values.cover))}::text[],
            ${arrayParam(p.adds.map((a) => a.data.values.columnId))}::integer[]) with ordinality as u(title, description, cover, column_id, ord)
          join ids on ids.ord = u.ord)`
      : sql``;
    const playRows = plays.length
      ? sql`, p as (
          insert into movie_plays (movie_id, source_id, line, sort, name, path)
          select coalesce(x.movie_id, ids.id), x.source_id, x.line, x.sort, x.name, x.path
          from unnest(${arrayParam(plays.map((x) => x.ord))}::integer[], ${arrayParam(plays.map((x) => x.movieId))}::integer[],
            ${arrayParam(plays.map((x) => x.sourceId))}::integer[], ${arrayParam(plays.map((x) => x.line))}::integer[],
            ${arrayParam(plays.map((x) => x.sort))}::integer[], ${arrayParam(plays.map((x) => x.name))}::text[],
            ${arrayParam(plays.map((x) => x.path))}::text[]) as x(ord, movie_id, source_id, line, sort, name, path)
          left join ids on ids.ord = x.ord)`
      : sql``;
    const ids = rowsOf<{ id: number }>(
      await tx.execute(sql`
        with ids as materialized (
          select nextval('movies_id_seq')::int as id, ord::int as ord from generate_series(1, ${p.adds.length}) as ord)
        ${movieRows}${playRows},
        i as (
          insert into collect_items (source_id, remote_id, movie_id, hashes, collected_at)
          select ${source.id}, x.r, coalesce(x.movie_id, ids.id), x.h::jsonb, ${now}
          from unnest(${arrayParam(itemRows.map((x) => x.ord))}::integer[], ${arrayParam(itemRows.map((x) => x.movieId))}::integer[],
            ${arrayParam(itemRows.map((x) => x.remoteId))}::integer[], ${arrayParam(itemRows.map((x) => x.hashes))}::text[])
            as x(ord, movie_id, r, h)
          left join ids on ids.ord = x.ord
          on conflict (source_id, remote_id) do update set movie_id = excluded.movie_id, hashes = excluded.hashes,
            collected_at = excluded.collected_at)
        select id from ids order by ord`),
    ).map((r) => Number(r.id));
    const entryOf = new Map(p.entries.filter((e) => e.outcome === 'added').map((e) => [e.remoteId, e]));
    p.adds.forEach((a, i) => {
      const e = entryOf.get(a.remoteId);
      if (e) e.movieId = ids[i];
    });
  }
  return sourceIds;
}

// --- the run ---------------------------------------------------------------------------------------------------

/**
 * Items one write takes at most: the pages fetched meanwhile are written together up to it (at least one page), so a
 * fast site's small pages share one transaction and its statements' fixed cost.
 */
export const MAX_BATCH_ITEMS = 100;
/**
 * How long fetched pages wait for more before they are written. The fetches' answers are read on this thread, between
 * the writer's statements, so a writer that took pages the moment one came would take them one by one; a slow site's
 * page is still written within this time of coming (and a cancel is seen as soon).
 */
export const BATCH_WAIT_MS = 250;

interface Fetched {
  page: number;
  answer: RemotePage;
}

/**
 * A run's pages, fetched one at a time in order while the writer works. `take()` answers the pages fetched so far
 * (waiting for one when there is none), up to MAX_BATCH_ITEMS items, and an empty list when no page is left; a failed
 * fetch (or the first page refused by `onFirst`) is thrown by the `take()` after the pages before it. The reader
 * waits while a batch's worth of items waits to be written, so a run holds about two batches in memory at most.
 * An empty page is the last.
 */
export function readPages(o: {
  first: number;
  last: number;
  fetch: (page: number) => Promise<RemotePage>;
  /** Called with the first page; answers the last page to read, or throws to fail the run. */
  onFirst: (answer: RemotePage) => number;
}) {
  const waiting: Fetched[] = [];
  const state = { last: o.last, ended: false, stopped: false, failed: false, error: undefined as unknown };
  let wakeWriter: (() => void) | undefined;
  let wakeReader: (() => void) | undefined;
  const wake = (which: 'writer' | 'reader') => {
    const f = which === 'writer' ? wakeWriter : wakeReader;
    if (which === 'writer') wakeWriter = undefined;
    else wakeReader = undefined;
    f?.();
  };
  const itemsWaiting = () => waiting.reduce((n, f) => n + f.answer.items.length, 0);
  void (async () => {
    try {
      for (let page = o.first; page <= state.last; page++) {
        while (!state.stopped && waiting.length && itemsWaiting() >= MAX_BATCH_ITEMS)
          await new Promise<void>((r) => {
            wakeReader = r;
          });
        if (state.stopped) return;
        const answer = await o.fetch(page);
        if (page === o.first) state.last = o.onFirst(answer);
        waiting.push({ page, answer });
        wake('writer');
        if (!answer.items.length) break;
      }
    } catch (error) {
      state.failed = true;
      state.error = error;
    } finally {
      state.ended = true;
      wake('writer');
    }
  })();
  return {
    get last() {
      return state.last;
    },
    async take(): Promise<Fetched[]> {
      // Until a batch is full, the reader has stopped, or a page has waited BATCH_WAIT_MS for others.
      let deadline = 0;
      while (!state.ended && itemsWaiting() < MAX_BATCH_ITEMS) {
        if (!waiting.length) {
          await new Promise<void>((r) => {
            wakeWriter = r;
          });
          continue;
        }
        deadline ||= Date.now() + BATCH_WAIT_MS;
        const left = deadline - Date.now();
        if (left <= 0) break;
        let timer: ReturnType<typeof setTimeout> | undefined;
        await new Promise<void>((r) => {
          wakeWriter = r;
          timer = setTimeout(r, left);
        });
        clearTimeout(timer);
      }
      if (!waiting.length) {
        if (state.failed) throw state.error;
        return [];
      }
      // A page is not written with an earlier one it shares a remote id or a title with: one at a time, its item
      // matches the movie the earlier page made (as an update), where in one batch it would be a duplicate.
      const seen = new Set<string>();
      const clashes = (f: Fetched) => {
        const keys = f.answer.items.flatMap((i) => [`#${i.remoteId}`, titleKey(cleanTitle(i.title))]);
        if (keys.some((key) => seen.has(key))) return true;
        for (const key of keys) seen.add(key);
        return false;
      };
      clashes(waiting[0]);
      let k = 1;
      let n = waiting[0].answer.items.length;
      while (
        k < waiting.length &&
        n + waiting[k].answer.items.length <= MAX_BATCH_ITEMS &&
        !clashes(waiting[k])
      )
        n += waiting[k++].answer.items.length;
      const batch = waiting.splice(0, k);
      wake('reader');
      return batch;
    },
    /** The run ends: no page more is fetched (one under way is left unread). */
    stop() {
      state.stopped = true;
      wake('reader');
    },
  };
}

/**
 * A page's first statement: the run's claim renewed and a cancel read (`heartbeat`), with the source's bindings as
 * they are now (an operator may bind a type while a run goes on): each type's movie or novel column, whichever the
 * source's kind binds (the other is null).
 */
async function beatWithBindings(
  db: Executor,
  runId: number,
  sourceId: number,
  now: Date,
): Promise<{ beat: Beat; bindings: Bindings }> {
  const [r] = rowsOf<{ c: boolean; b: [number, number | null, boolean][] | string }>(
    await db.execute(sql`
      update collect_runs set claimed_until = ${runClaim(now)}::timestamptz
      where id = ${runId} and status = 'running'
      returning cancel_requested as c, (
        select coalesce(json_agg(json_build_array(remote_type_id, coalesce(column_id, novel_column_id), skipped)), '[]'::json)
        from collect_bindings where source_id = ${sourceId}) as b`),
  );
  if (!r) return { beat: 'gone', bindings: new Map() };
  const list = typeof r.b === 'string' ? (JSON.parse(r.b) as [number, number | null, boolean][]) : r.b;
  return {
    beat: r.c ? 'cancelled' : 'go',
    bindings: new Map(list.map(([type, columnId, skipped]) => [Number(type), { columnId, skipped }])),
  };
}

/** Remote types seen for the first time are listed as unbound (never silently dropped). */
export async function rememberTypes(
  db: Executor,
  sourceId: number,
  types: { typeId: number; typeName: string }[],
) {
  const seen = new Map<number, string>();
  for (const t of types)
    if (!Number.isNaN(t.typeId) && t.typeId <= MAX_REMOTE_ID && !seen.has(t.typeId))
      seen.set(t.typeId, t.typeName.slice(0, 64));
  if (!seen.size) return;
  await db.execute(sql`
    insert into collect_bindings (source_id, remote_type_id, remote_type_name)
    select ${sourceId}, u.id, u.name from unnest(${arrayParam([...seen.keys()])}::integer[], ${arrayParam([...seen.values()])}::text[]) as u(id, name)
    on conflict (source_id, remote_type_id) do update set remote_type_name = case when excluded.remote_type_name <> ''
      then excluded.remote_type_name else collect_bindings.remote_type_name end`);
}

/**
 * A page's query. A video site is read with `ac=videolist`, an article or performer site with `ac=detail` (MacCMS's
 * collector does the same: its `art` and `actor` lists give their full fields only there).
 */
function queryOf(
  source: SourceKind,
  kind: RunKind,
  params: RunParams,
  page: number,
): Record<string, string | number> {
  const q: Record<string, string | number> = { ac: source === 'vod' ? 'videolist' : 'detail', pg: page };
  if (kind === 'hours') q.h = params.hours ?? 24;
  if (kind === 'keyword') q.wd = params.keyword ?? '';
  if (kind === 'ids') q.ids = (params.ids ?? []).join(',');
  return q;
}

/**
 * Runs a run row to its end: done, failed (with its reason) or cancelled. Never throws: whatever happens is on the
 * run row (an unexpected error as `collect.fail.internal`, logged by the caller's logger if it wants).
 *
 * Pages are fetched one at a time, in order, by a reader that keeps at most a batch's worth of them waiting
 * (`MAX_BATCH_ITEMS`). The writer takes every page waiting (up to that many items, at least one page) and writes them
 * as one: one transaction of the claim renewed and a cancel read, the bindings read, the items matched (one lookup of
 * remote ids and titles), the items written with multi-row statements, and the progress (counts, the new log entries
 * appended while the log has room, the claim again). The progress write answers whether a cancel was asked meanwhile.
 * A slow site gives the writer one page at a time; a fast one several, so the statements' fixed cost (the movie
 * count triggers are statement-level) is paid once for them. A run whose fetch fails writes the pages before it.
 */
export async function executeRun(deps: RunDeps, runId: number): Promise<void> {
  const { db } = deps;
  const [run] = await db.select().from(collectRuns).where(eq(collectRuns.id, runId));
  if (run?.status !== 'running') return;
  const [source] = await db.select().from(collectSources).where(eq(collectSources.id, run.sourceId));
  const params = (typeof run.params === 'string' ? JSON.parse(run.params) : run.params) as RunParams;
  let logged = 0;
  const totals = { added: 0, updated: 0, skipped: 0, failed: 0 };
  // One transaction: whoever sees the run ended sees its source's last collection too.
  const finish = (status: 'done' | 'failed' | 'cancelled', error = '', detail = '') =>
    transaction(db, async (tx) => {
      const ended = await tx
        .update(collectRuns)
        .set({ status, error, errorDetail: detail.slice(0, 256), finishedAt: deps.now() })
        .where(and(eq(collectRuns.id, runId), eq(collectRuns.status, 'running')))
        .returning({ id: collectRuns.id });
      // The source list's last collection and its error: every real run's, an operator's as well as the schedule's
      // (a dry run collects nothing).
      if (ended.length && source && !run.dryRun)
        await tx
          .update(collectSources)
          .set({ lastRunAt: deps.now(), lastError: sourceError(error, detail) })
          .where(eq(collectSources.id, source.id));
    });
  // Remote types this run has recorded already (their names are written once per run, not once per page).
  const typesSeen = new Set<number>();
  // Video sources of the line codes met so far (a source in use by plays cannot be deleted, so an id stays good).
  const sourceIds: SourceIds = new Map();
  try {
    const beat = await heartbeat(db, runId, deps.now());
    // Gone: another instance took this run for interrupted (this process stalled past its claim); it is theirs.
    if (beat === 'gone') return;
    if (beat === 'cancelled') return await finish('cancelled');
    if (!source) return await finish('failed', 'collect.fail.internal', 'source deleted');
    const allowHosts = await outboundAllowList(db, deps.tenant);
    const target = targetOf(source.kind);
    const dryAdds = new Set<string>();
    const first = run.kind === 'pages' ? (params.pageFrom ?? 1) : 1;
    let last = run.kind === 'pages' ? (params.pageTo ?? first) : first + MAX_RUN_PAGES - 1;
    const reader = readPages({
      first,
      last,
      fetch: (page) =>
        fetchPage(deps.outbound, allowHosts, source, queryOf(source.kind, run.kind, params, page)),
      // The first page says how many there are (and a run that is not a page range refuses too many).
      onFirst: (answer) => {
        if (run.kind !== 'pages' && answer.pageCount > MAX_RUN_PAGES)
          throw new RunFailure('collect.fail.tooManyPages', String(answer.pageCount));
        if (run.kind !== 'pages') last = Math.max(first, Math.min(last, answer.pageCount));
        else last = Math.min(last, Math.max(first, answer.pageCount));
        return last;
      },
    });
    try {
      for (let batchNo = 0; ; batchNo++) {
        const batch = await reader.take();
        if (!batch.length) break;
        // Between batches, a plain read: a cancel asked during the last write stops the run here.
        if (batchNo > 0 && (await cancelAsked(db, runId))) return await finish('cancelled');
        const page = batch[batch.length - 1].page;
        const items = batch.flatMap((b) => b.answer.items);
        const types = items.filter((i) => !typesSeen.has(i.typeId));
        // A 'local' source's covers are fetched before the batch's transaction, never during it.
        const covers =
          source.imageMode === 'local'
            ? await prepareCovers(deps, runId, source, target, items, allowHosts, run.dryRun, dryAdds)
            : undefined;
        const step = async (ex: Executor) => {
          // The fetch took a while: a cancel asked meanwhile stops the run before this batch is written.
          const now = deps.now();
          const { beat, bindings } = await beatWithBindings(ex, runId, source.id, now);
          if (beat !== 'go') return { beat };
          if (!run.dryRun && target.typed && types.length) await rememberTypes(ex, source.id, types);
          const { ready, entries } = checkItems(target, items, bindings);
          if (covers) for (const r of ready) coverOf(target, r, covers.paths);
          let planned: Planned;
          let made: SourceIds | undefined;
          if (run.dryRun) planned = await plan(ex, target, source.id, ready, false, dryAdds);
          else {
            planned = await plan(ex, target, source.id, ready, true);
            made = await target.write(ex as Tx, source, planned, now, sourceIds);
          }
          entries.push(...planned.entries);
          for (const e of entries) {
            const note = e.reason !== 'duplicate' && e.remoteId !== null && covers?.notes.get(e.remoteId);
            if (note) e.cover = note;
          }
          const counts = { ...totals };
          for (const e of entries) counts[e.outcome]++;
          const more = entries.slice(0, Math.max(0, MAX_LOG - logged));
          const [r] = await ex
            .update(collectRuns)
            .set({
              pagesDone: page - first + 1,
              pageCount: reader.last - first + 1,
              ...counts,
              claimedUntil: runClaim(deps.now()),
              ...(more.length ? { log: sql`${collectRuns.log} || ${JSON.stringify(more)}::jsonb` } : {}),
            })
            .where(and(eq(collectRuns.id, runId), eq(collectRuns.status, 'running')))
            .returning({ c: collectRuns.cancelRequested });
          const beat2: Beat = r ? (r.c ? 'cancelled' : 'go') : 'gone';
          return { beat: beat2, planned, counts, logged: more.length, made };
        };
        // A real batch is written in one transaction (a retry starts the step over: nothing of a failed try is kept).
        const done = run.dryRun ? await step(db) : await transaction(db, step);
        if (done.planned) {
          Object.assign(totals, done.counts);
          logged += done.logged ?? 0;
          for (const t of types) typesSeen.add(t.typeId);
          for (const [code, id] of done.made ?? []) sourceIds.set(code, id);
          if (run.dryRun) for (const a of done.planned.adds) dryAdds.add(a.key);
        }
        if (done.beat === 'gone') return;
        if (done.beat === 'cancelled') return await finish('cancelled');
      }
    } finally {
      reader.stop();
    }
    await finish('done');
  } catch (err) {
    if (err instanceof RunFailure) await finish('failed', err.key, err.detail);
    else
      await finish('failed', 'collect.fail.internal', String((err as Error)?.message ?? err).slice(0, 200));
  }
}

/** A batch's items checked against the source's bindings: those ready to plan, and the log entries of the others. */
function checkItems(target: Target, items: RemoteItem[], bindings: Parameters<Target['check']>[1]) {
  const ready: Ready[] = [];
  const entries: LogEntry[] = [];
  for (const raw of items) {
    const c = target.check(raw, bindings);
    if (c.ok) ready.push(c.item);
    else entries.push(c.entry);
  }
  return { ready, entries };
}

/** Puts the stored path of an item's picture, when `paths` has one for its URL, in place of the URL. */
function coverOf(target: Target, item: Ready, paths: Map<string, string>) {
  const path = paths.get(item.texts[target.image] ?? '');
  if (path) target.setImage(item, path);
}

/**
 * A 'local' source's batch, before its transaction: the covers of the items its plan would add or write the cover
 * of (the plan made as a dry run's, the covers already stored in place) that are not stored yet are fetched into
 * the image store, a few at a time, or in a dry run noted as to be fetched. Answers the paths the batch's write puts
 * in place of the site's URLs (those stored before and now; a dry run's would-be paths) and each item's note: a
 * cover that could not be fetched keeps the site's URL and says why. Undefined when the run is no longer to go on
 * (the write's own check then stops it).
 */
async function prepareCovers(
  deps: RunDeps,
  runId: number,
  source: Source,
  target: Target,
  items: RemoteItem[],
  allowHosts: readonly string[],
  dryRun: boolean,
  dryAdds: Set<string>,
): Promise<{ paths: Map<string, string>; notes: Map<number, CoverEntry> } | undefined> {
  const { beat, bindings } = await beatWithBindings(deps.db, runId, source.id, deps.now());
  if (beat !== 'go') return undefined;
  const { ready } = checkItems(target, items, bindings);
  const urlOf = new Map(ready.map((r) => [r.remoteId, r.texts[target.image] ?? '']));
  const paths = await storedCovers(deps.images.store, [...new Set([...urlOf.values()].filter(Boolean))]);
  // A cover not stored yet is planned as fetched: at a path of its URL (any format will do) that no row has.
  const toBe = new Map(paths);
  for (const url of urlOf.values())
    if (url && !toBe.has(url)) toBe.set(url, await collectedImagePath(url, 'jpg'));
  for (const r of ready) coverOf(target, r, toBe);
  const planned = await plan(deps.db, target, source.id, ready, false, dryRun ? dryAdds : undefined);
  const wanting = [
    ...planned.adds,
    ...planned.updates.filter((u) => u.set.includes(target.image)).map((u) => u.item),
  ].filter((r) => {
    const url = urlOf.get(r.remoteId);
    return url && !paths.has(url);
  });
  const wanted = [...new Set(wanting.map((r) => urlOf.get(r.remoteId) ?? ''))];
  let failed = new Map<string, CoverEntry>();
  if (dryRun) {
    for (const url of wanted) {
      paths.set(url, toBe.get(url) as string);
      failed.set(url, { note: 'wouldFetch' });
    }
  } else if (wanted.length) {
    if (!deps.outbound) throw new RunFailure('collect.fail.noOutbound');
    const got = await fetchCovers(deps.outbound, deps.images, allowHosts, wanted);
    for (const [url, path] of got.paths) paths.set(url, path);
    failed = got.notes;
  }
  const notes = new Map<number, CoverEntry>();
  for (const r of wanting) {
    const note = failed.get(urlOf.get(r.remoteId) ?? '');
    if (note) notes.set(r.remoteId, note);
  }
  return { paths, notes };
}

/**
 * A run's failure as the source keeps it (`last_error`): its message key and the site's words after a tab, so the
 * list can say it in the reader's language (`lastErrorText`) with the detail a key alone would lose.
 */
export const sourceError = (key: string, detail: string) =>
  key ? `${key}\t${detail.replace(/\s+/g, ' ')}`.slice(0, 512) : '';

/** `last_error` back into its key and detail (a row written before the detail was kept: the key alone). */
export function readSourceError(stored: string): { key: string; detail: string } {
  const tab = stored.indexOf('\t');
  return tab < 0 ? { key: stored, detail: '' } : { key: stored.slice(0, tab), detail: stored.slice(tab + 1) };
}

// --- the run's claim ---------------------------------------------------------------------------------------------

/**
 * How long a run's claim holds without being renewed. The working process renews it before each page is fetched and
 * before it is written (a page is fetched within PAGE_TIMEOUT_MS and written in well under a minute), so a run whose
 * claim has lapsed has no process behind it.
 */
export const RUN_CLAIM_SECONDS = 180;

export const runClaim = (now: Date) => new Date(now.getTime() + RUN_CLAIM_SECONDS * 1000);

/**
 * Renews the run's claim and reads whether a cancel was asked, in one statement: `gone` when the run is no longer
 * running (ended, or taken for interrupted by another instance).
 */
type Beat = 'go' | 'cancelled' | 'gone';

async function cancelAsked(db: Db, runId: number) {
  const [r] = await db
    .select({ c: collectRuns.cancelRequested })
    .from(collectRuns)
    .where(eq(collectRuns.id, runId));
  return !r || r.c;
}

async function heartbeat(db: Executor, runId: number, now: Date): Promise<Beat> {
  const [r] = await db
    .update(collectRuns)
    .set({ claimedUntil: runClaim(now) })
    .where(and(eq(collectRuns.id, runId), eq(collectRuns.status, 'running')))
    .returning({ c: collectRuns.cancelRequested });
  if (!r) return 'gone';
  return r.c ? 'cancelled' : 'go';
}

/**
 * Runs left `running` by a process that stopped (their claim lapsed at `now`) are marked failed with
 * `collect.fail.interrupted`; a scheduled one's source claim is freed with it, so the schedule takes it up again.
 * One statement: of several instances looking at once, each run is marked by one (the others find it no longer
 * running). `sourceId` limits it to one source. Answers the runs marked.
 */
export async function reapInterrupted(db: Executor, now: Date, sourceId?: number): Promise<number[]> {
  const rows = rowsOf<{ id: number }>(
    await db.execute(sql`
      with r as (
        update collect_runs set status = 'failed', error = 'collect.fail.interrupted', error_detail = '',
          finished_at = ${now}::timestamptz, claimed_until = null
        where status = 'running' and coalesce(claimed_until, '-infinity') < ${now}::timestamptz
          ${sourceId === undefined ? sql`` : sql`and source_id = ${sourceId}`}
        returning id, source_id, started_by),
      s as (
        update collect_sources set claimed_until = null
        where id in (select source_id from r where started_by is null)
        returning id)
      select id from r order by id`),
  );
  return rows.map((r) => Number(r.id));
}

// --- the schedule ----------------------------------------------------------------------------------------------

/**
 * How long a source's schedule claim holds when its run never frees it. A source with a run still running is not
 * claimed whatever its claim (that run's own claim says whether it is alive: `reapInterrupted`).
 */
export const CLAIM_MINUTES = 30;

/**
 * Claims the next due source of the schedule, atomically (`for update skip locked` and a `claimed_until`), so that
 * of several instances on one database one runs it. Answers the source, or null when none is due.
 */
export async function claimDueSource(db: Db, now: Date): Promise<Source | null> {
  const rows = rowsOf<{ id: number }>(
    await db.execute(sql`
      update collect_sources set claimed_until = ${now}::timestamptz + make_interval(mins => ${CLAIM_MINUTES})
      where id = (
        select id from collect_sources
        where enabled and schedule_minutes > 0 and coalesce(next_run_at, '-infinity') <= ${now}
          and coalesce(claimed_until, '-infinity') <= ${now}
          and not exists (select 1 from collect_runs r where r.source_id = collect_sources.id and r.status = 'running')
        order by next_run_at nulls first, id limit 1 for update skip locked)
      returning id`),
  );
  if (!rows.length) return null;
  const [source] = await db
    .select()
    .from(collectSources)
    .where(eq(collectSources.id, Number(rows[0].id)));
  return source ?? null;
}

/**
 * A claimed source's scheduled run: collects the last `scheduleHours` hours, then sets the next time: the interval
 * after a success, a back-off after a failure (1, 2, 4… minutes, never beyond the interval), and frees the claim.
 */
export async function runScheduled(deps: RunDeps, source: Source): Promise<number> {
  const [run] = await deps.db
    .insert(collectRuns)
    .values({
      sourceId: source.id,
      kind: 'hours',
      params: { hours: source.scheduleHours },
      startedByName: '',
      startedAt: deps.now(),
      claimedUntil: runClaim(deps.now()),
    })
    .returning({ id: collectRuns.id });
  await executeRun(deps, run.id);
  const [done] = await deps.db.select().from(collectRuns).where(eq(collectRuns.id, run.id));
  const ok = done?.status === 'done';
  const failCount = ok ? 0 : source.failCount + 1;
  const waitMinutes = ok
    ? source.scheduleMinutes
    : Math.min(source.scheduleMinutes, 2 ** Math.min(failCount - 1, 16));
  await deps.db
    .update(collectSources)
    .set({
      failCount,
      nextRunAt: new Date(deps.now().getTime() + waitMinutes * 60_000),
      claimedUntil: null,
    })
    .where(eq(collectSources.id, source.id));
  return run.id;
}
