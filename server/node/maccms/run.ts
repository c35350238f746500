import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/migrate';
import type { Db, Executor } from '../../db/types';
import {
  actorKind,
  artKind,
  type Ctx,
  commentKind,
  gbookKind,
  type Kind,
  type Prepared,
  typeKind,
  userKind,
  vodKind,
} from './kinds';
import { addLine, emptyTable, type MoveReport, type TableReport } from './report';
import { checkIdent, type Source, type SourceRow } from './source';
import { digestOf, forget, loosenTables, mapped, ownIds, remember, takeIds } from './write';

/**
 * The MacCMS move: reads each table of a MacCMS v10 database in batches by primary key and writes each batch, with
 * the mapping rows that remember where its rows went, in one transaction. So memory is one batch, a run stopped
 * anywhere resumes where its last committed batch ended (a rerun reads every row again but finds the committed ones
 * unchanged), and a second run the night before the switch writes only what changed in MacCMS.
 */

/** The kinds in the order they must run: what a later kind refers to is moved before it. */
export const KINDS = ['type', 'actor', 'vod', 'art', 'user', 'comment', 'gbook', 'link', 'topic'] as const;
/** What `--only` may name: the tables, and `config` for the site settings of `--config`. */
export type KindName = (typeof KINDS)[number] | 'config';
export const ONLY_NAMES: readonly KindName[] = [...KINDS, 'config'];
/** MacCMS tables that have no home here: counted and listed in the report as not moved. */
const NOT_MOVED: Partial<Record<KindName, string>> = { link: 'link_id', topic: 'topic_id' };

export interface MoveOptions {
  db: Db;
  source: Source;
  /** For the report: where the rows came from (the URL without its password). */
  sourceName: string;
  prefix?: string;
  tenant: number;
  dryRun?: boolean;
  only?: readonly KindName[];
  /** Rows per batch (default: each kind's own). */
  batchSize?: number;
  /** Site settings read from maccms.php (php-config.ts siteSettingsOf). */
  settings?: Record<string, string>;
  now?: Date;
  progress?: (line: string) => void;
  /**
   * A kind with a bulk path takes it when its target is empty and its MacCMS table has at least this many rows
   * (default BULK_FROM; tests lower it).
   */
  bulkFrom?: number;
  /** Called before a batch commits (tests: a failure here is a run killed half way). */
  beforeCommit?: (kind: string, batch: number) => void | Promise<void>;
}

/**
 * Below this many rows the bulk path's index builds and count rebuilds cost more than the rows' own checks save; and a
 * small move keeps what committed batches wrote when stopped.
 */
export const BULK_FROM = 10_000;

class DryRunDone extends Error {}
/** What `beforeCommit` threw: the run stops as if killed (tests), never retried row by row. */
class Stopped extends Error {
  constructor(readonly cause: unknown) {
    super('stopped');
  }
}

export async function moveMaccms(o: MoveOptions): Promise<MoveReport> {
  const prefix = checkIdent(o.prefix ?? 'mac_', 'prefix');
  const startedAt = new Date();
  const report: MoveReport = {
    source: o.sourceName,
    tenant: o.tenant,
    dryRun: !!o.dryRun,
    startedAt: startedAt.toISOString(),
    finishedAt: '',
    tables: [],
    settings: {},
  };
  const body = async (db: Executor) => {
    const ctx: Ctx = {
      tenant: o.tenant,
      now: o.now ?? startedAt,
      movieColumns: new Map(),
      novelColumns: new Map(),
      refs: new Map(),
      sourcesCreated: new Set(),
    };
    for (const name of KINDS) {
      const table = `${prefix}${name}`;
      if (o.only && !o.only.includes(name)) continue;
      if (!(await o.source.has(table))) {
        const t = emptyTable(table);
        addLine(t, { id: 0, outcome: 'skipped', reason: 'tableMissing' });
        report.tables.push(t);
        continue;
      }
      const notMovedKey = NOT_MOVED[name];
      if (notMovedKey) {
        const { rows } = await o.source.size(table, notMovedKey);
        const t = emptyTable(table, rows);
        t.skipped = rows;
        addLine(t, { id: 0, outcome: 'skipped', reason: 'noHome', detail: `${rows} rows` });
        report.tables.push(t);
        continue;
      }
      if (name === 'type') report.tables.push(await moveTypes(db, o, table, ctx));
      else {
        if (!ctx.movieColumns.size && !ctx.novelColumns.size) await loadColumns(db, ctx);
        report.tables.push(await moveKind(db, o, table, kindOf(name), ctx));
      }
      if (name === 'vod' && ctx.sourcesCreated.size) {
        const t = report.tables[report.tables.length - 1];
        for (const code of ctx.sourcesCreated)
          addLine(t, { id: 0, outcome: 'note', reason: 'sourceCreated', detail: code });
      }
    }
    if (o.settings && Object.keys(o.settings).length && (!o.only || o.only.includes('config'))) {
      await db.execute(sql`insert into system_settings (tenant, data) values (${o.tenant}, ${JSON.stringify(o.settings)}::jsonb)
        on conflict (tenant) do update set data = system_settings.data || excluded.data,
          version = system_settings.version + 1, updated_at = now()
        where not (system_settings.data @> excluded.data)`);
      report.settings = o.settings;
    }
  };
  if (o.dryRun) {
    // One transaction for the whole dry run, rolled back: later tables see the earlier ones as a real run would.
    try {
      await o.db.transaction(async (tx) => {
        await body(tx);
        throw new DryRunDone();
      });
    } catch (e) {
      if (!(e instanceof DryRunDone)) throw e;
    }
  } else await body(o.db);
  report.finishedAt = new Date().toISOString();
  return report;
}

function kindOf(name: KindName): Kind {
  switch (name) {
    case 'actor':
      return actorKind();
    case 'vod':
      return vodKind();
    case 'art':
      return artKind();
    case 'user':
      return userKind();
    case 'comment':
      return commentKind();
    case 'gbook':
      return gbookKind();
    default:
      throw new Error(`no kind ${name}`);
  }
}

async function loadColumns(db: Executor, ctx: Ctx) {
  const rows = rowsOf<{ maccms_id: number; our_id: number; tree: string }>(
    await db.execute(sql`select m.maccms_id::int, m.our_id, 'movie' as tree from maccms_ids m join movie_columns c on c.id = m.our_id
      where m.tenant = ${ctx.tenant} and m.kind = 'type'
      union all select m.maccms_id::int, m.our_id, 'novel' from maccms_ids m join novel_columns c on c.id = m.our_id
      where m.tenant = ${ctx.tenant} and m.kind = 'type:novel'`),
  );
  for (const r of rows)
    (r.tree === 'movie' ? ctx.movieColumns : ctx.novelColumns).set(Number(r.maccms_id), r.our_id);
}

/** A transaction of one batch: its own, or a savepoint of the dry run's. */
const inTx = <T>(db: Executor, f: (tx: Executor) => Promise<T>) => db.transaction((tx) => f(tx as Executor));

function progressLine(o: MoveOptions, t: TableReport, t0: number) {
  const s = (performance.now() - t0) / 1000;
  o.progress?.(
    `maccms: ${t.table} ${t.read.toLocaleString('en-US')} / ${t.total.toLocaleString('en-US')} rows (${Math.round(t.read / Math.max(s, 0.001)).toLocaleString('en-US')} rows/s)`,
  );
}

/** The columns: a few tens of rows, read at once (bounded), written parents first, one at a time. */
async function moveTypes(db: Executor, o: MoveOptions, table: string, ctx: Ctx): Promise<TableReport> {
  const t0 = performance.now();
  const { rows: total } = await o.source.size(table, 'type_id');
  const t = emptyTable(table, total);
  const kind = typeKind();
  const rows: SourceRow[] = [];
  for (let after = 0; rows.length < 10_000; ) {
    const batch = await o.source.batch(table, 'type_id', after, 1000, kind.columns);
    if (!batch.length) break;
    rows.push(...batch);
    after = Number(batch[batch.length - 1].type_id);
  }
  t.read = rows.length;
  const prepared = rows.map((r) => kind.prepare(r, ctx));
  const byId = new Map(prepared.map((p) => [p.mid, p]));
  const depth = (p: Prepared<any>, seen = new Set<number>()): number => {
    const parent = p.value?.parent ? byId.get(p.value.parent) : undefined;
    if (!parent || seen.has(p.mid)) return 0;
    seen.add(p.mid);
    return 1 + depth(parent, seen);
  };
  prepared.sort((a, b) => depth(a) - depth(b) || a.mid - b.mid);
  await inTx(db, async (tx) => {
    for (const p of prepared) {
      for (const l of p.lines) addLine(t, l);
      if (!p.value) {
        t.skipped++;
        addLine(t, { id: p.mid, outcome: 'skipped', reason: p.skip ?? 'error', detail: p.skipDetail });
        continue;
      }
      const v = p.value;
      const columns = v.tree === 'movie' ? ctx.movieColumns : ctx.novelColumns;
      const tableName = v.tree === 'movie' ? 'movie_columns' : 'novel_columns';
      const mapKind = v.tree === 'movie' ? 'type' : 'type:novel';
      const parentId = v.parent ? (columns.get(v.parent) ?? null) : null;
      const value = { ...v, parentId };
      const digest = digestOf(value);
      const had = (await mapped(tx, ctx.tenant, mapKind, tableName, [p.mid])).get(p.mid);
      if (had && had.digest === digest) {
        columns.set(p.mid, had.ourId);
        t.unchanged++;
        continue;
      }
      let ourId = had?.ourId;
      if (ourId)
        await tx.execute(sql`update ${sql.raw(tableName)} set parent_id = ${parentId}, name = ${v.name}, sort = ${v.sort},
          visible = ${v.visible}, version = version + 1, updated_at = now() where id = ${ourId}`);
      else {
        const same = rowsOf<{ id: number }>(
          await tx.execute(
            sql`select id from ${sql.raw(tableName)} where parent_id is not distinct from ${parentId} and name = ${v.name}`,
          ),
        )[0];
        if (same) {
          ourId = same.id;
          addLine(t, { id: p.mid, outcome: 'note', reason: 'duplicateName', detail: v.name });
        } else
          ourId = rowsOf<{ id: number }>(
            await tx.execute(sql`insert into ${sql.raw(tableName)} (parent_id, name, sort, visible)
              values (${parentId}, ${v.name}, ${v.sort}, ${v.visible}) returning id`),
          )[0].id;
      }
      if (had) t.updated++;
      else t.created++;
      columns.set(p.mid, ourId);
      await remember(tx, ctx.tenant, mapKind, [{ mid: p.mid, ourId, digest }]);
    }
    await o.beforeCommit?.('type', 0);
  });
  t.seconds = (performance.now() - t0) / 1000;
  progressLine(o, t, t0);
  return t;
}

/**
 * A kind's rows in batches. The first move of many rows into an empty target takes the kind's bulk path: all its
 * batches in one transaction (each batch a savepoint, so a refused row still costs only itself) with the target's
 * indexes, keys and count triggers set aside and rebuilt once at the end. Stopped anywhere, it leaves nothing and the
 * next run starts it again from an empty target; the ordinary path commits each batch and resumes after the last.
 */
async function moveKind(
  db: Executor,
  o: MoveOptions,
  table: string,
  kind: Kind,
  ctx: Ctx,
): Promise<TableReport> {
  const { rows: total } = await o.source.size(table, kind.pk);
  const bulk = kind.bulk;
  if (
    bulk &&
    !o.dryRun &&
    total >= (o.bulkFrom ?? BULK_FROM) &&
    !rowsOf(await db.execute(sql`select 1 from ${sql.raw(`"${kind.target}"`)} limit 1`)).length
  )
    return inTx(db, async (tx) => {
      const t0 = performance.now();
      const restore = await loosenTables(tx, bulk.tables, bulk.triggers);
      await forget(tx, ctx.tenant, kind.kind);
      const owned = await Promise.all(
        (bulk.ownIds ?? []).map(async (t) => [t, await ownIds(tx, t)] as const),
      );
      ctx.ownIds = new Map(owned.map(([name, ids]) => [name, ids.take]));
      let t: TableReport;
      try {
        t = await moveBatches(tx, o, table, kind, ctx, total, o.batchSize ?? bulk.batch, true);
      } finally {
        ctx.ownIds = undefined;
      }
      o.progress?.(`maccms: ${table} indexes, keys and counts`);
      for (const [, ids] of owned) await ids.done();
      await restore();
      await bulk.finish(tx);
      t.seconds = (performance.now() - t0) / 1000;
      return t;
    });
  return moveBatches(db, o, table, kind, ctx, total, o.batchSize ?? kind.batch, false);
}

function prepared(kind: Kind, row: SourceRow, ctx: Ctx) {
  const p = kind.prepare(row, ctx);
  return { p, digest: p.value ? digestOf(p.value) : '' };
}

/** Rows prepared between the statements of the batch being written: a slice at a time, so each can go out in turn. */
async function prepareAhead(kind: Kind, rows: SourceRow[], ctx: Ctx) {
  const out = new Map<number, ReturnType<typeof prepared>>();
  for (let i = 0; i < rows.length; i++) {
    out.set(Number(rows[i][kind.pk]), prepared(kind, rows[i], ctx));
    if (i % 50 === 49) await new Promise((r) => setImmediate(r));
  }
  return out;
}

/** `emptyTarget`: the target was empty when the move began (bulk path), so no row of this table is mapped yet. */
async function moveBatches(
  db: Executor,
  o: MoveOptions,
  table: string,
  kind: Kind,
  ctx: Ctx,
  total: number,
  size: number,
  emptyTarget: boolean,
): Promise<TableReport> {
  const t0 = performance.now();
  const t = emptyTable(table, total);
  let lastShown = 0;
  // The next batch is read from MacCMS, and prepared where that needs nothing of the database, while this one is
  // written (one batch ahead: memory stays two batches). PostgreSQL works on this batch's statements meanwhile.
  const readAhead = (after: number) => {
    const rows = o.source.batch(table, kind.pk, after, size, kind.columns);
    const ready = kind.refs ? rows.then(() => undefined) : rows.then((r) => prepareAhead(kind, r, ctx));
    ready.catch(() => {}); // awaited on the next turn; a write failing first must not leave it unhandled
    return { rows, ready };
  };
  let next = readAhead(0);
  for (let batchNo = 0; ; batchNo++) {
    const rows = await next.rows;
    const ready = await next.ready;
    if (!rows.length) break;
    next = readAhead(Number(rows[rows.length - 1][kind.pk]));
    t.read += rows.length;
    const write = (rows: SourceRow[]) =>
      inTx(db, async (tx) => {
        const c = {
          created: 0,
          updated: 0,
          unchanged: 0,
          skipped: 0,
          lines: [] as Parameters<typeof addLine>[1][],
        };
        const mids = rows.map((r) => Number(r[kind.pk]));
        const own = emptyTarget
          ? new Map<number, { ourId: number; digest: string }>()
          : await mapped(tx, ctx.tenant, kind.kind, kind.target, mids);
        // New rows get their ids before they are prepared, so a reply can name a parent of its own batch.
        const fresh = mids.filter((m) => !own.has(m));
        const freshIds = await takeIds(tx, kind.target, fresh.length);
        const ids = new Map<number, number>([...own].map(([m, v]) => [m, v.ourId]));
        fresh.forEach((m, i) => {
          ids.set(m, freshIds[i]);
        });
        ctx.refs = new Map();
        for (const [refKind, ref] of Object.entries(kind.refs?.(rows) ?? {})) {
          const found = await mapped(tx, ctx.tenant, refKind, ref.table, [...new Set(ref.ids)]);
          ctx.refs.set(refKind, new Map([...found].map(([m, v]) => [m, v.ourId])));
        }
        const self = ctx.refs.get(kind.kind);
        const skippedHere = new Set<number>();
        const news: { value: unknown; ourId: number; mid: number; digest: string }[] = [];
        const changed: typeof news = [];
        for (const row of rows) {
          const mid = Number(row[kind.pk]);
          if (self) {
            // Earlier rows of this batch (already prepared) are parents a reply may name; a skipped one is not.
            for (const n of news) self.set(n.mid, n.ourId);
            for (const n of changed) self.set(n.mid, n.ourId);
            for (const s of skippedHere) self.delete(s);
          }
          const { p, digest } = ready?.get(mid) ?? prepared(kind, row, ctx);
          c.lines.push(...p.lines);
          if (!p.value) {
            c.skipped++;
            skippedHere.add(mid);
            c.lines.push({ id: mid, outcome: 'skipped', reason: p.skip ?? 'error', detail: p.skipDetail });
            continue;
          }
          const had = own.get(mid);
          const ourId = ids.get(mid) as number;
          if (had?.digest === digest) c.unchanged++;
          else (had ? changed : news).push({ value: p.value, ourId, mid, digest });
        }
        const refused =
          (await kind.conflicts?.(tx, [...news, ...changed], ctx, c.lines)) ?? new Map<number, string>();
        for (const [mid, reason] of refused) {
          c.skipped++;
          c.lines.push({ id: mid, outcome: 'skipped', reason });
        }
        if (refused.size) {
          const keep = (x: { mid: number }) => !refused.has(x.mid);
          news.splice(0, news.length, ...news.filter(keep));
          changed.splice(0, changed.length, ...changed.filter(keep));
        }
        if (news.length) await kind.insert(tx, news, ctx);
        if (changed.length) await kind.update(tx, changed, ctx);
        await remember(tx, ctx.tenant, kind.kind, [...news, ...changed], emptyTarget);
        c.created = news.length;
        c.updated = changed.length;
        try {
          await o.beforeCommit?.(kind.kind, batchNo);
        } catch (e) {
          throw new Stopped(e);
        }
        return c;
      });
    let counts: Awaited<ReturnType<typeof write>>;
    try {
      counts = await write(rows);
    } catch (e) {
      if (e instanceof Stopped) throw e.cause;
      if (rows.length === 1) throw e;
      // One row the database refuses must not stop the move nor take its batch with it: the batch is written again
      // a row at a time, and each row that still fails is counted and named with the database's reason.
      counts = { created: 0, updated: 0, unchanged: 0, skipped: 0, lines: [] };
      for (const row of rows) {
        try {
          const one = await write([row]);
          counts.created += one.created;
          counts.updated += one.updated;
          counts.unchanged += one.unchanged;
          counts.skipped += one.skipped;
          counts.lines.push(...one.lines);
        } catch (err) {
          if (err instanceof Stopped) throw err.cause;
          t.failed++;
          const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
          counts.lines.push({
            id: Number(row[kind.pk]),
            outcome: 'failed',
            reason: 'error',
            detail: cause.slice(0, 300),
          });
        }
      }
    }
    t.created += counts.created;
    t.updated += counts.updated;
    t.unchanged += counts.unchanged;
    t.skipped += counts.skipped;
    for (const l of counts.lines) addLine(t, l);
    if (performance.now() - lastShown > 1000) {
      lastShown = performance.now();
      progressLine(o, t, t0);
    }
  }
  t.seconds = (performance.now() - t0) / 1000;
  progressLine(o, t, t0);
  return t;
}
