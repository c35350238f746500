import { sql } from 'drizzle-orm';
import { arrayParam } from '../../db/array-literal';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';
import { estimateStored, mergeStored, sameBytes, storedSketch } from './sketch';

/**
 * Pre-merged sketches over aligned blocks of days, for domains (`stat_domain_blocks`) and the agents' channels
 * (`stat_attributed_block_sketches`): level L holds the register-wise maximum of the daily sketches of 2^L consecutive
 * days starting on a day number (days since 1970-01-01) divisible by 2^L. A period is covered by its largest aligned
 * blocks (`cover`): about 2·log2(days) pieces, level 0 being the daily rows.
 *
 * A channel's day can shrink when rolled up again (a domain bound to another channel meanwhile), so nothing is folded
 * in: after a day is rolled up, each block holding it is computed again from the two halves below it (level 1 from
 * the daily rows), bottom-up, which leaves every block equal to its days whatever changed.
 */
export const MAX_LEVEL = 8; // 256 days

const DAY_MS = 86_400_000;
export const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
const dayOfNumber = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

/** The first day of the level-`level` block holding `day`. */
export const blockStart = (day: string, level: number) => {
  const n = dayNumber(day);
  return dayOfNumber(n - (((n % 2 ** level) + 2 ** level) % 2 ** level));
};

/** The start of the other half of the level-`level + 1` block holding the level-`level` block at `start`. */
export const sibling = (start: string, level: number) => dayOfNumber(dayNumber(start) ^ (1 << level));

/** The aligned blocks covering from..to exactly, largest first where they fit. */
export function cover(from: string, to: string): { level: number; start: string }[] {
  const out: { level: number; start: string }[] = [];
  const end = dayNumber(to);
  for (let d = dayNumber(from); d <= end; ) {
    let level = MAX_LEVEL;
    while (level > 0 && (d % 2 ** level !== 0 || d + 2 ** level - 1 > end)) level--;
    out.push({ level, start: dayOfNumber(d) });
    d += 2 ** level;
  }
  return out;
}

/** Blocks as a SQL list of `(level, start)` rows, for `(level, start) in (…)`. */
export const blockPairs = (list: { level: number; start: string }[]) =>
  sql.join(
    list.map((p) => sql`(${p.level}, ${p.start}::date)`),
    sql`, `,
  );

/** A table of blocks and the daily table whose `visitors` and `addresses` sketches it merges, per `key`. */
interface SketchBlocks {
  daily: string;
  blocks: string;
  key: string;
  /** Whether the daily rows keep their sketches' estimates (`visitors_n`, `addresses_n`), written here. */
  estimates?: boolean;
}
const DOMAIN_BLOCKS: SketchBlocks = {
  daily: 'stat_domain_daily',
  blocks: 'stat_domain_blocks',
  key: 'domain',
  estimates: true,
};
export const CHANNEL_BLOCKS: SketchBlocks = {
  daily: 'stat_attributed_daily',
  blocks: 'stat_attributed_block_sketches',
  key: 'channel',
};

/**
 * Keys folded at once: each reads up to two daily rows and 15 blocks of two sketches of up to 16 KB, and writes up to
 * MAX_LEVEL rows of six parameters, so a chunk stays far below PostgreSQL's 65,535 bind parameters and its memory
 * does not grow with the number of keys a day has.
 */
export const FOLD_KEYS = 100;

type Pair = { v: Uint8Array; a: Uint8Array };
const NONE = new Uint8Array(0);

/**
 * After `day` of `t.daily` is rolled up (in the same transaction): the chain of blocks holding it, for every key of
 * the day or of those blocks, or for `keys` alone (the keys whose daily sketches this rollup changed: the others'
 * blocks stand), `FOLD_KEYS` keys at a time. The keys are listed once (a day's keys are a few strings each, however
 * many its visitors); listing each chunk's in SQL sorted the day's and its blocks' keys again per chunk.
 */
export async function foldSketchBlocks(
  tx: Executor,
  t: SketchBlocks,
  tenant: number,
  day: string,
  keys?: readonly string[],
) {
  const chain = Array.from({ length: MAX_LEVEL }, (_, i) => ({
    level: i + 1,
    start: blockStart(day, i + 1),
  }));
  const key = sql.raw(t.key);
  const all =
    keys ??
    rowsOf<{ key: string }>(
      await tx.execute(sql`select ${key} as key from ${sql.raw(t.daily)} where tenant = ${tenant} and day = ${day}::date
        union select ${key} from ${sql.raw(t.blocks)} where tenant = ${tenant} and (level, start) in (${blockPairs(chain)})`),
    ).map((r) => String(r.key));
  // Sorted: a day's keys are folded in the same chunks on every run.
  const sorted = [...all].sort();
  for (let i = 0; i < sorted.length; i += FOLD_KEYS)
    await foldKeys(tx, t, tenant, day, chain, sorted.slice(i, i + FOLD_KEYS));
  // Only a day read whole can lose a key (a sketch only grows as batches are folded in).
  if (keys === undefined)
    await tx.execute(sql`delete from ${sql.raw(t.blocks)} where tenant = ${tenant}
      and (level, start) in (${blockPairs(chain)}) and visitors = ''::bytea and addresses = ''::bytea`);
}

async function foldKeys(
  tx: Executor,
  t: SketchBlocks,
  tenant: number,
  day: string,
  chain: { level: number; start: string }[],
  keys: string[],
) {
  const key = sql.raw(t.key);
  const keyList = arrayParam(keys);
  const beside = chain.slice(0, -1).map((b) => ({ level: b.level, start: sibling(b.start, b.level) }));
  const pairs = [...beside, ...chain];
  // Each row looked up by its whole key, one at a time (a lateral subquery the planner does not flatten: `offset 0`,
  // `for update`): with `day in (…) and key = any(…)` it chose to walk every key of the tenant's days or blocks for
  // each chunk (a table written in this transaction looks empty to it), 200 chunks × 20,000 rows on a busy first day.
  const rows = rowsOf<{ key: string; level: number; start: string; visitors: unknown; addresses: unknown }>(
    await tx.execute(sql`select k.key, 0 as level, x.start, x.visitors, x.addresses
      from unnest(${keyList}::text[]) k(key)
      cross join unnest(array[${day}::date, ${sibling(day, 0)}::date]) p(day)
      cross join lateral (select day::text as start, visitors, addresses from ${sql.raw(t.daily)}
        where tenant = ${tenant} and day = p.day and ${key} = k.key offset 0) x
      union all
      select k.key, x.level, x.start, x.visitors, x.addresses
      from unnest(${keyList}::text[]) k(key)
      cross join unnest(${arrayParam(pairs.map((b) => b.level))}::int2[], ${arrayParam(pairs.map((b) => b.start))}::date[]) p(level, start)
      cross join lateral (select level, start::text as start, visitors, addresses from ${sql.raw(t.blocks)}
        where tenant = ${tenant} and level = p.level and start = p.start and ${key} = k.key for update) x`),
  );
  const byKey = new Map<string, Map<string, Pair>>();
  for (const r of rows) {
    const m = byKey.get(r.key) ?? new Map<string, Pair>();
    byKey.set(r.key, m);
    m.set(`${Number(r.level)}|${String(r.start).slice(0, 10)}`, {
      v: storedSketch(r.visitors) ?? NONE,
      a: storedSketch(r.addresses) ?? NONE,
    });
  }
  const values = [];
  const estimates: { key: string; v: number; a: number }[] = [];
  for (const [k, m] of byKey) {
    const own = m.get(`0|${day}`);
    if (own && t.estimates)
      estimates.push({ key: k, v: estimateStored([own.v]), a: estimateStored([own.a]) });
    let v = own?.v ?? NONE;
    let a = own?.a ?? NONE;
    for (const b of chain) {
      const half = m.get(
        b.level === 1 ? `0|${sibling(day, 0)}` : `${b.level - 1}|${beside[b.level - 2].start}`,
      );
      v = mergeStored(v, half?.v);
      a = mergeStored(a, half?.a);
      // Written only when it changed (a run of returning visitors leaves the blocks as they were).
      const was = m.get(`${b.level}|${b.start}`);
      if (was ? !sameBytes(was.v, v) || !sameBytes(was.a, a) : v.length || a.length)
        values.push(sql`(${tenant}, ${k}, ${b.level}, ${b.start}::date, ${v}, ${a})`);
    }
  }
  // An upsert of rows that exist: it finds each by its key, as the lookups above.
  if (estimates.length)
    await tx.execute(sql`insert into ${sql.raw(t.daily)} (tenant, day, ${key}, visitors_n, addresses_n)
      select ${tenant}, ${day}::date, x.key, x.v, x.a
      from unnest(${arrayParam(estimates.map((e) => e.key))}::text[], ${arrayParam(estimates.map((e) => e.v))}::int[],
        ${arrayParam(estimates.map((e) => e.a))}::int[]) as x(key, v, a)
      on conflict (tenant, day, ${key}) do update set visitors_n = excluded.visitors_n, addresses_n = excluded.addresses_n`);
  if (values.length)
    await tx.execute(sql`insert into ${sql.raw(t.blocks)} (tenant, ${key}, level, start, visitors, addresses)
      values ${sql.join(values, sql`, `)}
      on conflict (tenant, level, start, ${key}) do update set visitors = excluded.visitors, addresses = excluded.addresses`);
}

/**
 * After a day of `stat_domain_daily` is rolled up: its rows' estimates and the blocks holding it, of every domain or of
 * `domains` alone (those whose sketches changed).
 */
export const foldDomainDay = (tx: Executor, tenant: number, day: string, domains?: readonly string[]) =>
  foldSketchBlocks(tx, DOMAIN_BLOCKS, tenant, day, domains);
