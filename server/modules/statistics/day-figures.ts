import { sql } from 'drizzle-orm';
import { arrayParam } from '../../db/array-literal';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';
import { encode, M, toHex } from './sketch';

/**
 * A day's figures folded in JavaScript from one read of its raw events (issue #12): the first day each visitor was
 * seen (`stat_visitors`), the domains' daily and hourly rows, keywords, objects (with the tags of the movies viewed),
 * visits by path, referrer, device, region and channel, and channels. The same figures as grouping the events in SQL
 * (the property test in tests/api/stats-rollup.test.ts recounts them from the raw events), at a fraction of the
 * database's time: SQL built each row's sketch by grouping the events per register, sorting the registers and
 * aggregating a bytea per key, most of the database's 27 µs per event; here a register is one array push.
 *
 * The events are read through a cursor, FETCH_ROWS at a time, in the caller's transaction (one snapshot, memory
 * bounded by the keys of the day rather than its events).
 */

/** The tables whose rows of a day `rollupDayFigures` writes (deleted first, then written again). */
export const DAY_FIGURE_TABLES = [
  'stat_keyword_daily',
  'stat_object_daily',
  'stat_domain_daily',
  'stat_domain_hourly',
  'stat_visit_daily',
  'stat_channel_daily',
];

/** Rows per FETCH: the memory of a read, not its cost. */
const FETCH_ROWS = 20_000;

/**
 * The registers of one sketch being built: pushed as they come (`index << 6 | rank`, as `zg_hll_reg` stores them),
 * compacted (sorted, one per index) when the list grows, and every register of a dense array once a compaction
 * leaves more than DENSE_AFTER.
 */
class Registers {
  private list: number[] = [];
  private dense: Uint8Array | undefined;

  add(reg: number) {
    if (this.dense) {
      const i = reg >> 6;
      const r = reg & 63;
      if (r > this.dense[i]) this.dense[i] = r;
      return;
    }
    this.list.push(reg);
    if (this.list.length >= COMPACT_AT) this.compact();
  }

  private compact() {
    const list = compacted(this.list);
    if (list.length <= DENSE_AFTER) {
      this.list = list;
      return;
    }
    const d = new Uint8Array(M);
    for (const reg of list) d[reg >> 6] = reg & 63;
    this.dense = d;
    this.list = [];
  }

  /** The stored form, as SQL's `zg_hll_pack` makes it: sparse triples in index order, dense when not shorter. */
  encode(): Uint8Array {
    if (this.dense) return encode(this.dense);
    const list = compacted(this.list);
    if (list.length * 3 >= M) {
      const d = new Uint8Array(M);
      for (const reg of list) d[reg >> 6] = reg & 63;
      return d;
    }
    const out = new Uint8Array(list.length * 3);
    let o = 0;
    for (const reg of list) {
      const i = reg >> 6;
      out[o++] = i >> 8;
      out[o++] = i & 0xff;
      out[o++] = reg & 63;
    }
    return out;
  }
}
const COMPACT_AT = 4096;
const DENSE_AFTER = 2048;

/** Registers sorted by index, the highest rank of each (a register sorts after a lower rank of the same index). */
function compacted(list: number[]): number[] {
  list.sort((a, b) => a - b);
  let n = 0;
  for (let k = 0; k < list.length; k++) {
    if (n > 0 && list[n - 1] >> 6 === list[k] >> 6) list[n - 1] = list[k];
    else list[n++] = list[k];
  }
  list.length = n;
  return list;
}

/** An amount in cents (numeric(14, 2) as text) → text again; integers of cents stay exact. */
const cents = (v: string) => Math.round(Number.parseFloat(v) * 100);
const money = (c: number) => {
  const a = Math.abs(c);
  return `${c < 0 ? '-' : ''}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
};

const OBJECT_COUNTS = {
  pageview: 0, // views
  play: 1, // plays
  ad_click: 2, // clicks
  tag_click: 2,
  ad_impression: 3, // impressions
  signup: 4, // signups
  recharge: 5, // recharges
} as Record<string, number | undefined>;
const CHANNEL_COUNTS = {
  pageview: 0,
  play: 1,
  ad_impression: 2,
  ad_click: 3,
  signup: 4,
  recharge: 5,
} as Record<string, number | undefined>;
const VISIT_DIMENSIONS = ['path', 'referrer', 'device', 'region', 'channel'] as const;

type Figures = { n: number[]; cents: number; viewers: Registers; clickers: Registers };
const newFigures = (): Figures => ({
  n: [0, 0, 0, 0, 0, 0],
  cents: 0,
  viewers: new Registers(),
  clickers: new Registers(),
});

/**
 * A visitor of a domain on the day, as one number (a day's distinct visitors and domains can be millions): bit h
 * (0–23) when it viewed a page in hour h, bit 24 + h when it viewed two or more then, and FRESH when first seen that
 * day. Under 2^53, so exact; the bits are read with arithmetic, JavaScript's bitwise operators being 32-bit.
 */
const HOURS = 0x1000000; // 2^24: the second group of 24 bits starts here
const FRESH = 2 ** 48;
const viewed = (v: number, hour: number) => {
  const b = 1 << hour;
  const seen = v % HOURS;
  const rest = v - seen; // FRESH and the hours with two or more, in place
  if (!(seen & b)) return rest + (seen | b);
  const more = (rest % FRESH) / HOURS;
  return more & b ? v : v + b * HOURS;
};
/** Hours of `v` with page views and with two or more, and whether first seen that day. */
const visitorOf = (v: number) => {
  const seen = v % HOURS;
  return { seen, more: Math.floor((v % FRESH) / HOURS), fresh: v >= FRESH };
};
const bits = (x: number) => {
  let n = 0;
  for (; x; x &= x - 1) n++;
  return n;
};

/** A domain's day ('' for the site): its visitors, page views per hour, sketches, visits by dimension. */
class DomainDay {
  readonly visitors = new Map<string, number>();
  readonly pageViews = new Int32Array(24);
  readonly visitorRegs = new Registers();
  readonly addressRegs = new Registers();
  readonly hourVisitors = Array.from({ length: 24 }, () => new Registers());
  readonly hourAddresses = Array.from({ length: 24 }, () => new Registers());
  /** Per dimension (VISIT_DIMENSIONS), per key: page views and visitors. */
  readonly visits = VISIT_DIMENSIONS.map(() => new Map<string, { pvs: number; visitors: Registers }>());

  pageView(visitor: string, hour: number, vreg: number, areg: number) {
    this.visitors.set(visitor, viewed(this.visitors.get(visitor) ?? 0, hour));
    this.pageViews[hour]++;
    this.visitorRegs.add(vreg);
    this.addressRegs.add(areg);
    this.hourVisitors[hour].add(vreg);
    this.hourAddresses[hour].add(areg);
  }
}

/** The value of `key` in `map`, made and set first when missing. */
function entry<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  const had = map.get(key);
  if (had !== undefined) return had;
  const made = make();
  map.set(key, made);
  return made;
}

/** An agent's channel's day for the attribution: page views, and the visitors and addresses of any of its events. */
export interface ChannelTraffic {
  pageViews: number;
  visitors: { encode(): Uint8Array };
  addresses: { encode(): Uint8Array };
}

/** The separator of the safe fields of a row (enums, numbers, the domain: none holds a tab). */
const TAB = '\t';

/**
 * Recomputes a day's figures: deletes its rows of the domains', keywords', objects', visits' and channels' tables
 * and writes them again, and records first-seen days. In the caller's transaction.
 */
export async function rollupDayFigures(
  t: Executor,
  tenant: number,
  day: string,
  timeZone: string,
  opts: { fetchSize?: number; traffic?: (byChannel: Map<string, ChannelTraffic>) => void } = {},
) {
  const fetchSize = opts.fetchSize ?? FETCH_ROWS;
  const tz = timeZone.replace(/'/g, "''");
  // The agents' traffic (attribution.ts): each event's channel, or that of the domain it came from when bound to one.
  const bound = new Map(
    rowsOf<{ hostname: string; channel: string }>(
      await t.execute(
        sql`select hostname, channel from domains where tenant = ${tenant} and coalesce(channel, '') <> ''`,
      ),
    ).map((b) => [String(b.hostname), String(b.channel)]),
  );
  const traffic = new Map<string, { pageViews: number; visitors: Registers; addresses: Registers }>();
  const site = new DomainDay();
  const domains = new Map<string, DomainDay>([['', site]]);
  const keywords = new Map<
    string,
    { searches: number; zero: number; results: number; searchers: Registers }
  >();
  const objects = new Map<string, Map<number, Figures>>(); // object type → id (0: the type's total) → figures
  const channels = new Map<string, { n: number[]; cents: number; visitors: Registers }>();
  // Movies viewed or played, for their tags (read once the movies are known).
  const movieEvents = new Map<number, { type: string; vreg: number }[]>();

  const objectEvent = (type: string, id: number, kind: string, vreg: number, amount: string) => {
    const byId = entry(objects, type, () => new Map());
    for (const key of [id, 0]) {
      const f = entry(byId, key, () => newFigures());
      const c = OBJECT_COUNTS[kind];
      if (c !== undefined) f.n[c]++;
      if (kind === 'recharge' && amount !== '') f.cents += cents(amount);
      f.viewers.add(vreg);
      if (kind === 'ad_click') f.clickers.add(vreg);
    }
  };
  const searched = (keyword: string, results: string, vreg: number) => {
    const k = entry(keywords, keyword, () => ({
      searches: 0,
      zero: 0,
      results: 0,
      searchers: new Registers(),
    }));
    k.searches++;
    if (results !== '') {
      const n = Number(results);
      if (n === 0) k.zero++;
      k.results += n;
    }
    k.searchers.add(vreg);
  };

  const name = `zg_day_${Math.floor(Math.random() * 1e9)}`;
  await t.execute(
    sql.raw(`declare ${name} no scroll cursor for
      select concat_ws('${TAB}', type, extract(hour from at at time zone '${tz}')::int,
          coalesce(visitor_reg, zg_hll_reg(visitor_hash)), coalesce(address_reg, zg_hll_reg(address_hash)), visitor_hash,
          object_type, object_id, coalesce(results::text, ''), coalesce(amount::text, ''), device, domain) as f,
        keyword, path, referrer, channel,
        case when country in ('中国', 'China', 'CN') and province not in ('', '0', 'unknown') then province
          else country end as region
      from stat_events where tenant = ${Number(tenant)} and day = '${day.replace(/'/g, "''")}'::date`),
  );
  type Row = { f: string; keyword: string; path: string; referrer: string; channel: string; region: string };
  const fetchRows = () => {
    const rows = t.execute(sql.raw(`fetch ${fetchSize} from ${name}`)).then((x) => rowsOf<Row>(x));
    rows.catch(() => {}); // awaited in the loop; not an unhandled rejection if folding the rows before it throws
    return rows;
  };
  // The next rows are asked for before these are folded: the database reads them meanwhile (node-postgres sends the
  // query at once on an idle connection).
  let next = fetchRows();
  for (;;) {
    const rows = await next;
    if (rows.length === fetchSize) next = fetchRows();
    for (const r of rows) {
      const [
        type,
        hour,
        vregText,
        aregText,
        visitor,
        objectType,
        objectIdText,
        results,
        amount,
        device,
        domain,
      ] = r.f.split(TAB);
      const vreg = Number(vregText);
      const channel = r.channel;
      const ch = entry(channels, channel, () => ({
        n: [0, 0, 0, 0, 0, 0],
        cents: 0,
        visitors: new Registers(),
      }));
      const cc = CHANNEL_COUNTS[type];
      if (cc !== undefined) ch.n[cc]++;
      if (type === 'recharge' && amount !== '') ch.cents += cents(amount);
      if (objectType !== '') {
        const id = Number(objectIdText);
        objectEvent(objectType, id, type, vreg, amount);
        if (objectType === 'movie' && (type === 'pageview' || type === 'play')) {
          const list = movieEvents.get(id);
          if (list) list.push({ type, vreg });
          else movieEvents.set(id, [{ type, vreg }]);
        }
      }
      if (type === 'search' && r.keyword !== '') {
        searched(r.keyword, results, vreg);
        searched('', results, vreg);
      }
      const areg = Number(aregText);
      const agent = channel !== '' ? channel : (bound.get(domain) ?? '');
      if (agent !== '') {
        const a = entry(traffic, agent, () => ({
          pageViews: 0,
          visitors: new Registers(),
          addresses: new Registers(),
        }));
        if (type === 'pageview') a.pageViews++;
        a.visitors.add(vreg);
        a.addresses.add(areg);
      }
      if (type !== 'pageview') continue;
      ch.visitors.add(vreg);
      const h = Number(hour);
      const dom = entry(domains, domain, () => new DomainDay());
      dom.pageView(visitor, h, vreg, areg);
      site.pageView(visitor, h, vreg, areg);
      const keys = [r.path, r.referrer, device, r.region, channel];
      for (let i = 0; i < keys.length; i++) {
        const byKey = dom.visits[i];
        const v = entry(byKey, keys[i], () => ({ pvs: 0, visitors: new Registers() }));
        v.pvs++;
        v.visitors.add(vreg);
      }
    }
    if (rows.length < fetchSize) break;
  }
  await t.execute(sql.raw(`close ${name}`));

  // The tags of the movies viewed or played: each tag counts its movies' views and plays (a movie of two tags in both).
  if (movieEvents.size) {
    const links = rowsOf<{ movie_id: number; tag_id: number }>(
      await t.execute(sql`select movie_id, tag_id from movie_tag_links
        where movie_id = any(${arrayParam([...movieEvents.keys()])}::int[])`),
    );
    for (const l of links)
      for (const e of movieEvents.get(Number(l.movie_id)) ?? [])
        objectEvent('tag', Number(l.tag_id), e.type, e.vreg, '');
  }

  opts.traffic?.(traffic);

  await firstSeen(t, tenant, day, domains);
  for (const table of DAY_FIGURE_TABLES)
    await t.execute(sql`delete from ${sql.raw(table)} where tenant = ${tenant} and day = ${day}::date`);
  await writeDomains(t, tenant, day, domains);

  if (keywords.size) {
    const ks = [...keywords];
    await t.execute(sql`insert into stat_keyword_daily (tenant, day, keyword, searches, zero_results, results_sum, searchers)
      select ${tenant}, ${day}::date, k, s, z, r, decode(h, 'hex')
      from unnest(${arrayParam(ks.map(([k]) => k))}::text[], ${arrayParam(ks.map(([, v]) => v.searches))}::int[],
        ${arrayParam(ks.map(([, v]) => v.zero))}::int[], ${arrayParam(ks.map(([, v]) => v.results))}::bigint[],
        ${arrayParam(ks.map(([, v]) => toHex(v.searchers.encode())))}::text[]) as u(k, s, z, r, h)`);
  }

  const os = [...objects].flatMap(([type, byId]) => [...byId].map(([id, f]) => ({ type, id, f })));
  if (os.length) {
    const col = (i: number) => arrayParam(os.map((o) => o.f.n[i]));
    await t.execute(sql`insert into stat_object_daily (tenant, day, object_type, object_id, views, plays, clicks,
        impressions, signups, recharges, recharge_amount, viewers, clickers)
      select ${tenant}, ${day}::date, ot, oi, v, pl, c, i, s, r, a, decode(vh, 'hex'), decode(ch, 'hex')
      from unnest(${arrayParam(os.map((o) => o.type))}::text[], ${arrayParam(os.map((o) => o.id))}::int[],
        ${col(0)}::int[], ${col(1)}::int[], ${col(2)}::int[], ${col(3)}::int[], ${col(4)}::int[], ${col(5)}::int[],
        ${arrayParam(os.map((o) => money(o.f.cents)))}::numeric[], ${arrayParam(os.map((o) => toHex(o.f.viewers.encode())))}::text[],
        ${arrayParam(os.map((o) => toHex(o.f.clickers.encode())))}::text[]) as u(ot, oi, v, pl, c, i, s, r, a, vh, ch)`);
  }

  const vs = [...domains]
    .filter(([domain]) => domain !== '')
    .flatMap(([domain, dom]) =>
      dom.visits.flatMap((byKey, i) =>
        [...byKey].map(([key, v]) => ({ domain, dim: VISIT_DIMENSIONS[i], key, v })),
      ),
    );
  if (vs.length)
    await t.execute(sql`insert into stat_visit_daily (tenant, day, domain, dimension, key, page_views, visitors)
      select ${tenant}, ${day}::date, d, m, k, n, decode(h, 'hex')
      from unnest(${arrayParam(vs.map((x) => x.domain))}::text[], ${arrayParam(vs.map((x) => x.dim))}::text[],
        ${arrayParam(vs.map((x) => x.key))}::text[], ${arrayParam(vs.map((x) => x.v.pvs))}::int[],
        ${arrayParam(vs.map((x) => toHex(x.v.visitors.encode())))}::text[]) as u(d, m, k, n, h)`);

  if (channels.size) {
    const cs = [...channels];
    const col = (i: number) => arrayParam(cs.map(([, c]) => c.n[i]));
    await t.execute(sql`insert into stat_channel_daily (tenant, day, channel, page_views, plays, ad_impressions, ad_clicks,
        signups, recharges, recharge_amount, visitors)
      select ${tenant}, ${day}::date, c, pv, pl, ai, ac, s, r, a, decode(h, 'hex')
      from unnest(${arrayParam(cs.map(([k]) => k))}::text[], ${col(0)}::int[], ${col(1)}::int[], ${col(2)}::int[],
        ${col(3)}::int[], ${col(4)}::int[], ${col(5)}::int[], ${arrayParam(cs.map(([, c]) => money(c.cents)))}::numeric[],
        ${arrayParam(cs.map(([, c]) => toHex(c.visitors.encode())))}::text[]) as u(c, pv, pl, ai, ac, s, r, a, h)`);
  }
}

/**
 * The first day each visitor was seen, per domain and site-wide (''), moved to `day` where it was later or unknown;
 * marks the visitors first seen on `day` (`fresh`). Each pair is looked up once, and only those first seen now (or
 * seen first on a later day, rolled up before) are written: a day rolled up again writes nothing for the visitors it
 * already recorded.
 */
async function firstSeen(t: Executor, tenant: number, day: string, domains: Map<string, DomainDay>) {
  const names: string[] = [];
  const ids: string[] = [];
  for (const [domain, dom] of domains)
    for (const visitor of dom.visitors.keys()) {
      names.push(domain);
      ids.push(visitor);
    }
  if (!ids.length) return;
  const known = new Map<string, Map<string, string>>();
  for (const r of rowsOf<{ domain: string; visitor: string; first_day: string }>(
    await t.execute(sql`select s.domain, s.visitor::text as visitor, s.first_day::text as first_day
      from unnest(${arrayParam(names)}::text[], ${arrayParam(ids)}::bigint[]) as u(d, v)
      join stat_visitors s on s.tenant = ${tenant} and s.domain = u.d and s.visitor = u.v`),
  )) {
    const m = entry(known, r.domain, () => new Map());
    m.set(String(r.visitor), String(r.first_day).slice(0, 10));
  }
  const write: number[] = [];
  for (let i = 0; i < ids.length; i++) {
    const first = known.get(names[i])?.get(ids[i]);
    if (first !== undefined && first < day) continue;
    const visitors = domains.get(names[i])!.visitors;
    visitors.set(ids[i], visitors.get(ids[i])! + FRESH);
    if (first === undefined || first > day) write.push(i);
  }
  if (write.length)
    await t.execute(sql`insert into stat_visitors (tenant, domain, visitor, first_day)
      select ${tenant}, d, v, ${day}::date
      from unnest(${arrayParam(write.map((i) => names[i]))}::text[],
        ${arrayParam(write.map((i) => ids[i]))}::bigint[]) as u(d, v) order by d, v
      on conflict (tenant, domain, visitor) do update set first_day = excluded.first_day
        where excluded.first_day < stat_visitors.first_day`);
}

/**
 * The domains' daily and hourly rows: page views, visits (a visitor in the day or hour), bounces (one page view in
 * it), new visitors (first seen this day), and the visitors' and addresses' sketches.
 */
async function writeDomains(t: Executor, tenant: number, day: string, domains: Map<string, DomainDay>) {
  type Row = { domain: string; pvs: number; visits: number; bounced: number; fresh: number; dom: DomainDay };
  const daily: Row[] = [];
  const hourly: (Row & { hour: number })[] = [];
  for (const [domain, dom] of domains) {
    if (!dom.visitors.size) continue;
    const d = { domain, pvs: 0, visits: 0, bounced: 0, fresh: 0, dom };
    const hours = Array.from({ length: 24 }, (_, hour) => ({
      domain,
      hour,
      pvs: dom.pageViews[hour],
      visits: 0,
      bounced: 0,
      fresh: 0,
      dom,
    }));
    for (const x of hours) d.pvs += x.pvs;
    for (const value of dom.visitors.values()) {
      const v = visitorOf(value);
      d.visits++;
      if (v.more === 0 && bits(v.seen) === 1) d.bounced++; // one page view in the day
      if (v.fresh) d.fresh++;
      for (let h = 0; h < 24; h++) {
        if (!(v.seen & (1 << h))) continue;
        const x = hours[h];
        x.visits++;
        if (!(v.more & (1 << h))) x.bounced++;
        if (v.fresh) x.fresh++;
      }
    }
    daily.push(d);
    for (const x of hours) if (x.visits) hourly.push(x);
  }
  if (!daily.length) return;
  const regs = (r: Registers) => toHex(r.encode());
  await t.execute(sql`insert into stat_domain_daily (tenant, day, domain, page_views, visits, bounced, new_visitors,
      visitors, addresses)
    select ${tenant}, ${day}::date, d, pv, v, b, n, decode(vh, 'hex'), decode(ah, 'hex')
    from unnest(${arrayParam(daily.map((x) => x.domain))}::text[], ${arrayParam(daily.map((x) => x.pvs))}::int[],
      ${arrayParam(daily.map((x) => x.visits))}::int[], ${arrayParam(daily.map((x) => x.bounced))}::int[],
      ${arrayParam(daily.map((x) => x.fresh))}::int[], ${arrayParam(daily.map((x) => regs(x.dom.visitorRegs)))}::text[],
      ${arrayParam(daily.map((x) => regs(x.dom.addressRegs)))}::text[]) as u(d, pv, v, b, n, vh, ah)`);
  await t.execute(sql`insert into stat_domain_hourly (tenant, day, domain, hour, page_views, visits, bounced,
      new_visitors, visitors, addresses)
    select ${tenant}, ${day}::date, d, hr, pv, v, b, n, decode(vh, 'hex'), decode(ah, 'hex')
    from unnest(${arrayParam(hourly.map((h) => h.domain))}::text[], ${arrayParam(hourly.map((h) => h.hour))}::smallint[],
      ${arrayParam(hourly.map((h) => h.pvs))}::int[], ${arrayParam(hourly.map((h) => h.visits))}::int[],
      ${arrayParam(hourly.map((h) => h.bounced))}::int[], ${arrayParam(hourly.map((h) => h.fresh))}::int[],
      ${arrayParam(hourly.map((h) => regs(h.dom.hourVisitors[h.hour])))}::text[],
      ${arrayParam(hourly.map((h) => regs(h.dom.hourAddresses[h.hour])))}::text[]) as u(d, hr, pv, v, b, n, vh, ah)`);
}
