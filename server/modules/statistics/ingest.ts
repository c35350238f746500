import { sql } from 'drizzle-orm';
import { addDays, DEFAULT_TIME_ZONE, dayOf, isTimeZone } from '../../../common/period';
import type { FieldErrors } from '../../core/errors';
import { entry, memo, memoFromSecond } from '../../core/maps';
import { type Ran, Together } from '../../core/together';
import { zodFieldErrors } from '../../core/validate';
import { arrayParam } from '../../db/array-literal';
import { CopyData, copierOf, copyField } from '../../db/copy-in';
import { rowsOf } from '../../db/migrate';
import { keyOf } from '../../db/stand-in';
import type { Executor } from '../../db/types';
import { readStatistics } from '../statistics-settings';
import { readSettings } from '../sys/settings';
import {
  type CopyParts,
  EventInput,
  type EventRow,
  eventClock,
  fastEvent,
  noRegion,
  parseAgent,
  type Region,
  type RegionLookup,
  SETTING_OF,
  sampleBucket,
  storedPlace,
  timeOf,
  toRow,
  UNKNOWN,
} from './events';
import { type Stored, storedBatch, storingBatch } from './fold-cache';
import { hexRegister } from './sketch';

/** Events may be late by the retention (older ones would land in a dropped partition) and early by a day at most. */
const FUTURE_MS = 86_400_000;

/** A tenant's time zone: the system setting `timeZone` (an IANA name), Asia/Shanghai by default. */
export async function timeZoneOf(db: Executor, tenant: number): Promise<string> {
  const tz = ((await readSettings(db, tenant)) as Record<string, unknown>).timeZone;
  return typeof tz === 'string' && isTimeZone(tz) ? tz : DEFAULT_TIME_ZONE;
}

interface IngestOutcome {
  accepted: number;
  duplicates: number;
  dropped: number;
  rejected: { index: number; fields: FieldErrors }[];
}

/**
 * One batch from the content site: each event checked on its own (a bad one is reported by its index, the rest are
 * kept), bots, sampled-out visitors and switched-off types dropped, the rest stored once per event id.
 */
export async function ingest(
  db: Executor,
  tenant: number,
  events: unknown[],
  opts: {
    now: Date;
    clientAddress: string;
    region?: RegionLookup;
    md5?: (text: string) => string;
    /** The tenant's site version the request read (`site_state`): the settings are read again only when it moved. */
    siteVersion?: number;
  },
): Promise<IngestOutcome> {
  const { settings, timeZone } = await ingestSettings(db, tenant, opts.siteVersion);
  const oldest = addDays(dayOf(opts.now, timeZone), -(settings.rawRetentionDays - 1));
  const latest = opts.now.getTime() + FUTURE_MS;
  const rows: EventRow[] = [];
  const out: IngestOutcome = { accepted: 0, duplicates: 0, dropped: 0, rejected: [] };
  const clock = eventClock(timeZone);
  const addresses = addressesOf(opts.region ?? noRegion, opts.md5);
  for (const [index, raw] of events.entries()) {
    const fast = fastEvent(raw);
    const parsed = fast ? { success: true as const, data: fast } : EventInput.safeParse(raw);
    if (!parsed.success) {
      const fields = zodFieldErrors(parsed.error, raw);
      for (const issue of parsed.error.issues) {
        if (issue.code !== 'unrecognized_keys') continue;
        delete fields[issue.path.join('.') || '_']; // name each unknown field rather than the event
        for (const k of issue.keys) fields[[...issue.path, k].join('.')] = { key: 'field.unknown' };
      }
      out.rejected.push({ index, fields });
      continue;
    }
    const e = parsed.data;
    const at = timeOf(e.time);
    const time = at > latest ? undefined : clock(at);
    if (time === undefined || time.day < oldest) {
      out.rejected.push({
        index,
        fields: { time: { key: 'stats.timeRange', params: { days: settings.rawRetentionDays } } },
      });
      continue;
    }
    const setting = SETTING_OF[e.type];
    if (setting && !settings.events[setting]) {
      out.dropped++;
      continue;
    }
    if (sampleBucket(e.visitor) >= settings.sampleRate) {
      out.dropped++;
      continue;
    }
    const agent = parseAgent(e.ua ?? '');
    if (agent.bot) {
      out.dropped++;
      continue;
    }
    const address = e.ip ?? opts.clientAddress;
    const place = address ? addresses(address) : NO_ADDRESS;
    const row = toRow(e, agent, address, place.region, time);
    if (opts.md5) {
      const v = hashOf(opts.md5, row.visitor);
      const a = place.hashed ?? hashOf(opts.md5, address);
      row.visitorHash = v.hash;
      row.visitorReg = v.reg;
      row.addressHash = a.hash;
      row.addressReg = a.reg;
      row.copy = { agent: agent.copy, place: place.copy ?? placeCopy(row), visitor: v.copy };
      if (place.cached && place.copy === undefined) place.copy = row.copy.place; // the next events take it as it is
    }
    rows.push(row);
  }
  if (rows.length) {
    out.accepted = await store(db, tenant, rows, timeZone);
    out.duplicates = rows.length - out.accepted;
  }
  return out;
}

/** The settings the ingestion acts on: the statistics settings and the time zone. */
type IngestSettings = { settings: Awaited<ReturnType<typeof readStatistics>>; timeZone: string };

/**
 * Per database handle and tenant, the ingestion's settings as of a site version: a write of either setting bumps the
 * tenant's `site_version` in its own transaction (`bumpSiteVersion`), and every batch reads that version with its site
 * key, so the settings are read again only after a change rather than twice a batch. A batch whose version is not
 * known (no site key: seeds, tests) reads them.
 */
const settingsAt = new WeakMap<object, Map<number, { version: number; read: Promise<IngestSettings> }>>();

function ingestSettings(db: Executor, tenant: number, version: number | undefined): Promise<IngestSettings> {
  const read = async () => {
    const [settings, timeZone] = await Promise.all([readStatistics(db, tenant), timeZoneOf(db, tenant)]);
    return { settings, timeZone };
  };
  if (version === undefined) return read();
  const byTenant = entry(settingsAt, db, () => new Map());
  const had = byTenant.get(tenant);
  if (had?.version === version) return had.read;
  const made = { version, read: read() };
  byTenant.set(tenant, made);
  made.read.catch(() => byTenant.get(tenant) === made && byTenant.delete(tenant)); // read again next time
  return made.read;
}

export const partitionName = (day: string) => `stat_events_p${day.replaceAll('-', '')}`;

/** Makes the day partitions of the raw table (idempotent; another instance making one at once is fine). */
async function ensurePartitions(db: Executor, days: string[]) {
  for (const day of new Set(days)) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`bad partition day ${day}`);
    try {
      await db.execute(
        sql.raw(
          `create table if not exists ${partitionName(day)} partition of stat_events for values from ('${day}') to ('${addDays(day, 1)}')`,
        ),
      );
    } catch (err) {
      if (!isCode(err, '42P07') && !isCode(err, '23505')) throw err; // made by someone else meanwhile
    }
  }
}

function isCode(err: unknown, code: string) {
  for (let e: any = err, i = 0; e && i < 5; e = e.cause, i++) if (e.code === code) return true;
  return false;
}

/**
 * Stores a batch's rows and queues its batch for the rollup per day of its new events (stat_fold_queue). A batch of
 * one day hashed here goes by COPY, with the day's other batches that arrive meanwhile (`copyBatches`); any other, or
 * one COPY refused, by one insert statement (arrays unnested: one parse whatever the batch size) that skips event ids
 * already stored, making a missing day partition and trying again. A batch of one day whose rows were all new is then
 * folded into the day's cached fold (`storedBatch`: the next rollup need not read it back). Returns how many rows were
 * new.
 */
export async function store(
  db: Executor,
  tenant: number,
  rows: EventRow[],
  timeZone: string,
): Promise<number> {
  const col = <K extends keyof EventRow>(k: K) => rows.map((r) => r[k]);
  const arr = (k: Exclude<keyof EventRow, 'copy'>) => arrayParam(col(k)); // the parameter's text, built once (array-literal.ts)
  // A batch of one day (the usual one) goes into that day's partition directly: routing each row through the parent
  // cost PostgreSQL about 1 µs of the 6–7 an event's insert takes.
  const [only, ...more] = new Set(col('day'));
  const oneDay = !more.length && /^\d{4}-\d{2}-\d{2}$/.test(only) ? only : undefined;
  const into = sql.raw(oneDay ? partitionName(oneDay) : 'stat_events');
  // A batch's events are new but for a retried batch: inserted without `on conflict` first (its speculative insertion
  // cost PostgreSQL about 2.8 µs an event), and only a batch that meets a stored id (23505: nothing of it was
  // written) is inserted again skipping those. So `store` runs on the database, not in a caller's transaction (a
  // failed statement would abort it); `ingest` reads the settings at once, which a transaction cannot either.
  // The statement's events take the batch's number (taken first, below) and queue it per day for the rollup, in the
  // same statement: the queue holds a batch exactly when its events are stored.
  const insert = (batch: string, skip: boolean) =>
    db.execute(sql`
      with b as (select ${batch}::bigint as batch),
      ins as (insert into ${into} (tenant, day, id, type, at, domain, path, referrer, device, browser, os, country, province,
        address, address_hash, address_reg, visitor, visitor_hash, visitor_reg, channel, object_type, object_id, keyword,
        results, amount, batch)
      select ${tenant}, e.day, e.id, e.type, e.at, e.domain, e.path, e.referrer, e.device, e.browser, e.os, e.country,
        e.province, e.address, e.ah, coalesce(e.ar, zg_hll_reg(e.ah)), e.visitor, e.vh, coalesce(e.vr, zg_hll_reg(e.vh)),
        e.channel, e.object_type, e.object_id, e.keyword, e.results, e.amount, (select batch from b)
      from (select *, coalesce(ahx, zg_hash64(address)) as ah, coalesce(vhx, zg_hash64(visitor)) as vh
      from unnest(${arr('day')}::date[], ${arr('id')}::text[], ${arr('type')}::text[],
        ${arr('at')}::timestamptz[], ${arr('domain')}::text[], ${arr('path')}::text[],
        ${arr('referrer')}::text[], ${arr('device')}::text[], ${arr('browser')}::text[],
        ${arr('os')}::text[], ${arr('country')}::text[], ${arr('province')}::text[],
        ${arr('address')}::text[], ${arr('visitor')}::text[], ${arr('channel')}::text[],
        ${arr('objectType')}::text[], ${arr('objectId')}::int[], ${arr('keyword')}::text[],
        ${arr('results')}::int[], ${arr('amount')}::numeric[], ${arr('visitorHash')}::bigint[], ${arr('visitorReg')}::int[],
        ${arr('addressHash')}::bigint[], ${arr('addressReg')}::int[])
        as e(day, id, type, at, domain, path, referrer, device, browser, os, country, province, address, visitor,
          channel, object_type, object_id, keyword, results, amount, vhx, vr, ahx, ar) offset 0) e
      ${skip ? sql`on conflict (tenant, day, id) do nothing` : sql``}
      returning day),
      n as (select day, count(*)::int as n from ins group by day),
      q as (insert into stat_fold_queue (tenant, day, batch) select ${tenant}, day, (select batch from b) from n)
      select day::text as day, n from n`);
  const attempt = async (batch: string, skip: boolean) => {
    try {
      return await insert(batch, skip);
    } catch (err) {
      // No partition for a day yet: the parent has none for a row (23514), or the day's partition is not there
      // (42P01).
      if (!isCode(err, '23514') && !isCode(err, '42P01')) throw err;
      await ensurePartitions(db, col('day'));
      return insert(batch, skip);
    }
  };
  // Every hash computed by the server (not SQL's): then COPY, and the fold as the rows are stored.
  const hashed = hashedHere(rows);
  // A batch of one day hashed here goes by COPY with the day's other batches that arrive meanwhile (`copying`): its
  // number taken and its lines made now, while it waits for the COPY before it.
  const copied =
    oneDay && hashed && copierOf(db)
      ? await copyBatch(db, { tenant, day: oneDay, timeZone, rows })
      : undefined;
  if (typeof copied === 'number') return copied;
  // A batch COPY refused for a stored id goes straight to the insert that skips them. Its number is taken before its
  // rows are sent (`takeBatch`); a statement refused for a conflict takes a new one for the next (the conflict may be
  // the queue row's).
  let batch = await takeBatch(db);
  let accepted = 0;
  try {
    let result: unknown;
    try {
      result = await attempt(batch, copied === 'duplicate');
    } catch (err) {
      if (!isCode(err, '23505')) throw err; // an event id stored already (a retried batch), or twice in this one
      storedBatch(db, Number(batch)); // not stored under it
      batch = await takeBatch(db);
      result = await attempt(batch, true);
    }
    // One row per day of the new events (not one per event): its count.
    const inserted = rowsOf<{ day: string; n: number }>(result);
    accepted = inserted.reduce((sum, r) => sum + Number(r.n), 0);
  } finally {
    storedBatch(
      db,
      Number(batch),
      oneDay && hashed && accepted === rows.length ? { tenant, day: oneDay, timeZone, rows } : undefined,
    );
  }
  return accepted;
}

/**
 * Batch numbers taken from the sequence ahead, per database handle (NUMBERS_AHEAD at a time): a COPY then starts
 * without a round trip first, in which the event loop would serve other requests before the rows go. A number taken
 * but never used leaves a gap, which nothing minds.
 */
const spareNumbers = new WeakMap<object, string[]>();
const NUMBERS_AHEAD = 32;

/** Lets the spare batch numbers go: the next batch takes the sequence's next number (tests). */
export const forgetSpareNumbers = (db: Executor) => void spareNumbers.delete(db);

/** A new batch number, as text (it goes into the statements as it is), registered as being stored (`storingBatch`). */
async function takeBatch(db: Executor): Promise<string> {
  const spare = entry(spareNumbers, db, () => []);
  if (!spare.length) {
    const rows = rowsOf<{ n: string }>(
      await db.execute(
        sql`select nextval('stat_event_batches')::text as n from generate_series(1, ${NUMBERS_AHEAD})`,
      ),
    );
    spare.push(...rows.map((r) => BigInt(r.n).toString()));
  }
  const batch = spare.shift()!;
  storingBatch(db, Number(batch));
  return batch;
}

/** What a COPY of batches made of each: its rows stored (all of them), 'duplicate' or undefined (see `copyRows`). */
type Copied = number | 'duplicate' | undefined;

/** A row the server hashed: `ingest` makes its COPY runs with its hashes. */
type HashedRow = EventRow & { copy: CopyParts };
const hashedHere = (rows: readonly EventRow[]): rows is readonly HashedRow[] =>
  rows.every((r) => r.copy !== undefined);

/** A batch waiting for its COPY: its number (taken, `storingBatch`) and its lines as COPY's data. */
interface Copying extends Stored {
  batch: string;
  data: Uint8Array[];
}

/** The most events one COPY takes of the batches that waited. */
const COPY_TOGETHER_EVENTS = 5_000;

/**
 * Per database handle, the batches waiting for COPY, by tenant, day and time zone: one COPY at a time takes those that
 * arrived while the last ran (one statement list, one commit), each under its own number.
 */
const copiers = new WeakMap<object, Together<Copying, Copied>>();
const copying = (db: Executor) =>
  entry(
    copiers,
    db,
    () =>
      new Together<Copying, Copied>(
        (_key, items) => copyBatches(db, items),
        COPY_TOGETHER_EVENTS,
        (s) => s.rows.length,
      ),
  );

/** How many batches wait for a COPY on `db` (tests). */
export const waitingForCopy = (db: Executor) => copiers.get(keyOf(db))?.waiting ?? 0;

/**
 * A batch of one day, every hash computed, stored by COPY with the others that wait for the day's COPY: its number is
 * taken and its lines are made at once, so the COPY that takes it only joins what waited. Refused ('duplicate',
 * undefined: see `copyRows`), it gives its number back.
 */
async function copyBatch(db: Executor, stored: Stored & { rows: readonly HashedRow[] }): Promise<Copied> {
  const batch = await takeBatch(db);
  const data = new CopyData();
  for (const r of stored.rows) data.add(copyLine(stored.tenant, r, batch));
  let copied: Copied;
  try {
    copied = await copying(db).add(`${stored.tenant}|${stored.day}|${stored.timeZone}`, {
      ...stored,
      batch,
      data: data.data,
    });
  } finally {
    if (typeof copied !== 'number') storedBatch(db, Number(batch)); // not stored under it
  }
  return copied;
}

/**
 * The batches of one tenant's day stored by one COPY, each under its own number, each folded ahead when stored: once
 * the day's next COPY is on its way (`Ran.afterwards`), so that PostgreSQL stores those rows while this process folds
 * these. A COPY refused for a stored id refuses every batch with it: each is then copied alone (nothing of them was
 * stored: the same number and lines), so that only a retried batch goes to the insert.
 */
async function copyBatches(db: Executor, items: Copying[]): Promise<Ran<Copied>> {
  const { tenant, day } = items[0];
  const data = items.flatMap((s) => s.data);
  const copied = await copyRows(
    db,
    tenant,
    day,
    data,
    items.map((s) => s.batch),
  );
  if (typeof copied === 'number')
    return {
      results: items.map((s) => s.rows.length),
      afterwards: () =>
        // COPY runs under Node only (node-postgres), where setImmediate is.
        new Promise<void>((resolve) =>
          setImmediate(() => {
            for (const s of items) storedBatch(db, Number(s.batch), s);
            resolve();
          }),
        ),
    };
  if (copied === 'duplicate' && items.length > 1) {
    const alone: Copied[] = [];
    for (const item of items) {
      const ran = await copyBatches(db, [item]);
      await ran.afterwards?.();
      alone.push(...ran.results);
    }
    return { results: alone };
  }
  return { results: items.map(() => copied) };
}

/** The raw table's columns a COPY fills, in the order of `copyLine`'s fields. */
const COPY_COLUMNS = `tenant, day, id, type, at, domain, path, referrer, device, browser, os, country, province, address,
  address_hash, address_reg, visitor, visitor_hash, visitor_reg, channel, object_type, object_id, keyword, results, amount,
  batch`;

/**
 * COPY's data (`copyLine`s: rows of one day, every hash computed, the server's) stored where the driver has COPY
 * (node-postgres, copy-in.ts): PostgreSQL took 10–11 µs of CPU per event for it against 17–19 for the same rows
 * through `unnest`. The events and their batches' queue rows are one statement list, one transaction. Rows that
 * meet a stored id (23505: a retried batch, 'duplicate') or a day with no partition yet are refused whole, and
 * stored by the `unnest` insert instead, which skips the ids stored and makes the partition. Returns how many lines
 * were stored; undefined: not copied (no COPY, no partition). `day`: the rows' one day, checked a day; `batches`:
 * the numbers in the lines.
 */
async function copyRows(
  db: Executor,
  tenant: number,
  day: string,
  data: readonly Uint8Array[],
  batches: string[],
): Promise<Copied> {
  const copy = copierOf(db);
  if (!copy) return undefined;
  const queued = batches.map((b) => `(${Math.trunc(tenant)}, '${day}', ${b})`).join(', ');
  try {
    const [tag] = await copy(
      `copy ${partitionName(day)} (${COPY_COLUMNS}) from stdin;
      insert into stat_fold_queue (tenant, day, batch) values ${queued}`,
      data,
    );
    return Number(tag.slice(5)); // 'COPY n'
  } catch (err) {
    if (isCode(err, '23505')) return 'duplicate';
    if (isCode(err, '42P01')) return undefined;
    throw err;
  }
}

/**
 * One event as a line of COPY's text format, in `COPY_COLUMNS`' order. The fields no backslash, tab or line end can
 * be in go as they are: numbers, the day and time, the id and the domain (each checked against its pattern), the
 * type and object type (names of ours); the runs of `CopyParts` were escaped when they were made.
 */
function copyLine(tenant: number, r: HashedRow, batch: string): string {
  const f = copyField;
  const p = r.copy;
  return (
    `${tenant}\t${r.day}\t${r.id}\t${r.type}\t${r.at}\t${r.domain}\t${f(r.path)}\t${f(r.referrer)}\t${p.agent}\t` +
    `${p.place}\t${p.visitor}\t${f(r.channel)}\t${r.objectType}\t${r.objectId}\t${f(r.keyword)}\t${f(r.results)}\t` +
    `${f(r.amount)}\t${batch}\n`
  );
}

/** `CopyParts.place` of a row: country, province, address, its hash and register. */
function placeCopy(
  r: Pick<EventRow, 'country' | 'province' | 'address' | 'addressHash' | 'addressReg'>,
): string {
  const f = copyField;
  return `${f(r.country)}\t${f(r.province)}\t${f(r.address)}\t${r.addressHash}\t${f(r.addressReg)}`;
}

/** What the ingestion keeps of an address it met lately: its region and, where the server hashes, its hash. */
interface AddressFacts {
  region: Region;
  hashed: Hashed | undefined;
  /** `CopyParts.place`, made once for the events of an address the memo caches. */
  copy: string | undefined;
  /** Cached by the memo (the address came before): its next events take these facts as they are. */
  cached: boolean;
}
const NO_ADDRESS: AddressFacts = {
  region: { country: UNKNOWN, province: UNKNOWN },
  hashed: undefined,
  copy: undefined,
  cached: false,
};
const HASHED_ADDRESSES = 100_000;
/**
 * Per region lookup and hasher, the addresses met lately, cached from their second event (`memoFromSecond`): one lookup
 * an event for both its region and its hash.
 */
const addressMemos = new WeakMap<RegionLookup, WeakMap<object, (address: string) => AddressFacts>>();
const NO_HASHER = {};

function addressesOf(region: RegionLookup, md5: ((text: string) => string) | undefined) {
  return entry(
    entry(addressMemos, region, () => new WeakMap()),
    md5 ?? NO_HASHER,
    () =>
      memoFromSecond(HASHED_ADDRESSES, (address, cached): AddressFacts => {
        const place = storedPlace(region(address));
        return { region: place, hashed: md5 && hashText(md5, address), copy: undefined, cached };
      }),
  );
}

/** 16 hex digits as the signed bigint SQL makes of them (`('x' || hex)::bit(64)::bigint`). */
const signed64 = (hex: string) => BigInt.asIntN(64, BigInt(`0x${hex}`)).toString();

/** A text's hash (SQL's `zg_hash64`, as bigint text) and register (`zg_hll_reg`). */
interface Hashed {
  hash: string;
  reg: number;
}
/** Per hasher, the texts hashed lately: a visitor's and an address's events come again and again. */
const hashers = new WeakMap<(text: string) => string, (text: string) => Hashed & { copy: string }>();
const HASHED_TEXTS = 100_000;

/**
 * `text`'s hash and register by `md5` (its hex digest), cached while the text comes again, with the three as fields of
 * COPY's text format (`CopyParts.visitor`).
 */
function hashOf(md5: (text: string) => string, text: string): Hashed & { copy: string } {
  const hasher = entry(hashers, md5, () =>
    memo(HASHED_TEXTS, (t: string) => {
      const { hash, reg } = hashText(md5, t);
      return { hash, reg, copy: `${copyField(t)}\t${hash}\t${reg}` };
    }),
  );
  return hasher(text);
}

function hashText(md5: (text: string) => string, text: string): Hashed {
  const hex = md5(text);
  return { hash: signed64(hex.slice(0, 16)), reg: hexRegister(hex) };
}
