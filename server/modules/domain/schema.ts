import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  pgTable,
  serial,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import type { DomainRole, DomainStatus, HistoryAction } from '../../../common/domain';

/** A pool: a named set of domains the site draws from (promotion, landing pages…), with its standby reserve. */
export const domainPools = pgTable(
  'domain_pools',
  {
    id: serial('id').primaryKey(),
    tenant: integer('tenant').notNull(),
    name: varchar('name', { length: 64 }).notNull(),
    note: varchar('note', { length: 256 }).notNull().default(''),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('domain_pools_tenant_name').on(t.tenant, t.name)],
);

/**
 * A domain of the store: the hostname in ASCII (punycode; shown in Unicode), its registrable domain (tldts), role,
 * pool, weight in the pool's traffic split, status, registrar, domain and certificate expiry, the channel code it
 * is bound to (an agent's promotion code: the agents module maps codes to agents), the last health check.
 */
export const domains = pgTable(
  'domains',
  {
    id: serial('id').primaryKey(),
    tenant: integer('tenant').notNull(),
    hostname: varchar('hostname', { length: 253 }).notNull(),
    registrable: varchar('registrable', { length: 253 }).notNull(),
    role: varchar('role', { length: 8 }).$type<DomainRole>().notNull().default('landing'),
    poolId: integer('pool_id').references(() => domainPools.id, { onDelete: 'restrict' }),
    weight: integer('weight').notNull().default(1),
    status: varchar('status', { length: 8 }).$type<DomainStatus>().notNull().default('standby'),
    registrar: varchar('registrar', { length: 64 }).notNull().default(''),
    expiresOn: date('expires_on', { mode: 'string' }),
    certExpiresOn: date('cert_expires_on', { mode: 'string' }),
    channel: varchar('channel', { length: 64 }),
    retireReason: varchar('retire_reason', { length: 256 }).notNull().default(''),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    checkOk: boolean('check_ok'),
    checkError: varchar('check_error', { length: 256 }).notNull().default(''),
    failCount: integer('fail_count').notNull().default(0),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // Every index is paid once per row by an import of thousands of hostnames: one per filter of the store list, none
  // for what only the history or a pool screen reads.
  (t) => [
    uniqueIndex('domains_tenant_hostname').on(t.tenant, t.hostname),
    // prefix search (`like 'x%'`) under a non-C collation needs the pattern operator class
    index('domains_tenant_hostname_prefix').on(t.tenant, t.hostname.op('varchar_pattern_ops')),
    index('domains_tenant_registrable_prefix').on(t.tenant, t.registrable.op('varchar_pattern_ops')),
    index('domains_tenant_status').on(t.tenant, t.status, t.id),
    index('domains_tenant_pool').on(t.tenant, t.poolId, t.status, t.id),
    index('domains_tenant_channel').on(t.tenant, t.channel),
    index('domains_tenant_role').on(t.tenant, t.role, t.id),
    index('domains_tenant_registrar').on(t.tenant, t.registrar, t.id),
    index('domains_tenant_check').on(t.tenant, t.checkOk, t.id),
    index('domains_tenant_expires').on(t.tenant, t.expiresOn),
    index('domains_tenant_cert_expires').on(t.tenant, t.certExpiresOn),
  ],
);

/** Every change of a domain, by an operator or the health checker: what, from, to, why. */
export const domainHistory = pgTable(
  'domain_history',
  {
    id: serial('id').primaryKey(),
    tenant: integer('tenant').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    domainId: integer('domain_id'),
    hostname: varchar('hostname', { length: 253 }).notNull(),
    poolId: integer('pool_id'),
    channel: varchar('channel', { length: 64 }),
    action: varchar('action', { length: 8 }).$type<HistoryAction>().notNull(),
    fromValue: varchar('from_value', { length: 300 }).notNull().default(''),
    toValue: varchar('to_value', { length: 300 }).notNull().default(''),
    /** The operator, or null for the health checker (then `actor` is `health-checker`). */
    actorId: integer('actor_id'),
    actor: varchar('actor', { length: 64 }).notNull(),
    reason: varchar('reason', { length: 256 }).notNull().default(''),
  },
  (t) => [
    index('domain_history_tenant_at').on(t.tenant, t.at, t.id),
    index('domain_history_tenant_domain').on(t.tenant, t.domainId),
    index('domain_history_tenant_action').on(t.tenant, t.action, t.at),
  ],
);

/**
 * Per tenant: the health checker's interval, timeout and failure threshold, whether it replaces a failed channel
 * domain by a standby of its pool, the expiry warning horizon; `resolveVersion` is bumped by every change the
 * resolve endpoint answers from (its in-process caches compare it, so several instances agree).
 */
export const domainSettings = pgTable('domain_settings', {
  tenant: integer('tenant').primaryKey(),
  /** Off until an admin switches it on: the checker blocks what it cannot reach. */
  checkEnabled: boolean('check_enabled').notNull().default(false),
  checkIntervalSeconds: integer('check_interval_seconds').notNull().default(300),
  checkTimeoutMs: integer('check_timeout_ms').notNull().default(5000),
  failThreshold: integer('fail_threshold').notNull().default(3),
  autoReplace: boolean('auto_replace').notNull().default(true),
  expiryWarnDays: integer('expiry_warn_days').notNull().default(30),
  resolveVersion: bigint('resolve_version', { mode: 'number' }).notNull().default(sql`1`),
  lastCheckAt: timestamp('last_check_at', { withTimezone: true }),
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
