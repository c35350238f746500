import { and, eq, sql } from 'drizzle-orm';
import { Converter } from 'opencc-js/t2cn';
import {
  type CompiledFilter,
  compileFilter,
  FILTER_MODULES,
  type FilterModule,
  type FilterRules,
  type VariantMap,
} from '../../../common/comment';
import { entry } from '../../core/maps';
import type { Executor } from '../../db/types';
import { commentFilters } from './schema';

/**
 * The filter's rules as stored, compiled once per (tenant, module, version) and kept in this process: another
 * instance compiles its own from the same row, so nothing here is state another instance needs (DESIGN §4).
 */

/**
 * Traditional → simplified per character, from OpenCC's maintained table (opencc-js, its `t2cn` build only: ~100 KB,
 * runs in Node and in the browser for demo mode). Per character, so every kept character still maps to where it
 * stood in the original (masking needs that); answers are cached.
 */
let t2cn: ((s: string) => string) | undefined; // built on first use: its tables cost time at start-up
const variantCache = new Map<string, string>();
export const toSimplified: VariantMap = (ch) => {
  const code = ch.charCodeAt(0);
  if (code < 0x2e80) return ch; // no CJK ideograph below the CJK radicals block
  let v = variantCache.get(ch);
  if (v === undefined) {
    t2cn ??= Converter({ from: 'tw', to: 'cn' });
    v = t2cn(ch);
    if (v.length !== ch.length) v = ch;
    variantCache.set(ch, v);
  }
  return v;
};

export const DEFAULT_RULES: FilterRules = {
  enabled: true,
  reviewFirst: false,
  loginRequired: true,
  userInterval: 0,
  addressInterval: 0,
  maskWords: [],
  blockWords: [],
  holdWords: [],
  blacklist: [],
};

export type StoredFilter = FilterRules & { module: FilterModule; version: number; updatedAt: string | null };

const columns = {
  module: commentFilters.module,
  enabled: commentFilters.enabled,
  reviewFirst: commentFilters.reviewFirst,
  loginRequired: commentFilters.loginRequired,
  userInterval: commentFilters.userInterval,
  addressInterval: commentFilters.addressInterval,
  maskWords: commentFilters.maskWords,
  blockWords: commentFilters.blockWords,
  holdWords: commentFilters.holdWords,
  blacklist: commentFilters.blacklist,
  version: commentFilters.version,
  updatedAt: commentFilters.updatedAt,
};

/** The module's rules (the defaults, version 0, while none were saved); `lock` locks the row for an update. */
export async function readFilter(
  db: Executor,
  tenant: number,
  module: FilterModule,
  lock = false,
): Promise<StoredFilter> {
  const q = db
    .select(columns)
    .from(commentFilters)
    .where(and(eq(commentFilters.tenant, tenant), eq(commentFilters.module, module)));
  const [row] = lock ? await q.for('update') : await q;
  // The guestbook takes guests' messages unless told otherwise; comments are members' by default.
  if (!row)
    return { ...DEFAULT_RULES, loginRequired: module === 'comment', module, version: 0, updatedAt: null };
  return { ...row, updatedAt: row.updatedAt ? new Date(row.updatedAt).toISOString() : null };
}

export const readFilters = async (db: Executor, tenant: number) =>
  Promise.all(FILTER_MODULES.map((m) => readFilter(db, tenant, m)));

/** Writes the module's rules with a new version (a first save creates the row). */
export async function writeFilter(
  tx: Executor,
  tenant: number,
  module: FilterModule,
  rules: FilterRules,
  now: Date,
): Promise<StoredFilter> {
  const [row] = await tx
    .insert(commentFilters)
    .values({ tenant, module, ...rules, version: 1, updatedAt: now })
    .onConflictDoUpdate({
      target: [commentFilters.tenant, commentFilters.module],
      set: { ...rules, version: sql`${commentFilters.version} + 1`, updatedAt: now },
    })
    .returning(columns);
  return { ...row, updatedAt: new Date(row.updatedAt).toISOString() };
}

/**
 * Compiled rules per database handle: a version number is only unique within one database, and test files that share
 * a module graph each bring their own database with the same tenants and versions.
 */
const compiled = new WeakMap<object, Map<string, CompiledFilter>>();

/** The compiled rules of a stored filter, built once per version. */
export function compiledOf(db: object, tenant: number, f: StoredFilter): CompiledFilter {
  const byKey = entry(compiled, db, () => new Map<string, CompiledFilter>());
  const key = `${tenant}:${f.module}:${f.version}`;
  let c = byKey.get(key);
  if (!c) {
    c = compileFilter(f, toSimplified);
    for (const k of byKey.keys()) if (k.startsWith(`${tenant}:${f.module}:`)) byKey.delete(k);
    byKey.set(key, c);
  }
  return c;
}

/** Adds an address to both modules' blacklists where it is missing; answers where it was added (for an undo). */
export async function blacklistAddress(tx: Executor, tenant: number, entry: string, now: Date) {
  const added: { module: FilterModule; entry: string }[] = [];
  for (const module of FILTER_MODULES) {
    const f = await readFilter(tx, tenant, module, true);
    if (f.blacklist.includes(entry)) continue;
    const { module: _m, version: _v, updatedAt: _u, ...rules } = f;
    await writeFilter(tx, tenant, module, { ...rules, blacklist: [...f.blacklist, entry] }, now);
    added.push({ module, entry });
  }
  return added;
}

/** Takes entries a ban added off the blacklists again (those still there). */
export async function unblacklist(
  tx: Executor,
  tenant: number,
  entries: { module: string; entry: string }[],
  now: Date,
) {
  for (const module of FILTER_MODULES) {
    const gone = new Set(entries.filter((e) => e.module === module).map((e) => e.entry));
    if (!gone.size) continue;
    const f = await readFilter(tx, tenant, module, true);
    if (!f.blacklist.some((e) => gone.has(e))) continue;
    const { module: _m, version: _v, updatedAt: _u, ...rules } = f;
    await writeFilter(
      tx,
      tenant,
      module,
      { ...rules, blacklist: f.blacklist.filter((e) => !gone.has(e)) },
      now,
    );
  }
}
