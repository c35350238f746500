/**
 * Comments and the guestbook: targets, kinds, filter limits, and the filter's rules that the API runs
 * on every post and the rule trial shows: how a text is normalised before words are matched, the word automaton,
 * and address blacklist entries (single addresses, IPv4 and IPv6 CIDR ranges). Pure: the traditional → simplified
 * table is passed in (the server gives it opencc-js's); look-alike folding is common/fold.ts.
 */

import { foldChar } from './fold';

/** What a comment is about. */
export const COMMENT_TARGETS = ['movie', 'novel', 'chapter', 'actress'] as const;
export type CommentTarget = (typeof COMMENT_TARGETS)[number];

/** A guestbook entry is a message, or a report that a movie's video is broken (linked to the movie). */
export const GUESTBOOK_KINDS = ['message', 'broken'] as const;
export type GuestbookKind = (typeof GUESTBOOK_KINDS)[number];

/** The two modules the filter has settings for. */
export const FILTER_MODULES = ['comment', 'guestbook'] as const;
export type FilterModule = (typeof FILTER_MODULES)[number];

export const MAX_CONTENT = 2000;
export const MAX_WORDS = 20_000;
export const MAX_WORD_LENGTH = 32;
export const MAX_BLACKLIST = 5000;
/** At most this many past items are tried or applied by one rule trial (the newest first). */
export const TRIAL_LIMIT = 5000;

/** What the filter decides for one text: blocked (refused), held for review, masked, or passed as it is. */
export type FilterOutcome = 'block' | 'hold' | 'mask' | 'pass';

// ---------------------------------------------------------------------------------------------------------------
// Normalisation

/** Maps one (already half-width, lower-case) character to its simplified form; identity by default. */
export type VariantMap = (ch: string) => string;

/**
 * Characters that never count inside a word: punctuation, symbols, separators, controls and the invisible ones
 * (format characters such as zero-width spaces and joiners, BOM, soft hyphen; variation selectors). '视,频', '视 频', '视​频', '视★频' all
 * read as '视频'.
 */
const IGNORED_CLASS = /[\p{P}\p{S}\p{Z}\p{C}\s]/u;
const ignored = (ch: string) => {
  const code = ch.codePointAt(0)!;
  return IGNORED_CLASS.test(ch) || (code >= 0xfe00 && code <= 0xfe0f) || (code >= 0xe0100 && code <= 0xe01ef);
};

const identity: VariantMap = (c) => c;
/** Each character's normalised form ('' when ignored), per variant map: a text repeats its characters. */
const charCache = new WeakMap<VariantMap, Map<string, string>>();

export interface Normalised {
  /** The normalised characters, separators left out. */
  text: string;
  /** For each UTF-16 unit of `text`, the index in the original of the character it came from. */
  from: number[];
  /** For each UTF-16 unit of `text`, the index just after the original character it came from. */
  to: number[];
}

/**
 * The text words are matched in: folded (common/fold.ts: compatibility forms, case, invisible characters and
 * combining marks, look-alike letters), traditional → simplified (`variant`), and
 * every punctuation mark, symbol and space left out, with where each kept character came from (to mask the
 * original).
 */
export function normalise(text: string, variant: VariantMap = identity): Normalised {
  let cache = charCache.get(variant);
  if (!cache) {
    cache = new Map();
    charCache.set(variant, cache);
  }
  let out = '';
  const from: number[] = [];
  const to: number[] = [];
  let i = 0;
  for (const ch of text) {
    const start = i;
    i += ch.length;
    let mapped = cache.get(ch);
    if (mapped === undefined) {
      mapped = '';
      for (const c of foldChar(ch)) if (!ignored(c)) mapped += variant(c);
      if (cache.size < 65_536) cache.set(ch, mapped);
    }
    if (!mapped) continue;
    for (let k = 0; k < mapped.length; k++) {
      from.push(start);
      to.push(i);
    }
    out += mapped;
  }
  return { text: out, from, to };
}

/** A word as the filter keeps it: normalised, empty when nothing is left. */
export const normaliseWord = (word: string, variant?: VariantMap) => normalise(word, variant).text;

// ---------------------------------------------------------------------------------------------------------------
// The word automaton (Aho-Corasick): one pass over a text finds every word of every list.

export type WordKind = 'block' | 'hold' | 'mask';
const RANK: Record<WordKind, number> = { mask: 1, hold: 2, block: 3 };

export interface WordMatch {
  start: number;
  end: number;
  word: string;
  kind: WordKind;
}

export interface Automaton {
  /** Every occurrence of a word in a normalised text (`end` exclusive), in order of where it ends. */
  scan(text: string): WordMatch[];
  size: number;
}

/** Builds the automaton of the normalised words (a word in two lists counts as its strongest kind). */
export function buildAutomaton(words: { word: string; kind: WordKind }[]): Automaton {
  const next: Map<number, number>[] = [new Map()];
  const fail: number[] = [0];
  const out: { word: string; kind: WordKind; length: number }[][] = [[]];
  const best = new Map<string, WordKind>();
  for (const { word, kind } of words) {
    if (!word) continue;
    const had = best.get(word);
    if (!had || RANK[kind] > RANK[had]) best.set(word, kind);
  }
  for (const [word, kind] of best) {
    let s = 0;
    for (let i = 0; i < word.length; i++) {
      const c = word.charCodeAt(i);
      let t = next[s].get(c);
      if (t === undefined) {
        t = next.length;
        next.push(new Map());
        fail.push(0);
        out.push([]);
        next[s].set(c, t);
      }
      s = t;
    }
    out[s].push({ word, kind, length: word.length });
  }
  // Breadth first: each state's failure link is the longest proper suffix that is also a prefix.
  const queue: number[] = [...next[0].values()];
  for (let h = 0; h < queue.length; h++) {
    const s = queue[h];
    for (const [c, t] of next[s]) {
      let f = fail[s];
      while (f && !next[f].has(c)) f = fail[f];
      const g = next[f].get(c);
      fail[t] = g !== undefined && g !== t ? g : 0;
      out[t] = out[t].concat(out[fail[t]]);
      queue.push(t);
    }
  }
  return {
    size: best.size,
    scan(text) {
      const found: WordMatch[] = [];
      let s = 0;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        while (s && !next[s].has(c)) s = fail[s];
        s = next[s].get(c) ?? 0;
        for (const o of out[s])
          found.push({ start: i + 1 - o.length, end: i + 1, word: o.word, kind: o.kind });
      }
      return found;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Addresses

type Parsed = { v: 4 | 6; n: bigint };

function parseV4(s: string): bigint | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255 || (p.length > 1 && p[0] === '0')) return undefined;
    n = (n << 8n) | BigInt(p);
  }
  return n;
}

function parseV6(s: string): bigint | undefined {
  if (!/^[0-9a-f:.]+$/i.test(s) || s.split('::').length > 2) return undefined;
  let tail = s;
  let v4: bigint | undefined;
  if (s.includes('.')) {
    const at = s.lastIndexOf(':');
    v4 = parseV4(s.slice(at + 1));
    if (v4 === undefined) return undefined;
    tail = `${s.slice(0, at + 1)}0:0`;
  }
  const [head, rest] = tail.includes('::') ? tail.split('::') : [tail, undefined];
  const a = head ? head.split(':') : [];
  const b = rest ? rest.split(':') : [];
  const missing = 8 - a.length - b.length;
  if (rest === undefined ? missing !== 0 : missing < 1) return undefined;
  const groups = [...a, ...Array(rest === undefined ? 0 : missing).fill('0'), ...b];
  let n = 0n;
  for (const g of groups) {
    if (!/^[0-9a-f]{1,4}$/i.test(g)) return undefined;
    n = (n << 16n) | BigInt(Number.parseInt(g, 16));
  }
  if (v4 !== undefined) n = (n & ~0xffffffffn) | v4;
  return n;
}

/** An address, IPv4-mapped IPv6 (`::ffff:1.2.3.4`) read as the IPv4 it carries. */
export function parseAddress(address: string): Parsed | undefined {
  const s = address.trim();
  const v4 = parseV4(s);
  if (v4 !== undefined) return { v: 4, n: v4 };
  const v6 = parseV6(s);
  if (v6 === undefined) return undefined;
  if (v6 >> 32n === 0xffffn) return { v: 4, n: v6 & 0xffffffffn };
  return { v: 6, n: v6 };
}

export interface AddressRange {
  v: 4 | 6;
  first: bigint;
  last: bigint;
}

/** A blacklist entry: one address or a CIDR range (`10.0.0.0/8`, `2001:db8::/32`); undefined when invalid. */
export function parseRange(entry: string): AddressRange | undefined {
  const [addr, bits, extra] = entry.trim().split('/');
  if (extra !== undefined) return undefined;
  const a = parseAddress(addr);
  if (!a) return undefined;
  const width = a.v === 4 ? 32 : 128;
  const isV4Mapped = a.v === 4 && addr.includes(':');
  let prefix = width;
  if (bits !== undefined) {
    if (!/^\d{1,3}$/.test(bits)) return undefined;
    prefix = Number(bits) - (isV4Mapped ? 96 : 0);
    if (prefix < 0 || prefix > width) return undefined;
  }
  const host = (1n << BigInt(width - prefix)) - 1n;
  return { v: a.v, first: a.n & ~host, last: (a.n & ~host) | host };
}

/** The entry the blacklist stores (trimmed, lower case), or undefined when it is no address or range. */
export function cleanBlacklistEntry(entry: string): string | undefined {
  const e = entry.trim().toLowerCase();
  return parseRange(e) ? e : undefined;
}

/** Whether `address` is in one of the ranges. */
export function inRanges(ranges: readonly AddressRange[], address: string): boolean {
  const a = parseAddress(address);
  if (!a) return false;
  return ranges.some((r) => r.v === a.v && a.n >= r.first && a.n <= r.last);
}

// ---------------------------------------------------------------------------------------------------------------
// The filter

export interface FilterRules {
  enabled: boolean;
  reviewFirst: boolean;
  loginRequired: boolean;
  /** Seconds one user, and one address, must wait between two posts (0: no limit). */
  userInterval: number;
  addressInterval: number;
  maskWords: string[];
  blockWords: string[];
  holdWords: string[];
  blacklist: string[];
}

export interface CompiledFilter {
  rules: FilterRules;
  automaton: Automaton;
  ranges: AddressRange[];
  variant: VariantMap;
}

/** The rules made ready to check texts: one automaton over all three word lists, the parsed ranges. */
export function compileFilter(rules: FilterRules, variant: VariantMap = identity): CompiledFilter {
  const words = [
    ...rules.maskWords.map((w) => ({ word: normaliseWord(w, variant), kind: 'mask' as const })),
    ...rules.holdWords.map((w) => ({ word: normaliseWord(w, variant), kind: 'hold' as const })),
    ...rules.blockWords.map((w) => ({ word: normaliseWord(w, variant), kind: 'block' as const })),
  ];
  const ranges = rules.blacklist.map(parseRange).filter((r): r is AddressRange => !!r);
  return { rules, automaton: buildAutomaton(words), ranges, variant };
}

export interface TextVerdict {
  outcome: FilterOutcome;
  /** The text with every mask word's characters (and what sits between them) replaced by '*'. */
  content: string;
  /** The words found, each once, strongest first. */
  words: string[];
}

/**
 * What the words do to a text: any block word blocks it; otherwise a hold word holds it for review; otherwise mask
 * words are masked in the original text. A switched-off filter passes everything.
 */
export function checkText(filter: CompiledFilter, text: string): TextVerdict {
  if (!filter.rules.enabled) return { outcome: 'pass', content: text, words: [] };
  const n = normalise(text, filter.variant);
  const matches = filter.automaton.scan(n.text);
  if (!matches.length) return { outcome: 'pass', content: text, words: [] };
  const ranked = [...matches].sort((a, b) => RANK[b.kind] - RANK[a.kind]);
  const words = [...new Set(ranked.map((m) => m.word))];
  const strongest = ranked[0].kind;
  if (strongest === 'block' || strongest === 'hold') return { outcome: strongest, content: text, words };
  const chars = text.split('');
  for (const m of matches) {
    const start = n.from[m.start];
    const end = n.to[m.end - 1];
    for (let i = start; i < end; i++) if (!/\s/.test(chars[i])) chars[i] = '*';
  }
  return { outcome: 'mask', content: chars.join(''), words };
}
