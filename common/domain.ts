/**
 * Domain rules both sides check: the API before it stores a hostname, the store's paste box before it
 * sends thousands of lines. Internationalised names become ASCII (punycode) through the WHATWG URL parser, which
 * Node and browsers both have; the public suffix (which part is the registrable domain) is the API's job (tldts).
 */

import { internalHostname } from './hosts';

export const DOMAIN_ROLES = ['main', 'landing', 'channel', 'backup'] as const;
export type DomainRole = (typeof DOMAIN_ROLES)[number];

/** active: serving traffic; standby: ready to replace one; blocked/expired/retired: never answered by resolve. */
export const DOMAIN_STATUSES = ['active', 'standby', 'blocked', 'expired', 'retired'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

/** What a change in the history was. */
export const HISTORY_ACTIONS = [
  'import',
  'create',
  'edit',
  'status',
  'move',
  'retire',
  'delete',
  'swap',
  'replace',
  'health',
  'expire',
] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

export const MAX_HOSTNAME = 253;
export const MAX_LABEL = 63;
/** One import takes at most this many lines (the paste box says so before sending). */
export const MAX_IMPORT_LINES = 20_000;
export const MAX_WEIGHT = 1000;
export const CHANNEL_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Why a line is not a hostname (message keys `domain.host.<reason>` on both sides). */
export type HostError = 'empty' | 'wildcard' | 'ip' | 'tooLong' | 'label' | 'invalid' | 'single' | 'internal';

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const LABEL = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

/**
 * A pasted line → its ASCII hostname, or why not. Accepts a bare name or a URL (its host is taken), upper case and a
 * trailing dot; refuses wildcards, IP literals, names without a dot, labels over 63 characters or with other
 * characters than letters, digits and inner hyphens, names over 253 characters, and names of the inside
 * (`internal`: common/hosts.ts; the API lets the admin's allow-list through, hence the host beside that error).
 */
export function normalizeHostname(line: string): { host: string } | { error: HostError; host?: string } {
  let s = line.trim();
  if (!s) return { error: 'empty' };
  if (s.includes('*')) return { error: 'wildcard' };
  if (s.startsWith('[') || (s.match(/:/g)?.length ?? 0) > 1) return { error: 'ip' };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) {
    try {
      s = new URL(s).hostname;
    } catch {
      return { error: 'invalid' };
    }
  }
  if (/[\s/?#@:\\]/.test(s)) return { error: 'invalid' };
  s = s.replace(/\.$/, '');
  if (IPV4.test(s)) return { error: 'ip' };
  let host: string;
  try {
    host = new URL(`http://${s}`).hostname;
  } catch {
    return { error: 'invalid' };
  }
  // The parser also reads 0x7f.1, 2130706433 and the like as addresses.
  if (IPV4.test(host) || host.startsWith('[')) return { error: 'ip' };
  host = host.replace(/\.$/, '');
  if (host.length > MAX_HOSTNAME) return { error: 'tooLong' };
  const labels = host.split('.');
  if (labels.length < 2) return { error: 'single' };
  for (const label of labels) {
    if (!label || label.length > MAX_LABEL || !LABEL.test(label)) return { error: 'label' };
  }
  if (/^\d+$/.test(labels[labels.length - 1])) return { error: 'invalid' };
  // The health checker would call into the server's own network (foo.localhost, a.127.0.0.1.nip.io…).
  if (internalHostname(host)) return { error: 'internal', host };
  return { host };
}

export interface PasteLine {
  /** 1-based line number in the paste. */
  line: number;
  input: string;
  host?: string;
  error?: HostError | 'duplicate' | 'exists' | 'suffix';
  /** For a duplicate in the paste: the line that had it first. */
  firstLine?: number;
}

/**
 * Reads a paste line by line: blank lines and `#` comments are skipped; each other line is a hostname, invalid, or
 * a duplicate of an earlier line (after normalisation, so `例子.cn` and `xn--fsqu00a.cn` are the same).
 */
export function parsePaste(text: string): { lines: PasteLine[]; hosts: string[] } {
  const lines: PasteLine[] = [];
  const hosts: string[] = [];
  const seen = new Map<string, number>();
  const raw = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < raw.length; i++) {
    const input = raw[i].trim();
    if (!input || input.startsWith('#')) continue;
    const r = normalizeHostname(input);
    if ('error' in r) {
      lines.push({ line: i + 1, input, host: r.host, error: r.error });
      continue;
    }
    const first = seen.get(r.host);
    if (first !== undefined) {
      lines.push({ line: i + 1, input, host: r.host, error: 'duplicate', firstLine: first });
      continue;
    }
    seen.set(r.host, i + 1);
    lines.push({ line: i + 1, input, host: r.host });
    hosts.push(r.host);
  }
  return { lines, hosts };
}

/**
 * Pool runway: standby domains ÷ domains retired per day over the last 30 days = days left (null: none retired, so
 * no end in sight).
 */
export function runwayDays(standby: number, retiredLast30Days: number): number | null {
  if (retiredLast30Days <= 0) return null;
  return Math.floor((standby / (retiredLast30Days / 30)) * 10) / 10;
}
