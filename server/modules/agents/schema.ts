import {
  boolean,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  serial,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import type { AgentModel, PayoutMethod } from '../../../common/agents';

/**
 * A channel agent: who brings traffic through a channel code (unique per tenant, fixed once created; its promotion
 * links carry it, and domains bound to it count as it), how they are paid (commission model and rate, payout
 * details), the agent above them, whether they are active.
 */
export const agents = pgTable(
  'agents',
  {
    id: serial('id').primaryKey(),
    tenant: integer('tenant').notNull(),
    name: varchar('name', { length: 64 }).notNull(),
    contact: varchar('contact', { length: 128 }).notNull().default(''),
    channel: varchar('channel', { length: 64 }).notNull(),
    model: varchar('model', { length: 8 }).$type<AgentModel>().notNull().default('share'),
    rate: numeric('rate', { precision: 12, scale: 2 }).notNull().default('0'),
    parentId: integer('parent_id').references((): any => agents.id, { onDelete: 'restrict' }),
    enabled: boolean('enabled').notNull().default(true),
    payee: varchar('payee', { length: 64 }).notNull().default(''),
    payoutMethod: varchar('payout_method', { length: 8 }).$type<PayoutMethod>().notNull().default('bank'),
    payoutAccount: varchar('payout_account', { length: 128 }).notNull().default(''),
    notes: varchar('notes', { length: 500 }).notNull().default(''),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('agents_tenant_channel').on(t.tenant, t.channel),
    uniqueIndex('agents_tenant_name').on(t.tenant, t.name),
    index('agents_tenant_parent').on(t.tenant, t.parentId),
  ],
);

/** A settled period of an agent: the figures and commission paid, frozen with the model and rate of the day. */
export const agentSettlements = pgTable(
  'agent_settlements',
  {
    id: serial('id').primaryKey(),
    tenant: integer('tenant').notNull(),
    agentId: integer('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'restrict' }),
    fromDay: date('from_day', { mode: 'string' }).notNull(),
    toDay: date('to_day', { mode: 'string' }).notNull(),
    model: varchar('model', { length: 8 }).$type<AgentModel>().notNull(),
    rate: numeric('rate', { precision: 12, scale: 2 }).notNull(),
    signups: integer('signups').notNull(),
    payers: integer('payers').notNull(),
    recharges: integer('recharges').notNull(),
    rechargeAmount: numeric('recharge_amount', { precision: 16, scale: 2 }).notNull(),
    commission: numeric('commission', { precision: 16, scale: 2 }).notNull(),
    note: varchar('note', { length: 256 }).notNull().default(''),
    settledBy: integer('settled_by'),
    settledAt: timestamp('settled_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('agent_settlements_agent').on(t.tenant, t.agentId, t.fromDay)],
);

/** Each settled day's figures as they stood when settled (reports show these; later events apart). */
export const agentSettledDays = pgTable(
  'agent_settled_days',
  {
    tenant: integer('tenant').notNull(),
    agentId: integer('agent_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    settlementId: integer('settlement_id')
      .notNull()
      .references(() => agentSettlements.id, { onDelete: 'cascade' }),
    signups: integer('signups').notNull(),
    payers: integer('payers').notNull(),
    recharges: integer('recharges').notNull(),
    rechargeAmount: numeric('recharge_amount', { precision: 16, scale: 2 }).notNull(),
    commission: numeric('commission', { precision: 16, scale: 4 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenant, t.agentId, t.day] }),
    // The all-agents stat's period, whatever the history.
    index('agent_settled_days_tenant_day').on(t.tenant, t.day),
  ],
);
