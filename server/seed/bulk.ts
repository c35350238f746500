import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { rowsOf } from '../db/migrate';
import { schema } from '../db/schema';
import type { Db, Executor } from '../db/types';
import {
  generateMovies,
  linkRowsOf,
  movieColumnsOf,
  SEED_NOW,
  type SeededMovie,
  type SeedMoviesOptions,
  seedTaxonomy,
} from './movies';

/**
 * The bulk seeder (benchmarks): the movies `seedMovies` writes (same generator, same row mapping), a million of
 * them in a minute or two. Node only (it drives the drivers directly), so it is not imported by `seed/index.ts`,
 * which demo mode bundles.
 *
 * One transaction: the secondary indexes and foreign keys of the four movie tables are dropped, the count triggers
 * that `zg_movie_counts_rebuild()` recomputes are disabled, the rows go in by COPY in batches with explicit ids,
 * then the indexes and keys come back (one sort per index, one anti-join per key instead of a check per row), the
 * counts are recomputed in one statement each and the triggers re-enabled. A failure rolls all of it back.
 * `title_grams` is a generated column: PostgreSQL computes it during the COPY exactly as on any insert.
 */

const TABLES = ['movies', 'movie_tag_links', 'movie_actresses', 'movie_plays'];
/** The trigger functions whose counts `zg_movie_counts_rebuild()` recomputes. */
const REBUILT_COUNTS = [
  'zg_movie_column_counts',
  'zg_movie_tag_counts',
  'zg_movie_counts',
  'zg_movie_delete_counts',
  'zg_movie_tag_link_counts',
  'zg_movie_gram_counts',
  'zg_movie_search_counts',
  'zg_movie_count_weeks',
];

/** The raw connection under a Drizzle handle: queries, COPY and a Drizzle handle on the same connection. */
interface Raw {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  copy(table: string, columns: string[], data: string): Promise<void>;
  db: Executor;
  release(): void;
}

/** node-postgres: a COPY FROM STDIN as a "submittable" query (what pg-copy-streams does, in a few lines). */
class CopyFrom {
  callback?: (err: Error | null) => void;
  private error: Error | null = null;
  constructor(
    readonly text: string,
    private readonly data: Buffer,
  ) {}
  submit(connection: any) {
    connection.query(this.text);
  }
  handleCopyInResponse(connection: any) {
    const chunk = 1 << 20;
    for (let i = 0; i < this.data.length; i += chunk)
      connection.sendCopyFromChunk(this.data.subarray(i, i + chunk));
    connection.endCopyFrom();
  }
  handleError(err: Error) {
    this.error ??= err;
  }
  handleReadyForQuery() {
    this.callback?.(this.error);
  }
  handleCommandComplete() {}
  handleEmptyQuery() {}
  handleRowDescription() {}
  handleDataRow() {}
  handleCopyData() {}
}

async function rawOf(db: Db): Promise<Raw> {
  const client = (db as any).$client;
  if (typeof client?.dumpDataDir === 'function') {
    // PGlite: one connection; COPY reads a blob through the virtual file /dev/blob.
    return {
      query: async (text, params) => (await client.query(text, params)).rows,
      copy: async (table, columns, data) => {
        await client.query(`copy ${table} (${columns.join(', ')}) from '/dev/blob'`, [], {
          blob: new Blob([data]),
        });
      },
      db,
      release: () => {},
    };
  }
  // node-postgres: a dedicated client out of the pool (or the client itself).
  const conn = typeof client.totalCount === 'number' ? await client.connect() : client;
  return {
    query: async (text, params) => (await conn.query(text, params)).rows,
    copy: (table, columns, data) =>
      new Promise<void>((resolve, reject) => {
        const q = new CopyFrom(`copy ${table} (${columns.join(', ')}) from stdin`, Buffer.from(data));
        q.callback = (err) => (err ? reject(err) : resolve());
        conn.query(q);
      }),
    db: drizzlePg(conn, { schema }) as unknown as Executor,
    release: () => conn.release?.(),
  };
}

/** A value in COPY's text format. */
function copyValue(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'boolean') return v ? 't' : 'f';
  if (typeof v === 'number') return String(v);
  return String(v).replace(
    /[\\\t\n\r]/g,
    (ch) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[ch]!,
  );
}
const copyText = (rows: unknown[][]) => rows.map((r) => `${r.map(copyValue).join('\t')}\n`).join('');

export interface BulkSeedResult {
  seeded: number;
  /** Milliseconds per phase: rows (COPY), indexes, keys, counts, vacuum. */
  ms: Record<string, number>;
}

/** Seeds `movies` movies and their taxonomy into an empty database (does nothing when movies exist). */
export async function bulkSeedMovies(
  db: Db,
  options: SeedMoviesOptions & { onProgress?: (done: number, total: number) => void } = {},
): Promise<BulkSeedResult> {
  const total = options.movies ?? 200;
  const ms: Record<string, number> = {};
  let t = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    ms[name] = Math.round(now - t);
    t = now;
  };
  const raw = await rawOf(db);
  let seeded = 0;
  try {
    const [{ n }] = await raw.query<{ n: number }>('select count(*)::int as n from movies');
    if (n > 0) return { seeded: 0, ms };
    await raw.query('begin');
    try {
      await raw.query(`set local maintenance_work_mem = '256MB'`);
      const taxonomy = await seedTaxonomy(raw.db, options.actressIds);
      const tables = `array[${TABLES.map((name) => `'${name}'::regclass`).join(', ')}]`;
      const indexes = await raw.query<{ name: string; def: string }>(`
        select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def from pg_index i
        where i.indrelid = any(${tables})
          and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
        order by 1`);
      const keys = await raw.query<{ table: string; name: string; def: string }>(`
        select conrelid::regclass::text as table, conname as name, pg_get_constraintdef(oid) as def
        from pg_constraint where contype = 'f' and conrelid = any(${tables}) order by 1, 2`);
      const triggers = await raw.query<{ table: string; name: string }>(
        `
        select t.tgrelid::regclass::text as table, t.tgname as name from pg_trigger t join pg_proc p on p.oid = t.tgfoid
        where not t.tgisinternal and t.tgrelid = any(${tables}) and p.proname = any($1) order by 1, 2`,
        [REBUILT_COUNTS],
      );
      for (const i of indexes) await raw.query(`drop index ${i.name}`);
      for (const k of keys) await raw.query(`alter table ${k.table} drop constraint ${k.name}`);
      for (const g of triggers) await raw.query(`alter table ${g.table} disable trigger ${g.name}`);

      const columns = movieColumnsOf(taxonomy, options.reviewer ?? null);
      const movieNames = ['id', ...columns.map(([name]) => name)];
      const batchSize = options.batchSize ?? 50_000;
      let playId = 0;
      let batch: SeededMovie[] = [];
      const flush = async () => {
        if (!batch.length) return;
        const ids = batch.map((_, i) => seeded + i + 1);
        await raw.copy(
          'movies',
          movieNames,
          copyText(batch.map((m, i) => [ids[i], ...columns.map(([, , v]) => v(m))])),
        );
        const links = linkRowsOf(taxonomy, batch, ids);
        if (links.tags.length)
          await raw.copy('movie_tag_links', ['movie_id', 'tag_id'], copyText(links.tags));
        if (links.actresses.length)
          await raw.copy('movie_actresses', ['movie_id', 'actress_id'], copyText(links.actresses));
        await raw.copy(
          'movie_plays',
          ['id', 'movie_id', 'source_id', 'path', 'line'],
          copyText(links.plays.map((p) => [++playId, ...p])),
        );
        seeded += batch.length;
        batch = [];
        options.onProgress?.(seeded, total);
      };
      for (const m of generateMovies(options.seed ?? 42, total, options.now ?? SEED_NOW)) {
        batch.push(m);
        if (batch.length >= batchSize) await flush();
      }
      await flush();
      for (const table of ['movies', 'movie_plays'])
        await raw.query(
          `select setval(pg_get_serial_sequence('${table}', 'id'), greatest((select max(id) from ${table}), 1))`,
        );
      lap('rows');
      for (const i of indexes) await raw.query(i.def);
      lap('indexes');
      for (const k of keys) await raw.query(`alter table ${k.table} add constraint ${k.name} ${k.def}`);
      lap('keys');
      for (const g of triggers) await raw.query(`alter table ${g.table} enable trigger ${g.name}`);
      await raw.query('select zg_movie_counts_rebuild()');
      lap('counts');
      await raw.query('commit');
    } catch (err) {
      await raw.query('rollback').catch(() => {});
      throw err;
    }
    await raw.query(
      `vacuum analyze ${[...TABLES, 'movie_counts', 'movie_gram_counts', 'movie_search_counts', 'movie_search_weeks', 'movie_count_weeks', 'movie_columns', 'movie_tags'].join(', ')}`,
    );
    lap('vacuum');
    return { seeded, ms };
  } finally {
    raw.release();
  }
}

/** Used by tests: the counts the triggers keep, beside the same counts recomputed from the rows (should be equal). */
export async function countDrift(db: Executor) {
  return rowsOf<{ what: string; stored: number; real: number }>(
    await db.execute(sql`
      with real as (
        select 'all' as dim, 0 as key, status, count(*)::int as n from movies group by status
        union all select 'column', column_id, status, count(*)::int from movies where column_id is not null group by column_id, status
        union all select 'platform', p, status, count(*)::int
          from (select distinct id, status, p from movies, unnest(platforms) as p) as x group by p, status
        union all select 'tag', l.tag_id, m.status, count(*)::int
          from movie_tag_links l join movies m on m.id = l.movie_id group by l.tag_id, m.status
        union all select 'free', free::int, status, count(*)::int from movies group by free, status
        union all select 'recommended', recommended::int, status, count(*)::int from movies group by recommended, status
      )
      select concat_ws(' ', coalesce(c.dim, r.dim), coalesce(c.key, r.key), coalesce(c.status, r.status)) as what,
        coalesce(c.n, 0) as stored, coalesce(r.n, 0) as real
      from movie_counts c full join real r on r.dim = c.dim and r.key = c.key and r.status = c.status
      where coalesce(c.n, 0) <> coalesce(r.n, 0)
      union all
      select concat_ws(' ', 'gram', coalesce(c.gram, r.gram), coalesce(c.status, r.status), coalesce(c.column_id, r.column_id)),
        coalesce(c.n, 0), coalesce(r.n, 0)
      from movie_gram_counts c
      full join (select g as gram, status, coalesce(column_id, 0) as column_id, count(*)::int as n
          from movies, unnest(title_grams) as g group by 1, 2, 3) r
        on r.gram = c.gram and r.status = c.status and r.column_id = c.column_id
      where coalesce(c.n, 0) <> coalesce(r.n, 0)
      union all
      select concat_ws(' ', 'term', coalesce(c.term, r.term), coalesce(c.status, r.status), coalesce(c.column_id, r.column_id)),
        coalesce(c.n, 0), coalesce(r.n, 0)
      from movie_search_counts c
      full join (select t.term, m.status, coalesce(m.column_id, 0) as column_id, count(*)::int as n
          from movie_search_terms t join movies m on strpos(lower(m.title), t.term) > 0 group by 1, 2, 3) r
        on r.term = c.term and r.status = c.status and r.column_id = c.column_id
      where coalesce(c.n, 0) <> coalesce(r.n, 0)
      union all
      select concat_ws(' ', 'term week', coalesce(c.term, r.term), coalesce(c.sort, r.sort), coalesce(c.status, r.status), coalesce(c.week, r.week)),
        coalesce(c.n, 0), coalesce(r.n, 0)
      from movie_search_weeks c
      full join (select t.term, s.sort, m.status, date_trunc('week', s.at at time zone 'UTC')::date as week, count(*)::int as n
          from movie_search_terms t join movies m on strpos(lower(m.title), t.term) > 0
          cross join lateral (values ('created', m.created_at), ('published', m.published_at)) as s(sort, at)
          where s.at is not null group by 1, 2, 3, 4) r
        on r.term = c.term and r.sort = c.sort and r.status = c.status and r.week = c.week
      where coalesce(c.n, 0) <> coalesce(r.n, 0)
      union all
      select concat_ws(' ', 'week', coalesce(c.dim, r.dim), coalesce(c.key, r.key), coalesce(c.status, r.status),
          coalesce(c.sort, r.sort), coalesce(c.week, r.week)),
        coalesce(c.n, 0), coalesce(r.n, 0)
      from movie_count_weeks c
      full join (select k.dim, k.key, m.status, s.sort, date_trunc('week', s.at at time zone 'UTC')::date as week,
            count(*)::int as n
          from movies m
          cross join lateral (
            select 'all' as dim, 0 as key
            union all select 'column', m.column_id where m.column_id is not null
            union all select 'tag', l.tag_id from movie_tag_links l where l.movie_id = m.id
            union all (select distinct 'platform', p from unnest(m.platforms) as p)
            union all select 'free', m.free::int
            union all select 'recommended', m.recommended::int
          ) as k
          cross join lateral (values ('created', m.created_at), ('published', m.published_at)) as s(sort, at)
          where s.at is not null group by 1, 2, 3, 4, 5) r
        on r.dim = c.dim and r.key = c.key and r.status = c.status and r.sort = c.sort and r.week = c.week
      where coalesce(c.n, 0) <> coalesce(r.n, 0)
      union all
      select concat_ws(' ', 'match', coalesce(c.term, r.term), coalesce(c.status, r.status), coalesce(c.id, r.id),
          coalesce(c.at, r.at)),
        coalesce(c.n, 0), coalesce(r.n, 0)
      from (select term, status, id, published_at::text as at, n from movie_search_matches where n <> 0) c
      full join (select t.term, m.status, m.id, m.published_at::text as at, 1 as n
          from movie_search_listed t join movies m on strpos(lower(m.title), t.term) > 0) r
        on r.term = c.term and r.status = c.status and r.id = c.id and coalesce(r.at, '') = coalesce(c.at, '')
      where coalesce(c.n, 0) <> coalesce(r.n, 0)
      union all
      select concat('item_count column ', c.id), c.item_count, (select count(*)::int from movies m where m.column_id = c.id)
      from movie_columns c where c.item_count <> (select count(*) from movies m where m.column_id = c.id)
      union all
      select concat('item_count tag ', t.id), t.item_count, (select count(*)::int from movie_tag_links l where l.tag_id = t.id)
      from movie_tags t where t.item_count <> (select count(*) from movie_tag_links l where l.tag_id = t.id)
      order by 1`),
  );
}
