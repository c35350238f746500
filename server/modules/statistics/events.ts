import { z } from '@hono/zod-openapi';
import { isbot } from 'isbot';
import UAParser from 'ua-parser-js';
import { dayOf } from '../../../common/period';
import { PG_INT_MAX } from '../../core/crud';
import type { StatEvent } from '../statistics-settings';

/** The event types of the ingestion contract, and the statistics setting that switches each off (none: always on). */
export const EVENT_TYPES = [
  'pageview',
  'play',
  'search',
  'ad_impression',
  'ad_click',
  'tag_click',
  'signup',
  'recharge',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export const SETTING_OF: Partial<Record<EventType, StatEvent>> = {
  pageview: 'pageView',
  play: 'play',
  search: 'search',
  ad_impression: 'adImpression',
  ad_click: 'adClick',
  tag_click: 'tagClick',
};
export const OBJECT_TYPES = ['movie', 'novel', 'chapter', 'actress', 'tag', 'ad', 'position'] as const;
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

export interface ParsedAgent {
  bot: boolean;
  device: string;
  browser: string;
  os: string;
}

/** Parsing a user agent is the costly part of an event; the same few strings come again and again. */
const agents = new Map<string, ParsedAgent>();
const AGENT_CACHE = 5000;

/** Bot (isbot's maintained list), device class, browser and OS of a user agent, cached per string. */
export function parseAgent(ua: string): ParsedAgent {
  const hit = agents.get(ua);
  if (hit) return hit;
  let parsed: ParsedAgent;
  if (!ua) parsed = { bot: false, device: 'unknown', browser: '', os: '' };
  else {
    const r = new UAParser(ua).getResult();
    const type = r.device.type;
    parsed = {
      bot: isbot(ua),
      device: type === 'mobile' || type === 'tablet' ? type : type ? 'other' : 'desktop',
      browser: (r.browser.name ?? '').slice(0, 32),
      os: (r.os.name ?? '').slice(0, 32),
    };
  }
  if (agents.size >= AGENT_CACHE) agents.clear();
  agents.set(ua, parsed);
  return parsed;
}

/** Where an address is, from an offline database (Node: ip2region); demo mode and tests have none. */
export type RegionLookup = (address: string) => { country: string; province: string };
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
export function referrerHost(referrer: string | undefined, domain: string): string {
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
export const normalizeKeyword = (k: string) => k.trim().replace(/\s+/g, ' ').toLowerCase().slice(0, 100);

/** A row of `stat_events` before hashing (SQL hashes the visitor and the address on insert). */
export interface EventRow {
  day: string;
  id: string;
  type: EventType;
  at: string;
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
}

/** An accepted event as stored: its day in the tenant's time zone, agent and region resolved. */
export function toRow(
  e: EventInput,
  agent: ParsedAgent,
  address: string,
  region: RegionLookup,
  timeZone: string,
): EventRow {
  const at = new Date(e.time);
  const { country, province } = address ? region(address) : { country: UNKNOWN, province: UNKNOWN };
  return {
    day: dayOf(at, timeZone),
    id: e.id,
    type: e.type,
    at: at.toISOString(),
    domain: e.domain,
    path: e.path.split('#')[0].slice(0, 512),
    referrer: referrerHost(e.referrer, e.domain),
    device: agent.device,
    browser: agent.browser,
    os: agent.os,
    country: (country || UNKNOWN).slice(0, 32),
    province: (province || UNKNOWN).slice(0, 32),
    address,
    visitor: e.visitor,
    channel: e.channel ?? '',
    objectType: e.object?.type ?? '',
    objectId: e.object?.id ?? 0,
    keyword: e.type === 'search' ? normalizeKeyword(e.keyword ?? '') : '',
    results: e.type === 'search' ? (e.results ?? null) : null,
    amount: e.type === 'recharge' && e.amount !== undefined ? e.amount.toFixed(2) : null,
  };
}
