import { asc, count } from 'drizzle-orm';
import type { Region } from '../../common/actresses';
import type { Db } from '../db/types';
import { actresses } from '../modules/actresses/schema';
import { rng } from './random';

/** Invented names (surname, given name), each with its romanization, which becomes an alias. */
const CN_SURNAMES: [string, string][] = [
  ['林', 'Lin'],
  ['苏', 'Su'],
  ['沈', 'Shen'],
  ['叶', 'Ye'],
  ['白', 'Bai'],
  ['顾', 'Gu'],
  ['秦', 'Qin'],
  ['宋', 'Song'],
  ['唐', 'Tang'],
  ['许', 'Xu'],
];
const CN_GIVEN: [string, string][] = [
  ['若溪', 'Ruoxi'],
  ['诗涵', 'Shihan'],
  ['雨萱', 'Yuxuan'],
  ['梦瑶', 'Mengyao'],
  ['可馨', 'Kexin'],
  ['语嫣', 'Yuyan'],
  ['婉清', 'Wanqing'],
  ['静怡', 'Jingyi'],
  ['晓月', 'Xiaoyue'],
  ['芷若', 'Zhiruo'],
];
const JP_SURNAMES: [string, string][] = [
  ['佐藤', 'Sato'],
  ['铃木', 'Suzuki'],
  ['高桥', 'Takahashi'],
  ['小林', 'Kobayashi'],
  ['森', 'Mori'],
];
const JP_GIVEN: [string, string][] = [
  ['美月', 'Mizuki'],
  ['结衣', 'Yui'],
  ['葵', 'Aoi'],
  ['凛', 'Rin'],
  ['樱', 'Sakura'],
];
const NICKNAMES = ['Candy', 'Luna', 'Momo', 'Coco', 'Nana', 'Lily', 'Mia', 'Yoyo'];
const TAGS = ['新人', '人气', '长腿', '古典', '气质', '清纯', '甜美', '知性', '御姐', '邻家'];
const BIO = ['出道以来作品不断，', '以自然的表演见长，', '多次登上人气榜单，', '近年转型幕后，'];
const BIO_END = ['深受观众喜爱。', '代表作众多。', '风格多变。', '口碑稳定。'];

export interface SeededActress {
  name: string;
  aliases: string[];
  birthday: string;
  height: number;
  region: Region;
  debutYear: number;
  biography: string;
  tags: string[];
  visible: boolean;
  sortWeight: number;
  createdAt: Date;
}

/** The actresses of one seed, as plain data (deterministic; names never repeat within a seed). */
export function generateActresses(seed: number, n: number, now: Date): SeededActress[] {
  const r = rng(seed ^ 0x5eed);
  const pool: { name: string; latin: string; region: Region[] }[] = [];
  for (const [s, sl] of CN_SURNAMES)
    for (const [g, gl] of CN_GIVEN)
      pool.push({ name: `${s}${g}`, latin: `${sl} ${gl}`, region: ['cn', 'tw', 'hk'] });
  for (const [s, sl] of JP_SURNAMES)
    for (const [g, gl] of JP_GIVEN) pool.push({ name: `${s}${g}`, latin: `${gl} ${sl}`, region: ['jp'] });
  const out: SeededActress[] = [];
  for (let i = 0; i < n && pool.length; i++) {
    const [person] = pool.splice(r.int(0, pool.length - 1), 1);
    const birthYear = r.int(1985, 2004);
    const birthday = `${birthYear}-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}`;
    const tags = [...new Set(Array.from({ length: r.int(0, 3) }, () => r.pick(TAGS)))];
    out.push({
      name: person.name,
      aliases: r.next() < 0.3 ? [person.latin, r.pick(NICKNAMES)] : [person.latin],
      birthday,
      height: r.int(150, 176),
      region: r.next() < 0.08 ? 'kr' : r.pick(person.region),
      debutYear: Math.min(birthYear + r.int(18, 24), now.getUTCFullYear()),
      biography: `${person.name}${r.pick(BIO)}${r.pick(BIO_END)}`,
      tags,
      visible: r.next() < 0.9,
      sortWeight: r.next() < 0.15 ? r.int(1, 100) : 0,
      createdAt: new Date(now.getTime() - r.int(0, 365 * 86_400) * 1000),
    });
  }
  return out;
}

/** `n` actresses (demo mode, tests); answers their ids in order. Does nothing (answers the existing ids) when some exist. */
export async function seedActresses(db: Db, options: { seed?: number; actresses?: number; now?: Date } = {}) {
  const [{ n }] = await db.select({ n: count() }).from(actresses);
  if (Number(n) === 0) {
    const rows = generateActresses(
      options.seed ?? 42,
      options.actresses ?? 60,
      options.now ?? new Date('2026-06-01T00:00:00Z'),
    );
    if (rows.length) await db.insert(actresses).values(rows.map((a) => ({ ...a, updatedAt: a.createdAt })));
  }
  const ids = await db.select({ id: actresses.id }).from(actresses).orderBy(asc(actresses.id));
  return ids.map((a) => a.id);
}
