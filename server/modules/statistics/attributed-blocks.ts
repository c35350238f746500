import { type SQL, sql } from 'drizzle-orm';
import { addDays } from '../../../common/period';
import type { Executor } from '../../db/types';
import { blockPairs, blockStart, CHANNEL_BLOCKS, foldSketchBlocks, MAX_LEVEL, sibling } from './blocks';

/**
 * The attributed figures over aligned blocks, for the agents' stat: `stat_attributed_blocks` holds, per channel and
 * block of 2^level days (blocks.ts), the sums of `stat_attributed_daily` over the block's days (their sketches are
 * blocks.ts `CHANNEL_BLOCKS`); `stat_attributed_totals` each day's sums over every channel but ''.
 *
 * The rollup of a day also rewrites the idle and retained counts of the seven days before it, so the sums of every
 * block holding one of them are computed again from the two halves below it, as the sketches' are.
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
  const touched: { level: number; start: string }[] = [];
  for (let level = 1; level <= MAX_LEVEL; level++) {
    const starts = [...new Set(changed.map((x) => blockStart(x, level)))];
    touched.push(...starts.map((start) => ({ level, start })));
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

  await foldSketchBlocks(tx, CHANNEL_BLOCKS, tenant, day);

  // Rows left with nothing (every day of theirs gone for the channel, or none with figures) are removed.
  await tx.execute(sql`delete from stat_attributed_blocks where tenant = ${tenant}
    and (level, start) in (${blockPairs(touched)}) and ${sql.raw(ATTRIBUTED_SUMS.map((c) => `${c} = 0`).join(' and '))}`);
}
