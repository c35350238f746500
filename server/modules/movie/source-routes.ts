import { z } from '@hono/zod-openapi';
import { eq, ilike, or } from 'drizzle-orm';
import { Code } from '../../../common/codes';
import { MAX_LINE_CODE, SOURCE_CODE_PATTERN } from '../../../common/episodes';
import { can, security } from '../../core/auth';
import { ApiError } from '../../core/errors';
import { crudResource } from '../../core/resource';
import { boolQuery, containsPattern, countOf } from '../../core/shared';
import { moviePlays, SOURCE_TYPES, videoSources } from './schema';

const Source = z
  .object({
    id: z.number(),
    name: z.string(),
    code: z.string(),
    baseUrl: z.string(),
    type: z.enum(SOURCE_TYPES),
    priority: z.number(),
    enabled: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number(),
  })
  .openapi('VideoSource');

const fields = {
  name: z.string().trim().min(1).max(64),
  code: z.string().trim().min(1).max(MAX_LINE_CODE).regex(SOURCE_CODE_PATTERN),
  /**
   * An http(s) URL, a path on this site, or empty: the episodes' paths are whole addresses (the sources collection
   * and the MacCMS move make from a line's code are so).
   */
  baseUrl: z
    .string()
    .trim()
    .max(512)
    .refine((v) => v === '' || /^https?:\/\/[^\s/?#]+[^\s]*$/i.test(v) || /^\/[^\s]*$/.test(v), {
      params: { key: 'field.invalid' },
    }),
  type: z.enum(SOURCE_TYPES),
  priority: z.number().int().min(-10_000).max(10_000),
  enabled: z.boolean(),
};

/** Video sources (CDN lines). A play entry's URL is built from its source's base URL at read time. */
export const sourceRoutes = () =>
  crudResource({
    tag: 'video sources',
    table: videoSources,
    schema: Source,
    sorts: {
      id: videoSources.id,
      name: videoSources.name,
      code: videoSources.code,
      priority: videoSources.priority,
      createdAt: videoSources.createdAt,
    },
    defaultSort: 'priority',
    filters: {
      q: z.string().trim().max(64).optional(),
      type: z.enum(SOURCE_TYPES).optional(),
      enabled: boolQuery.optional(),
    },
    where: (q) => [
      q.q
        ? or(ilike(videoSources.name, containsPattern(q.q)), ilike(videoSources.code, containsPattern(q.q)))
        : undefined,
      q.type ? eq(videoSources.type, q.type) : undefined,
      q.enabled !== undefined ? eq(videoSources.enabled, q.enabled) : undefined,
    ],
    fields,
    create: z.object({
      ...fields,
      baseUrl: fields.baseUrl.optional().default(''),
      type: fields.type.optional().default('hls'),
      priority: fields.priority.optional().default(0),
      enabled: fields.enabled.optional().default(true),
    }),
    read: can('movie.read'),
    write: can('movie.settings'),
    security,
    unique: 'code',
    beforeDelete: async (tx, row) => {
      const [{ n }] = await tx.select({ n: countOf }).from(moviePlays).where(eq(moviePlays.sourceId, row.id));
      if (n > 0) throw new ApiError(Code.CONFLICT, 'source.inUse', { count: n }, { plays: n });
    },
    summaries: {
      create: 'Create a video source (admin; the code is unique)',
      update: 'Edit a video source (admin; play URLs follow at once, they are built at read time)',
      remove: 'Delete a video source (admin); refused with 40900 while play entries use it',
    },
  });
