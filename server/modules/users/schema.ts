import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import type { UserGroup, UserStatus } from '../../../common/users';

/**
 * The content site's registered members (operators are `operators`). `channel` is the code of the agent
 * whose link brought them (the agents section credits signups by it), `inviter` the member who invited them. VIP is
 * a level with an expiry, read against the clock (common/users.ts `vipStateAt`), never swept. Indexes serve the
 * list's sorts and its allow-listed filters at a million rows; `site_user_counts` keeps the
 * number of members per status, so an unfiltered or status-filtered list has its exact total without `count(*)`.
 */
export const siteUsers = pgTable(
  'site_users',
  {
    id: serial('id').primaryKey(),
    tenant: integer('tenant').notNull(),
    account: varchar('account', { length: 64 }).notNull(),
    /** The account folded (common/fold.ts): unique per tenant, so look-alike accounts cannot both exist. */
    accountKey: text('account_key'),
    nickname: varchar('nickname', { length: 64 }).notNull().default(''),
    phone: varchar('phone', { length: 32 }).notNull().default(''),
    email: varchar('email', { length: 128 }).notNull().default(''),
    group: varchar('group', { length: 16 }).$type<UserGroup>().notNull().default('normal'),
    vipLevel: smallint('vip_level').notNull().default(0),
    vipExpiresAt: timestamp('vip_expires_at', { withTimezone: true }),
    points: integer('points').notNull().default(0),
    status: varchar('status', { length: 16 }).$type<UserStatus>().notNull().default('active'),
    signupAt: timestamp('signup_at', { withTimezone: true }).notNull().defaultNow(),
    signupAddress: varchar('signup_address', { length: 45 }).notNull().default(''),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    lastLoginAddress: varchar('last_login_address', { length: 45 }).notNull().default(''),
    channel: varchar('channel', { length: 32 }).notNull().default(''),
    inviter: integer('inviter'),
    /**
     * Our hash of the member's password (core/crypto.ts hashPassword), set at signup, at their first login after
     * the MacCMS move, or with a reset code: never shown, never sent.
     */
    passwordHash: varchar('password_hash', { length: 255 }),
    /** A MacCMS password hash kept from the MacCMS move until verified once (users/legacy-password.ts). */
    legacyPassword: varchar('legacy_password', { length: 255 }),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('site_users_account').on(t.tenant, t.account),
    uniqueIndex('site_users_account_key').on(t.tenant, t.accountKey),
    index('site_users_tenant_id').on(t.tenant, t.id),
    index('site_users_status').on(t.tenant, t.status, t.id),
    index('site_users_group').on(t.tenant, t.group, t.id),
    index('site_users_channel').on(t.tenant, t.channel, t.id),
    index('site_users_signup').on(t.tenant, t.signupAt.asc().nullsFirst(), t.id),
    index('site_users_last_login').on(t.tenant, t.lastLoginAt.asc().nullsFirst(), t.id),
    index('site_users_points').on(t.tenant, t.points.asc().nullsFirst(), t.id),
    index('site_users_vip').on(t.tenant, t.vipExpiresAt.asc().nullsFirst(), t.id),
    index('site_users_vip_paid').on(t.tenant, t.vipExpiresAt, t.id).where(sql`${t.vipLevel} > 0`),
    index('site_users_account_prefix').on(t.tenant, sql`lower(${t.account}) text_pattern_ops`, t.id),
    index('site_users_phone').on(t.tenant, sql`${t.phone} text_pattern_ops`, t.id),
    index('site_users_email').on(t.tenant, sql`lower(${t.email}) text_pattern_ops`, t.id),
    index('site_users_inviter').on(t.inviter),
  ],
);

/** Members per tenant and status, kept by statement triggers in the writing transaction. */
export const siteUserCounts = pgTable(
  'site_user_counts',
  {
    tenant: integer('tenant').notNull(),
    status: varchar('status', { length: 16 }).notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.status] })],
);

/**
 * One ban and what it changed, so that its undo reverses exactly that: the member's status before, the comments
 * and guestbook entries it hid with their statuses before, and the blacklist entries it added (per filter module).
 */
export interface BanChanges {
  status: UserStatus;
  comments: { id: number; status: string }[];
  guestbook: { id: number; status: string }[];
  blacklist: { module: string; entry: string }[];
}

export const siteUserBans = pgTable(
  'site_user_bans',
  {
    id: serial('id').primaryKey(),
    tenant: integer('tenant').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => siteUsers.id, { onDelete: 'cascade' }),
    changes: jsonb('changes').$type<BanChanges>().notNull(),
    bannedBy: integer('banned_by'),
    bannedAt: timestamp('banned_at', { withTimezone: true }).notNull(),
    undoneBy: integer('undone_by'),
    undoneAt: timestamp('undone_at', { withTimezone: true }),
  },
  (t) => [index('site_user_bans_user').on(t.userId, t.id)],
);

/**
 * One-time codes with which a member sets a new password (users/reset-code.ts): only the code's SHA-256,
 * who issued it, until when, how many wrong tries, and when it was used. A newer code replaces an unused older one.
 */
export const siteUserResetCodes = pgTable(
  'site_user_reset_codes',
  {
    id: serial('id').primaryKey(),
    tenant: integer('tenant').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => siteUsers.id, { onDelete: 'cascade' }),
    codeHash: varchar('code_hash', { length: 64 }).notNull(),
    issuedBy: integer('issued_by'),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    failures: smallint('failures').notNull().default(0),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('site_user_reset_codes_user').on(t.userId, t.id)],
);
