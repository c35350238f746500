import { sql } from 'drizzle-orm';
import { AD_PRICING } from '../../../common/ad';
import { addDays, dayOf, dayStart } from '../../../common/period';
import type { Db } from '../../db/types';
import { rng } from '../../seed/random';
import { ingest, timeZoneOf } from '../statistics/reporting';
import { touchAds } from './routes';
import { adAdvertisers, adPositions, ads } from './schema';

const ADVERTISERS = [
  { name: '樱桃游戏', contact: '王经理 138-0000-1111', notes: '月结' },
  { name: 'Peach Casino', contact: 'ads@peach.example', notes: '' },
  { name: '花瓣直播', contact: '李小姐 139-0000-2222', notes: '按点击结算' },
  { name: '海棠书城', contact: 'bd@haitang.example', notes: '' },
];
const POSITIONS = [
  { name: '首页横幅', key: 'home_banner', type: 'image', width: 1200, height: 300, rotation: 'weighted' },
  { name: '侧边栏', key: 'sidebar', type: 'image', width: 300, height: 250, rotation: 'ordered' },
  { name: '开屏弹窗', key: 'popup', type: 'popup', width: 600, height: 800, rotation: 'weighted' },
  { name: '片头广告', key: 'preroll', type: 'video', width: 1280, height: 720, rotation: 'ordered' },
  { name: '文字链', key: 'text_link', type: 'text', width: 0, height: 0, rotation: 'weighted' },
] as const;
const DOMAINS = [
  'https://game.example.com',
  'https://peach.example.com',
  'http://live.example.net',
  'https://book.example.org',
];

/**
 * Sample ads: four advertisers, five positions each with a house fallback, about forty materials over
 * every type, pricing model and state, and a month of their impressions, clicks and signups sent through the
 * statistics ingestion; `seed()` rolls every seeder's events up once at the end, so the reports have figures.
 */
export async function seedAds(db: Db, opts: { seed: number; tenant: number; now: Date; events?: number }) {
  const r = rng(opts.seed + 13);
  const { tenant, now } = opts;
  const day = 86_400_000;
  const advertisers = await db
    .insert(adAdvertisers)
    .values(ADVERTISERS.map((a) => ({ ...a, tenant, createdAt: now, updatedAt: now })))
    .onConflictDoNothing()
    .returning();
  if (!advertisers.length) return;
  const positions = await db
    .insert(adPositions)
    .values(POSITIONS.map((p) => ({ ...p, tenant, createdAt: now, updatedAt: now })))
    .returning();
  const materials: (typeof ads.$inferInsert)[] = [];
  for (let i = 0; i < 40; i++) {
    const p = positions[i % positions.length];
    const house = i < positions.length;
    const adv = advertisers[i % advertisers.length];
    const start = new Date(now.getTime() - r.int(-5, 45) * day);
    const ends = r.next();
    const endAt = house || ends < 0.25 ? null : new Date(start.getTime() + r.int(7, 90) * day);
    const pricing = house ? 'cpm' : r.pick(AD_PRICING);
    const price = house
      ? 0
      : { cpm: r.int(5, 40), cpc: r.int(1, 5) / 2, cpa: r.int(10, 60), monthly: r.int(20, 90) * 100 }[
          pricing
        ];
    const n = i + 1;
    materials.push({
      tenant,
      title: house ? `${p.name}·自有推广` : `${adv.name} ${p.name} #${n}`,
      type: p.type,
      creative:
        p.type === 'video'
          ? `https://cdn.example.com/preroll/${n}.mp4`
          : p.type === 'text'
            ? ''
            : `https://cdn.example.com/ads/${n}.png`,
      body: p.type === 'text' ? `${adv.name}：限时优惠，点击了解 #${n}` : '',
      landingUrl: house
        ? `https://www.yingtao.tv/vip?from=${p.key}`
        : `${DOMAINS[i % DOMAINS.length]}/landing?ad=${n}&utm_source=yt`,
      positionId: p.id,
      advertiserId: house ? null : adv.id,
      platforms: r.next() < 0.5 ? [] : [r.pick([2, 1, 4, 5, 6])],
      device: r.pick(['all', 'all', 'mobile', 'desktop'] as const),
      weight: r.int(1, 10),
      startAt: house ? new Date(now.getTime() - 60 * day) : start,
      endAt,
      pricing,
      price: String(price),
      enabled: house || r.next() > 0.1,
      createdAt: now,
      updatedAt: now,
    });
  }
  const made = await db.insert(ads).values(materials).returning({ id: ads.id, positionId: ads.positionId });
  for (const p of positions) {
    const house = made.find((m) => m.positionId === p.id);
    if (house)
      await db.update(adPositions).set({ fallbackAdId: house.id }).where(sql`${adPositions.id} = ${p.id}`);
  }
  await db.transaction((tx) => touchAds(tx, tenant, now));

  // A month of traffic on them, through the real ingestion (rolled up by `seed()` once every seeder has run).
  const tz = await timeZoneOf(db, tenant);
  const today = dayOf(now, tz);
  const events: Record<string, unknown>[] = [];
  const total = opts.events ?? 2500;
  for (let k = 0; events.length < total; k++) {
    const d = addDays(today, -r.int(0, 29));
    const at = Math.min(now.getTime(), dayStart(d, tz).getTime() + r.int(0, 86_399_999));
    const ad = made[Math.min(made.length - 1, Math.floor(made.length * r.next() ** 1.6))].id;
    const base = {
      time: new Date(at).toISOString(),
      domain: 'www.yingtao.tv',
      path: '/',
      visitor: `seed-ad-v${r.int(1, 400)}`,
      ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
      ip: `10.${r.int(0, 255)}.${r.int(0, 255)}.${r.int(1, 254)}`,
      object: { type: 'ad', id: ad },
    };
    events.push({ ...base, id: `seed-ad-${opts.seed}-${k}`, type: 'ad_impression' });
    if (r.next() < 0.06) events.push({ ...base, id: `seed-ad-${opts.seed}-${k}c`, type: 'ad_click' });
    if (r.next() < 0.006)
      events.push({ ...base, id: `seed-ad-${opts.seed}-${k}s`, type: 'signup', path: '/signup' });
  }
  for (let i = 0; i < events.length; i += 500)
    await ingest(db, tenant, events.slice(i, i + 500), {
      now,
      clientAddress: '',
      region: () => ({ country: 'unknown', province: 'unknown' }),
    });
}
