import { z } from '@hono/zod-openapi';
import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import { MAX_ACTRESS_BIOGRAPHY, REGIONS } from '../../../common/actresses';
import { containsPattern, day, iso } from '../../core/shared';
import { imageField } from '../images/paths';
import { actresses } from './schema';

export const Actress = z
  .object({
    id: z.number(),
    name: z.string(),
    aliases: z.array(z.string()),
    avatar: z.string(),
    birthday: z.string().nullable(),
    height: z.number().nullable(),
    region: z.enum(REGIONS).nullable(),
    debutYear: z.number().nullable(),
    biography: z.string(),
    tags: z.array(z.string()),
    visible: z.boolean(),
    sortWeight: z.number(),
    movieCount: z
      .number()
      .openapi({ description: 'Linked movies, whatever their status (kept by triggers)' }),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number(),
  })
  .openapi('Actress');
export type Actress = z.infer<typeof Actress>;

const label = (max: number) => z.string().trim().min(1).max(max);

/** What a create or an update may set. Read-only fields a form sends back (id, movieCount…) are ignored. */
export const actressFields = {
  name: label(64),
  aliases: z.array(label(64)).max(20),
  avatar: imageField(),
  birthday: day.nullable(),
  /** Centimetres. */
  height: z.number().int().min(100).max(250).nullable(),
  region: z.enum(REGIONS).nullable(),
  debutYear: z.number().int().min(1900).max(2100).nullable(),
  biography: z.string().max(MAX_ACTRESS_BIOGRAPHY),
  tags: z.array(label(32)).max(20),
  visible: z.boolean(),
  sortWeight: z.number().int().min(-1_000_000).max(1_000_000),
};

/** Every column but the search grams (an index's input, not a field). */
const { searchGrams: _grams, ...columns } = getTableColumns(actresses);
export const actressSelect = columns;

export function actressToApi(r: Record<string, any>): Actress {
  return {
    ...r,
    birthday: r.birthday ? String(r.birthday).slice(0, 10) : null,
    createdAt: iso(r.createdAt) as string,
    updatedAt: iso(r.updatedAt) as string,
  } as Actress;
}

/** Distinct trimmed values in their first order; aliases equal to the name are dropped. */
export function cleanNames(values: string[] | undefined, drop?: string) {
  if (!values) return undefined;
  return [...new Set(values)].filter((v) => v !== drop);
}

/**
 * Name or alias contains `q` (any case): the grams narrow by the GIN index over `search_grams`,
 * then each name is rechecked with LIKE, so a match never straddles two names.
 */
export function nameContains(q: string): SQL {
  const pattern = containsPattern(q);
  return sql`(${actresses.searchGrams} @> zg_query_grams(${q}::text) and (lower(${actresses.name}) like lower(${pattern}::text)
    or exists (select 1 from unnest(${actresses.aliases}) as alias where lower(alias) like lower(${pattern}::text))))`;
}
