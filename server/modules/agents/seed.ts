import { eq } from 'drizzle-orm';
import type { AgentModel } from '../../../common/agents';
import { addDays, dayOf } from '../../../common/period';
import type { Db } from '../../db/types';
import { SEED_DOMAIN_CHANNELS } from '../../seed/channels';
import { runRollup, timeZoneOf } from '../statistics/reporting';
import { agents } from './schema';
import { settlePeriod } from './stat';

/**
 * Sample agents: the channel codes the statistics and domains seeds use (so their traffic shows), each commission
 * model, a sub-agent, a disabled one; the first agent's first half of the sample month is settled.
 */
export async function seedAgents(db: Db, opts: { tenant: number; now: Date; by: number | null }) {
  const { tenant } = opts;
  const rows = [
    { name: '华东推广一部', channel: 'agent01', model: 'share', rate: '30.00', contact: 'QQ 800001' },
    { name: '华南推广二部', channel: 'agent02', model: 'signup', rate: '2.50', contact: 'WeChat hn-agent02' },
    { name: '星河联盟', channel: 'agent07', model: 'payer', rate: '15.00', contact: 'Telegram @xinghe' },
    { name: 'KOL 李', channel: 'kol-li', model: 'share', rate: '40.00', contact: '' },
    { name: 'KOL 王', channel: 'kol-wang', model: 'share', rate: '35.00', contact: '', enabled: false },
    ...SEED_DOMAIN_CHANNELS.map((channel, i) => ({
      name: `域名渠道 ${i + 1}`,
      channel,
      model: 'signup',
      rate: '1.00',
      contact: '',
    })),
  ] as {
    name: string;
    channel: string;
    model: AgentModel;
    rate: string;
    contact: string;
    enabled?: boolean;
  }[];
  const inserted = await db
    .insert(agents)
    .values(
      rows.map((r) => ({
        tenant,
        name: r.name,
        channel: r.channel,
        model: r.model,
        rate: r.rate,
        contact: r.contact,
        enabled: r.enabled ?? true,
        payee: r.name,
        payoutMethod: 'bank' as const,
        payoutAccount: '',
      })),
    )
    .onConflictDoNothing()
    .returning();
  if (!inserted.length) return;
  const parent = inserted.find((a) => a.channel === 'agent01');
  const child = inserted.find((a) => a.channel === 'kol-li');
  if (parent && child) {
    await db.update(agents).set({ parentId: parent.id }).where(eq(agents.id, child.id));
  }
  if (parent) {
    const today = dayOf(opts.now, await timeZoneOf(db, tenant));
    // A period is settled over rolled-up days only: the events the other seeders sent in are rolled up first.
    await runRollup(db, { now: opts.now, defaultTenant: tenant });
    await db.transaction((tx) =>
      settlePeriod(tx, {
        tenant,
        agent: parent,
        from: addDays(today, -29),
        to: addDays(today, -16),
        note: 'seed',
        by: opts.by,
        now: opts.now,
      }),
    );
  }
}
