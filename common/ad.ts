/**
 * Rules of the ads section that the API and the admin both apply: the kinds of material, pricing models,
 * the derived state of a material at an instant, the landing-link rule and the limits of the batch replacement.
 * Pure code; patterns run on re2js (linear time).
 */

import { RE2JS } from 're2js';

export const AD_TYPES = ['image', 'text', 'popup', 'video'] as const;
export type AdType = (typeof AD_TYPES)[number];
export const AD_PRICING = ['cpm', 'cpc', 'cpa', 'monthly'] as const;
export type AdPricing = (typeof AD_PRICING)[number];
export const AD_DEVICES = ['all', 'mobile', 'desktop'] as const;
export type AdDevice = (typeof AD_DEVICES)[number];
export const AD_ROTATIONS = ['weighted', 'ordered'] as const;
export const POSITION_TYPES = AD_TYPES;
/** The derived state of a material: paused by an operator, or by its schedule scheduled / live / expired. */
export const AD_STATES = ['scheduled', 'live', 'expired', 'paused'] as const;
export type AdState = (typeof AD_STATES)[number];

/**
 * A material's state at `now`: `paused` when switched off; otherwise `scheduled` before its start, `expired` from its
 * end on (the end instant is no longer live), `live` in between (the start instant is live). No end: live for ever.
 */
export function adState(
  ad: { enabled: boolean; startAt: string | Date; endAt: string | Date | null },
  now: Date,
): AdState {
  if (!ad.enabled) return 'paused';
  const t = now.getTime();
  if (t < new Date(ad.startAt).getTime()) return 'scheduled';
  if (ad.endAt !== null && t >= new Date(ad.endAt).getTime()) return 'expired';
  return 'live';
}

/** A landing link: an absolute http(s) URL with a host, no blanks, at most 1,024 characters. */
export const MAX_URL = 1024;
export function isLandingUrl(v: string): boolean {
  if (v.length > MAX_URL || !/^https?:\/\/[^\s/?#\\]+\S*$/i.test(v)) return false;
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
}

/** Batch replacement: the longest find text or pattern, and how many ads one change set may touch. */
export const MAX_FIND = 200;
export const MAX_BATCH_ADS = 5000;

/** A replaced link longer than this is refused before it is built (a pattern matching everywhere × a long text). */
export const MAX_RESULT = 16 * 1024;

let lastCompiled: { pattern: string; re: RE2JS } | undefined;

/** Why a pattern is refused (message keys `ad.pattern.<reason>` on both sides). */
export type PatternProblem = 'tooLong' | 'syntax' | 'unsupported';

/**
 * An operator's pattern compiled for RE2 (re2js: linear time in the text, whatever the pattern, so
 * `a*a*a*a*a*a*a*a*b` on a long link answers at once instead of backtracking for minutes). JavaScript syntax is
 * read (named groups, `\u{…}`); what RE2 cannot do in linear time — back-references, lookahead and lookbehind — is
 * `unsupported`, a pattern JavaScript refuses too is `syntax`.
 */
export function compilePattern(pattern: string): RE2JS | PatternProblem {
  if (!pattern || pattern.length > MAX_FIND) return 'tooLong';
  if (lastCompiled?.pattern === pattern) return lastCompiled.re;
  try {
    const re = RE2JS.compile(RE2JS.translateRegExp(pattern));
    // A batch runs one pattern over thousands of links: compiled once.
    lastCompiled = { pattern, re };
    return re;
  } catch {
    try {
      new RegExp(pattern, 'u');
      return 'unsupported';
    } catch {
      try {
        new RegExp(pattern);
        return 'unsupported';
      } catch {
        return 'syntax';
      }
    }
  }
}

/** A pattern the batch replacement accepts: answers a reason key, or null when the pattern is accepted. */
export function patternProblem(pattern: string): PatternProblem | null {
  const r = compilePattern(pattern);
  return typeof r === 'string' ? r : null;
}

/**
 * The replacement of one landing link: plain text replaces every occurrence, a pattern every match (RE2; `$1`,
 * `$&`, `$<name>`, `$$` as in JavaScript). A result that would grow past MAX_RESULT throws a RangeError before it
 * is built.
 */
export function replaceLink(url: string, find: string, replace: string, mode: 'text' | 'pattern'): string {
  if (url.length > MAX_RESULT) throw new RangeError('link too long');
  if (mode === 'text') {
    if (!find) return url;
    const parts = url.split(find);
    if (url.length + (parts.length - 1) * replace.length > MAX_RESULT)
      throw new RangeError('result too long');
    return parts.join(replace);
  }
  const re = compilePattern(find);
  if (typeof re === 'string') throw new SyntaxError(re);
  // Each match costs at most the replacement plus, per `$`, the whole link (`$\``, `$'`, a group).
  const perMatch = replace.length + (replace.split('$').length - 1) * url.length;
  const m = re.matcher(url);
  let n = 0;
  while (m.find()) {
    n++;
    if (url.length + n * perMatch > MAX_RESULT) throw new RangeError('result too long');
  }
  return re.matcher(url).replaceAll(replace);
}
