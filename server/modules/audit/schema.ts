import { bigserial, index, integer, jsonb, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';

/**
 * The audit log: one row per mutating admin action, written in the action's own
 * transaction by server/core/audit.ts. The database refuses UPDATE, TRUNCATE and any DELETE but zg_audit_purge's.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** No foreign key: an operator's rows outlive the operator. */
    operatorId: integer('operator_id'),
    operatorAccount: varchar('operator_account', { length: 64 }).notNull().default(''),
    address: varchar('address', { length: 64 }).notNull().default(''),
    requestId: varchar('request_id', { length: 64 }).notNull().default(''),
    /** The server module that owns the route (`movie`, `sys`, `operators`…). */
    section: varchar('section', { length: 64 }).notNull(),
    /** The resource within the section (a crudResource's tag), '' for a route-level entry. */
    resource: varchar('resource', { length: 128 }).notNull().default(''),
    /** `create`, `update`, `delete`, `batch:<action>`, a custom action's name, or `route` (route-level entry). */
    action: varchar('action', { length: 64 }).notNull(),
    recordId: varchar('record_id', { length: 64 }),
    /** `METHOD /app/admin/...` as routed (`:id` for parameters). */
    route: varchar('route', { length: 256 }).notNull().default(''),
    /** `{before, after}` of the changed fields, `{ids, count, changed}` of a batch, or `{body}` of a route entry. */
    changes: jsonb('changes').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('audit_log_at').on(t.at.desc(), t.id.desc()),
    index('audit_log_operator').on(t.operatorId, t.at.desc()),
    index('audit_log_section').on(t.section, t.at.desc()),
    index('audit_log_record').on(t.section, t.recordId),
  ],
);

/** How long the log keeps rows (an admin edits it) and when the Node server last purged (the instances' claim). */
export const auditSettings = pgTable('audit_settings', {
  tenant: integer('tenant').primaryKey(),
  retentionDays: integer('retention_days').notNull().default(180),
  lastPurgeAt: timestamp('last_purge_at', { withTimezone: true }),
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
