/**
 * Rules of the ads section (issue #13) that the API and the admin both apply: the kinds of material, pricing models,
 * the derived state of a material at an instant, the landing-link rule and the limits of the batch replacement.
 * Pure code, no dependency.
 */

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

/**
 * A pattern the batch replacement accepts: a JavaScript regular expression of at most MAX_FIND characters without
 * back-references and without a quantified group that itself holds a quantifier (`(a+)+`, `(a|a)*`), the shapes that
 * backtrack catastrophically. Answers a reason key, or null when the pattern is accepted.
 */
export function patternProblem(pattern: string): 'tooLong' | 'syntax' | 'unsafe' | null {
  if (!pattern || pattern.length > MAX_FIND) return 'tooLong';
  try {
    new RegExp(pattern, 'g');
  } catch {
    return 'syntax';
  }
  if (/\\[1-9]|\\k</.test(pattern)) return 'unsafe';
  // A group followed by a quantifier whose body has a quantifier or an alternation: nested repetition.
  const stack: { quantified: boolean; alt: boolean }[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '[') {
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      continue;
    }
    if (ch === '(') stack.push({ quantified: false, alt: false });
    else if (ch === ')') {
      const g = stack.pop();
      const next = pattern[i + 1];
      const repeated = next === '*' || next === '+' || next === '{';
      if (g && repeated && (g.quantified || g.alt)) return 'unsafe';
      if (g && stack.length) {
        const outer = stack[stack.length - 1];
        outer.quantified ||= g.quantified || repeated;
      }
    } else if ((ch === '*' || ch === '+' || ch === '?' || ch === '{') && stack.length)
      stack[stack.length - 1].quantified = true;
    else if (ch === '|' && stack.length) stack[stack.length - 1].alt = true;
  }
  return null;
}

/** The replacement of one landing link: plain text replaces every occurrence, a pattern every match. */
export function replaceLink(url: string, find: string, replace: string, mode: 'text' | 'pattern'): string {
  if (mode === 'text') return find ? url.split(find).join(replace) : url;
  return url.replace(new RegExp(find, 'g'), replace);
}
