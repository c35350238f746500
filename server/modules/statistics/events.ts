import { z } from '@hono/zod-openapi';
import { isbot } from 'isbot';
import UAParser from 'ua-parser-js';
import { dayOf } from '../../../common/period';
import { PG_INT_MAX } from '../../core/crud';
import { memo } from '../../core/maps';
import { copyField } from '../../db/copy-in';
import type { StatEvent } from '../statistics-settings';

/** The event types of the ingestion contract, and the statistics setting that switches each off (none: always on). */
const EVENT_TYPES = [
  'pageview',
  'play',
  'search',
  'ad_impression',
  'ad_click',
  'tag_click',
  'signup',
  'recharge',
] as const;
type EventType = (typeof EVENT_TYPES)[number];
export const SETTING_OF: Partial<Record<EventType, StatEvent>> = {
  pageview: 'pageView',
  play: 'play',
  search: 'search',
  ad_impression: 'adImpression',
  ad_click: 'adClick',
  tag_click: 'tagClick',
};
/**
 * What the browser key may send (DESIGN.md decision 11): anonymous traffic. Signups and recharges move money or name a
 * member and come signed from the site's server, as do the fields only it may set: the visitor's address (a browser's
 * is its connection's) and an amount.
 */
export const BROWSER_TYPES: ReadonlySet<string> = new Set<EventType>([
  'pageview',
  'play',
  'search',
  'ad_impression',
  'ad_click',
  'tag_click',
]);
export const SERVER_FIELDS = ['ip', 'amount'] as const;
const OBJECT_TYPES = ['movie', 'novel', 'chapter', 'actress', 'tag', 'ad', 'position'] as const;
export const MAX_BATCH = 500;

const text = (max: number) => z.string().trim().max(max);

/** One event as the content site sends it (the contract in CONTRACT.md). */
export const EventInput = z
  .object({
    id: z
      .string()
      .min(8)
      .max(64)
      .regex(/^[A-Za-z0-9_.:-]+$/),
    type: z.enum(EVENT_TYPES),
    time: z
      .string()
      .max(40)
      .refine((s) => /^\d{4}-\d{2}-\d{2}T/.test(s) && !Number.isNaN(Date.parse(s)), {
        params: { key: 'field.datetime' },
      }),
    domain: z
      .string()
      .trim()
      .toLowerCase()
      .min(1)
      .max(253)
      .regex(/^[a-z0-9.-]+(:\d{1,5})?$/),
    path: text(512).refine((s) => s.startsWith('/'), { params: { key: 'stats.path' } }),
    referrer: text(2048).optional(),
    ua: text(1024).optional(),
    ip: z
      .string()
      .trim()
      .max(45)
      .regex(/^[0-9A-Fa-f:.]+$/)
      .optional(),
    visitor: z.string().trim().min(1).max(64),
    channel: text(64).optional(),
    object: z
      .object({ type: z.enum(OBJECT_TYPES), id: z.number().int().positive().max(PG_INT_MAX) })
      .optional(),
    keyword: text(100).optional(),
    results: z.number().int().min(0).max(PG_INT_MAX).optional(),
    amount: z.number().min(0).max(999_999_999_999).optional(),
  })
  .strict()
  .superRefine((e, ctx) => {
    if (e.type === 'search' && !e.keyword)
      ctx.addIssue({ code: 'custom', path: ['keyword'], params: { key: 'field.required' } });
    if (e.type === 'recharge' && e.amount === undefined)
      ctx.addIssue({ code: 'custom', path: ['amount'], params: { key: 'field.required' } });
  })
  .openapi('StatEvent');
export type EventInput = z.infer<typeof EventInput>;

const EVENT_KEYS = new Set(Object.keys(EventInput.shape));
const TYPE_SET = new Set<string>(EVENT_TYPES);
const OBJECT_SET = new Set<string>(OBJECT_TYPES);
const ID_RE = /^[A-Za-z0-9_.:-]+$/;
const DOMAIN_RE = /^[a-z0-9.-]+(:\d{1,5})?$/;
const IP_RE = /^[0-9A-Fa-f:.]+$/;
const TIME_RE = /^\d{4}-\d{2}-\d{2}T/;
/**
 * `Date.parse(time)`, the last one kept: the ingestion checks an event's time (`fastEvent`) and then uses it, and
 * parsing it is not free.
 */
let lastText = '';
let lastMs = Number.NaN;
export function timeOf(text: string): number {
  if (text !== lastText) {
    lastText = text;
    lastMs = Date.parse(text);
  }
  return lastMs;
}

/** A trimmed string of at most `max` characters; `false` when absent, null when not (zod says why). */
function trimmed(v: unknown, max: number): string | false | null {
  if (v === undefined) return false;
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t.length <= max ? t : null;
}
const int = (v: unknown, min: number) =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= PG_INT_MAX;

/**
 * `EventInput.parse` for events that pass every rule, at a fraction of its cost (the ingestion's hot path): the same
 * value, or undefined whenever anything is off (then the caller asks zod, for its exact errors). Never more lenient
 * than the schema: tests/api/stats-events.test.ts checks both agree on random events.
 */
export function fastEvent(raw: unknown): EventInput | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return;
  const r = raw as Record<string, unknown>;
  for (const k in r) if (!EVENT_KEYS.has(k)) return;
  const { id, type, time } = r;
  if (typeof id !== 'string' || id.length < 8 || id.length > 64 || !ID_RE.test(id)) return;
  if (typeof type !== 'string' || !TYPE_SET.has(type)) return;
  if (typeof time !== 'string' || time.length > 40 || !TIME_RE.test(time) || Number.isNaN(timeOf(time)))
    return;
  const trimmedDomain = trimmed(r.domain, 253);
  if (!trimmedDomain) return;
  const domain = trimmedDomain.toLowerCase();
  if (!DOMAIN_RE.test(domain)) return;
  const path = trimmed(r.path, 512);
  if (typeof path !== 'string' || !path.startsWith('/')) return;
  const visitor = trimmed(r.visitor, 64);
  if (!visitor) return;
  const out: EventInput = {
    id,
    type: type as EventType,
    time,
    domain,
    path,
    visitor,
  };
  const referrer = trimmed(r.referrer, 2048);
  const ua = trimmed(r.ua, 1024);
  const channel = trimmed(r.channel, 64);
  const keyword = trimmed(r.keyword, 100);
  if (referrer === null || ua === null || channel === null || keyword === null) return;
  if (referrer !== false) out.referrer = referrer;
  if (ua !== false) out.ua = ua;
  if (channel !== false) out.channel = channel;
  if (keyword !== false) out.keyword = keyword;
  if (r.ip !== undefined) {
    const ip = trimmed(r.ip, 45);
    if (!ip || !IP_RE.test(ip)) return;
    out.ip = ip;
  }
  if (r.object !== undefined) {
    const o = r.object as Record<string, unknown>;
    if (typeof o !== 'object' || o === null || Array.isArray(o) || Object.keys(o).length !== 2) return;
    if (typeof o.type !== 'string' || !OBJECT_SET.has(o.type) || !int(o.id, 1)) return;
    out.object = { type: o.type as (typeof OBJECT_TYPES)[number], id: o.id as number };
  }
  if (r.results !== undefined) {
    if (!int(r.results, 0)) return;
    out.results = r.results as number;
  }
  if (r.amount !== undefined) {
    if (
      typeof r.amount !== 'number' ||
      !Number.isFinite(r.amount) ||
      r.amount < 0 ||
      r.amount > 999_999_999_999
    )
      return;
    out.amount = r.amount;
  }
  if (type === 'search' && !out.keyword) return;
  if (type === 'recharge' && out.amount === undefined) return;
  return out;
}

interface ParsedAgent {
  bot: boolean;
  device: string;
  browser: string;
  os: string;
  /** Device, browser and OS as fields of COPY's text format (`CopyParts.agent`). */
  copy: string;
}

/** Parsing a user agent is the costly part of an event; the same few strings come again and again. */
const AGENT_CACHE = 5000;

/** Bot (isbot's maintained list), device class, browser and OS of a user agent, cached per string. */
export const parseAgent = memo(AGENT_CACHE, (ua: string): ParsedAgent => {
  const agent = (bot: boolean, device: string, browser: string, os: string): ParsedAgent => ({
    bot,
    device,
    browser,
    os,
    copy: `${device}\t${copyField(browser)}\t${copyField(os)}`,
  });
  if (!ua) return agent(false, 'unknown', '', '');
  const r = new UAParser(ua).getResult();
  const type = r.device.type;
  return agent(
    isbot(ua),
    type === 'mobile' || type === 'tablet' ? type : type ? 'other' : 'desktop',
    (r.browser.name ?? '').slice(0, 32),
    (r.os.name ?? '').slice(0, 32),
  );
});

/** Where an address is, from an offline database (Node: ip2region); demo mode and tests have none. */
export type RegionLookup = (address: string) => Region;
export interface Region {
  country: string;
  province: string;
}
export const UNKNOWN = 'unknown';
export const noRegion: RegionLookup = () => ({ country: UNKNOWN, province: UNKNOWN });

/** A visitor id's bucket 0–99 (FNV-1a): sampling keeps or drops all of one visitor's events together. */
export function sampleBucket(visitor: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < visitor.length; i++) {
    h ^= visitor.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % 100;
}

/** The host of a referrer URL ('' for none or for the site's own domain). */
function referrerHost(referrer: string | undefined, domain: string): string {
  if (!referrer) return '';
  let host: string;
  try {
    host = new URL(referrer).hostname.toLowerCase();
  } catch {
    host = referrer
      .toLowerCase()
      .replace(/^[a-z]+:\/\//, '')
      .split(/[/?#]/)[0];
  }
  host = host.slice(0, 253);
  return host === domain.split(':')[0] ? '' : host;
}

/** A search keyword as it is counted: trimmed, inner blanks collapsed, Latin letters lower-cased. */
const normalizeKeyword = (k: string) => k.trim().replace(/\s+/g, ' ').toLowerCase().slice(0, 100);

/** A row of `stat_events` before hashing (SQL hashes the visitor and the address on insert unless given here). */
export interface EventRow {
  day: string;
  id: string;
  type: EventType;
  /** The event's time as ISO 8601 text (`toISOString`'s), and as ms since the epoch. */
  at: string;
  ms: number;
  domain: string;
  path: string;
  referrer: string;
  device: string;
  browser: string;
  os: string;
  country: string;
  province: string;
  address: string;
  visitor: string;
  channel: string;
  objectType: string;
  objectId: number;
  keyword: string;
  results: number | null;
  amount: string | null;
  /**
   * The visitor's and the address's hashes (the signed 64-bit number SQL's `zg_hash64` gives, as text) and registers
   * (sketch.ts `hexRegister`), or null: SQL's.
   */
  visitorHash: string | null;
  visitorReg: number | null;
  addressHash: string | null;
  addressReg: number | null;
  /** Runs of this row's fields as COPY's text, worked out once per agent, address and visitor (ingest.ts). */
  copy?: CopyParts;
}

/**
 * Three runs of an event's fields in COPY's text format (tab-separated, escaped), each made once for the many events
 * that share it: `agent` device, browser and OS; `place` country, province, address, its hash and register; `visitor`
 * the visitor, its hash and register.
 */
export interface CopyParts {
  agent: string;
  place: string;
  visitor: string;
}

/** A region as stored: unknown for none, at most 32 characters. */
export const storedPlace = ({ country, province }: Region): Region => ({
  country: (country || UNKNOWN).slice(0, 32),
  province: (province || UNKNOWN).slice(0, 32),
});

/** An event's time: its day in a time zone, ms since the epoch, and ISO 8601 text as `toISOString` writes it. */
interface EventTime {
  day: string;
  ms: number;
  iso: string;
}

/**
 * An instant's `EventTime` in `timeZone`, the day and the text up to the second worked out once per second: a day
 * starts on a whole second in every zone (offsets are whole seconds), the events of a batch come many a second, and
 * formatting an instant, in a zone or as ISO 8601, is the costliest step left per event.
 */
export function eventClock(timeZone: string): (ms: number) => EventTime {
  const seconds = new Map<number, { day: string; iso: string }>();
  return (ms) => {
    const s = Math.floor(ms / 1000);
    let second = seconds.get(s);
    if (second === undefined) {
      const iso = new Date(s * 1000).toISOString();
      second = { day: dayOf(new Date(s * 1000), timeZone), iso: iso.slice(0, iso.length - 4) }; // less '000Z'
      seconds.set(s, second);
    }
    const m = ms - s * 1000;
    return { day: second.day, ms, iso: `${second.iso}${m < 10 ? '00' : m < 100 ? '0' : ''}${m}Z` };
  };
}

/**
 * An accepted event as stored: its time (`time`: its day in the tenant's time zone, ms since the epoch and ISO 8601
 * text, as the caller worked them out), agent and region (`place`, as stored: `storedPlace`; unknown for no address)
 * resolved.
 */
export function toRow(
  e: EventInput,
  agent: ParsedAgent,
  address: string,
  place: Region,
  time: EventTime,
): EventRow {
  const { country, province } = place;
  return {
    day: time.day,
    id: e.id,
    type: e.type,
    at: time.iso,
    ms: time.ms,
    domain: e.domain,
    path: e.path.split('#')[0].slice(0, 512),
    referrer: referrerHost(e.referrer, e.domain),
    device: agent.device,
    browser: agent.browser,
    os: agent.os,
    country,
    province,
    address,
    visitor: e.visitor,
    channel: e.channel ?? '',
    objectType: e.object?.type ?? '',
    objectId: e.object?.id ?? 0,
    keyword: e.type === 'search' ? normalizeKeyword(e.keyword ?? '') : '',
    results: e.type === 'search' ? (e.results ?? null) : null,
    amount: e.type === 'recharge' && e.amount !== undefined ? e.amount.toFixed(2) : null,
    visitorHash: null,
    visitorReg: null,
    addressHash: null,
    addressReg: null,
  };
}
