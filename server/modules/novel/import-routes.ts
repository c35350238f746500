import { OpenAPIHono, z } from '@hono/zod-openapi';
import { and, asc, eq, gt, max } from 'drizzle-orm';
import { createMiddleware } from 'hono/factory';
import { CHAPTER_MAX_CHARS } from '../../../common/novel';
import { countWords } from '../../../common/words';
import { auditedRoute, auditMany, readOnlyRoute } from '../../core/audit';
import { can, security } from '../../core/auth';
import { ownBodyLimit } from '../../core/body';
import type { AppContext, AppEnv } from '../../core/context';
import { idParam } from '../../core/crud';
import { jsonResponse, ok } from '../../core/envelope';
import { invalidField, notFound } from '../../core/errors';
import { enumParams, translate } from '../../core/i18n';
import { createRoute } from '../../core/route';
import { transaction } from '../../core/shared';
import { appendChapters, lockNovel } from './chapters';
import { decodeText, type SplitChapter, splitChapters } from './import';
import { novelChapters, novels } from './schema';

/** The largest TXT file an import takes (a long web novel in GB18030 is 10–20 MB). */
export const IMPORT_MAX_BYTES = 32 * 1024 * 1024;
/** The most chapters one import appends. */
export const IMPORT_MAX_CHAPTERS = 20_000;

/** Room for the multipart framing around the file. */
const MULTIPART_SLACK = 16 * 1024;
const PREFACE_EXCERPT = 200;

const tooLarge = () =>
  invalidField('file', 'novel.import.tooLarge', { limit: `${IMPORT_MAX_BYTES >> 20} MB` });

/** A multipart form (checked from the header, before any byte is read). */
const multipartOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (!/^multipart\/form-data\s*;/i.test(c.req.header('content-type') ?? ''))
    throw invalidField('file', 'novel.import.multipart');
  await next();
});
/** The import's own body limit (checked from Content-Length, then while it streams in). */
const withinImportLimit = ownBodyLimit(() => ({
  maxBytes: IMPORT_MAX_BYTES + MULTIPART_SLACK,
  refuse: tooLarge,
}));

const form = (extra: Record<string, object> = {}) => ({
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object' as const,
        required: ['file'],
        properties: {
          file: { type: 'string' as const, format: 'binary', description: 'The TXT file (UTF-8 or GB18030)' },
          ...extra,
        },
      },
    },
  },
});

const Encoding = z.enum(['utf-8', 'utf-16le', 'utf-16be', 'gb18030']);

const Preview = z
  .object({
    encoding: Encoding,
    chapters: z.array(z.object({ title: z.string(), words: z.number() })),
    totalWords: z.number(),
    /** Headings with no text under them (a table of contents), left out. */
    skipped: z.number(),
    /** The text before the first heading: imported as a first chapter only when asked (keepPreface). */
    preface: z.object({ words: z.number(), excerpt: z.string() }).nullable(),
  })
  .openapi('NovelImportPreview');

const Imported = z
  .object({
    encoding: Encoding,
    added: z.number(),
    chapterCount: z.number(),
    wordCount: z.number(),
  })
  .openapi('NovelImported');

const keepPreface = {
  keepPreface: {
    type: 'string' as const,
    enum: ['true', 'false'],
    description: 'true: the text before the first heading becomes a first chapter (titled 序 / Preface)',
  },
};

const routes = {
  preview: createRoute(
    readOnlyRoute({
      method: 'post',
      path: '/{id}/import/preview',
      tags: ['novel chapters'],
      summary:
        'Dry run of an import: the encoding found, the chapters the file splits into (titles, word counts) and the text before the first heading; nothing is written',
      middleware: [...can('novel.edit'), multipartOnly, withinImportLimit],
      security,
      request: { params: idParam, body: form() },
      responses: jsonResponse(Preview),
    }),
  ),
  run: createRoute({
    method: 'post',
    path: '/{id}/import',
    tags: ['novel chapters'],
    summary:
      'Import a TXT file (UTF-8 or GB18030) split at its chapter headings: the chapters are appended after the last one, in one transaction',
    middleware: [...can('novel.edit'), multipartOnly, withinImportLimit],
    security,
    request: { params: idParam, body: form(keepPreface) },
    responses: jsonResponse(Imported),
  }),
};

/** Reads and splits the uploaded file, or answers 40000 saying what is wrong with it. */
async function readUpload(c: AppContext) {
  let data: FormData;
  try {
    data = await c.req.formData();
  } catch {
    throw invalidField('file', 'novel.import.multipart');
  }
  const file = data.get('file');
  if (file === null || typeof file === 'string') throw invalidField('file', 'novel.import.fileRequired');
  if (file.size > IMPORT_MAX_BYTES) throw tooLarge();
  const decoded = decodeText(new Uint8Array(await file.arrayBuffer()));
  if (!decoded) throw invalidField('file', 'novel.import.notText');
  if (!decoded.text.trim()) throw invalidField('file', 'novel.import.empty');
  const split = splitChapters(decoded.text);
  const long = split.chapters.find((ch) => ch.content.length > CHAPTER_MAX_CHARS);
  if (long)
    throw invalidField('file', 'novel.import.chapterTooLong', { title: long.title, max: CHAPTER_MAX_CHARS });
  if (split.chapters.length > IMPORT_MAX_CHAPTERS)
    throw invalidField('file', 'novel.import.tooMany', {
      count: split.chapters.length,
      max: IMPORT_MAX_CHAPTERS,
    });
  const keep = data.get('keepPreface');
  if (keep !== null && keep !== 'true' && keep !== 'false')
    throw invalidField('keepPreface', 'field.enum', enumParams(['true', 'false']));
  return { ...decoded, ...split, keepPreface: keep === 'true', fileName: file.name, fileSize: file.size };
}

/** 40400 for a novel that does not exist (before the file is read). */
async function assertNovel(c: AppContext, novelId: number) {
  const [row] = await c.get('deps').db.select({ id: novels.id }).from(novels).where(eq(novels.id, novelId));
  if (!row) throw notFound();
}

/** The TXT import of a novel's chapters: a dry run that shows the split, and the import itself. */
export function importRoutes() {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(routes.preview, async (c) => {
    const { id: novelId } = c.req.valid('param');
    await assertNovel(c, novelId);
    const up = await readUpload(c);
    const preface = up.preface
      ? { words: countWords(up.preface), excerpt: [...up.preface].slice(0, PREFACE_EXCERPT).join('') }
      : null;
    return ok(c, {
      encoding: up.encoding,
      chapters: up.chapters.map((ch) => ({ title: ch.title, words: ch.words })),
      totalWords: up.chapters.reduce((sum, ch) => sum + ch.words, 0),
      skipped: up.skipped,
      preface,
    });
  });

  app.openapi(auditedRoute(routes.run), async (c) => {
    const { id: novelId } = c.req.valid('param');
    const { db, clock } = c.get('deps');
    await assertNovel(c, novelId);
    const up = await readUpload(c);
    const chapters: SplitChapter[] = [...up.chapters];
    if (up.keepPreface && up.preface) {
      if (up.preface.length > CHAPTER_MAX_CHARS)
        throw invalidField('file', 'novel.import.chapterTooLong', {
          title: translate(c.get('locale'), 'novel.import.prefaceTitle'),
          max: CHAPTER_MAX_CHARS,
        });
      chapters.unshift({
        title: translate(c.get('locale'), 'novel.import.prefaceTitle'),
        content: up.preface,
        words: countWords(up.preface),
      });
    }
    if (!chapters.length) throw invalidField('file', 'novel.import.noChapters');
    const counts = await transaction(db, async (tx) => {
      await lockNovel(tx, novelId);
      const [last] = await tx
        .select({ number: max(novelChapters.number) })
        .from(novelChapters)
        .where(eq(novelChapters.novelId, novelId));
      await appendChapters(tx, novelId, chapters, clock.now());
      const added = await tx
        .select({ id: novelChapters.id })
        .from(novelChapters)
        .where(and(eq(novelChapters.novelId, novelId), gt(novelChapters.number, last?.number ?? 0)))
        .orderBy(asc(novelChapters.number));
      const [row] = await tx
        .select({ chapterCount: novels.chapterCount, wordCount: novels.wordCount })
        .from(novels)
        .where(eq(novels.id, novelId));
      // The new chapters by id (their text is in them, not in the entry), the file and what it added up to.
      await auditMany(tx, c, {
        resource: 'chapters',
        action: 'import',
        recordId: novelId,
        ids: added.map((a) => a.id),
        changed: added.length,
        extra: {
          file: up.fileName,
          size: up.fileSize,
          encoding: up.encoding,
          keepPreface: up.keepPreface,
          titles: chapters.map((ch) => ch.title),
          words: chapters.reduce((sum, ch) => sum + ch.words, 0),
          ...row,
        },
      });
      return row;
    });
    return ok(c, { encoding: up.encoding, added: chapters.length, ...counts });
  });

  return app;
}
