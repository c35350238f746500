/**
 * Rules of the channel agents section that the API and the admin both apply: commission models, payout
 * methods, the commission of a period's figures and the traffic-quality flags. Pure code, no dependency.
 */

/** share: a percentage of the recharges credited to the agent; signup: an amount per signup; payer: per new payer. */
export const AGENT_MODELS = ['share', 'signup', 'payer'] as const;
export type AgentModel = (typeof AGENT_MODELS)[number];
export const PAYOUT_METHODS = ['bank', 'alipay', 'wechat', 'usdt'] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];
/** Largest rate: 100 % for a share, an amount otherwise. */
export const MAX_SHARE = 100;
export const MAX_RATE = 100_000;

export interface Conversions {
  signups: number;
  payers: number;
  /** Recharge amount credited, in the site's currency. */
  rechargeAmount: number;
}

/** An agent's commission on figures: unrounded (rounded to cents once, on the total a period is paid). */
export function commissionOf(model: AgentModel, rate: number, f: Conversions): number {
  if (model === 'share') return (f.rechargeAmount * rate) / 100;
  if (model === 'signup') return f.signups * rate;
  return f.payers * rate;
}

/** Money rounded to cents, half away from zero, without binary surprises (1.005 → 1.01). */
export const cents = (v: number) => (Math.sign(v) * Math.round(Math.abs(v) * 100 + 1e-7)) / 100;

/** A share of a whole, 0 when there is no whole (4 decimals). */
export const rate = (part: number, whole: number) =>
  whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : 0;

/** Fewer signups than this in a period: too few to judge the traffic's quality. */
export const QUALITY_MIN_SIGNUPS = 20;
/** A share of signups sharing an address or a device above this is flagged. */
export const SHARED_LIMIT = 0.2;
/** A share of idle signups (no return within 7 days) above this is flagged. */
export const IDLE_LIMIT = 0.8;
/** A 7-day retention below this fraction of the site's median (over agents) is flagged. */
export const RETENTION_FLOOR = 0.5;

export interface QualityFigures {
  signups: number;
  sharedAddress: number;
  sharedDevice: number;
  /** Signups at least 7 days old (their return week is over): idle and retention are shares of these. */
  matured: number;
  idle: number;
  retained: number;
}

export type QualityFlag = 'sharedAddress' | 'sharedDevice' | 'idle' | 'retention';

/** The flags raised on an agent's figures, given the median 7-day retention of the site's agents (null: unknown). */
export function qualityFlags(f: QualityFigures, siteRetention: number | null): QualityFlag[] {
  const flags: QualityFlag[] = [];
  if (f.signups >= QUALITY_MIN_SIGNUPS) {
    if (f.sharedAddress / f.signups > SHARED_LIMIT) flags.push('sharedAddress');
    if (f.sharedDevice / f.signups > SHARED_LIMIT) flags.push('sharedDevice');
  }
  if (f.matured >= QUALITY_MIN_SIGNUPS) {
    if (f.idle / f.matured > IDLE_LIMIT) flags.push('idle');
    if (
      siteRetention !== null &&
      siteRetention > 0 &&
      f.retained / f.matured < siteRetention * RETENTION_FLOOR
    )
      flags.push('retention');
  }
  return flags;
}

/** The median of numbers (null for none). */
export function median(values: number[]): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
