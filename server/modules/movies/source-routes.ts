import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { and, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import { Code } from '../../core/codes';
import type { AppEnv } from '../../core/context';
import { findById, idParam, isUniqueViolation, listPage, listQuery, updateVersioned } from '../../core/crud';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { ApiError, conflict, notFound } from '../../core/errors';
import { asAdmin, asAnyOperator, security } from '../operators';
import { moviePlays, SOURCE_TYPES, videoSources } from './schema';
import {
  boolQuery,
  containsPattern,
  countOf,
  duplicate,
  isForeignKeyViolation,
  iso,
  rejectUnknownQuery,
  transaction,
  version,
} from './shared';

const BASE = '/admin/movie/sources';
const tags = ['video sources'];

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

const sorts = {
  id: videoSources.id,
  name: videoSources.name,
  code: videoSources.code,
  priority: videoSources.priority,
  createdAt: videoSources.createdAt,
} as const;

const ListQuery = listQuery(Object.keys(sorts) as [keyof typeof sorts, ...(keyof typeof sorts)[]], {
  q: z.string().trim().max(64).optional(),
  type: z.enum(SOURCE_TYPES).optional(),
  enabled: boolQuery.optional(),
});

const fields = {
  name: z.string().trim().min(1).max(64),
  code: z
    .string()
    .trim()
    .min(1)
    .max(32)
    .regex(/^[A-Za-z0-9_-]+$/),
  /** An http(s) URL, or a path on this site. */
  baseUrl: z
    .string()
    .trim()
    .min(1)
    .max(512)
    .refine((v) => /^https?:\/\/[^\s/?#]+[^\s]*$/i.test(v) || /^\/[^\s]*$/.test(v), {
      params: { key: 'field.invalid' },
    }),
  type: z.enum(SOURCE_TYPES),
  priority: z.number().int().min(-10_000).max(10_000),
  enabled: z.boolean(),
};
const CreateBody = z.object({
  ...fields,
  type: fields.type.optional().default('hls'),
  priority: fields.priority.optional().default(0),
  enabled: fields.enabled.optional().default(true),
});
const UpdateBody = z.object({ ...z.object(fields).partial().shape, version });

const idOf = { params: idParam };

const routes = {
  list: createRoute({
    method: 'get',
    path: BASE,
    tags,
    security,
    summary: 'List video sources',
    middleware: asAnyOperator,
    request: { query: ListQuery },
    responses: jsonResponse(z.object({ list: z.array(Source), total: z.number() })),
  }),
  get: createRoute({
    method: 'get',
    path: `${BASE}/{id}`,
    tags,
    security,
    summary: 'One video source',
    middleware: asAnyOperator,
    request: idOf,
    responses: jsonResponse(Source),
  }),
  create: createRoute({
    method: 'post',
    path: BASE,
    tags,
    security,
    summary: 'Create a video source (admin; the code is unique)',
    middleware: asAdmin,
    request: { body: jsonBody(CreateBody) },
    responses: jsonResponse(Source),
  }),
  update: createRoute({
    method: 'put',
    path: `${BASE}/{id}`,
    tags,
    security,
    summary: 'Edit a video source (admin; play URLs follow at once, they are built at read time)',
    middleware: asAdmin,
    request: { ...idOf, body: jsonBody(UpdateBody) },
    responses: jsonResponse(Source),
  }),
  remove: createRoute({
    method: 'delete',
    path: `${BASE}/{id}`,
    tags,
    security,
    summary: 'Delete a video source (admin); refused with 40900 while play entries use it',
    middleware: asAdmin,
    request: idOf,
    responses: jsonResponse(Source),
  }),
};

function toApi(r: Record<string, any>) {
  return { ...r, createdAt: iso(r.createdAt) as string, updatedAt: iso(r.updatedAt) as string } as z.infer<
    typeof Source
  >;
}

function saveErrors(err: unknown): never {
  if (isUniqueViolation(err)) throw duplicate('code');
  if (isForeignKeyViolation(err)) throw conflict();
  throw err;
}

export function sourceRoutes() {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(routes.list, async (c) => {
    rejectUnknownQuery(c, ListQuery);
    const q = c.req.valid('query');
    const where: (SQL | undefined)[] = [];
    if (q.ids) where.push(inArray(videoSources.id, q.ids));
    if (q.q) {
      const p = containsPattern(q.q);
      where.push(or(ilike(videoSources.name, p), ilike(videoSources.code, p)));
    }
    if (q.type) where.push(eq(videoSources.type, q.type));
    if (q.enabled !== undefined) where.push(eq(videoSources.enabled, q.enabled));
    const page = await listPage<typeof videoSources.$inferSelect>(c.get('deps').db, {
      table: videoSources,
      where: and(...where),
      orderBy: sorts[(q.sort ?? 'priority') as keyof typeof sorts],
      query: q,
    });
    return ok(c, { list: page.list.map(toApi), total: page.total });
  });

  app.openapi(routes.get, async (c) => {
    const row = await findById<typeof videoSources.$inferSelect>(
      c.get('deps').db,
      videoSources,
      c.req.valid('param').id,
    );
    return ok(c, toApi(row));
  });

  app.openapi(routes.create, async (c) => {
    const { db, clock } = c.get('deps');
    try {
      const [row] = await db
        .insert(videoSources)
        .values({ ...c.req.valid('json'), createdAt: clock.now(), updatedAt: clock.now() })
        .returning();
      return ok(c, toApi(row));
    } catch (err) {
      saveErrors(err);
    }
  });

  app.openapi(routes.update, async (c) => {
    const { db, clock } = c.get('deps');
    const { version: v, ...patch } = c.req.valid('json');
    try {
      const row = await updateVersioned<Record<string, unknown>>(
        db,
        videoSources,
        c.req.valid('param').id,
        v,
        {
          ...patch,
          updatedAt: clock.now(),
        },
      );
      return ok(c, toApi(row));
    } catch (err) {
      saveErrors(err);
    }
  });

  app.openapi(routes.remove, async (c) => {
    const { id: sourceId } = c.req.valid('param');
    try {
      const row = await transaction(c.get('deps').db, async (tx) => {
        const [src] = await tx.select().from(videoSources).where(eq(videoSources.id, sourceId)).for('update');
        if (!src) throw notFound();
        const [{ n }] = await tx
          .select({ n: countOf })
          .from(moviePlays)
          .where(eq(moviePlays.sourceId, sourceId));
        if (n > 0) throw new ApiError(Code.CONFLICT, 'source.inUse', { count: n }, { plays: n });
        await tx.delete(videoSources).where(eq(videoSources.id, sourceId));
        return src;
      });
      return ok(c, toApi(row));
    } catch (err) {
      saveErrors(err);
    }
  });

  return app;
}
