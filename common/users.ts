/**
 * The site's members (/users/list): their statuses, groups and VIP, and how contacts are masked in
 * lists. The API enforces these, the SPA offers them.
 */
export const USER_STATUSES = ['active', 'disabled', 'banned'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const USER_GROUPS = ['normal', 'vip', 'svip', 'staff'] as const;
export type UserGroup = (typeof USER_GROUPS)[number];

/** VIP as read at `now`: a level with an expiry in the past reads as expired, whatever was stored. */
export const VIP_STATES = ['none', 'active', 'expired'] as const;
export type VipState = (typeof VIP_STATES)[number];

export function vipStateAt(level: number, expiresAt: Date | string | null, now: Date): VipState {
  if (!level) return 'none';
  if (!expiresAt) return 'active'; // a level without expiry is for life
  return new Date(expiresAt).getTime() > now.getTime() ? 'active' : 'expired';
}

/** The filters of the members list (query names), and the most days one batch may add to a VIP. */
export const USER_LIST_FILTERS = [
  'q',
  'status',
  'group',
  'vip',
  'channel',
  'signupFrom',
  'signupTo',
] as const;
export const MAX_VIP_DAYS = 3650;

/** The highest VIP level and the most points a member's page may set. */
export const MAX_VIP_LEVEL = 9;
export const MAX_POINTS = 100_000_000;

/** How long a password reset code works, and how many wrong codes spend it (server/modules/users/reset-code.ts). */
export const RESET_CODE_HOURS = 24;
export const RESET_CODE_TRIES = 5;

/** `13812345678` → `138****5678`; anything short keeps its first and last character. */
export function maskPhone(phone: string): string {
  if (!phone) return '';
  if (phone.length >= 7) return `${phone.slice(0, 3)}****${phone.slice(-4)}`;
  return phone.length <= 2 ? '*'.repeat(phone.length) : `${phone[0]}***${phone.at(-1)}`;
}

/** `alice@example.com` → `a***e@example.com`. */
export function maskEmail(email: string): string {
  if (!email) return '';
  const at = email.lastIndexOf('@');
  if (at <= 0) return maskPhone(email);
  const name = email.slice(0, at);
  const shown = name.length <= 2 ? `${name[0]}***` : `${name[0]}***${name.at(-1)}`;
  return shown + email.slice(at);
}
