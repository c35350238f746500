import { sql } from 'drizzle-orm';
import { arrayParam } from '../../db/array-literal';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';
import { emptyRegisters, encode, estimate, mergeInto, sameBytes } from './sketch';

/**
 * Pre-merged sketches over aligned blocks of days (`stat_domain_blocks`): level L holds the register-wise maximum of the
 * daily sketches of 2^L consecutive days starting on a day number (days since 1970-01-01) divisible by 2^L. A period
 * is covered by its largest aligned blocks (`cover`): about 2·log2(days) pieces, level 0 being the daily rows.
 *
 * Held exact by the rollup: a day's sketch only grows (its events are only ever added, once each), so folding the
 * day's newest sketch into each block that holds it (`foldDomainDay`) leaves every block equal to the merge of its
 * days' current sketches; folding the same day again changes nothing (maximum is idempotent).
 */
export const MAX_LEVEL = 8; // 256 days

const DAY_MS = 86_400_000;
export const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
export const dayOfNumber = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

/** The first day of the level-`level` block holding `day`. */
export const blockStart = (day: string, level: number) => {
  const n = dayNumber(day);
  return dayOfNumber(n - (((n % 2 ** level) + 2 ** level) % 2 ** level));
};

/** The aligned blocks covering from..to exactly, largest first where they fit. */
export function cover(from: string, to: string): { level: number; start: string }[] {
  const out: { level: number; start: string }[] = [];
  const end = dayNumber(to);
  for (let d = dayNumber(from); d <= end; ) {
    let level = MAX_LEVEL;
    while (level > 0 && (d % 2 ** level !== 0 || d + 2 ** level - 1 > end)) level--;
    out.push({ level, start: dayOfNumber(d) });
    d += 2 ** level;
  }
  return out;
}

const bytes = (v: unknown) => (v ? new Uint8Array(v as Uint8Array) : undefined);

/**
 * Domains folded at once by `foldDomainDay`: each holds two 16 KB register arrays while folded, and writes up to
 * MAX_LEVEL rows of six parameters, so a chunk stays far below PostgreSQL's 65,535 bind parameters and its memory
 * does not grow with the number of domains a day has.
 */
export const FOLD_DOMAINS = 250;

type DomainSketches = { domain: string; visitors: Uint8Array; addresses: Uint8Array };

/**
 * After a day of `stat_domain_daily` is recomputed (in the same transaction): stores each row's estimates and folds
 * its sketches into the blocks of every level that hold the day, `FOLD_DOMAINS` domains at a time.
 */
export async function foldDomainDay(tx: Executor, tenant: number, day: string) {
  const levels = Array.from({ length: MAX_LEVEL }, (_, i) => ({
    level: i + 1,
    start: blockStart(day, i + 1),
  }));
  for (let after: string | null = null; ; ) {
    const rows: DomainSketches[] = rowsOf<DomainSketches>(
      await tx.execute(
        sql`select domain, visitors, addresses from stat_domain_daily where tenant = ${tenant} and day = ${day}::date
          ${after === null ? sql`` : sql`and domain > ${after}`} order by domain limit ${FOLD_DOMAINS}`,
      ),
    );
    if (!rows.length) return;
    after = String(rows[rows.length - 1].domain);
    await foldDomains(tx, tenant, day, levels, rows);
    if (rows.length < FOLD_DOMAINS) return;
  }
}

async function foldDomains(
  tx: Executor,
  tenant: number,
  day: string,
  levels: { level: number; start: string }[],
  rows: DomainSketches[],
) {
  const days = rows.map((r) => ({
    domain: String(r.domain),
    visitors: mergeInto(emptyRegisters(), bytes(r.visitors)),
    addresses: mergeInto(emptyRegisters(), bytes(r.addresses)),
  }));
  const domains = arrayParam(days.map((r) => r.domain));
  await tx.execute(sql`update stat_domain_daily d set visitors_n = x.v, addresses_n = x.a
    from unnest(${domains}::text[], ${arrayParam(days.map((r) => estimate(r.visitors)))}::int[],
      ${arrayParam(days.map((r) => estimate(r.addresses)))}::int[]) as x(domain, v, a)
    where d.tenant = ${tenant} and d.day = ${day}::date and d.domain = x.domain`);
  // Every level's block of these domains at once: one read, one write.
  const old = new Map(
    rowsOf<{ level: number; domain: string; visitors: Uint8Array; addresses: Uint8Array }>(
      await tx.execute(sql`select level, domain, visitors, addresses from stat_domain_blocks
        where tenant = ${tenant} and (level, start) in (${sql.join(
          levels.map((l) => sql`(${l.level}, ${l.start}::date)`),
          sql`, `,
        )}) and domain = any(${domains}::text[]) for update`),
    ).map((r) => [`${r.level}|${r.domain}`, r]),
  );
  const values = levels.flatMap(({ level, start }) =>
    days.flatMap((r) => {
      const before = old.get(`${level}|${r.domain}`);
      const v = encode(mergeInto(r.visitors.slice(), bytes(before?.visitors)));
      const a = encode(mergeInto(r.addresses.slice(), bytes(before?.addresses)));
      // Written only when it changed: a run of returning visitors leaves the blocks as they were (each block's two
      // sketches are up to 16 KB, and a run would otherwise write them all for every domain of the day).
      if (before && sameBytes(bytes(before.visitors), v) && sameBytes(bytes(before.addresses), a)) return [];
      return [sql`(${tenant}, ${r.domain}, ${level}, ${start}::date, ${v}, ${a})`];
    }),
  );
  if (!values.length) return;
  await tx.execute(sql`insert into stat_domain_blocks (tenant, domain, level, start, visitors, addresses)
    values ${sql.join(values, sql`, `)}
    on conflict (tenant, level, start, domain) do update set visitors = excluded.visitors, addresses = excluded.addresses`);
}
