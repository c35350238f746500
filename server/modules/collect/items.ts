import { type SQL, sql } from 'drizzle-orm';
import { arrayParam } from '../../db/array-literal';
import type { Executor, Tx } from '../../db/types';
import type { CoverEntry } from './covers';
import { cleanTitle, MAX_REMOTE_ID, type RemoteItem, titleKey } from './reader';
import type { collectSources } from './schema';

/**
 * What every kind of collection shares about one remote item: its checks, the plan's shapes (ready, matched, planned),
 * the target a source's kind writes into, the item records and their field hashes (the locked-field rule).
 */

export type Source = typeof collectSources.$inferSelect;

/** Why an item was skipped or failed: keys the SPA translates (resources.collect.reason.*). */
export type ItemReason =
  | 'badId'
  | 'noTitle'
  | 'titleTooLong'
  | 'typeNotBound'
  | 'typeSkipped'
  | 'noEpisodes'
  | 'noChapters'
  | 'duplicate'
  | 'unchanged';

export interface LogEntry {
  remoteId: number | null;
  name: string;
  outcome: 'added' | 'updated' | 'skipped' | 'failed';
  reason?: ItemReason;
  /** Fields an operator edited by hand since the last collection: left as they are. */
  locked?: string[];
  /** Episode pieces left out, e.g. "badUrl: javascript:…". */
  problems?: string[];
  /** A 'local' source's cover: to be fetched (a dry run), or why it was not and the site's URL was kept. */
  cover?: CoverEntry;
  /** What the item became or matched, by the source's kind (the history links it to its edit page). */
  movieId?: number;
  novelId?: number;
  actressId?: number;
}

export type Bindings = Map<number, { columnId: number | null; skipped: boolean }>;

/** Video sources by code, as a run has learned them (made or found): a page whose codes are all known asks nothing. */
export type SourceIds = Map<string, number>;

/** A field's value as a short hash: what collect_items keeps to tell an operator's edit from the last collection. */
export function fieldHash(value: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) ^ (h2 >>> 13);
  }
  return `${(h1 >>> 0).toString(36)}${(h2 >>> 0).toString(36)}${value.length.toString(36)}`;
}

/** One remote item checked: its name's key for the second match, each field's value as text, the kind's data. */
export interface Ready<D = unknown> {
  remoteId: number;
  title: string;
  key: string;
  year: string;
  /** Each of the target's fields as text: what is compared with ours and hashed (the locked-field rule). */
  texts: Record<string, string>;
  problems: string[];
  data: D;
}

/** One of ours an item matched: its fields as text and what the kind's writer needs of it. */
export interface Current<C = unknown> {
  id: number;
  texts: Record<string, string>;
  data: C;
}

export type Checked<D = unknown> = { ok: true; item: Ready<D> } | { ok: false; entry: LogEntry };

export interface Planned<D = unknown, C = unknown> {
  adds: Ready<D>[];
  updates: {
    item: Ready<D>;
    current: Current<C>;
    set: string[];
    locked: string[];
    hashes: Record<string, string>;
  }[];
  entries: LogEntry[];
}

/**
 * What a source's kind collects into: movies (vod), novels (art) or actresses (actor). The run's reading, matching,
 * the locked-field rule, its counts and log are one; a target says what its items are and how they are written.
 */
export interface Target<D = any, C = any> {
  /** The fields compared and hashed, in order. */
  fields: readonly string[];
  /** The item record's column naming what an item became, and the log entry's key for it. */
  column: 'movie_id' | 'novel_id' | 'actress_id';
  logKey: 'movieId' | 'novelId' | 'actressId';
  /** Whether its items are bound by remote type (a performer site's are not: actresses have no columns). */
  typed: boolean;
  /** The field of its picture (a cover, an avatar): fetched into our image store for a 'local' source. */
  image: string;
  /** Puts our stored picture's path in place of the site's URL (in the item's data and its `texts`). */
  setImage(item: Ready<D>, path: string): void;
  check(raw: RemoteItem, bindings: Bindings): Checked<D>;
  /**
   * `select 't', null, id, null, <name key>, <year or null>` of ours whose name's key (lower(btrim(name))) is one of
   * `keys`: the second way an item matches.
   */
  byName(keys: string[]): SQL;
  /** Ours by id, their fields as text; FOR UPDATE when `lock` (a real run, in its transaction). */
  current(db: Executor, ids: number[], lock: boolean): Promise<Map<number, Current<C>>>;
  /**
   * Writes a planned batch in the caller's transaction: new rows, changed fields, item records, and sets each added
   * entry's id (`logKey`). Answers what the run may remember once it commits (video sources by line code).
   */
  write(
    tx: Tx,
    source: Source,
    p: Planned<D, C>,
    now: Date,
    known: SourceIds,
  ): Promise<SourceIds | undefined>;
}

/** `Target.setImage` of a kind whose data keeps its values under `values` with a `cover` (movies, novels). */
export function setValuesCover(item: Ready<{ values: { cover: string } }>, path: string) {
  item.data.values.cover = path;
  item.texts.cover = path;
}

/** The item's checks every kind shares: a usable remote id and a name of at most `maxName` characters. */
export function checkName(
  raw: RemoteItem,
  maxName: number,
): { ok: true; remoteId: number; title: string; name: string } | { ok: false; entry: LogEntry } {
  const name = cleanTitle(raw.title).slice(0, 80);
  const remoteId =
    Number.isNaN(raw.remoteId) || raw.remoteId < 1 || raw.remoteId > MAX_REMOTE_ID ? null : raw.remoteId;
  const fail = (reason: ItemReason) => ({
    ok: false as const,
    entry: { remoteId, name, outcome: 'failed' as const, reason },
  });
  if (remoteId === null) return fail('badId');
  const title = cleanTitle(raw.title);
  if (!title) return fail('noTitle');
  if ([...title].length > maxName) return fail('titleTooLong');
  return { ok: true, remoteId, title, name };
}

/** The column a remote type is bound to, or the skipped/unbound entry. */
export function boundColumn(
  raw: RemoteItem,
  bindings: Bindings,
  remoteId: number,
  name: string,
): { ok: true; columnId: number } | { ok: false; entry: LogEntry } {
  const binding = Number.isNaN(raw.typeId) ? undefined : bindings.get(raw.typeId);
  const reason: ItemReason | undefined = binding?.skipped
    ? 'typeSkipped'
    : !binding || binding.columnId === null
      ? 'typeNotBound'
      : undefined;
  if (reason) return { ok: false, entry: { remoteId, name, outcome: 'skipped', reason } };
  return { ok: true, columnId: binding?.columnId as number };
}

/** Each field's hash of a ready item: the item record of a new one. */
export const hashesOf = (target: Target, r: Ready) =>
  Object.fromEntries(target.fields.map((f) => [f, fieldHash(r.texts[f] ?? '')]));

/**
 * Upserts a batch's item records (what each remote item became, its fields' hashes), in the caller's transaction.
 */
export async function writeItems(
  tx: Tx,
  target: Target,
  sourceId: number,
  rows: { remoteId: number; id: number; hashes: Record<string, string> }[],
  now: Date,
) {
  if (!rows.length) return;
  const column = sql.raw(target.column);
  await tx.execute(sql`
    insert into collect_items (source_id, remote_id, ${column}, hashes, collected_at)
    select ${sourceId}, x.r, x.id, x.h::jsonb, ${now}
    from unnest(${arrayParam(rows.map((x) => x.remoteId))}::integer[], ${arrayParam(rows.map((x) => x.id))}::integer[],
      ${arrayParam(rows.map((x) => JSON.stringify(x.hashes)))}::text[]) as x(r, id, h)
    on conflict (source_id, remote_id) do update set ${column} = excluded.${column}, hashes = excluded.hashes,
      collected_at = excluded.collected_at`);
}

export const nonEmpty = <T>(a: T[]) => (a.length ? a : undefined);

/**
 * A written batch's item records (new rows by `ids`, in the order of `p.adds`; matched ones by their id) and each
 * added log entry's id (`target.logKey`), for the history to link.
 */
export async function recordBatch(
  tx: Tx,
  target: Target,
  sourceId: number,
  p: Planned,
  ids: number[],
  now: Date,
) {
  await writeItems(
    tx,
    target,
    sourceId,
    [
      ...p.adds.map((a, i) => ({ remoteId: a.remoteId, id: ids[i], hashes: hashesOf(target, a) })),
      ...p.updates.map((u) => ({ remoteId: u.item.remoteId, id: u.current.id, hashes: u.hashes })),
    ],
    now,
  );
  const entryOf = new Map(p.entries.filter((e) => e.outcome === 'added').map((e) => [e.remoteId, e]));
  p.adds.forEach((a, i) => {
    const e = entryOf.get(a.remoteId);
    if (e) e[target.logKey] = ids[i];
  });
}

/**
 * `Target.byName` of a table: its rows whose `name` column's key (lower(btrim(…)), the index the match reads) is one of
 * the keys, with `year` (an SQL expression of the row, or null when the kind has none).
 */
export const nameMatch =
  (table: 'movies' | 'novels' | 'actresses', name: 'title' | 'name', year = 'null') =>
  (keys: string[]): SQL =>
    sql`
    select 't', null, id, null, lower(btrim(${sql.raw(name)})), ${sql.raw(year)} from ${sql.raw(table)}
    where lower(btrim(${sql.raw(name)})) = any(${arrayParam(keys)}::text[])`;

/** A checked item ready to match: its name's key for the second match, its fields as text, the kind's data. */
export const readyItem = <D>(
  remoteId: number,
  title: string,
  year: string,
  texts: Record<string, string>,
  data: D,
  problems: string[] = [],
): Checked<D> => ({ ok: true, item: { remoteId, title, key: titleKey(title), year, texts, problems, data } });
