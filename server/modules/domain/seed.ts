import type { DomainRole, DomainStatus } from '../../../common/domain';
import type { Db } from '../../db/types';
import { SEED_DOMAIN_CHANNELS } from '../../seed/channels';
import { rng } from '../../seed/random';
import { checkHostname, HEALTH_ACTOR } from './model';
import { domainHistory, domainPools, domainSettings, domains } from './schema';

const POOLS = [
  { name: '推广主池', note: '首页与推广链接' },
  { name: '落地页池', note: '广告落地页' },
  { name: '渠道池', note: '代理推广链接' },
  { name: '备用池', note: '' },
];
const WORDS = ['kan', 'yue', 'hao', 'mei', 'xing', 'guang', 'tian', 'feng', 'yun', 'lan', 'shan', 'hai'];
const TLDS = ['com', 'cn', 'net', 'top', 'xyz', 'cc', 'vip'];
const REGISTRARS = ['阿里云', 'GoDaddy', 'Namecheap', '腾讯云'];

/** Sample data: four pools, ~200 domains in mixed states (a few internationalised), channel bindings, history. */
export async function seedDomains(
  db: Db,
  at: { seed: number; tenant: number; now: Date; reviewer: number | null },
) {
  const r = rng(at.seed * 7919 + 15);
  const day = (offset: number) => new Date(at.now.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  await db.insert(domainSettings).values({ tenant: at.tenant }).onConflictDoNothing();
  const pools = await db
    .insert(domainPools)
    .values(POOLS.map((p) => ({ ...p, tenant: at.tenant, createdAt: at.now, updatedAt: at.now })))
    .returning({ id: domainPools.id, name: domainPools.name });
  const rows: (typeof domains.$inferInsert)[] = [];
  const seen = new Set<string>();
  for (let i = 0; rows.length < 200; i++) {
    const name =
      i % 40 === 7
        ? `${['看片', '阅读', '影视'][i % 3]}${i}.cn`
        : `${r.pick(WORDS)}${r.pick(WORDS)}${i}.${r.pick(TLDS)}`;
    const host = checkHostname(name);
    if ('error' in host || seen.has(host.host)) continue;
    seen.add(host.host);
    const pool = pools[i % pools.length];
    const roll = r.next();
    const status: DomainStatus =
      roll < 0.45
        ? 'active'
        : roll < 0.75
          ? 'standby'
          : roll < 0.85
            ? 'blocked'
            : roll < 0.9
              ? 'expired'
              : 'retired';
    const role: DomainRole =
      pool.name === '渠道池'
        ? 'channel'
        : pool.name === '落地页池'
          ? 'landing'
          : r.pick(['main', 'backup'] as const);
    const retiredAt = status === 'retired' ? new Date(at.now.getTime() - r.int(0, 29) * 86_400_000) : null;
    rows.push({
      tenant: at.tenant,
      hostname: host.host,
      registrable: host.registrable,
      role,
      poolId: pool.id,
      weight: r.pick([1, 1, 2, 3, 5, 10]),
      status,
      registrar: r.pick(REGISTRARS),
      expiresOn: day(r.int(-20, 400)),
      certExpiresOn: r.next() < 0.8 ? day(r.int(-5, 90)) : null,
      // bound only to channels a sample agent has (ag1006 had none: its promotion link led nowhere)
      channel:
        role === 'channel' && status === 'active'
          ? SEED_DOMAIN_CHANNELS[i % SEED_DOMAIN_CHANNELS.length]
          : null,
      retireReason: status === 'retired' ? '被墙' : '',
      retiredAt,
      createdAt: new Date(at.now.getTime() - r.int(30, 120) * 86_400_000),
      updatedAt: at.now,
    });
  }
  const inserted = await db.insert(domains).values(rows).returning();
  const history: (typeof domainHistory.$inferInsert)[] = [];
  for (const d of inserted) {
    history.push({
      tenant: at.tenant,
      at: d.createdAt,
      domainId: d.id,
      hostname: d.hostname,
      poolId: d.poolId,
      channel: null,
      action: 'import',
      toValue: d.status === 'active' ? 'active' : 'standby',
      actorId: at.reviewer,
      actor: 'admin',
    });
    if (d.status === 'blocked' || d.status === 'retired')
      history.push({
        tenant: at.tenant,
        at: d.retiredAt ?? new Date(at.now.getTime() - 86_400_000 * 3),
        domainId: d.id,
        hostname: d.hostname,
        poolId: d.poolId,
        channel: d.channel,
        action: d.status === 'blocked' ? 'health' : 'retire',
        fromValue: 'active',
        toValue: d.status,
        actorId: d.status === 'blocked' ? null : at.reviewer,
        actor: d.status === 'blocked' ? HEALTH_ACTOR : 'admin',
        reason: d.status === 'blocked' ? 'connect ETIMEDOUT' : '被墙',
      });
  }
  await db.insert(domainHistory).values(history);
}
