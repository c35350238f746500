import { z } from '@hono/zod-openapi';
import { and, asc, eq, gt, isNotNull, lte, or, type SQL, sql } from 'drizzle-orm';
import { invalidField } from '../../core/errors';
import { richTextToPlain, sanitizeRichText } from '../../core/rich-text';
import { iso } from '../../core/shared';
import type { Executor } from '../../db/types';
import { countPerPlatform } from '../sys/platforms';
import { NOTICE_TYPES, type NoticeType, notices } from './schema';

export const NOTICE_STATES = ['scheduled', 'live', 'expired', 'disabled'] as const;
export type NoticeState = (typeof NOTICE_STATES)[number];

/** The longest marquee line and the longest pop-up (as stored, after sanitizing). */
export const MARQUEE_MAX = 500;
export const POPUP_MAX = 10_000;

type Row = typeof notices.$inferSelect;

/**
 * A notice's state at `now`: disabled whatever the time; otherwise scheduled before its start, live from its start
 * (inclusive) until its end (exclusive), expired from its end on. No end: live until disabled.
 */
export function noticeState(
  n: { enabled: boolean; startAt: Date | string; endAt: Date | string | null },
  now: Date,
): NoticeState {
  if (!n.enabled) return 'disabled';
  const t = now.getTime();
  if (t < new Date(n.startAt).getTime()) return 'scheduled';
  if (n.endAt !== null && t >= new Date(n.endAt).getTime()) return 'expired';
  return 'live';
}

/** The same rule in SQL, for the list's state filter (the server's clock, never the database's). */
export function stateWhere(state: NoticeState, now: Date): SQL | undefined {
  switch (state) {
    case 'disabled':
      return eq(notices.enabled, false);
    case 'scheduled':
      return and(eq(notices.enabled, true), gt(notices.startAt, now));
    case 'live':
      return liveWhere(now);
    case 'expired':
      return and(eq(notices.enabled, true), isNotNull(notices.endAt), lte(notices.endAt, now));
  }
}

const liveWhere = (now: Date) =>
  and(
    eq(notices.enabled, true),
    lte(notices.startAt, now),
    or(sql`${notices.endAt} is null`, gt(notices.endAt, now)),
  );

export const Notice = z
  .object({
    id: z.number(),
    type: z.enum(NOTICE_TYPES),
    title: z.string(),
    content: z.string().openapi({ description: 'Plain text (marquee) or sanitized limited HTML (pop-up)' }),
    platforms: z.array(z.number()),
    startAt: z.string(),
    endAt: z.string().nullable(),
    enabled: z.boolean(),
    sort: z.number(),
    state: z.enum(NOTICE_STATES).openapi({ description: 'Derived from the time and `enabled`' }),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number(),
  })
  .openapi('Notice');

export function noticeToApi(r: Row, now: Date): z.infer<typeof Notice> {
  return {
    id: r.id,
    type: r.type,
    title: r.title,
    content: r.content,
    platforms: (r.platforms ?? []).map(Number),
    startAt: iso(r.startAt) as string,
    endAt: iso(r.endAt),
    enabled: r.enabled,
    sort: r.sort,
    state: noticeState(r, now),
    createdAt: iso(r.createdAt) as string,
    updatedAt: iso(r.updatedAt) as string,
    version: r.version,
  };
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** An ISO 8601 date-time with its offset (`Z` or `+08:00`), between the years 1900 and 9998. */
export const instant = z
  .string()
  .max(40)
  .refine(
    (s) => {
      if (!INSTANT.test(s)) return false;
      const t = Date.parse(s);
      if (Number.isNaN(t)) return false;
      const year = new Date(t).getUTCFullYear();
      return year >= 1900 && year <= 9998;
    },
    { params: { key: 'field.datetime' } },
  )
  .openapi({ example: '2026-06-01T08:00:00+08:00' });

const platformKeys = z
  .array(z.number().int().min(0).max(9999))
  .min(1)
  .max(50)
  .refine((a) => new Set(a).size === a.length, { params: { key: 'field.duplicate' } });

export const noticeFields = {
  type: z.enum(NOTICE_TYPES),
  title: z.string().trim().min(1).max(100),
  content: z.string().max(POPUP_MAX * 2),
  platforms: platformKeys,
  startAt: instant,
  endAt: instant.nullable(),
  enabled: z.boolean(),
  sort: z.number().int().min(-100_000).max(100_000),
};

export interface NoticeInput {
  type: NoticeType;
  title: string;
  content: string;
  platforms: number[];
  startAt: string | Date;
  endAt: string | Date | null;
  enabled: boolean;
  sort: number;
}

/**
 * A whole notice as it will be stored (a create, or an update merged over the row): a marquee is one line of plain
 * text; a pop-up's rich text is sanitized (its links http(s) only); either must keep some text; the end is after the
 * start. Throws 40000 naming the field.
 */
export function normalizeNotice(n: NoticeInput) {
  let content: string;
  if (n.type === 'marquee') {
    content = n.content.replace(/\s+/g, ' ').trim();
    if (content.length > MARQUEE_MAX) throw invalidField('content', 'field.tooLong', { max: MARQUEE_MAX });
  } else {
    content = sanitizeRichText(n.content);
    if (content.length > POPUP_MAX) throw invalidField('content', 'field.tooLong', { max: POPUP_MAX });
  }
  const text = n.type === 'marquee' ? content : richTextToPlain(content);
  if (!text.trim()) throw invalidField('content', 'field.required');
  const startAt = new Date(n.startAt);
  const endAt = n.endAt === null ? null : new Date(n.endAt);
  if (endAt && endAt.getTime() <= startAt.getTime()) throw invalidField('endAt', 'notice.endBeforeStart');
  return {
    type: n.type,
    title: n.title,
    content,
    platforms: n.platforms,
    startAt,
    endAt,
    enabled: n.enabled,
    sort: n.sort,
  };
}

/** Named query (site module): the instants after `now` at which one of the tenant's enabled notices starts or ends. */
export async function noticeBoundaries(db: Executor, tenant: number, now: Date): Promise<Date[]> {
  const rows = await db
    .select({ startAt: notices.startAt, endAt: notices.endAt })
    .from(notices)
    .where(
      and(
        eq(notices.tenant, tenant),
        eq(notices.enabled, true),
        or(gt(notices.startAt, now), gt(notices.endAt, now)),
      ),
    );
  const out: Date[] = [];
  for (const r of rows) {
    if (new Date(r.startAt) > now) out.push(new Date(r.startAt));
    if (r.endAt && new Date(r.endAt) > now) out.push(new Date(r.endAt));
  }
  return out;
}

/** Named query (site module): the notices live at `now` on a platform, in display order. */
export async function liveNotices(db: Executor, tenant: number, platform: number, now: Date) {
  const rows = await db
    .select({
      id: notices.id,
      type: notices.type,
      title: notices.title,
      content: notices.content,
      startAt: notices.startAt,
      endAt: notices.endAt,
    })
    .from(notices)
    .where(
      and(
        eq(notices.tenant, tenant),
        liveWhere(now),
        sql`${notices.platforms} @> array[${platform}::integer]`,
      ),
    )
    .orderBy(asc(notices.sort), asc(notices.startAt), asc(notices.id))
    .limit(200);
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    title: r.title,
    content: r.content,
    startAt: iso(r.startAt) as string,
    endAt: iso(r.endAt),
  }));
}

/** Named query (platform usage): how many of the tenant's notices name each platform. */
export const noticesPerPlatform = (db: Executor, tenant: number, keys: number[]) =>
  countPerPlatform(db, notices, tenant, keys);
