import { count, sql } from 'drizzle-orm';
import type { Config } from '../config';
import { hashPassword, randomPassword } from '../core/crypto';
import type { ImageStorage } from '../core/image-storage';
import type { ServerModule } from '../core/module';
import type { Db } from '../db/types';
import { modules as allModules } from '../modules';
import { ensureFirstAdmin } from '../modules/operators';
import { operators } from '../modules/operators/schema';
import { runRollup } from '../modules/statistics/rollup';
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
    /** The modules whose own seeders run (every module unless told: a test adds one of its own). */
    modules?: readonly ServerModule[];
    /** Where sample covers go (encrypted like uploads); without it movies have no cover. */
    images?: ImageStorage;
    /**
     * The sample operators' password, for demo mode only (its documented credentials). Without it (a real install
     * with SEED) each sample operator gets its own random password, handed once to `onPasswords` for the caller to
     * print, so no install ever has an account with a known password.
     */
    samplePassword?: string;
    onPasswords?: (operators: { account: string; password: string }[]) => void;
  } = {},
) {
  await ensureFirstAdmin(db, config);
  const [{ n }] = await db.select({ n: count() }).from(operators);
  if (Number(n) > 1) return { seeded: false };
  const r = rng(options.seed ?? 42);
  const people = Array.from({ length: options.operators ?? 8 }, (_, i) => {
    const s = r.int(0, SURNAMES.length - 1);
    return { i, account: `${PINYIN[s]}${i + 1}`, nickname: `${SURNAMES[s]}${r.pick(GIVEN)}` };
  });
  const credentials = people.map((p) => ({
    account: p.account,
    password: options.samplePassword ?? randomPassword(),
  }));
  // One hash per operator: each has its own salt, even when demo mode gives them one password.
  const rows = await Promise.all(
    people.map(async (p, i) => ({
      account: p.account,
      passwordHash: await hashPassword(credentials[i].password, config.passwordIterations),
      nickname: p.nickname,
      role: (p.i === 0 ? 'admin' : 'user') as 'admin' | 'user',
      disabled: p.i === 7,
    })),
  );
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
  for (const m of options.modules ?? allModules) await m.seed?.(db, at);
  // The seeders' events (statistics, ads) only went through the ingestion: one rollup of each day they touched, once
  // for all seeders (a rollup per seeder would roll the same days up again for each).
  await runRollup(db, { now: at.now, defaultTenant: config.defaultTenant });
  if (!options.samplePassword) options.onPasswords?.(credentials);
  return { seeded: true };
}
