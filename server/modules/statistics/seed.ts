import { sql } from 'drizzle-orm';
import { addDays, dayOf, dayStart } from '../../../common/period';
import { rowsOf } from '../../db/migrate';
import type { Db } from '../../db/types';
import { rng } from '../../seed/random';
import { ingest, timeZoneOf } from './ingest';

const DOMAINS = ['www.yingtao.tv', 'm.yingtao.tv', 'yt1.cc', 'yt2.cc', 'app.yingtao.tv'];
const DOMAIN_WEIGHT = [40, 30, 12, 8, 10];
const CHANNELS = ['', '', '', 'agent01', 'agent02', 'agent07', 'kol-li', 'kol-wang'];
const REFERRERS = [
  '',
  '',
  '',
  'https://www.baidu.com/s?wd=x',
  'https://www.google.com/',
  'https://t.me/yt',
  'https://weibo.com/',
];
const PROVINCES = [
  '广东省',
  '浙江省',
  '江苏省',
  '上海',
  '北京',
  '四川省',
  '山东省',
  '福建省',
  '湖北省',
  '河南省',
];
const KEYWORDS = [
  '教师',
  '制服',
  '新番',
  '中文字幕',
  '无码',
  '女优',
  '剧情',
  '高清',
  '动漫',
  '国产',
  'vr',
  '4k',
  '合集',
  '恋爱',
  '校园',
  '古装',
  '悬疑',
  '科幻',
  '喜剧',
  '纪录片',
  'love',
  'office',
  'summer',
  'night',
  '旅行',
  '温泉',
  '家庭',
  '姐妹',
  '同学会',
  '初恋',
  '婚礼',
  '重生',
  '穿越',
  '修仙',
  '总裁',
  '都市',
  '武侠',
  '玄幻',
  '短剧',
  '连载',
  '完结',
  '热门',
  '推荐',
  '排行',
];
/** Searched for, never found: the demand gap a trial install shows. */
const MISSING = ['鬼灭之刃', '进击的巨人', '间谍过家家', 'blue lock', '咒术回战'];
const PATHS = ['/', '/movie', '/novel', '/search', '/vip', '/tag', '/actress', '/ranking'];
const UAS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
];
/** Visits by hour of the day (evenings peak, early mornings are quiet). */
const HOURS = [5, 3, 2, 1, 1, 1, 2, 4, 6, 7, 7, 8, 9, 8, 7, 7, 8, 9, 11, 13, 15, 16, 13, 9];

/**
 * A month of the content site's events sent through the real ingestion (`seed()` rolls them up with
 * the other seeders' events once at the end, one rollup of each day instead of one per seeder): a daily and weekly
 * rhythm (evenings, weekends), a long tail of keywords with a few that never find anything, several domains and
 * channels, views and plays of the seeded movies, ad impressions and clicks. Addresses are made up; their regions
 * come from a lookup the seed gives the ingestion (the offline database is Node's, and knows no invented address).
 */
export async function seedEvents(db: Db, opts: { seed: number; tenant: number; now: Date; events?: number }) {
  const r = rng(opts.seed + 12);
  const total = opts.events ?? 8_000;
  const tz = await timeZoneOf(db, opts.tenant);
  const today = dayOf(opts.now, tz);
  const days = Array.from({ length: 30 }, (_, i) => addDays(today, i - 29));
  const movieIds = rowsOf<{ id: number }>(
    await db.execute(sql`select id from movies where status = 'online' order by id limit 300`),
  ).map((m) => Number(m.id));
  const adIds = [1, 2, 3, 4, 5, 6];
  const weighted = <T>(items: readonly T[], weights: readonly number[]) => {
    let x = r.next() * weights.reduce((a, b) => a + b, 0);
    for (let i = 0; i < items.length; i++) {
      x -= weights[i];
      if (x < 0) return items[i];
    }
    return items[items.length - 1];
  };
  const zipf = <T>(items: readonly T[]) =>
    items[Math.min(items.length - 1, Math.floor(items.length * r.next() ** 2.5))];
  const dayWeights = days.map((d) => {
    const wd = new Date(`${d}T00:00:00Z`).getUTCDay();
    return (wd === 0 || wd === 6 ? 1.4 : 1) * (0.85 + 0.3 * r.next());
  });
  const regions = new Map<string, { country: string; province: string }>();
  const visitors = Array.from({ length: Math.max(50, Math.round(total / 12)) }, (_, i) => {
    const address = `${r.int(36, 223)}.${r.int(0, 255)}.${r.int(0, 255)}.${r.int(1, 254)}`;
    regions.set(
      address,
      r.next() < 0.9
        ? { country: '中国', province: zipf(PROVINCES) }
        : { country: r.pick(['美国', '日本', '新加坡']), province: '' },
    );
    return {
      id: `seed-v${i}`,
      address,
      ua: r.pick(UAS),
      channel: r.pick(CHANNELS),
      domain: weighted(DOMAINS, DOMAIN_WEIGHT),
    };
  });
  const events: Record<string, unknown>[] = [];
  let n = 0;
  while (events.length < total) {
    const day = weighted(days, dayWeights);
    const hour = weighted(
      HOURS.map((_, h) => h),
      HOURS,
    );
    const start = dayStart(day, tz).getTime() + hour * 3_600_000 + r.int(0, 3_599_999);
    if (start > opts.now.getTime()) continue;
    const v = zipf(visitors);
    const base = {
      domain: r.next() < 0.85 ? v.domain : r.pick(DOMAINS),
      ua: v.ua,
      ip: v.address,
      visitor: v.id,
      channel: v.channel || undefined,
    };
    // One visit: a landing page view, then a few more steps a few seconds apart.
    const steps = 1 + Math.floor(r.next() ** 2 * 6);
    for (let s = 0; s < steps && events.length < total; s++) {
      const time = new Date(Math.min(start + s * 20_000, opts.now.getTime())).toISOString();
      const id = `seed-${opts.seed}-${++n}`;
      const movie = movieIds.length ? zipf(movieIds) : 0;
      const x = r.next();
      if (s === 0 || x < 0.45) {
        const path = movie && x < 0.3 ? `/movie/${movie}` : r.pick(PATHS);
        events.push({
          id,
          type: 'pageview',
          time,
          path,
          ...base,
          referrer: s === 0 ? r.pick(REFERRERS) || undefined : undefined,
          ...(path.startsWith('/movie/') ? { object: { type: 'movie', id: movie } } : {}),
        });
      } else if (x < 0.62 && movie) {
        events.push({
          id,
          type: 'play',
          time,
          path: `/movie/${movie}`,
          ...base,
          object: { type: 'movie', id: movie },
        });
      } else if (x < 0.8) {
        const missing = r.next() < 0.06;
        const keyword = missing ? r.pick(MISSING) : zipf(KEYWORDS);
        const results = missing ? 0 : r.next() < 0.04 ? 0 : r.int(1, 120);
        events.push({ id, type: 'search', time, path: '/search', ...base, keyword, results });
      } else if (x < 0.93) {
        const ad = r.pick(adIds);
        events.push({ id, type: 'ad_impression', time, path: '/', ...base, object: { type: 'ad', id: ad } });
        if (r.next() < 0.08)
          events.push({
            id: `${id}c`,
            type: 'ad_click',
            time,
            path: '/',
            ...base,
            object: { type: 'ad', id: ad },
          });
      } else if (x < 0.97) {
        events.push({ id, type: 'tag_click', time, path: '/tag', ...base });
      } else if (x < 0.99) {
        events.push({ id, type: 'signup', time, path: '/signup', ...base });
      } else {
        events.push({
          id,
          type: 'recharge',
          time,
          path: '/vip',
          ...base,
          amount: r.pick([30, 68, 128, 328]),
        });
      }
    }
  }
  const region = (a: string) => regions.get(a) ?? { country: 'unknown', province: 'unknown' };
  for (let i = 0; i < events.length; i += 500)
    await ingest(db, opts.tenant, events.slice(i, i + 500), { now: opts.now, clientAddress: '', region });
  return events.length;
}
