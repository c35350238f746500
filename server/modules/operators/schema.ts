import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';

/** Operator accounts: who may log in to the back-office. Deletion is soft, so a deleted operator's session answers errCode 2001. */
export const operators = pgTable(
  'operators',
  {
    id: serial('id').primaryKey(),
    account: varchar('account', { length: 32 }).notNull(),
    /** The account folded (common/fold.ts): unique among live operators, `Admin` beside `admin` refused. */
    accountKey: text('account_key'),
    passwordHash: text('password_hash').notNull(),
    nickname: varchar('nickname', { length: 64 }).notNull().default(''),
    avatar: text('avatar').notNull().default(''),
    /** The role's name (roles.name): the built-ins `admin` and `user` or a custom role. */
    role: varchar('role', { length: 32 }).notNull().default('user'),
    disabled: boolean('disabled').notNull().default(false),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('operators_account_live').on(t.account).where(sql`${t.deletedAt} is null`),
    uniqueIndex('operators_account_key_live').on(t.accountKey).where(sql`${t.deletedAt} is null`),
  ],
);

/**
 * A named set of permissions (`<section>.<action>`). The built-ins `admin` and `user` store none: their
 * permissions come from the sections' declarations (common/permissions.ts `permissionsOf`). `version` counts saves.
 */
export const roles = pgTable(
  'roles',
  {
    id: serial('id').primaryKey(),
    tenant: integer('tenant').notNull().default(0),
    name: varchar('name', { length: 32 }).notNull(),
    permissions: text('permissions').array().notNull().default(sql`'{}'::text[]`),
    builtin: boolean('builtin').notNull().default(false),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('roles_name').on(t.name)],
);

/** A login. The token is returned once; only its SHA-256 is kept. */
export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull().unique(),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operators.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** 'logout' (the token is then unknown: 50008) or 'replaced' (password changed or reset: 50012). */
    revokedReason: varchar('revoked_reason', { length: 16 }),
    address: varchar('address', { length: 64 }).notNull().default(''),
    userAgent: varchar('user_agent', { length: 256 }).notNull().default(''),
  },
  (t) => [index('sessions_operator').on(t.operatorId)],
);

/** Failed logins, counted per account and per address over a sliding window; shared by every API instance. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    account: varchar('account', { length: 64 }).notNull(),
    address: varchar('address', { length: 64 }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('login_failures_account').on(t.account, t.at),
    index('login_failures_address').on(t.address, t.at),
  ],
);
