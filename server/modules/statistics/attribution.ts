import { type SQL, sql } from 'drizzle-orm';
import { arrayParam } from '../../db/array-literal';
import type { Executor } from '../../db/types';
import { foldAttributedDay } from './attributed-blocks';
import type { ChannelTraffic } from './day-figures';
import { WHOLE_DAY } from './schema';
import { toHex } from './sketch';

/** What the attribution takes from the figures' read of the day's events (day-figures.ts `DayFold`). */
export interface FoldedRead {
  /** The channels' page views, visitors and addresses over the day. */
  traffic: Map<string, ChannelTraffic>;
}

/** Days after a signup whose return visits are recorded (`stat_signups.active` bits 1–7). */
export const RETURN_DAYS = 7;

/**
 * The attribution part of one (tenant, day)'s rollup (issue #16), in the rollup's transaction, for the agents'
 * reports. `ev` yields the day's raw events (with `vreg`/`areg`, as in `rollupDay`); `read` is what the figures' read
 * of them gave (the channels' traffic); `attributionDays` is the tenant's statistics setting (read once per run by
 * `runRollup`).
 *
 * - A channel touch is an event carrying a channel code, or sent from a domain bound to one (`domains.channel`):
 *   `stat_touches` keeps each visitor's first time per day per channel.
 * - A signup or recharge is credited to the channel of the visitor's earliest touch within the attribution window
 *   (the statistics setting `attributionDays`) before it; none: '' (no agent). The first touch wins, for N days.
 * - `stat_signups` keeps each signup with its channel and address; later days' rollups set its `active` bit k when
 *   the visitor returns k days after (1–7): idle accounts and 7-day retention are read from those bits.
 * - `stat_payers` keeps each paying visitor once, on the day of the first recharge, with that recharge's channel:
 *   "payers" are new paying users, a figure that adds up over days (a per-paying-user commission pays once).
 * - `stat_attributed_daily` sums it per channel per day, with sketches of the visitors and addresses that came
 *   through the channel (any event: a signup through an agent's link is a visitor of it).
 *
 * - `stat_attributed_blocks` and `stat_attributed_totals` (attributed-blocks.ts) are computed again for the days whose
 *   rows changed: the agents' stat reads periods through them.
 *
 * Re-running a day replaces what it wrote (touches, credited signups, the day's row) and keeps what later days added
 * (return bits), so a day rolled up twice or after a stopped run counts nothing twice. When the figures fold batches
 * alone (`batches`), the touches are those the batches' events add or move earlier, and this day's returns are read
 * from those batches' events only (they can only add to what the day's earlier events gave); the conversions (signups
 * and recharges, few) are read over the day. A touch that arrives after a later day's conversions were credited marks
 * that day for the rollup (`runRollup` rolls it in the same run).
 */
export async function rollupAttribution(
  tx: Executor,
  tenant: number,
  day: string,
  ev: SQL,
  attributionDays: number,
  read: Promise<FoldedRead>,
  /** The batches the figures folded alone (the incremental rollup): the day's returns only gain theirs. */
  batches?: number[],
) {
  const d = sql`${day}::date`;
  // The events that can add returns: the day's, or those of the batches folded alone.
  const fresh = batches?.length
    ? sql`select * from (${ev}) e where e.batch between ${batches.reduce((a, b) => (b < a ? b : a))} and ${batches.reduce((a, b) => (b > a ? b : a))}
        and e.batch = any(${sql.param(batches)}::bigint[])`
    : ev;
  const conv = sql`select y.id, y.type, y.at, y.visitor_hash, y.address_hash, y.amount,
      coalesce((select t.channel from stat_touches t where t.tenant = ${tenant} and t.visitor_hash = y.visitor_hash
        and t.at <= y.at and t.at > y.at - make_interval(days => ${attributionDays}::int)
        order by t.at, t.channel limit 1), '') as credit
    from (${ev}) y where y.type in ('signup', 'recharge')`;

  // The day's touches are rewritten where they changed; a later day (within the window) with a conversion by a
  // visitor whose touches changed is marked for its rollup: its credit may move (a late touch for an earlier day).
  // Folding batches alone, a touch only moves earlier and none goes. Each visitor's first time per channel (the
  // event's, else that of the domain it came from, when bound to one) is grouped in SQL: one per visitor and channel,
  // which the process would otherwise hold for the whole day (issue #48).
  await tx.execute(sql`with n as materialized (select visitor_hash, ch, min(at) as at
        from (select e.visitor_hash, e.at, case when e.channel <> '' then e.channel else coalesce(b.channel, '') end as ch
          from (${fresh}) e left join domains b on b.tenant = ${tenant} and b.hostname = e.domain
            and coalesce(b.channel, '') <> '') x
        where ch <> '' group by 1, 2),
      gone as (delete from stat_touches t where ${batches ? sql`false` : sql`true`} and t.tenant = ${tenant} and t.day = ${d}
        and not exists (select 1 from n where n.visitor_hash = t.visitor_hash and n.ch = t.channel) returning t.visitor_hash),
      put as (insert into stat_touches (tenant, visitor_hash, day, channel, at) select ${tenant}, visitor_hash, ${d}, ch, at from n
        on conflict (tenant, visitor_hash, day, channel) do update set at = excluded.at
        where ${batches ? sql`excluded.at < stat_touches.at` : sql`stat_touches.at <> excluded.at`}
        returning visitor_hash)
    insert into stat_fold_queue (tenant, day, batch)
    select distinct ${tenant}::int, e.day, ${WHOLE_DAY}::bigint from stat_events e
    where e.tenant = ${tenant} and e.day between ${d} + 1 and ${d} + ${attributionDays}::int and e.type in ('signup', 'recharge')
      and e.visitor_hash in (select visitor_hash from gone union select visitor_hash from put)
    on conflict do nothing`);

  await tx.execute(sql`with c as (${conv}), s as (select * from c where type = 'signup'),
      gone as (delete from stat_signups where tenant = ${tenant} and day = ${d} and id not in (select id from s))
    insert into stat_signups (tenant, day, id, channel, visitor_hash, address_hash)
    select ${tenant}, ${d}, id, credit, visitor_hash, address_hash from s
    on conflict (tenant, day, id) do update set channel = excluded.channel, visitor_hash = excluded.visitor_hash,
      address_hash = excluded.address_hash`);
  // This day's signups: the days after it on which each came back, from whatever later days are already in (a later
  // day rolled up before this one could not mark a signup that did not exist yet; the order of days must not matter).
  await tx.execute(sql`update stat_signups s set active = x.bits::smallint
    from (select s2.id, coalesce(bit_or(1 << (e.day - ${d})), 0) as bits
      from stat_signups s2 left join stat_events e on e.tenant = ${tenant} and e.visitor_hash = s2.visitor_hash
        and e.day between ${d} + 1 and ${d} + ${RETURN_DAYS}::int
      where s2.tenant = ${tenant} and s2.day = ${d} group by s2.id) x
    where s.tenant = ${tenant} and s.day = ${d} and s.id = x.id and s.active <> x.bits`);
  // The visitors of this day are back k days after their signups of k days ago.
  await tx.execute(sql`update stat_signups s set active = (s.active | (1 << (${d} - s.day)))::smallint
    where s.tenant = ${tenant} and s.day between ${d} - ${RETURN_DAYS}::int and ${d} - 1
      and s.visitor_hash in (select visitor_hash from (${fresh}) e)`);

  // First payers: a visitor seen paying earlier than recorded moves here, and the day it leaves is rolled again.
  await tx.execute(sql`with c as (${conv}),
      f as (select distinct on (visitor_hash) visitor_hash, credit from c where type = 'recharge' order by visitor_hash, at, id),
      moved as (insert into stat_fold_queue (tenant, day, batch)
        select ${tenant}, p.day, ${WHOLE_DAY}::bigint from stat_payers p join f using (visitor_hash) where p.tenant = ${tenant} and p.day > ${d}
        on conflict do nothing)
    insert into stat_payers (tenant, visitor_hash, day, channel) select ${tenant}, visitor_hash, ${d}, credit from f
    on conflict (tenant, visitor_hash) do update set day = excluded.day, channel = excluded.channel
      where excluded.day <= stat_payers.day`);

  const { traffic } = await read;
  await tx.execute(sql`delete from stat_attributed_daily where tenant = ${tenant} and day = ${d}`);
  // The channels' traffic (page views, visitors' and addresses' sketches) comes from the figures' read of the day
  // (day-figures.ts); the conversions credited to each channel from SQL.
  const byChannel = [...traffic];
  await tx.execute(sql`insert into stat_attributed_daily (tenant, day, channel, page_views, signups, recharges,
      recharge_amount, visitors, addresses)
    select ${tenant}, ${d}, coalesce(t.c, v.credit), coalesce(t.pv, 0), coalesce(v.signups, 0), coalesce(v.recharges, 0),
      coalesce(v.amount, 0), coalesce(decode(t.vh, 'hex'), ''::bytea), coalesce(decode(t.ah, 'hex'), ''::bytea)
    from unnest(${arrayParam(byChannel.map(([c]) => c))}::text[], ${arrayParam(byChannel.map(([, x]) => x.pageViews))}::int[],
        ${arrayParam(byChannel.map(([, x]) => toHex(x.visitors.encode())))}::text[],
        ${arrayParam(byChannel.map(([, x]) => toHex(x.addresses.encode())))}::text[]) as t(c, pv, vh, ah)
      full join (select credit, count(*) filter (where type = 'signup')::int as signups,
          count(*) filter (where type = 'recharge')::int as recharges,
          coalesce(sum(amount) filter (where type = 'recharge'), 0) as amount
        from (${conv}) c group by credit) v on v.credit = t.c`);
  await tx.execute(sql`update stat_attributed_daily r set payers = q.n
    from (select channel, count(*)::int as n from stat_payers where tenant = ${tenant} and day = ${d} group by channel) q
    where r.tenant = ${tenant} and r.day = ${d} and r.channel = q.channel`);
  // Signups of the day sharing an address, or a device (the visitor id), with another signup of the same channel.
  await tx.execute(sql`update stat_attributed_daily r set shared_address = q.a, shared_device = q.v
    from (select channel, count(*) filter (where na > 1)::int as a, count(*) filter (where nv > 1)::int as v
      from (select channel, count(*) over (partition by channel, address_hash) as na,
        count(*) over (partition by channel, visitor_hash) as nv
        from stat_signups where tenant = ${tenant} and day = ${d}) z group by channel) q
    where r.tenant = ${tenant} and r.day = ${d} and r.channel = q.channel`);
  // Idle and retained signups of this day and the seven before (their return bits may have changed just now).
  await tx.execute(sql`update stat_attributed_daily r set idle = q.idle, retained = q.retained
    from (select day, channel, count(*) filter (where active = 0)::int as idle,
      count(*) filter (where active & ${1 << RETURN_DAYS} <> 0)::int as retained
      from stat_signups where tenant = ${tenant} and day between ${d} - ${RETURN_DAYS}::int and ${d}
      group by day, channel) q
    where r.tenant = ${tenant} and r.day = q.day and r.channel = q.channel
      and (r.idle, r.retained) is distinct from (q.idle, q.retained)`);
  await foldAttributedDay(tx, tenant, day, RETURN_DAYS);
  // The seven days before are stamped by the caller (`rollupDay`): their sums may have changed.
}
