import { z } from '@hono/zod-openapi';
import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import {
  maskEmail,
  maskPhone,
  USER_GROUPS,
  type USER_LIST_FILTERS,
  USER_STATUSES,
  VIP_STATES,
  vipStateAt,
} from '../../../common/users';
import { listQuery } from '../../core/crud';
import { invalidField } from '../../core/errors';
import { dateQuery, iso, rangeEnd, rangeStart } from '../../core/shared';
import { COUNT_CAP, cappedCount, cappedOf, counterSum, onlyFilters, shortPageTotal } from '../../core/totals';
import { rowsOf } from '../../db/migrate';
import type { Db, Executor } from '../../db/types';
import { siteUserCounts, siteUsers } from './schema';

/**
 * The members list (`GET /app/admin/users`) at a million rows, as the movie list (docs/sections.md "Totals at scale"): each
 * sort and allow-listed filter has an index led by the tenant; the page's ids are read first, then
 * their rows; the total comes from the kept per-status counts when the filter is at most a status, from a short
 * page, or from a count capped at COUNT_CAP + 1 rows ("10,000+", server/core/totals.ts).
 */

export const sorts = {
  id: siteUsers.id,
  signupAt: siteUsers.signupAt,
  lastLoginAt: siteUsers.lastLoginAt,
  points: siteUsers.points,
  vipExpiresAt: siteUsers.vipExpiresAt,
} as const;
type SortKey = keyof typeof sorts;

const filters = {
  /** Account, phone or email starting with this (case-insensitive). */
  q: z.string().trim().min(1).max(64).optional(),
  status: z.enum(USER_STATUSES).optional(),
  group: z.enum(USER_GROUPS).optional(),
  vip: z.enum(VIP_STATES).optional(),
  channel: z.string().trim().min(1).max(32).optional(),
  signupFrom: dateQuery.optional(),
  signupTo: dateQuery.optional(),
} satisfies Record<(typeof USER_LIST_FILTERS)[number], z.ZodType>;

export const ListQuery = listQuery(Object.keys(sorts) as [SortKey, ...SortKey[]], filters);
export type UserListQuery = z.infer<typeof ListQuery>;

const prefix = (q: string) => `${q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** The search (q): an account, phone or email starting with it, one condition each (each has its prefix index). */
const searchBranches = (q: string) => {
  const p = prefix(q);
  return [
    sql`lower(${siteUsers.account}) like ${p}`,
    sql`${siteUsers.phone} like ${p}`,
    sql`lower(${siteUsers.email}) like ${p}`,
  ];
};

/** A member with a VIP level: the predicate of the partial index over expiries. */
const PAID = sql`${siteUsers.vipLevel} > 0`;
/** An active VIP's expiry: none (for life), or after `now`; two ranges of that index, counted apart. */
const activeBranches = (now: Date) => [isNull(siteUsers.vipExpiresAt), gt(siteUsers.vipExpiresAt, now)];

function listWhere(tenant: number, q: UserListQuery, now: Date, search = true): SQL | undefined {
  const where: (SQL | undefined)[] = [eq(siteUsers.tenant, tenant)];
  if (q.ids) where.push(inArray(siteUsers.id, q.ids));
  if (q.status) where.push(eq(siteUsers.status, q.status));
  if (q.group) where.push(eq(siteUsers.group, q.group));
  if (q.channel) where.push(eq(siteUsers.channel, q.channel));
  if (q.q && search) where.push(or(...searchBranches(q.q)));
  if (q.vip === 'none') where.push(eq(siteUsers.vipLevel, 0));
  if (q.vip === 'active') where.push(and(PAID, or(...activeBranches(now))));
  if (q.vip === 'expired') where.push(and(PAID, lte(siteUsers.vipExpiresAt, now)));
  if (q.signupFrom && q.signupTo && rangeStart(q.signupFrom) >= rangeEnd(q.signupTo))
    throw invalidField('signupTo', 'field.range');
  if (q.signupFrom) where.push(gte(siteUsers.signupAt, rangeStart(q.signupFrom)));
  if (q.signupTo) where.push(lt(siteUsers.signupAt, rangeEnd(q.signupTo)));
  return and(...where);
}

async function total(
  db: Executor,
  tenant: number,
  q: UserListQuery,
  where: SQL | undefined,
  page: { offset: number; pageSize: number; rows: number },
  now: Date,
) {
  const short = shortPageTotal(page);
  if (short) return short;
  if (onlyFilters(q, ['status']))
    return {
      total: await counterSum(
        db,
        siteUserCounts,
        siteUserCounts.n,
        and(eq(siteUserCounts.tenant, tenant), q.status ? eq(siteUserCounts.status, q.status) : undefined),
      ),
      totalExact: true,
    };
  if (q.q) return searchCount(db, tenant, q, now);
  if (q.vip === 'active') {
    const rest = listWhere(tenant, { ...q, vip: undefined }, now);
    return unionCount(
      db,
      activeBranches(now).map((b) => and(rest, PAID, b)),
    );
  }
  return cappedCount(db, siteUsers, where);
}

/**
 * The capped count of a search: the ids matching each prefix (account, phone, email), each read from its own index
 * alone (an index-only scan: the indexes end with the id), united, at most COUNT_CAP + 1. One
 * `OR` of the three was a bitmap scan that read each match's row to count it: 10,000 table pages for a phone
 * prefix that a tenth of the members share.
 */
async function searchCount(db: Executor, tenant: number, q: UserListQuery, now: Date) {
  const rest = listWhere(tenant, q, now, false);
  return unionCount(
    db,
    searchBranches(q.q!).map((b) => and(rest, b)),
  );
}

/**
 * The capped count of the members any of `branches` matches, each branch read alone from an index that ends with
 * the id (no table read): a search's three prefixes, or an active VIP's two ranges of the expiry index (for life,
 * or until later), which one `OR` read as a scan of the table.
 */
async function unionCount(db: Executor, branches: (SQL | undefined)[]) {
  const parts = branches.map(
    (b) => sql`(select ${siteUsers.id} from ${siteUsers} where ${b} limit ${COUNT_CAP + 1})`,
  );
  const rows = await db.execute(
    sql`select count(*)::int as n from (select id from (${sql.join(parts, sql` union `)}) u limit ${COUNT_CAP + 1}) c`,
  );
  return cappedOf(Number(rowsOf<{ n: number }>(rows)[0].n));
}

export type UserRow = typeof siteUsers.$inferSelect;

/** A member as the API answers: contacts masked unless `full`, VIP read against `now`. */
export function userToApi(r: UserRow, now: Date, full = false) {
  return {
    id: r.id,
    account: r.account,
    nickname: r.nickname,
    phone: full ? r.phone : maskPhone(r.phone),
    email: full ? r.email : maskEmail(r.email),
    group: r.group,
    vipLevel: r.vipLevel,
    vipExpiresAt: iso(r.vipExpiresAt),
    vipState: vipStateAt(r.vipLevel, r.vipExpiresAt, now),
    points: r.points,
    status: r.status,
    signupAt: iso(r.signupAt) as string,
    signupAddress: r.signupAddress,
    lastLoginAt: iso(r.lastLoginAt),
    lastLoginAddress: r.lastLoginAddress,
    channel: r.channel,
    inviter: r.inviter,
    version: r.version,
  };
}

export const SiteUser = z
  .object({
    id: z.number(),
    account: z.string(),
    nickname: z.string(),
    phone: z.string(),
    email: z.string(),
    group: z.enum(USER_GROUPS),
    vipLevel: z.number(),
    vipExpiresAt: z.string().nullable(),
    vipState: z.enum(VIP_STATES),
    points: z.number(),
    status: z.enum(USER_STATUSES),
    signupAt: z.string(),
    signupAddress: z.string(),
    lastLoginAt: z.string().nullable(),
    lastLoginAddress: z.string(),
    channel: z.string(),
    inviter: z.number().nullable(),
    version: z.number(),
  })
  .openapi('SiteUser');

export async function readUserList(db: Db, tenant: number, q: UserListQuery, now: Date) {
  const where = listWhere(tenant, q, now);
  const pageSize = q.ids ? Math.max(q.pageSize, q.ids.length) : q.pageSize;
  const offset = (q.page - 1) * q.pageSize;
  const col = sorts[(q.sort ?? 'id') as SortKey];
  // As the indexes are declared ((tenant, col NULLS FIRST, id)): read forwards or backwards, no sort.
  // The id is the primary key (ascending, nulls last): `id desc` must keep PostgreSQL's default `nulls first` to be
  // read backwards from it (with `nulls last` it sorts a million rows).
  const order =
    col === siteUsers.id
      ? [q.order === 'desc' ? desc(siteUsers.id) : asc(siteUsers.id)]
      : q.order === 'desc'
        ? [sql`${col} desc nulls last`, desc(siteUsers.id)]
        : [sql`${col} asc nulls first`, asc(siteUsers.id)];
  // A search (q) is counted first. The planner cannot tell how many members a prefix matches and, with a LIMIT,
  // walks the sort index testing each row (at a million members, for a prefix that matches a thousand far from the
  // end, that walk is most of the table). When the capped count is exact (at most COUNT_CAP matches), the matches are read through the
  // prefix indexes and sorted instead (plain index scans switched off for that one statement, in its own read
  // transaction); beyond the cap, matches are dense and the walk finds a page at once.
  const searchTotal = q.q
    ? await total(db, tenant, q, where, { offset, pageSize, rows: pageSize }, now)
    : undefined;
  const pageIds = (tx: Executor) =>
    tx
      .select({ id: siteUsers.id })
      .from(siteUsers)
      .where(where)
      .orderBy(...order)
      .limit(pageSize)
      .offset(offset);
  const idRows = searchTotal?.totalExact
    ? await db.transaction(async (tx) => {
        await tx.execute(
          sql`select set_config('enable_indexscan', 'off', true), set_config('enable_indexonlyscan', 'off', true)`,
        );
        return pageIds(tx);
      })
    : await pageIds(db);
  const ids = idRows.map((r) => r.id);
  const [rows, totals] = await Promise.all([
    ids.length
      ? db
          .select()
          .from(siteUsers)
          .where(inArray(siteUsers.id, ids))
          .orderBy(...order)
      : [],
    searchTotal ?? total(db, tenant, q, where, { offset, pageSize, rows: ids.length }, now),
  ]);
  return { list: rows.map((r) => userToApi(r, now)), ...totals };
}
