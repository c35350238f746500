import { type SQL, sql } from 'drizzle-orm';
import { addDays } from '../../../common/period';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';
import { blockStart, dayNumber, dayOfNumber, MAX_LEVEL } from './blocks';
import { mergeStored, sameBytes, storedSketch } from './sketch';

/**
 * The attributed figures over aligned blocks, for the agents' stat: `stat_attributed_blocks` holds, per channel and
 * block of 2^level days (blocks.ts), the sums of `stat_attributed_daily` over the block's days,
 * `stat_attributed_block_sketches` the register-wise maximum of their sketches (`mergeStored`);
 * `stat_attributed_totals` each day's sums over every channel but ''.
 *
 * Unlike a domain's, a channel's day can shrink when rolled up again (a domain bound to another channel meanwhile, a
 * conversion credited elsewhere), and the rollup of a day also rewrites the idle and retained counts of the seven days
 * before it. So nothing is folded in: each block holding a changed day is computed again from the two halves below
 * it (level 1 from the daily rows), bottom-up, which leaves every block equal to its days whatever changed, and a day
 * rolled up twice writes the same values twice.
 */

/** The figures of `stat_attributed_daily` that the blocks sum (the agents' stat reads them the same way). */
export const ATTRIBUTED_SUMS = [
  'page_views',
  'signups',
  'payers',
  'recharges',
  'recharge_amount',
  'shared_address',
  'shared_device',
  'idle',
  'retained',
] as const;

/** The start of the other half of the level-`level + 1` block holding the level-`level` block at `start`. */
const sibling = (start: string, level: number) => dayOfNumber(dayNumber(start) ^ (1 << level));

/** Blocks as a SQL list of `(level, start)` rows, for `(level, start) in (…)`. */
export const blockPairs = (list: { level: number; start: string }[]) =>
  sql.join(
    list.map((p) => sql`(${p.level}, ${p.start}::date)`),
    sql`, `,
  );

/**
 * After the attribution rollup of `day` (in the same transaction): the day's totals row, the sums of every block
 * holding `day` or one of the `RETURN_DAYS` before it, and the sketches of every block holding `day`.
 */
export async function foldAttributedDay(tx: Executor, tenant: number, day: string, daysBefore: number) {
  const d = sql`${day}::date`;
  await tx.execute(sql`delete from stat_attributed_totals where tenant = ${tenant} and day = ${d}`);
  await tx.execute(sql`insert into stat_attributed_totals (tenant, day, page_views, signups, payers, recharges, recharge_amount)
    select ${tenant}, ${d}, sum(page_views), sum(signups), sum(payers), sum(recharges), sum(recharge_amount)
    from stat_attributed_daily where tenant = ${tenant} and day = ${d} and channel <> '' having count(*) > 0`);

  // Sums, level by level: each block again from its two halves; a channel gone from all of them is left at zeros.
  const changed = Array.from({ length: daysBefore + 1 }, (_, k) => addDays(day, -k));
  const sums = sql.raw(ATTRIBUTED_SUMS.map((c) => `sum(${c}) as ${c}`).join(', '));
  const cols = sql.raw(ATTRIBUTED_SUMS.join(', '));
  for (let level = 1; level <= MAX_LEVEL; level++) {
    const starts = [...new Set(changed.map((x) => blockStart(x, level)))];
    const halves = starts.flatMap((s) => [s, sibling(s, level - 1)]);
    const kids: SQL =
      level === 1
        ? sql`select channel, day as at, ${cols} from stat_attributed_daily where tenant = ${tenant}
            and day in (${sql.join(
              halves.map((h) => sql`${h}::date`),
              sql`, `,
            )})`
        : sql`select channel, start as at, ${cols} from stat_attributed_blocks where tenant = ${tenant}
            and (level, start) in (${blockPairs(halves.map((h) => ({ level: level - 1, start: h })))})`;
    await tx.execute(sql`with k as (${kids}),
      agg as (select channel, date '1970-01-01' + ((at - date '1970-01-01') >> ${level}::int << ${level}::int) as b,
        ${sums} from k group by 1, 2),
      gone as (update stat_attributed_blocks z set ${sql.raw(ATTRIBUTED_SUMS.map((c) => `${c} = 0`).join(', '))}
        where z.tenant = ${tenant} and (z.level, z.start) in (${blockPairs(starts.map((s) => ({ level, start: s })))})
          and not exists (select 1 from agg where agg.channel = z.channel and agg.b = z.start))
      insert into stat_attributed_blocks (tenant, channel, level, start, ${cols})
      select ${tenant}, channel, ${level}, b, ${cols} from agg
      on conflict (tenant, level, start, channel) do update set ${sql.raw(
        ATTRIBUTED_SUMS.map((c) => `${c} = excluded.${c}`).join(', '),
      )}`);
  }

  // Sketches: only `day`'s changed. Its chain (the block of each level holding it) from the halves beside it.
  const chain = Array.from({ length: MAX_LEVEL }, (_, i) => ({
    level: i + 1,
    start: blockStart(day, i + 1),
  }));
  const beside = chain.slice(0, -1).map((b) => ({ level: b.level, start: sibling(b.start, b.level) }));
  const rows = rowsOf<{
    channel: string;
    level: number;
    start: string;
    visitors: unknown;
    addresses: unknown;
  }>(
    await tx.execute(sql`select channel, 0 as level, day::text as start, visitors, addresses from stat_attributed_daily
        where tenant = ${tenant} and day in (${d}, ${sibling(day, 0)}::date)
      union all select channel, level, start::text, visitors, addresses from stat_attributed_block_sketches
        where tenant = ${tenant} and (level, start) in (${blockPairs([...beside, ...chain])})`),
  );
  const byChannel = new Map<string, Map<string, { v: Uint8Array | null; a: Uint8Array | null }>>();
  for (const r of rows) {
    let m = byChannel.get(r.channel);
    if (!m) {
      m = new Map();
      byChannel.set(r.channel, m);
    }
    m.set(`${Number(r.level)}|${String(r.start).slice(0, 10)}`, {
      v: storedSketch(r.visitors),
      a: storedSketch(r.addresses),
    });
  }
  const values: SQL[] = [];
  for (const [channel, m] of byChannel) {
    const own = m.get(`0|${day}`);
    let v = own?.v;
    let a = own?.a;
    for (const b of chain) {
      const half =
        b.level === 1
          ? m.get(`0|${sibling(day, 0)}`)
          : m.get(`${b.level - 1}|${sibling(chain[b.level - 2].start, b.level - 1)}`);
      v = mergeStored(v, half?.v);
      a = mergeStored(a, half?.a);
      // Written only when it changed (a day of returning visitors leaves the larger blocks as they were).
      const was = m.get(`${b.level}|${b.start}`);
      if (!was || !sameBytes(was.v, v) || !sameBytes(was.a, a))
        values.push(sql`(${tenant}, ${channel}, ${b.level}, ${b.start}::date, ${v}, ${a})`);
    }
  }
  for (let i = 0; i < values.length; i += 1000)
    await tx.execute(sql`insert into stat_attributed_block_sketches (tenant, channel, level, start, visitors, addresses)
      values ${sql.join(values.slice(i, i + 1000), sql`, `)}
      on conflict (tenant, level, start, channel) do update set visitors = excluded.visitors, addresses = excluded.addresses`);

  // Rows left with nothing (every day of theirs gone for the channel, or none with figures) are removed.
  const touched = [
    ...chain,
    ...Array.from({ length: MAX_LEVEL }, (_, i) =>
      [...new Set(changed.map((x) => blockStart(x, i + 1)))].map((start) => ({ level: i + 1, start })),
    ).flat(),
  ];
  await tx.execute(sql`delete from stat_attributed_blocks where tenant = ${tenant}
    and (level, start) in (${blockPairs(touched)}) and ${sql.raw(ATTRIBUTED_SUMS.map((c) => `${c} = 0`).join(' and '))}`);
  await tx.execute(sql`delete from stat_attributed_block_sketches where tenant = ${tenant}
    and (level, start) in (${blockPairs(chain)}) and visitors = ''::bytea and addresses = ''::bytea`);
}
