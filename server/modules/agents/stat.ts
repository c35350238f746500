import { OpenAPIHono, z } from '@hono/zod-openapi';
import { and, asc, eq, sql } from 'drizzle-orm';
import {
  AGENT_MODELS,
  type AgentModel,
  cents,
  commissionOf,
  median,
  QUALITY_MIN_SIGNUPS,
  type QualityFigures,
  type QualityFlag,
  qualityFlags,
  rate,
} from '../../../common/agents';
import { Code } from '../../../common/codes';
import { addDays, dayOf, daysIn, eachDay, type Period } from '../../../common/period';
import { audit, auditedRoute, snapshot } from '../../core/audit';
import { can, security } from '../../core/auth';
import type { AppContext, AppEnv } from '../../core/context';
import { idParam } from '../../core/crud';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { ApiError, invalidField, notFound } from '../../core/errors';
import { createRoute } from '../../core/route';
import { boolQuery, intQuery, transaction } from '../../core/shared';
import { tenantOf } from '../../core/tenant';
import { arrayParam } from '../../db/array-literal';
import { rowsOf } from '../../db/migrate';
import type { Executor, Tx } from '../../db/types';
import {
  cachedAnswer,
  dayParam,
  estimateStored,
  MARKED_DAYS,
  periodOf,
  RETURN_DAYS,
  replayable,
  storedSketch,
  timeZoneOf,
} from '../statistics/reporting';
import { P, periodFigures } from './period-figures';
import { agentSettledDays, agentSettlements, agents } from './schema';

/** The figures of the agents' stat, sortable. */
const AGENT_FIGURES = [
  'visitors',
  'addresses',
  'pageViews',
  'signups',
  'conversion',
  'payers',
  'recharges',
  'rechargeAmount',
  'arpu',
  'commission',
  'settled',
  'unsettled',
] as const;

interface Conv {
  signups: number;
  payers: number;
  recharges: number;
  rechargeAmount: number;
}
const zero = (): Conv => ({ signups: 0, payers: 0, recharges: 0, rechargeAmount: 0 });
const add = (a: Conv, b: Conv): Conv => ({
  signups: a.signups + b.signups,
  payers: a.payers + b.payers,
  recharges: a.recharges + b.recharges,
  rechargeAmount: a.rechargeAmount + b.rechargeAmount,
});
const sub = (a: Conv, b: Conv): Conv => ({
  signups: a.signups - b.signups,
  payers: a.payers - b.payers,
  recharges: a.recharges - b.recharges,
  rechargeAmount: cents(a.rechargeAmount - b.rechargeAmount),
});

/** One row of the stat: an agent over the period, or one day of an agent. */
interface StatRow extends Conv {
  visitors: number;
  addresses: number;
  pageViews: number;
  conversion: number;
  arpu: number;
  commission: number;
  settled: number;
  unsettled: number;
  /** What arrived for settled days after they were settled: reported here, never added to the settled figures. */
  late: Conv;
}

/** The figures of a row from its parts: open (unsettled) live figures, the settled snapshot and its commission. */
function figures(
  open: Conv,
  settled: Conv & { commission: number },
  late: Conv,
  model: AgentModel,
  agentRate: number,
  traffic: { visitors: number; addresses: number; pageViews: number },
): StatRow {
  const all = add(open, settled);
  const unsettled = cents(commissionOf(model, agentRate, open));
  const settledCommission = cents(settled.commission);
  // Every property written out: two spreads and then a property of the second again made each row an object in
  // dictionary mode, far slower to build and slower to read everywhere after.
  return {
    visitors: traffic.visitors,
    addresses: traffic.addresses,
    pageViews: traffic.pageViews,
    signups: all.signups,
    payers: all.payers,
    recharges: all.recharges,
    rechargeAmount: cents(all.rechargeAmount),
    conversion: rate(all.signups, traffic.visitors),
    arpu: all.signups ? cents(all.rechargeAmount / all.signups) : 0,
    commission: cents(unsettled + settledCommission),
    settled: settledCommission,
    unsettled,
    late,
  };
}

const num = (v: unknown) => Number(v ?? 0);
// The column names of each prefix written out: a key built per read (`${p}signups`) is a new string to look up each time.
const CONV_KEYS = {
  o_: ['o_signups', 'o_payers', 'o_recharges', 'o_amount'],
  l_: ['l_signups', 'l_payers', 'l_recharges', 'l_amount'],
  s_: ['s_signups', 's_payers', 's_recharges', 's_amount'],
} as const;
const convOf = (r: Record<string, unknown>, p: keyof typeof CONV_KEYS): Conv => {
  const [signups, payers, recharges, amount] = CONV_KEYS[p];
  return {
    signups: num(r[signups]),
    payers: num(r[payers]),
    recharges: num(r[recharges]),
    rechargeAmount: num(r[amount]),
  };
};
/** The last day whose signups have had their whole return week (idle and retention are read up to it). */
const maturedUntil = (today: string) => addDays(today, -RETURN_DAYS - 1);

const AllQuery = z.object({
  from: dayParam.optional(),
  to: dayParam.optional(),
  sort: z.enum(['name', 'channel', ...AGENT_FIGURES] as [string, ...string[]]).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  q: z.string().trim().max(64).optional(),
  enabled: boolQuery.optional(),
  flagged: boolQuery.optional(),
  page: intQuery(1, 10_000).optional(),
  pageSize: intQuery(1, 1000).optional(),
});

interface AllAnswer {
  list: (StatRow & {
    id: number;
    name: string;
    channel: string;
    model: AgentModel;
    rate: number;
    enabled: boolean;
    parentId: number | null;
    quality: QualityFigures & { flags: QualityFlag[] };
  })[];
  total: number;
  totals: StatRow;
  siteRetention: number | null;
  series: { date: string; pageViews: number; signups: number; payers: number; rechargeAmount: number }[];
  period: Period;
}

const NO_SUMS = [0, 0, 0, 0, 0, 0, 0];

/**
 * Every agent over a period (sorted, filtered, paged in memory: a tenant has thousands of agents, not millions).
 *
 * Each channel's figures are read over aligned blocks of days (attributed-blocks.ts): the period, its
 * matured part (quality) and each settled period within it are covered by their largest aligned blocks (`cover`),
 * about 2·log2(days) pieces each, level 0 being the daily rows. Sums add up and sketches merge the same over blocks as
 * over days, so the answer is the one every day's rows give. Unique visitors and addresses: `channelUniques`, which
 * with `cache` (the route) caches the union of the period's older pieces between reads.
 */
export async function allAgentsStat(
  db: Executor,
  at: { tenant: number; period: Period; today: string },
  { cache = false }: { cache?: boolean } = {},
): Promise<Omit<AllAnswer, 'list'> & { list: AllAnswer['list'] }> {
  const { tenant, period, today } = at;
  const matured = maturedUntil(today);
  const maturedTo = matured < period.to ? matured : period.to;
  const inPeriod = sql`day between ${period.from}::date and ${period.to}::date`;
  const [agentRows, settledRows, byChannel, totalRows] = await Promise.all([
    db
      .execute(
        sql`select id, name, channel, model, rate, enabled, parent_id from agents where tenant = ${tenant} order by id`,
      )
      .then((r) => rowsOf<Record<string, unknown>>(r)),
    db
      .execute(sql`select agent_id, sum(signups) as s_signups, sum(payers) as s_payers, sum(recharges) as s_recharges,
          sum(recharge_amount) as s_amount, sum(commission) as s_commission
        from agent_settled_days where tenant = ${tenant} and ${inPeriod} group by agent_id`)
      .then((r) => rowsOf<Record<string, unknown>>(r)),
    periodFigures(db, { tenant, period, maturedTo, cache }),
    db
      .execute(sql`select day::text as day, page_views as pv, signups, payers, recharge_amount as amount
        from stat_attributed_totals where tenant = ${tenant} and ${inPeriod}`)
      .then((r) => rowsOf<Record<string, unknown>>(r)),
  ]);
  const settledOf = new Map(settledRows.map((s) => [num(s.agent_id), s]));

  const list: AllAnswer['list'] = agentRows.map((a) => {
    const channel = String(a.channel);
    const f = byChannel.get(channel);
    const p = f?.period ?? NO_SUMS;
    const l = f?.settled ?? NO_SUMS;
    const m = f?.matured ?? NO_SUMS;
    const s = settledOf.get(num(a.id)) ?? {};
    const settledConv = convOf(s, 's_');
    const live: Conv = { signups: l[0], payers: l[1], recharges: l[2], rechargeAmount: l[3] / 100 };
    const late = sub(live, settledConv);
    const open: Conv = {
      signups: p[P.signups] - l[0],
      payers: p[P.payers] - l[1],
      recharges: p[P.recharges] - l[2],
      rechargeAmount: (p[P.amount] - l[3]) / 100,
    };
    const quality: QualityFigures & { flags: QualityFlag[] } = {
      signups: p[P.signups],
      sharedAddress: p[P.sharedAddress],
      sharedDevice: p[P.sharedDevice],
      matured: m[0],
      idle: m[1],
      retained: m[2],
      flags: [],
    };
    const row = figures(
      open,
      { ...settledConv, commission: num(s.s_commission) },
      late,
      a.model as AgentModel,
      num(a.rate),
      { visitors: f?.visitors ?? 0, addresses: f?.addresses ?? 0, pageViews: p[P.pageViews] },
    );
    // Written out, not spread (see `figures`).
    return {
      id: num(a.id),
      name: String(a.name),
      channel,
      model: a.model as AgentModel,
      rate: num(a.rate),
      enabled: a.enabled === true || a.enabled === 't',
      parentId: a.parent_id === null || a.parent_id === undefined ? null : num(a.parent_id),
      visitors: row.visitors,
      addresses: row.addresses,
      pageViews: row.pageViews,
      signups: row.signups,
      payers: row.payers,
      recharges: row.recharges,
      rechargeAmount: row.rechargeAmount,
      conversion: row.conversion,
      arpu: row.arpu,
      commission: row.commission,
      settled: row.settled,
      unsettled: row.unsettled,
      late: row.late,
      quality,
    };
  });
  const siteRetention = median(
    list
      .filter((r) => r.quality.matured >= QUALITY_MIN_SIGNUPS)
      .map((r) => r.quality.retained / r.quality.matured),
  );
  for (const r of list) r.quality.flags = qualityFlags(r.quality, siteRetention);
  // The series: every channel's day totals, less the channels of no agent that had figures in the period.
  const agentChannels = new Set(list.map((r) => r.channel));
  const others = [...byChannel.keys()].filter((c) => !agentChannels.has(c));
  const perDay = new Map(totalRows.map((r) => [String(r.day), r]));
  const otherDays = others.length
    ? new Map(
        rowsOf<Record<string, unknown>>(
          await db.execute(sql`select day::text as day, sum(page_views) as pv, sum(signups) as signups,
              sum(payers) as payers, sum(recharge_amount) as amount
            from stat_attributed_daily where tenant = ${tenant} and ${inPeriod}
              and channel = any(${arrayParam(others)}::text[])
            group by day`),
        ).map((r) => [String(r.day), r]),
      )
    : new Map<string, Record<string, unknown>>();
  const series = eachDay(period.from, period.to).map((date) => {
    const r = perDay.get(date) ?? {};
    const o = otherDays.get(date) ?? {};
    return {
      date,
      pageViews: num(r.pv) - num(o.pv),
      signups: num(r.signups) - num(o.signups),
      payers: num(r.payers) - num(o.payers),
      rechargeAmount: cents(num(r.amount) - num(o.amount)),
    };
  });
  return { list, total: list.length, totals: totalsOf(list), siteRetention, series, period };
}

/** The totals row: sums; unique visitors and addresses summed over agents (a visitor of two agents counts twice). */
function totalsOf(list: StatRow[]): StatRow {
  const t = list.reduce(
    (s, r) => ({
      visitors: s.visitors + r.visitors,
      addresses: s.addresses + r.addresses,
      pageViews: s.pageViews + r.pageViews,
      conv: add(s.conv, r),
      late: add(s.late, r.late),
      settled: s.settled + r.settled,
      unsettled: s.unsettled + r.unsettled,
    }),
    { visitors: 0, addresses: 0, pageViews: 0, conv: zero(), late: zero(), settled: 0, unsettled: 0 },
  );
  const conv = { ...t.conv, rechargeAmount: cents(t.conv.rechargeAmount) };
  return {
    visitors: t.visitors,
    addresses: t.addresses,
    pageViews: t.pageViews,
    ...conv,
    conversion: rate(conv.signups, t.visitors),
    arpu: conv.signups ? cents(conv.rechargeAmount / conv.signups) : 0,
    settled: cents(t.settled),
    unsettled: cents(t.unsettled),
    commission: cents(t.settled + t.unsettled),
    late: { ...t.late, rechargeAmount: cents(t.late.rechargeAmount) },
  };
}

/** One agent day by day over a period (every day, zeros included), with its settlement per day. */
async function oneAgentStat(
  db: Executor,
  at: { tenant: number; period: Period; agent: typeof agents.$inferSelect },
) {
  const { tenant, period, agent } = at;
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`select r.day::text as day, r.page_views as pv, r.signups as l_signups, r.payers as l_payers,
        r.recharges as l_recharges, r.recharge_amount as l_amount, r.visitors, r.addresses
      from stat_attributed_daily r where r.tenant = ${tenant} and r.channel = ${agent.channel}
        and r.day between ${period.from}::date and ${period.to}::date`),
  );
  const settledRows = await db
    .select()
    .from(agentSettledDays)
    .where(
      and(
        eq(agentSettledDays.tenant, tenant),
        eq(agentSettledDays.agentId, agent.id),
        sql`${agentSettledDays.day} between ${period.from}::date and ${period.to}::date`,
      ),
    );
  const live = new Map(rows.map((r) => [String(r.day), r]));
  const settled = new Map(settledRows.map((s) => [s.day, s]));
  const model = agent.model;
  const agentRate = Number(agent.rate);
  const days = eachDay(period.from, period.to).map((day) => {
    const r = live.get(day) ?? {};
    const liveConv = convOf(r, 'l_');
    const s = settled.get(day);
    const snap = s
      ? {
          signups: s.signups,
          payers: s.payers,
          recharges: s.recharges,
          rechargeAmount: Number(s.rechargeAmount),
          commission: Number(s.commission),
        }
      : { ...zero(), commission: 0 };
    const v = storedSketch(r.visitors);
    const a = storedSketch(r.addresses);
    return {
      key: day,
      settlementId: s?.settlementId ?? null,
      ...figures(s ? zero() : liveConv, snap, s ? sub(liveConv, snap) : zero(), model, agentRate, {
        visitors: v?.length ? estimateStored([v]) : 0,
        addresses: a?.length ? estimateStored([a]) : 0,
        pageViews: num(r.pv),
      }),
    };
  });
  const totals = totalsOf(days);
  totals.visitors = estimateStored(rows.map((r) => storedSketch(r.visitors)));
  totals.addresses = estimateStored(rows.map((r) => storedSketch(r.addresses)));
  totals.conversion = rate(totals.signups, totals.visitors);
  return { list: days, total: days.length, totals, period };
}

const Conversions = z.object({
  signups: z.number(),
  payers: z.number(),
  recharges: z.number(),
  rechargeAmount: z.number(),
});
const Figures = {
  visitors: z.number().openapi({ description: 'Unique visitors through the channel (HyperLogLog, ±1 %)' }),
  addresses: z.number(),
  pageViews: z.number(),
  ...Conversions.shape,
  conversion: z.number().openapi({ description: 'signups ÷ visitors' }),
  arpu: z.number().openapi({ description: 'recharge amount ÷ signups' }),
  commission: z.number(),
  settled: z.number(),
  unsettled: z.number(),
  late: Conversions.openapi({
    description: 'Arrived for settled days after they were settled: not in the figures',
  }),
};
const Quality = z.object({
  signups: z.number(),
  sharedAddress: z.number(),
  sharedDevice: z.number(),
  matured: z.number(),
  idle: z.number(),
  retained: z.number(),
  flags: z.array(z.enum(['sharedAddress', 'sharedDevice', 'idle', 'retention'])),
});
const AllRow = z.object({
  id: z.number(),
  name: z.string(),
  channel: z.string(),
  model: z.enum(AGENT_MODELS),
  rate: z.number(),
  enabled: z.boolean(),
  parentId: z.number().nullable(),
  ...Figures,
  quality: Quality,
});
const PeriodSchema = z.object({ from: z.string(), to: z.string() });

const Settlement = z
  .object({
    id: z.number(),
    agentId: z.number(),
    from: z.string(),
    to: z.string(),
    model: z.enum(AGENT_MODELS),
    rate: z.number(),
    ...Conversions.shape,
    commission: z.number(),
    note: z.string(),
    settledBy: z.number().nullable(),
    settledAt: z.string(),
  })
  .openapi('AgentSettlement');

const routes = {
  all: createRoute({
    method: 'get',
    path: '/',
    tags: ['agents'],
    security,
    summary:
      'Every agent compared over a period (from the rollups): figures, commission settled and not, quality flags',
    middleware: can('agents.read'),
    request: { query: AllQuery },
    responses: jsonResponse(
      z
        .object({
          list: z.array(AllRow),
          total: z.number(),
          totals: z.object(Figures),
          siteRetention: z
            .number()
            .nullable()
            .openapi({ description: 'Median 7-day retention of the agents with enough signups' }),
          series: z
            .array(
              z.object({
                date: z.string(),
                pageViews: z.number(),
                signups: z.number(),
                payers: z.number(),
                rechargeAmount: z.number(),
              }),
            )
            .openapi({ description: "Every agent's figures summed per day (filters do not apply)" }),
          period: PeriodSchema,
        })
        .openapi('AgentsStat'),
    ),
  }),
  one: createRoute({
    method: 'get',
    path: '/daily',
    tags: ['agents'],
    security,
    summary:
      'One agent day by day over a period; settled days show their settled figures and what came later apart',
    middleware: can('agents.read'),
    request: {
      query: z.object({
        agentId: intQuery(),
        from: dayParam.optional(),
        to: dayParam.optional(),
        sort: z.enum(['key', ...AGENT_FIGURES] as [string, ...string[]]).optional(),
        order: z.enum(['asc', 'desc']).optional(),
        page: intQuery(1, 10_000).optional(),
        pageSize: intQuery(1, 1000).optional(),
      }),
    },
    responses: jsonResponse(
      z
        .object({
          agent: z.object({
            id: z.number(),
            name: z.string(),
            channel: z.string(),
            model: z.enum(AGENT_MODELS),
            rate: z.number(),
          }),
          list: z.array(z.object({ key: z.string(), settlementId: z.number().nullable(), ...Figures })),
          total: z.number(),
          totals: z.object(Figures),
          series: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))),
          period: PeriodSchema,
        })
        .openapi('AgentStat'),
    ),
  }),
  settlements: createRoute({
    method: 'get',
    path: '/{id}/settlements',
    tags: ['agents'],
    security,
    summary: "An agent's settled periods, newest first",
    middleware: can('agents.read'),
    request: { params: idParam },
    responses: jsonResponse(z.array(Settlement)),
  }),
  settle: createRoute({
    method: 'post',
    path: '/{id}/settlements',
    tags: ['agents'],
    security,
    summary:
      'Settle a period of an agent (admin): its days are frozen as they stand; days not over yet, days with a rollup pending, or a period overlapping a settled one are refused',
    middleware: can('agents.edit'),
    request: {
      params: idParam,
      body: jsonBody(
        z
          .strictObject({ from: dayParam, to: dayParam, note: z.string().trim().max(256).optional() })
          .openapi('AgentSettle'),
      ),
    },
    responses: jsonResponse(Settlement),
  }),
};

const settlementToApi = (s: typeof agentSettlements.$inferSelect) => ({
  id: s.id,
  agentId: s.agentId,
  from: s.fromDay,
  to: s.toDay,
  model: s.model,
  rate: Number(s.rate),
  signups: s.signups,
  payers: s.payers,
  recharges: s.recharges,
  rechargeAmount: Number(s.rechargeAmount),
  commission: Number(s.commission),
  note: s.note,
  settledBy: s.settledBy,
  settledAt: new Date(s.settledAt).toISOString(),
});

/** What a cached answer of the agents' stat depends on besides the rollups: the agents and their settlements. */
const agentsStamp = (
  tenant: number,
) => sql`(select count(*) || ':' || coalesce(sum(version), 0) || ':' || coalesce(max(id), 0)
  from agents where tenant = ${tenant}) || '/' || (select count(*) || ':' || coalesce(max(id), 0) from agent_settlements where tenant = ${tenant})`;

async function findAgent(db: Executor, c: AppContext, id: number) {
  const [agent] = await db
    .select()
    .from(agents)
    .where(and(eq(agents.id, id), eq(agents.tenant, tenantOf(c))));
  if (!agent) throw notFound();
  return agent;
}

function sortRows<T extends object>(list: T[], sort: string, order: 'asc' | 'desc') {
  const dir = order === 'asc' ? 1 : -1;
  const at = (r: T, k: string) => (r as Record<string, unknown>)[k];
  return [...list].sort((a, b) => {
    const x = at(a, sort);
    const y = at(b, sort);
    const d = typeof x === 'string' ? x.localeCompare(String(y)) : Number(x) - Number(y);
    return d * dir || Number(at(a, 'id')) - Number(at(b, 'id'));
  });
}

/**
 * Settles `from..to` for a locked agent, in the caller's transaction: refused (40900) when it overlaps a settled period
 * or a day of it waits for its rollup, and (40000 on `from`) when no day of it was ever rolled up; otherwise every day is frozen as it stands (a day without figures as zeros).
 */
export async function settlePeriod(
  tx: Tx,
  at: {
    tenant: number;
    agent: typeof agents.$inferSelect;
    from: string;
    to: string;
    note: string;
    by: number | null;
    now: Date;
  },
) {
  const { tenant, agent } = at;
  const body = at;
  const id = agent.id;
  const [overlap] = await tx
    .select()
    .from(agentSettlements)
    .where(
      and(
        eq(agentSettlements.tenant, tenant),
        eq(agentSettlements.agentId, id),
        sql`${agentSettlements.fromDay} <= ${body.to}::date and ${agentSettlements.toDay} >= ${body.from}::date`,
      ),
    );
  if (overlap)
    throw new ApiError(Code.CONFLICT, 'agent.settleOverlap', { from: overlap.fromDay, to: overlap.toDay });
  const pending = rowsOf<{ day: string }>(
    await tx.execute(sql`select day::text as day from (${MARKED_DAYS}) m where tenant = ${tenant}
      and day between ${body.from}::date and ${body.to}::date order by day limit 5`),
  );
  if (pending.length)
    throw new ApiError(Code.CONFLICT, 'agent.settlePending', { days: pending.map((p) => p.day).join(', ') });
  // A period no rollup has reached (before the site's first events, or with none at all) would be frozen as zeros, and
  // the events of those days could then never count: refused, naming the first day that has statistics.
  const [reach] = rowsOf<{ inside: boolean; first: string | null }>(
    await tx.execute(sql`select exists (select 1 from stat_rolled_days where tenant = ${tenant} and day_gen <> 0
        and day between ${body.from}::date and ${body.to}::date) as inside,
      (select min(day)::text from stat_rolled_days where tenant = ${tenant} and day_gen <> 0) as first`),
  );
  if (!(reach.inside === true || (reach.inside as unknown) === 't'))
    throw reach.first
      ? invalidField('from', 'agent.settleNoStatistics', { first: reach.first })
      : invalidField('from', 'agent.settleNoStatisticsYet');
  const days = rowsOf<Record<string, unknown>>(
    await tx.execute(sql`select day::text as day, signups, payers, recharges, recharge_amount from stat_attributed_daily
      where tenant = ${tenant} and channel = ${agent.channel} and day between ${body.from}::date and ${body.to}::date`),
  );
  const model = agent.model;
  const agentRate = Number(agent.rate);
  const snap = days.map((d) => {
    const f = {
      signups: num(d.signups),
      payers: num(d.payers),
      recharges: num(d.recharges),
      rechargeAmount: num(d.recharge_amount),
    };
    return { day: String(d.day), ...f, commission: commissionOf(model, agentRate, f) };
  });
  const total = snap.reduce((s, d) => add(s, d), zero());
  const [settlement] = await tx
    .insert(agentSettlements)
    .values({
      tenant,
      agentId: id,
      fromDay: body.from,
      toDay: body.to,
      model,
      rate: agent.rate,
      signups: total.signups,
      payers: total.payers,
      recharges: total.recharges,
      rechargeAmount: String(cents(total.rechargeAmount)),
      commission: String(cents(snap.reduce((s, d) => s + d.commission, 0))),
      note: body.note,
      settledBy: at.by,
      settledAt: at.now,
    })
    .returning();
  // Every day of the period is frozen, a day without figures as zeros: events arriving later show as late.
  const byDay = new Map(snap.map((d) => [d.day, d]));
  const values = eachDay(body.from, body.to).map((day) => {
    const d = byDay.get(day) ?? { ...zero(), commission: 0 };
    return {
      tenant,
      agentId: id,
      day,
      settlementId: settlement.id,
      signups: d.signups,
      payers: d.payers,
      recharges: d.recharges,
      rechargeAmount: String(cents(d.rechargeAmount)),
      commission: d.commission.toFixed(4),
    };
  });
  for (let i = 0; i < values.length; i += 500)
    await tx.insert(agentSettledDays).values(values.slice(i, i + 500));
  return settlement;
}

/**
 * The all-agents stat as the route serves it, cached between reads (report-cache.ts), and read again by the rollup timer
 * after each run while operators read it (warm-reads.ts). The answer is shared by every read: never changed.
 */
const allAgentsAnswer = (db: Executor, tenant: number, period: Period, today: string) =>
  cachedAnswer(
    db,
    {
      tenant,
      span: { from: addDays(period.from, -RETURN_DAYS), to: period.to },
      also: agentsStamp(tenant),
    },
    `agents:${tenant}:${period.from}:${period.to}:${today}`,
    () => allAgentsStat(db, { tenant, period, today }, { cache: true }),
    { readOnly: true }, // filtered, sorted and paged into new arrays by the route; no row is changed
  );
const servedAllAgents = replayable('agents.all', (db, tenant, period: Period, { today }) =>
  allAgentsAnswer(db, tenant, { from: period.from, to: period.to }, today),
);

/** The stat routes (`/app/admin/agents/stat`): all agents, one agent, settlements. */
export function agentStatRoutes() {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(routes.all, async (c) => {
    const { db, clock } = c.get('deps');
    const tenant = tenantOf(c);
    const q = c.req.valid('query');
    const timeZone = await timeZoneOf(db, tenant);
    const period = await periodOf(c, q, undefined, timeZone);
    const now = clock.now();
    const answer = await servedAllAgents(db, {
      tenant,
      query: period,
      at: { today: dayOf(now, timeZone), timeZone },
      now,
    });
    const needle = q.q?.toLowerCase();
    let list = answer.list.filter(
      (r) =>
        (!needle || r.name.toLowerCase().includes(needle) || r.channel.toLowerCase().includes(needle)) &&
        (q.enabled === undefined || r.enabled === q.enabled) &&
        (!q.flagged || r.quality.flags.length > 0),
    );
    const filtered = list.length !== answer.list.length;
    list = sortRows(
      list,
      q.sort ?? 'commission',
      q.order ?? (q.sort === 'name' || q.sort === 'channel' ? 'asc' : 'desc'),
    );
    const pageSize = q.pageSize ?? 20;
    const page = q.page ?? 1;
    return ok(c, {
      ...answer,
      list: list.slice((page - 1) * pageSize, page * pageSize),
      total: list.length,
      totals: filtered ? totalsOf(list) : answer.totals,
    });
  });

  app.openapi(routes.one, async (c) => {
    const { db } = c.get('deps');
    const tenant = tenantOf(c);
    const q = c.req.valid('query');
    const agent = await findAgent(db, c, q.agentId);
    const period = await periodOf(c, q);
    const stat = await oneAgentStat(db, { tenant, period, agent });
    const pageSize = q.pageSize ?? 1000;
    const page = q.page ?? 1;
    const list = sortRows(
      stat.list,
      q.sort ?? 'key',
      q.order ?? (q.sort && q.sort !== 'key' ? 'desc' : 'asc'),
    );
    return ok(c, {
      agent: {
        id: agent.id,
        name: agent.name,
        channel: agent.channel,
        model: agent.model,
        rate: Number(agent.rate),
      },
      ...stat,
      list: list.slice((page - 1) * pageSize, page * pageSize),
      series: stat.list.map(({ key, late: _late, settlementId: _s, ...f }) => ({ date: key, ...f })),
    });
  });

  app.openapi(routes.settlements, async (c) => {
    const { db } = c.get('deps');
    const agent = await findAgent(db, c, c.req.valid('param').id);
    const rows = await db
      .select()
      .from(agentSettlements)
      .where(and(eq(agentSettlements.tenant, tenantOf(c)), eq(agentSettlements.agentId, agent.id)))
      .orderBy(sql`${agentSettlements.fromDay} desc`, asc(agentSettlements.id));
    return ok(c, rows.map(settlementToApi));
  });

  app.openapi(auditedRoute(routes.settle), async (c) => {
    const { db, clock } = c.get('deps');
    const tenant = tenantOf(c);
    const body = c.req.valid('json');
    const id = c.req.valid('param').id;
    const today = dayOf(clock.now(), await timeZoneOf(db, tenant));
    if (body.to < body.from) throw invalidField('to', 'stats.toBeforeFrom');
    if (body.to >= today) throw invalidField('to', 'agent.settleOpenDay', { today });
    if (daysIn(body.from, body.to) > 366) throw invalidField('to', 'stats.periodTooLong', { days: 366 });
    const row = await transaction(db, async (tx) => {
      const [agent] = await tx
        .select()
        .from(agents)
        .where(and(eq(agents.id, id), eq(agents.tenant, tenant)))
        .for('update');
      if (!agent) throw notFound();
      const settled = await settlePeriod(tx, {
        tenant,
        agent,
        from: body.from,
        to: body.to,
        note: body.note ?? '',
        by: c.get('operator').id,
        now: clock.now(),
      });
      // The agent is the record (its log lists its settlements); the settlement's own id is in `after`.
      await audit(tx, c, {
        resource: 'agents',
        action: 'settle',
        recordId: agent.id,
        changes: { after: snapshot(settlementToApi(settled)) },
      });
      return settled;
    });
    return ok(c, settlementToApi(row));
  });

  return app;
}
