import { sql } from 'drizzle-orm';
import { hourOf } from '../../../common/period';
import { entry } from '../../core/maps';
import { arrayParam } from '../../db/array-literal';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';
import type { EventRow } from './events';
import { SEEN_TYPES } from './schema';
import { denseOf, encode, encodeList, M, toHex } from './sketch';

/**
 * A day's figures folded in JavaScript from one read of its raw events (issue #12): the domains' daily and hourly page
 * views and sketches, keywords, objects (with the tags of the movies viewed), visits by path, referrer, device, region
 * and channel, and channels. The same figures as grouping the events in SQL (the property test in
 * tests/api/stats-rollup.test.ts recounts them from the raw events), at a fraction of the database's time: SQL built
 * each row's sketch by grouping the events per register, sorting the registers and aggregating a bytea per key; here
 * a register is one array push.
 *
 * Nothing here is kept per visitor (issue #48: the visitors come from anyone holding the browser key): a sketch holds
 * at most a fixed number of registers, and what needs each visitor's events (visits, bounces, new visitors, the
 * attribution's touches) is grouped in SQL (visits.ts, attribution.ts). The events are read through a cursor,
 * FETCH_ROWS at a time, in the caller's transaction: memory follows the day's keys, not its events or visitors.
 */

/** The tables whose rows of a day a `DayFold` writes (a whole read deletes the day's first). */
export const DAY_FIGURE_TABLES = [
  'stat_keyword_daily',
  'stat_object_daily',
  'stat_domain_daily',
  'stat_domain_hourly',
  'stat_visit_daily',
  'stat_channel_daily',
];

const SEEN = new Set<string>(SEEN_TYPES);

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
  /**
   * Whether the sketch may differ from the one last written (`changedSince`): a new sketch was never written; a dense
   * one changes only when a register rises, which a visitor seen before never makes it do; a sparse one (a few KB at
   * most) is taken as changed by any register added.
   */
  private changed = true;

  add(reg: number) {
    if (this.dense) {
      const i = reg >> 6;
      const r = reg & 63;
      if (r > this.dense[i]) {
        this.dense[i] = r;
        this.changed = true;
      }
      return;
    }
    this.list.push(reg);
    this.changed = true;
    if (this.list.length >= COMPACT_AT) this.compact();
  }

  /** Adds every register of `other`. */
  addAll(other: Registers) {
    if (other.dense) {
      for (let i = 0; i < M; i++) if (other.dense[i]) this.add((i << 6) | other.dense[i]);
    } else for (const reg of other.list) this.add(reg);
  }

  /** Whether the sketch may have changed since the last call (true the first time); from now on, not. */
  changedSince(): boolean {
    const changed = this.changed;
    this.changed = false;
    return changed;
  }

  private compact() {
    const list = compacted(this.list);
    if (list.length <= DENSE_AFTER) {
      this.list = list;
      return;
    }
    this.dense = denseOf(list);
    this.list = [];
  }

  /** The stored form, as SQL's `zg_hll_pack` makes it: sparse triples in index order, dense when not shorter. */
  encode(): Uint8Array {
    return this.dense ? encode(this.dense) : encodeList(compacted(this.list));
  }
}
const COMPACT_AT = 4096;
const DENSE_AFTER = 2048;

/**
 * Registers sorted by index, the highest rank of each (a register sorts after a lower rank of the same index). Sorted
 * as a typed array: its numeric sort, without a compare function to call, is several times faster.
 */
function compacted(list: number[]): number[] {
  const sorted = Int32Array.from(list).sort();
  let n = 0;
  for (let k = 0; k < sorted.length; k++) {
    if (n > 0 && list[n - 1] >> 6 === sorted[k] >> 6) list[n - 1] = sorted[k];
    else list[n++] = sorted[k];
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

type Figures = {
  type: string;
  id: number;
  n: number[];
  cents: number;
  viewers: Registers;
  clickers: Registers;
  touched: boolean;
};
type Visit = { dim: number; key: string; pvs: number; visitors: Registers; touched: boolean };
type Keyword = {
  key: string;
  searches: number;
  zero: number;
  results: number;
  searchers: Registers;
  touched: boolean;
};
type Channel = { key: string; n: number[]; cents: number; visitors: Registers; touched: boolean };

/**
 * The keys folded into since the last write, each listed once: a mark on the key's figures (`touched`) rather than a
 * set's lookup per event (about ten an event).
 */
class Touched<T extends { touched: boolean }> {
  private list: T[] = [];
  add(x: T) {
    if (x.touched) return;
    x.touched = true;
    this.list.push(x);
  }
  get items(): readonly T[] {
    return this.list;
  }
  clear() {
    for (const x of this.list) x.touched = false;
    this.list = [];
  }
}

/**
 * A domain's day ('' for the site): its page views per hour, sketches and visits by dimension. Nothing per visitor:
 * the visits, bounces and new visitors (which need each visitor's page views) are counted in SQL (visits.ts).
 */
class DomainDay {
  readonly pageViews = new Int32Array(24);
  readonly visitorRegs = new Registers();
  readonly addressRegs = new Registers();
  readonly hourVisitors = Array.from({ length: 24 }, () => new Registers());
  readonly hourAddresses = Array.from({ length: 24 }, () => new Registers());
  /** Per dimension (VISIT_DIMENSIONS), per key: page views and visitors. */
  readonly visits = VISIT_DIMENSIONS.map(() => new Map<string, Visit>());
  /** Visit keys folded into since the last write. */
  readonly touchedVisits = new Touched<Visit>();
  /** Folded into since the last write (`Touched`). */
  touched = false;

  pageView(hour: number, vreg: number, areg: number) {
    this.pageViews[hour]++;
    this.visitorRegs.add(vreg);
    this.addressRegs.add(areg);
    this.hourVisitors[hour].add(vreg);
    this.hourAddresses[hour].add(areg);
  }

  /**
   * A page view by `vreg`'s visitor, under `key` of the dimension `dim` (VISIT_DIMENSIONS' index). Returns the keys it
   * added (0 or 1), for the fold's count.
   */
  visit(dim: number, key: string, vreg: number): number {
    let added = 0;
    const v = entry(this.visits[dim], key, () => {
      added = 1;
      return { dim, key, pvs: 0, visitors: new Registers(), touched: false };
    });
    v.pvs++;
    v.visitors.add(vreg);
    this.touchedVisits.add(v);
    return added;
  }
}

/** An agent's channel's day for the attribution: page views, and the visitors and addresses of any of its events. */
export interface ChannelTraffic {
  pageViews: number;
  visitors: { encode(): Uint8Array };
  addresses: { encode(): Uint8Array };
}

/** The separator of the safe fields of a row (enums, numbers, the domain: none holds a tab). */
const TAB = '\t';

type Row = { f: string; keyword: string; path: string; referrer: string; channel: string; region: string };

/** An event as the fold takes it, from a row read (`fold`) or one this process stored (`stored`). */
interface FoldedEvent {
  type: string;
  /** On the day's wall clock. */
  hour: number;
  vreg: number;
  areg: number;
  objectType: string;
  objectId: number;
  results: number | null;
  cents: number | null;
  device: string;
  domain: string;
  keyword: string;
  path: string;
  referrer: string;
  channel: string;
  region: string;
}

/** An address's region as the reports show it: the province within China, else the country. */
const CHINA = ['中国', 'China', 'CN'];
const NO_PROVINCE = ['', '0', 'unknown'];
const regionOf = (country: string, province: string) =>
  CHINA.includes(country) && !NO_PROVINCE.includes(province) ? province : country;
const sqlList = (xs: string[]) => xs.map((x) => `'${x}'`).join(', ');
/** `regionOf` in SQL, over `stat_events`' columns. */
const REGION_SQL = `case when country in (${sqlList(CHINA)}) and province not in (${sqlList(NO_PROVINCE)})
  then province else country end`;

const QUARTER_MS = 15 * 60_000;

/**
 * One (tenant, day)'s figures, folded from its raw events in JavaScript, and kept between the rollup's runs (the
 * incremental rollup): `read` folds the day's events, whole or only those of the given batches,
 * `write` stores the rows of the keys it folded into since the last write. Folding a day's events in any number of
 * reads gives the figures of one read of them all (tests/api/stats-rollup.test.ts compares them), so a runner that
 * kept the day folds only what arrived since, and one that did not reads it whole.
 */
export class DayFold {
  readonly site = new DomainDay();
  readonly domains = new Map<string, DomainDay>([['', this.site]]);
  readonly keywords = new Map<string, Keyword>();
  /** Object type → id (0: the type's total) → figures. */
  readonly objects = new Map<string, Map<number, Figures>>();
  readonly channels = new Map<string, Channel>();
  /** The agents' traffic (attribution.ts): each event's channel, or that of the domain it came from when bound to one. */
  readonly traffic = new Map<string, { pageViews: number; visitors: Registers; addresses: Registers }>();
  /** The events folded so far, and by the last read (those folded ahead of it included). */
  events = 0;
  lastRead = 0;
  /** Batches folded as this process stored them (`stored`), and their events: the next read leaves them unread. */
  private readonly ahead = new Set<number>();
  private aheadEvents = 0;
  /** The events folded as they were stored, in all (tests). */
  foldedAhead = 0;
  /** The page views the last rollup grouped per visitor (visits.ts): the new batches' alone when incremental (tests). */
  visitsRead = 0;
  /** The hour of the day's wall clock per quarter of an hour since the epoch (`hourAt`). */
  private readonly hourCache = new Map<number, number>();
  /** The day's `stat_rolled_days.day_gen` once the transaction that wrote this fold committed (the runner sets it). */
  stamp: string | undefined;
  /**
   * The keys folded so far (keywords, channels, agents' traffic, objects, the domains' visit keys; each with its
   * sketches): what a fold kept between runs costs (fold-cache.ts). Counted as keys are added, because the cap reads
   * it on every batch stored, and a sum over the maps walks every domain's.
   */
  private keys = 0;
  get size(): number {
    return this.keys;
  }

  /** The movies and tags with views whose rows were written since `takeViewed` (their last day: seen.ts). */
  private viewed: { type: string; id: number }[] = [];

  private readonly touched = {
    keywords: new Touched<Keyword>(),
    objects: new Touched<Figures>(),
    domains: new Touched<DomainDay>(),
    channels: new Touched<Channel>(),
  };
  /**
   * Movies viewed or played since the last read began, for their tags (read once the movies are known): per movie, its
   * views, plays and players, which each of its tags adds to its own.
   */
  private movieEvents = new Map<number, { views: number; plays: number; players: Registers }>();
  private bound = new Map<string, string>();

  constructor(
    readonly tenant: number,
    readonly day: string,
    readonly timeZone: string,
  ) {}

  /**
   * Folds the day's events: those of `batches` (numbers from the fold queue) but the ones folded already as they were
   * stored (`stored`), or, without, every event of the day, but with `exceptQueued` those of batches still queued
   * (committed since the caller took the day's queue in its transaction: the next fold takes them). A tag counts the
   * views and plays of its movies as linked when they are read (those folded ahead included). In the caller's
   * transaction. Nothing kept grows with the day's visitors: what needs each visitor is counted in SQL (visits.ts).
   * The domains' bindings to channels (the agents' traffic of events without a channel) are read here, and serve the
   * events folded ahead until the next read.
   */
  async read(
    t: Executor,
    opts: {
      batches?: number[];
      exceptQueued?: boolean;
      fetchSize?: number;
      /** Called once the events are folded. */
      onFolded?: () => void;
    } = {},
  ) {
    const { tenant } = this;
    const fetchSize = opts.fetchSize ?? FETCH_ROWS;
    this.bound = new Map(
      rowsOf<{ hostname: string; channel: string }>(
        await t.execute(
          sql`select hostname, channel from domains where tenant = ${tenant} and coalesce(channel, '') <> ''`,
        ),
      ).map((b) => [String(b.hostname), String(b.channel)]),
    );
    // The batches this process folded as it stored them (`stored`) are not read again.
    const batches = opts.batches?.map((b) => Math.trunc(Number(b))).filter((b) => !this.ahead.delete(b));
    this.lastRead = this.aheadEvents;
    this.aheadEvents = 0;
    if (!batches || batches.length) await this.readEvents(t, batches, !!opts.exceptQueued, fetchSize);

    // The tags of the movies viewed or played: each tag counts its movies' views and plays (a movie of two tags in both).
    if (this.movieEvents.size) {
      const links = rowsOf<{ movie_id: number; tag_id: number }>(
        await t.execute(sql`select movie_id, tag_id from movie_tag_links
          where movie_id = any(${arrayParam([...this.movieEvents.keys()])}::int[])`),
      );
      for (const l of links) {
        const m = this.movieEvents.get(Number(l.movie_id));
        if (m) for (const id of [Number(l.tag_id), 0]) this.tagged(id, m);
      }
      this.movieEvents = new Map();
    }
    opts.onFolded?.();
  }

  /** A tag (0: the tags' total) counts a movie's views and plays, and its players among its viewers. */
  private tagged(id: number, movie: { views: number; plays: number; players: Registers }) {
    const byId = entry(this.objects, 'tag', () => new Map<number, Figures>());
    const f = this.figuresOf(byId, 'tag', id);
    f.n[OBJECT_COUNTS.pageview!] += movie.views;
    f.n[OBJECT_COUNTS.play!] += movie.plays;
    f.viewers.addAll(movie.players);
    this.touched.objects.add(f);
  }

  /** Folds the day's events read through a cursor: those of `batches`, or all (with `exceptQueued`, but queued ones). */
  private async readEvents(
    t: Executor,
    batches: number[] | undefined,
    exceptQueued: boolean,
    fetchSize: number,
  ) {
    const { tenant, day } = this;
    const tz = this.timeZone.replace(/'/g, "''");
    const dayText = day.replace(/'/g, "''");
    const which = batches
      ? `batch between ${batches.reduce((a, b) => (b < a ? b : a))} and ${batches.reduce((a, b) => (b > a ? b : a))} and batch = any('{${batches.join(',')}}'::bigint[])`
      : exceptQueued
        ? `(batch is null or not exists (select 1 from stat_fold_queue q where q.tenant = ${Number(tenant)}
          and q.day = '${dayText}'::date and q.batch = stat_events.batch))`
        : 'true';
    const name = `zg_day_${Math.floor(Math.random() * 1e9)}`;
    await t.execute(
      sql.raw(`declare ${name} no scroll cursor for
        select concat_ws('${TAB}', type, extract(hour from at at time zone '${tz}')::int,
            coalesce(visitor_reg, zg_hll_reg(visitor_hash)), coalesce(address_reg, zg_hll_reg(address_hash)),
            object_type, object_id, coalesce(results::text, ''), coalesce(amount::text, ''), device, domain) as f,
          keyword, path, referrer, channel, ${REGION_SQL} as region
        from stat_events where tenant = ${Number(tenant)} and day = '${dayText}'::date and ${which}`),
    );
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
      for (const r of rows) this.fold(r);
      if (rows.length < fetchSize) break;
    }
    await t.execute(sql.raw(`close ${name}`));
  }

  /** A row the cursor read: its fields as `stored` has them. */
  private fold(r: Row) {
    const [type, hour, vreg, areg, objectType, objectId, results, amount, device, domain] = r.f.split(TAB);
    this.lastRead++;
    this.foldEvent({
      type,
      hour: Number(hour),
      vreg: Number(vreg),
      areg: Number(areg),
      objectType,
      objectId: Number(objectId),
      results: results === '' ? null : Number(results),
      cents: amount === '' ? null : cents(amount),
      device,
      domain,
      keyword: r.keyword,
      path: r.path,
      referrer: r.referrer,
      channel: r.channel,
      region: r.region,
    });
  }

  /**
   * Folds the events of a batch this process has just stored (all of them new, all of this day: `storedBatch` in
   * fold-cache.ts) as a read of the stored rows would: the next run takes the batch from the queue without reading it
   * (`ahead`). The rows' hashes and registers are the server's (set).
   */
  stored(batch: number, rows: readonly EventRow[]) {
    for (const r of rows) {
      const ms = r.ms; // whole ms (toRow): the read's µs are these × 1000
      this.foldEvent({
        type: r.type,
        hour: this.hourAt(ms),
        vreg: r.visitorReg!,
        areg: r.addressReg!,
        objectType: r.objectType,
        objectId: r.objectId,
        results: r.results,
        cents: r.amount === null ? null : cents(r.amount),
        device: r.device,
        domain: r.domain,
        keyword: r.keyword,
        path: r.path,
        referrer: r.referrer,
        channel: r.channel,
        region: regionOf(r.country, r.province),
      });
    }
    this.ahead.add(batch);
    this.aheadEvents += rows.length;
    this.foldedAhead += rows.length;
  }

  /** The hour of an instant (ms) on the day's wall clock, kept per quarter of an hour where one hour holds it whole. */
  private hourAt(ms: number): number {
    const slot = Math.floor(ms / QUARTER_MS);
    let h = this.hourCache.get(slot);
    if (h === undefined) {
      h = hourOf(new Date(slot * QUARTER_MS), this.timeZone);
      if (h !== hourOf(new Date(slot * QUARTER_MS + QUARTER_MS - 1), this.timeZone))
        return hourOf(new Date(ms), this.timeZone); // the clock moved within it
      this.hourCache.set(slot, h);
    }
    return h;
  }

  private foldEvent(e: FoldedEvent) {
    const { type, vreg, objectType, domain, channel } = e;
    this.events++;
    const ch = entry(this.channels, channel, () => {
      this.keys++;
      return { key: channel, n: [0, 0, 0, 0, 0, 0], cents: 0, visitors: new Registers(), touched: false };
    });
    this.touched.channels.add(ch);
    const cc = CHANNEL_COUNTS[type];
    if (cc !== undefined) ch.n[cc]++;
    if (type === 'recharge' && e.cents !== null) ch.cents += e.cents;
    if (objectType !== '') {
      const id = e.objectId;
      this.objectEvent(objectType, id, type, vreg, e.cents);
      if (objectType === 'movie' && (type === 'pageview' || type === 'play')) {
        const m = entry(this.movieEvents, id, () => ({ views: 0, plays: 0, players: new Registers() }));
        if (type === 'play') {
          m.plays++;
          m.players.add(vreg);
        } else m.views++;
      }
    }
    if (type === 'search' && e.keyword !== '') {
      this.searched(e.keyword, e.results, vreg);
      this.searched('', e.results, vreg);
    }
    const areg = e.areg;
    const agent = channel !== '' ? channel : (this.bound.get(domain) ?? '');
    if (agent !== '') {
      const a = entry(this.traffic, agent, () => {
        this.keys++;
        return { pageViews: 0, visitors: new Registers(), addresses: new Registers() };
      });
      if (type === 'pageview') a.pageViews++;
      a.visitors.add(vreg);
      a.addresses.add(areg);
    }
    if (type !== 'pageview') return;
    ch.visitors.add(vreg);
    const h = e.hour;
    const dom = entry(this.domains, domain, () => new DomainDay());
    dom.pageView(h, vreg, areg);
    this.site.pageView(h, vreg, areg);
    this.touched.domains.add(dom);
    this.touched.domains.add(this.site);
    this.keys += // VISIT_DIMENSIONS' order
      dom.visit(0, e.path, vreg) +
      dom.visit(1, e.referrer, vreg) +
      dom.visit(2, e.device, vreg) +
      dom.visit(3, e.region, vreg) +
      dom.visit(4, channel, vreg);
  }

  /** An event concerning object `id` of `type`: counted for it, and for the type's total (id 0). */
  private objectEvent(type: string, id: number, kind: string, vreg: number, amount: number | null) {
    const byId = entry(this.objects, type, () => new Map<number, Figures>());
    this.objectFigures(byId, type, id, kind, vreg, amount);
    this.objectFigures(byId, type, 0, kind, vreg, amount);
  }

  private objectFigures(
    byId: Map<number, Figures>,
    type: string,
    id: number,
    kind: string,
    vreg: number,
    amount: number | null,
  ) {
    const f = this.figuresOf(byId, type, id);
    const c = OBJECT_COUNTS[kind];
    if (c !== undefined) f.n[c]++;
    if (kind === 'recharge' && amount !== null) f.cents += amount;
    // The movies' and tags' viewers are the visitors who played: counting every event (a page view, an ad on the
    // page) made them outnumber the views, and an operator reads 观看人数 as people who watched.
    if (kind === 'play') f.viewers.add(vreg);
    if (kind === 'ad_click') f.clickers.add(vreg);
    this.touched.objects.add(f);
  }

  private figuresOf(byId: Map<number, Figures>, type: string, id: number): Figures {
    return entry(byId, id, () => {
      this.keys++;
      return {
        type,
        id,
        n: [0, 0, 0, 0, 0, 0],
        cents: 0,
        viewers: new Registers(),
        clickers: new Registers(),
        touched: false,
      };
    });
  }

  private searched(keyword: string, results: number | null, vreg: number) {
    const k = entry(this.keywords, keyword, () => {
      this.keys++;
      return { key: keyword, touched: false, searches: 0, zero: 0, results: 0, searchers: new Registers() };
    });
    k.searches++;
    if (results !== null) {
      if (results === 0) k.zero++;
      k.results += results;
    }
    k.searchers.add(vreg);
    this.touched.keywords.add(k);
  }

  /** The movies and tags viewed, as written since the last call. */
  takeViewed() {
    const viewed = this.viewed;
    this.viewed = [];
    return viewed;
  }

  /**
   * Stores the rows of every key folded into since the last write: inserted, or updated in place (a key's figures only
   * grow as events are folded). `whole` first deletes the day's rows (a fold read whole replaces the day). Returns the
   * domains whose daily sketches it wrote (`whole`: every domain's), for their blocks (blocks.ts `foldDomainDay`).
   */
  async write(t: Executor, opts: { whole: boolean }): Promise<string[]> {
    const { tenant, day } = this;
    // A day's keywords read whole are written over their rows, unchanged ones left as they are, and the others of the
    // day deleted after: each change of a keyword's row adds to the blocks holding the day (stat_keyword_blocks'
    // triggers), and a day rolled up whole again mostly changes nothing.
    if (opts.whole)
      for (const table of DAY_FIGURE_TABLES)
        if (table !== 'stat_keyword_daily')
          await t.execute(sql`delete from ${sql.raw(table)} where tenant = ${tenant} and day = ${day}::date`);
    const touched = this.touched;
    const sk = sketchOf(opts.whole);
    const sketched = await writeDomains(
      t,
      tenant,
      day,
      [...this.domains].filter(([, dom]) => dom.touched),
      sk,
    );

    const ks = touched.keywords.items.map((k) => [k.key, k] as const);
    if (ks.length)
      await t.execute(sql`insert into stat_keyword_daily as w (tenant, day, keyword, searches, zero_results, results_sum, searchers)
        select ${tenant}, ${day}::date, k, s, z, r, ${unhex('h')}
        from unnest(${arrayParam(ks.map(([k]) => k))}::text[], ${arrayParam(ks.map(([, v]) => v.searches))}::int[],
          ${arrayParam(ks.map(([, v]) => v.zero))}::int[], ${arrayParam(ks.map(([, v]) => v.results))}::bigint[],
          ${arrayParam(ks.map(([, v]) => sk(v.searchers)))}::text[]) as u(k, s, z, r, h)
        on conflict (tenant, day, keyword) do update set searches = excluded.searches,
          zero_results = excluded.zero_results, results_sum = excluded.results_sum,
          searchers = ${sentOrStored('w', 'searchers')}
        where (w.searches, w.zero_results, w.results_sum) <> (excluded.searches, excluded.zero_results, excluded.results_sum)
          or (octet_length(excluded.searchers) > 0 and w.searchers <> excluded.searchers)`);
    if (opts.whole)
      await t.execute(sql`delete from stat_keyword_daily where tenant = ${tenant} and day = ${day}::date
        and keyword <> all(${arrayParam(ks.map(([k]) => k))}::text[])`);

    const os = touched.objects.items;
    for (const o of os)
      if (o.id > 0 && o.n[0] > 0 && SEEN.has(o.type)) this.viewed.push({ type: o.type, id: o.id });
    if (os.length) {
      const col = (i: number) => arrayParam(os.map((o) => o.n[i]));
      await t.execute(sql`insert into stat_object_daily (tenant, day, object_type, object_id, views, plays, clicks,
          impressions, signups, recharges, recharge_amount, viewers, clickers)
        select ${tenant}, ${day}::date, ot, oi, v, pl, c, i, s, r, a, ${unhex('vh')}, ${unhex('ch')}
        from unnest(${arrayParam(os.map((o) => o.type))}::text[], ${arrayParam(os.map((o) => o.id))}::int[],
          ${col(0)}::int[], ${col(1)}::int[], ${col(2)}::int[], ${col(3)}::int[], ${col(4)}::int[], ${col(5)}::int[],
          ${arrayParam(os.map((o) => money(o.cents)))}::numeric[], ${arrayParam(os.map((o) => sk(o.viewers)))}::text[],
          ${arrayParam(os.map((o) => sk(o.clickers)))}::text[]) as u(ot, oi, v, pl, c, i, s, r, a, vh, ch)
        on conflict (tenant, object_type, day, object_id) do update set views = excluded.views, plays = excluded.plays,
          clicks = excluded.clicks, impressions = excluded.impressions, signups = excluded.signups,
          recharges = excluded.recharges, recharge_amount = excluded.recharge_amount,
          viewers = ${sentOrStored('stat_object_daily', 'viewers')}, clickers = ${sentOrStored('stat_object_daily', 'clickers')}`);
    }

    const vs = [...this.domains]
      .filter(([domain]) => domain !== '')
      .flatMap(([domain, dom]) => dom.touchedVisits.items.map((v) => ({ domain, v })));
    for (const dom of this.domains.values()) dom.touchedVisits.clear();
    if (vs.length)
      await t.execute(sql`insert into stat_visit_daily (tenant, day, domain, dimension, key, page_views, visitors)
        select ${tenant}, ${day}::date, d, m, k, n, ${unhex('h')}
        from unnest(${arrayParam(vs.map((x) => x.domain))}::text[],
          ${arrayParam(vs.map((x) => VISIT_DIMENSIONS[x.v.dim]))}::text[],
          ${arrayParam(vs.map((x) => x.v.key))}::text[], ${arrayParam(vs.map((x) => x.v.pvs))}::int[],
          ${arrayParam(vs.map((x) => sk(x.v.visitors)))}::text[]) as u(d, m, k, n, h)
        on conflict (tenant, domain, dimension, day, key) do update set page_views = excluded.page_views,
          visitors = ${sentOrStored('stat_visit_daily', 'visitors')}`);

    if (touched.channels.items.length) {
      const cs = touched.channels.items.map((c) => [c.key, c] as const);
      const col = (i: number) => arrayParam(cs.map(([, c]) => c.n[i]));
      await t.execute(sql`insert into stat_channel_daily (tenant, day, channel, page_views, plays, ad_impressions, ad_clicks,
          signups, recharges, recharge_amount, visitors)
        select ${tenant}, ${day}::date, c, pv, pl, ai, ac, s, r, a, ${unhex('h')}
        from unnest(${arrayParam(cs.map(([k]) => k))}::text[], ${col(0)}::int[], ${col(1)}::int[], ${col(2)}::int[],
          ${col(3)}::int[], ${col(4)}::int[], ${col(5)}::int[], ${arrayParam(cs.map(([, c]) => money(c.cents)))}::numeric[],
          ${arrayParam(cs.map(([, c]) => sk(c.visitors)))}::text[]) as u(c, pv, pl, ai, ac, s, r, a, h)
        on conflict (tenant, day, channel) do update set page_views = excluded.page_views, plays = excluded.plays,
          ad_impressions = excluded.ad_impressions, ad_clicks = excluded.ad_clicks, signups = excluded.signups,
          recharges = excluded.recharges, recharge_amount = excluded.recharge_amount,
          visitors = ${sentOrStored('stat_channel_daily', 'visitors')}`);
    }
    touched.keywords.clear();
    touched.objects.clear();
    touched.domains.clear();
    touched.channels.clear();
    return sketched;
  }
}

/**
 * A sketch as a write sends it: its stored form in hex, or null when it has not changed since the last write (a fold
 * kept between runs writes again every key folded into, most of whose sketches, 16 KB each once dense, stay the same
 * as the visitors come again). `whole`: every sketch (the day's rows were deleted first).
 */
const sketchOf = (whole: boolean) => (r: Registers) => (r.changedSince() || whole ? toHex(r.encode()) : null);
/** A sent sketch as stored: null (unchanged) as the empty sketch, which `sentOrStored` leaves as it was. */
const unhex = (column: string) => sql.raw(`decode(coalesce(${column}, ''), 'hex')`);
/**
 * A sketch column's value on a conflict: the sketch sent, or the one stored when none was sent (empty). Sketches only
 * grow, so an empty one sent for a key whose sketch truly is empty leaves the stored one, also empty.
 */
const sentOrStored = (table: string, column: string) =>
  sql.raw(
    `case when octet_length(excluded.${column}) = 0 then ${table}.${column} else excluded.${column} end`,
  );

/**
 * The domains' daily and hourly rows of `domains`: page views, visits (a visitor in the day or hour), bounces (one page
 * view in it), new visitors (first seen this day), and the visitors' and addresses' sketches. A row is written again
 * whole (an hour's visits never go back to none). Returns the domains whose daily sketches were sent.
 */
async function writeDomains(
  t: Executor,
  tenant: number,
  day: string,
  domains: [string, DomainDay][],
  regs: (r: Registers) => string | null,
): Promise<string[]> {
  const sum = (dom: DomainDay) => dom.pageViews.reduce((s, n) => s + n, 0);
  const daily = domains
    .filter(([, dom]) => sum(dom) > 0)
    .map(([d, x]) => ({ d, x, vh: regs(x.visitorRegs), ah: regs(x.addressRegs) }));
  if (!daily.length) return [];
  const hourly = daily.flatMap(({ d: domain, x: dom }) =>
    Array.from({ length: 24 }, (_, hour) => ({ domain, dom, hour })).filter((x) => dom.pageViews[x.hour] > 0),
  );
  await t.execute(sql`insert into stat_domain_daily (tenant, day, domain, page_views, visitors, addresses)
    select ${tenant}, ${day}::date, d, pv, ${unhex('vh')}, ${unhex('ah')}
    from unnest(${arrayParam(daily.map((r) => r.d))}::text[], ${arrayParam(daily.map((r) => sum(r.x)))}::int[],
      ${arrayParam(daily.map((r) => r.vh))}::text[], ${arrayParam(daily.map((r) => r.ah))}::text[]) as u(d, pv, vh, ah)
    on conflict (tenant, day, domain) do update set page_views = excluded.page_views,
      visitors = ${sentOrStored('stat_domain_daily', 'visitors')}, addresses = ${sentOrStored('stat_domain_daily', 'addresses')}`);
  await t.execute(sql`insert into stat_domain_hourly (tenant, day, domain, hour, page_views, visitors, addresses)
    select ${tenant}, ${day}::date, d, hr, pv, ${unhex('vh')}, ${unhex('ah')}
    from unnest(${arrayParam(hourly.map((h) => h.domain))}::text[], ${arrayParam(hourly.map((h) => h.hour))}::smallint[],
      ${arrayParam(hourly.map((h) => h.dom.pageViews[h.hour]))}::int[],
      ${arrayParam(hourly.map((h) => regs(h.dom.hourVisitors[h.hour])))}::text[],
      ${arrayParam(hourly.map((h) => regs(h.dom.hourAddresses[h.hour])))}::text[]) as u(d, hr, pv, vh, ah)
    on conflict (tenant, domain, day, hour) do update set page_views = excluded.page_views,
      visitors = ${sentOrStored('stat_domain_hourly', 'visitors')}, addresses = ${sentOrStored('stat_domain_hourly', 'addresses')}`);
  return daily.filter((r) => r.vh !== null || r.ah !== null).map((r) => r.d);
}
