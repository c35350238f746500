import { count, sql } from 'drizzle-orm';
import type { Config } from '../config';
import { hashPassword } from '../core/crypto';
import type { ImageStorage } from '../core/image-storage';
import type { Db } from '../db/types';
import { modules } from '../modules';
import { ensureFirstAdmin } from '../modules/operators';
import { operators } from '../modules/operators/schema';
import { seedActresses } from './actresses';
import { seedCovers } from './covers';
import { seedMovies } from './movies';
import { seedNovels } from './novels';
import { rng } from './random';
import { seedSettings } from './settings';

const SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '赵', '黄', '周', '吴'];
const GIVEN = ['小明', '晓红', '建国', '丽娜', '子涵', '浩然', '雨桐', '思远', '可欣', '俊杰'];
const PINYIN = ['wang', 'li', 'zhang', 'liu', 'chen', 'yang', 'zhao', 'huang', 'zhou', 'wu'];

/**
 * The one seed generator (demo mode, tests, benchmarks): deterministic by `seed`. Runs only on a database that
 * has no operator but the first admin, so a restart never seeds twice. The sections seeded here were written
 * before modules declared their own; a new module joins with `seed` in its `index.ts` (ServerModule.seed).
 */
export async function seed(
  db: Db,
  config: Config,
  options: {
    seed?: number;
    operators?: number;
    movies?: number;
    actresses?: number;
    now?: Date;
    /** Where sample covers go (encrypted like uploads); without it movies have no cover. */
    images?: ImageStorage;
  } = {},
) {
  await ensureFirstAdmin(db, config);
  const [{ n }] = await db.select({ n: count() }).from(operators);
  if (Number(n) > 1) return { seeded: false };
  const r = rng(options.seed ?? 42);
  const passwordHash = await hashPassword('operator123', config.passwordIterations);
  const rows = Array.from({ length: options.operators ?? 8 }, (_, i) => {
    const s = r.int(0, SURNAMES.length - 1);
    return {
      account: `${PINYIN[s]}${i + 1}`,
      passwordHash,
      nickname: `${SURNAMES[s]}${r.pick(GIVEN)}`,
      role: (i === 0 ? 'admin' : 'user') as 'admin' | 'user',
      disabled: i === 7,
    };
  });
  await db.insert(operators).values(rows);
  const [first] = await db.select({ id: operators.id }).from(operators).orderBy(operators.id).limit(1);
  const actressIds = await seedActresses(db, {
    seed: options.seed ?? 42,
    actresses: options.actresses ?? 60,
  });
  await seedMovies(db, {
    seed: options.seed ?? 42,
    movies: options.movies ?? 200,
    reviewer: first?.id ?? null,
    actressIds,
  });
  if (options.images) {
    const covers = await seedCovers(options.images, config, options.seed ?? 42);
    await db.execute(
      sql`update movies set cover = (${sql.param(covers)}::text[])[1 + id % ${covers.length}] where cover = ''`,
    );
  }
  await seedNovels(db, { seed: options.seed ?? 42, now: options.now, reviewer: first?.id ?? null });
  await seedSettings(db, { tenant: config.defaultTenant, now: options.now ?? new Date() });
  // A module joins with a seeder of its own (ServerModule.seed), in its own folder.
  const at = {
    seed: options.seed ?? 42,
    now: options.now ?? new Date(),
    config,
    reviewer: first?.id ?? null,
  };
  for (const m of modules) await m.seed?.(db, at);
  return { seeded: true };
}
