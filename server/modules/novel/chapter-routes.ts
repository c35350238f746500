import { OpenAPIHono, z } from '@hono/zod-openapi';
import { and, asc, count, desc, eq, ilike, inArray, type SQL } from 'drizzle-orm';
import { Code } from '../../../common/codes';
import { CHAPTER_MAX_CHARS } from '../../../common/novel';
import { countWords } from '../../../common/words';
import { audit, auditBatch, auditedRoute, auditMany, diff, snapshot } from '../../core/audit';
import { can, security } from '../../core/auth';
import type { AppEnv } from '../../core/context';
import { batchBody, idParam, listQuery, updateVersioned } from '../../core/crud';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { ApiError, invalidField, notFound } from '../../core/errors';
import { createRoute } from '../../core/route';
import {
  containsPattern,
  id,
  idArray,
  intQuery,
  rejectUnknownQuery,
  transaction,
  version,
} from '../../core/shared';
import type { Executor } from '../../db/types';
import { appendChapters, applyNumbers, compact, lockNovel, lockNovels } from './chapters';
import { Chapter, ChapterItem, chapterItemSelect, chapterToApi, readChapter } from './model';
import { novelChapters, novels } from './schema';

const tags = ['novel chapters'];

const sorts = {
  number: novelChapters.number,
  id: novelChapters.id,
  title: novelChapters.title,
  wordCount: novelChapters.wordCount,
  updatedAt: novelChapters.updatedAt,
} as const;
type SortKey = keyof typeof sorts;

const ListQuery = listQuery(Object.keys(sorts) as [SortKey, ...SortKey[]], {
  /** The novel whose chapters are listed (required unless `ids` names them). */
  novelId: intQuery().optional(),
  q: z.string().trim().max(64).optional(),
});

/** Plain text; line ends are stored as \n whatever the browser sent. */
const content = z
  .string()
  .max(CHAPTER_MAX_CHARS)
  .transform((s) => s.replace(/\r\n?/g, '\n'));
const fields = { title: z.string().trim().min(1).max(200), content };
const CreateBody = z.object({ novelId: id, ...fields, content: content.optional().default('') });
const UpdateBody = z.object({ ...z.object(fields).partial().shape, version });
const BatchBody = batchBody(['delete'] as const);

const idOf = { params: idParam };

const routes = {
  list: createRoute({
    method: 'get',
    path: '/',
    tags,
    summary: "A novel's chapters (novelId), by number; free = within the novel's free chapters",
    middleware: can('novel.read'),
    security,
    request: { query: ListQuery },
    responses: jsonResponse(z.object({ list: z.array(ChapterItem), total: z.number() })),
  }),
  get: createRoute({
    method: 'get',
    path: '/{id}',
    tags,
    summary: 'One chapter with its content',
    middleware: can('novel.read'),
    security,
    request: idOf,
    responses: jsonResponse(Chapter),
  }),
  create: createRoute(
    auditedRoute({
      method: 'post',
      path: '/',
      tags,
      summary: 'Add a chapter after the last one of its novel (the word count is computed here)',
      middleware: can('novel.edit'),
      security,
      request: { body: jsonBody(CreateBody) },
      responses: jsonResponse(Chapter),
    }),
  ),
  update: createRoute(
    auditedRoute({
      method: 'put',
      path: '/{id}',
      tags,
      summary: 'Edit a chapter’s title and content (optimistic locking; the word count is recomputed)',
      middleware: can('novel.edit'),
      security,
      request: { ...idOf, body: jsonBody(UpdateBody) },
      responses: jsonResponse(Chapter),
    }),
  ),
  remove: createRoute(
    auditedRoute({
      method: 'delete',
      path: '/{id}',
      tags,
      summary: 'Delete a chapter; the chapters after it move up one number',
      middleware: can('novel.edit'),
      security,
      request: idOf,
      responses: jsonResponse(z.object({ id: z.number() })),
    }),
  ),
  batch: createRoute(
    auditedRoute({
      method: 'post',
      path: '/batch',
      tags,
      summary: 'delete: the chapters go and their novels are renumbered, in one transaction (all or nothing)',
      middleware: can('novel.batch'),
      security,
      request: { body: jsonBody(BatchBody) },
      responses: jsonResponse(z.object({ changed: z.number() })),
    }),
  ),
  move: createRoute({
    method: 'post',
    path: '/{id}/move',
    tags,
    summary: 'Swap a chapter with the one before (up) or after (down) it',
    middleware: can('novel.edit'),
    security,
    request: { ...idOf, body: jsonBody(z.object({ direction: z.enum(['up', 'down']) })) },
    responses: jsonResponse(ChapterItem),
  }),
  reorder: createRoute({
    method: 'post',
    path: '/{id}/chapters/reorder',
    tags,
    summary:
      "Put a novel's chapters in this order: `ids` must be all of its chapters, each once (else 40900: the list changed)",
    middleware: can('novel.edit'),
    security,
    request: { ...idOf, body: jsonBody(z.object({ ids: idArray(50_000).min(1) })) },
    responses: jsonResponse(z.object({ changed: z.number() })),
  }),
};

async function mustReadChapter(db: Executor, chapterId: number) {
  const chapter = await readChapter(db, chapterId);
  if (!chapter) throw notFound();
  return chapter;
}

/** The novel a chapter belongs to, or 40400. */
async function novelOf(db: Executor, chapterId: number) {
  const [row] = await db
    .select({ novelId: novelChapters.novelId })
    .from(novelChapters)
    .where(eq(novelChapters.id, chapterId));
  if (!row) throw notFound();
  return row.novelId;
}

/** A novel's chapters (no content), by number, and the rest of the chapter rules. */
export function chapterRoutes() {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(routes.list, async (c) => {
    rejectUnknownQuery(c, ListQuery);
    const q = c.req.valid('query');
    if (q.novelId === undefined && !q.ids) throw invalidField('novelId', 'field.required');
    const { db } = c.get('deps');
    const where: (SQL | undefined)[] = [];
    if (q.novelId !== undefined) where.push(eq(novelChapters.novelId, q.novelId));
    if (q.ids) where.push(inArray(novelChapters.id, q.ids));
    if (q.q) where.push(ilike(novelChapters.title, containsPattern(q.q)));
    const pageSize = q.ids ? Math.max(q.pageSize, q.ids.length) : q.pageSize;
    const col = sorts[(q.sort ?? 'number') as SortKey];
    const order =
      q.order === 'desc' ? [desc(col), desc(novelChapters.id)] : [asc(col), asc(novelChapters.id)];
    const [rows, [{ total }]] = await Promise.all([
      db
        .select(chapterItemSelect)
        .from(novelChapters)
        .innerJoin(novels, eq(novels.id, novelChapters.novelId))
        .where(and(...where))
        .orderBy(...order)
        .limit(pageSize)
        .offset((q.page - 1) * pageSize),
      db
        .select({ total: count() })
        .from(novelChapters)
        .where(and(...where)),
    ]);
    return ok(c, { list: rows.map(chapterToApi), total: Number(total) });
  });

  app.openapi(routes.get, async (c) => {
    return ok(c, await mustReadChapter(c.get('deps').db, c.req.valid('param').id));
  });

  app.openapi(routes.create, async (c) => {
    const { db, clock } = c.get('deps');
    const body = c.req.valid('json');
    const chapterId = await transaction(db, async (tx) => {
      const novel = await lockNovel(tx, body.novelId).catch((err) => {
        if (err instanceof ApiError && err.code === Code.NOT_FOUND)
          throw invalidField('novelId', 'field.notFound');
        throw err;
      });
      await appendChapters(
        tx,
        novel.id,
        [{ title: body.title, content: body.content, words: countWords(body.content) }],
        clock.now(),
      );
      const [row] = await tx
        .select({ id: novelChapters.id })
        .from(novelChapters)
        .where(eq(novelChapters.novelId, novel.id))
        .orderBy(desc(novelChapters.number))
        .limit(1);
      const [made] = await tx.select().from(novelChapters).where(eq(novelChapters.id, row.id));
      await audit(tx, c, {
        resource: 'chapters',
        action: 'create',
        recordId: row.id,
        changes: { after: snapshot(made) },
      });
      return row.id;
    });
    return ok(c, await mustReadChapter(db, chapterId));
  });

  app.openapi(routes.update, async (c) => {
    const { db, clock } = c.get('deps');
    const { id: chapterId } = c.req.valid('param');
    const { version: v, ...patch } = c.req.valid('json');
    await transaction(db, async (tx) => {
      await lockNovel(tx, await novelOf(tx, chapterId));
      const values: Record<string, unknown> = { ...patch, updatedAt: clock.now() };
      if (patch.content !== undefined) values.wordCount = countWords(patch.content);
      const [before] = await tx.select().from(novelChapters).where(eq(novelChapters.id, chapterId));
      const after = await updateVersioned<Record<string, unknown>>(tx, novelChapters, chapterId, v, values);
      await audit(tx, c, {
        resource: 'chapters',
        action: 'update',
        recordId: chapterId,
        changes: diff(before ?? {}, after),
      });
    });
    return ok(c, await mustReadChapter(db, chapterId));
  });

  app.openapi(routes.remove, async (c) => {
    const { id: chapterId } = c.req.valid('param');
    await transaction(c.get('deps').db, async (tx) => {
      const novelId = await novelOf(tx, chapterId);
      await lockNovel(tx, novelId);
      const gone = await tx.delete(novelChapters).where(eq(novelChapters.id, chapterId)).returning();
      if (!gone.length) throw notFound(); // deleted by a writer that held the novel before us
      await compact(tx, [novelId]);
      await audit(tx, c, {
        resource: 'chapters',
        action: 'delete',
        recordId: chapterId,
        changes: { before: snapshot(gone[0]) },
      });
    });
    return ok(c, { id: chapterId });
  });

  app.openapi(routes.batch, async (c) => {
    const { ids } = c.req.valid('json');
    const changed = await transaction(c.get('deps').db, async (tx) => {
      const unique = [...new Set(ids)];
      const owners = await tx
        .selectDistinct({ novelId: novelChapters.novelId })
        .from(novelChapters)
        .where(inArray(novelChapters.id, unique));
      const novelIds = owners.map((o) => o.novelId);
      await lockNovels(tx, novelIds);
      const gone = await tx
        .delete(novelChapters)
        .where(inArray(novelChapters.id, unique))
        .returning({ id: novelChapters.id });
      if (gone.length !== unique.length) {
        const found = new Set(gone.map((g) => g.id));
        throw new ApiError(Code.NOT_FOUND, 'notFound.ids', {
          ids: unique
            .filter((i) => !found.has(i))
            .slice(0, 20)
            .join(', '),
        });
      }
      await compact(tx, novelIds);
      await auditBatch(tx, c, {
        resource: 'chapters',
        action: 'delete',
        ids: unique,
        changed: gone.length,
        extra: { novelIds },
      });
      return gone.length;
    });
    return ok(c, { changed });
  });

  app.openapi(auditedRoute(routes.move), async (c) => {
    const { db } = c.get('deps');
    const { id: chapterId } = c.req.valid('param');
    const { direction } = c.req.valid('json');
    await transaction(db, async (tx) => {
      const novelId = await novelOf(tx, chapterId);
      const novel = await lockNovel(tx, novelId);
      const [me] = await tx
        .select({ number: novelChapters.number })
        .from(novelChapters)
        .where(eq(novelChapters.id, chapterId));
      if (!me) throw notFound();
      const target = me.number + (direction === 'up' ? -1 : 1);
      const [other] = await tx
        .select({ id: novelChapters.id })
        .from(novelChapters)
        .where(and(eq(novelChapters.novelId, novelId), eq(novelChapters.number, target)));
      if (!other)
        throw new ApiError(
          Code.CONFLICT,
          direction === 'up' ? 'novel.chapter.first' : 'novel.chapter.last',
          { count: novel.chapterCount },
          { number: me.number },
        );
      await applyNumbers(tx, novelId, [chapterId, other.id], [target, me.number]);
      // The other chapter takes this one's number: `swappedWith` names it.
      await audit(tx, c, {
        resource: 'chapters',
        action: 'move',
        recordId: chapterId,
        changes: { ...diff({ number: me.number }, { number: target }), novelId, swappedWith: other.id },
      });
    });
    const { content: _content, novelTitle: _title, ...item } = await mustReadChapter(db, chapterId);
    return ok(c, item);
  });

  return app;
}

/** Reordering a novel's chapters, mounted beside the novels (`…/novels/{id}/chapters/reorder`). */
export function chapterOrderRoutes() {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(auditedRoute(routes.reorder), async (c) => {
    const { id: novelId } = c.req.valid('param');
    const { ids } = c.req.valid('json');
    const changed = await transaction(c.get('deps').db, async (tx) => {
      await lockNovel(tx, novelId);
      const have = await tx
        .select({ id: novelChapters.id, number: novelChapters.number })
        .from(novelChapters)
        .where(eq(novelChapters.novelId, novelId));
      const mine = new Set(have.map((h) => h.id));
      const unique = new Set(ids);
      // Not exactly this novel's chapters, each once: the list the caller saw is not the list now.
      if (unique.size !== ids.length || ids.length !== mine.size || ids.some((i) => !mine.has(i)))
        throw new ApiError(
          Code.CONFLICT,
          'novel.reorder.stale',
          { count: mine.size },
          { chapterCount: mine.size },
        );
      const moved = await applyNumbers(
        tx,
        novelId,
        ids,
        ids.map((_, i) => i + 1),
      );
      // The chapters whose number changed, in their new order.
      const numberOf = new Map(have.map((h) => [h.id, h.number]));
      await auditMany(tx, c, {
        resource: 'chapters',
        action: 'reorder',
        recordId: novelId,
        ids: ids.filter((chapter, i) => numberOf.get(chapter) !== i + 1),
        changed: moved,
        extra: { chapters: ids.length },
      });
      return moved;
    });
    return ok(c, { changed });
  });

  return app;
}
