import { type SQL, sql } from 'drizzle-orm';

/** A stored sparse sketch per group, from registers grouped by index `idx` with their rank in `col` (SQL text). */
export const sketchSql = (col: string) =>
  `zg_hll_pack(string_agg(zg_hll_entry(idx, ${col}), ''::bytea order by idx))`;

/**
 * One rollup table's statement for one (tenant, day): `source` yields one row per event (or fanned-out event) with
 * the key columns, the columns `sums` aggregate, and, per sketch column, a register (`zg_hll_reg`, null to skip).
 * Additive figures are grouped by the keys; each sketch is the per-register maximum packed as sparse triples.
 */
export function rollupInsert(
  table: string,
  keys: string[],
  source: SQL,
  sums: Record<string, string>,
  sketches: string[],
  tenant: number,
  day: string,
): SQL {
  const k = keys.join(', ');
  const sumCols = Object.keys(sums);
  const parts = [
    sql`with s as (${source}), a as (select ${sql.raw(k)}, ${sql.raw(
      sumCols.map((c) => `${sums[c]} as ${c}`).join(', '),
    )} from s group by ${sql.raw(k)})`,
  ];
  sketches.forEach((col, i) => {
    parts.push(
      sql.raw(`, r${i} as (select ${k}, ${col} >> 6 as idx, max(${col} & 63) as rk from s where ${col} is not null group by ${k}, ${col} >> 6),
      k${i} as (select ${k}, ${sketchSql('rk')} as v from r${i} group by ${k})`),
    );
  });
  const cols = [...keys, ...sumCols, ...sketches];
  const select = [
    ...keys.map((c) => `a.${c}`),
    ...sumCols.map((c) => `a.${c}`),
    ...sketches.map((_, i) => `coalesce(k${i}.v, ''::bytea)`),
  ];
  const joins = sketches.map((_, i) => `left join k${i} using (${k})`).join(' ');
  return sql`insert into ${sql.raw(table)} (tenant, day, ${sql.raw(cols.join(', '))})
    ${sql.join(parts, sql.raw(''))}
    select ${tenant}, ${day}::date, ${sql.raw(select.join(', '))} from a ${sql.raw(joins)}`;
}
