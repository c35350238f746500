import { OpenAPIHono, z } from '@hono/zod-openapi';
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { imagesPermissions } from '../../../common/permissions/images';
import { audit, auditedRoute, snapshot } from '../../core/audit';
import { asAnyOperator, can, security } from '../../core/auth';
import { ownBodyLimit } from '../../core/body';
import type { AppEnv } from '../../core/context';
import { jsonResponse, ok } from '../../core/envelope';
import { invalidField } from '../../core/errors';
import { defineModule } from '../../core/module';
import { createRoute } from '../../core/route';
import { transaction } from '../../core/shared';
import { encryptImage, IMAGE_MARKER, imageCipher } from './cipher';
import { ACCEPTED_TYPES, sniffImage } from './format';
import { etagOf, isImagePath, newImagePath } from './paths';

/**
 * Images (DESIGN.md §8): operators upload JPEG, PNG, GIF or WebP files; the API checks the type by the bytes and
 * the size, stores them AES-encrypted behind a 3-byte marker, and serves the stored bytes at `/img/<path>` (the
 * image host when `imgdomain` is empty). The admin fetches the key and IV once per session to decrypt.
 */

/** Room for the multipart framing around the file (boundaries, part headers, a long file name). */
const MULTIPART_SLACK = 16 * 1024;

const formatBytes = (n: number) =>
  n % (1024 * 1024) === 0 ? `${n / 1024 / 1024} MB` : n % 1024 === 0 ? `${n / 1024} KB` : `${n} B`;

const tooLarge = (max: number) => invalidField('file', 'image.tooLarge', { limit: formatBytes(max) });

/** A multipart form (checked from the header, before any byte is read) within the image limit. */
const multipartOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (!/^multipart\/form-data\s*;/i.test(c.req.header('content-type') ?? ''))
    throw invalidField('file', 'image.multipart');
  await next();
});
const withinImageLimit = ownBodyLimit((c) => {
  const max = c.get('deps').config.imageMaxBytes;
  return { maxBytes: max + MULTIPART_SLACK, refuse: () => tooLarge(max) };
});

const Uploaded = z
  .object({
    path: z.string().openapi({ example: '/upload/2026/11/0f1e2d3c4b5a69788796a5b4c3d2e1f0.jpg' }),
    size: z.number().int().openapi({ description: 'Bytes of the image (before encryption)' }),
    type: z.enum(['image/jpeg', 'image/png', 'image/gif', 'image/webp']),
    width: z.number().int().optional(),
    height: z.number().int().optional(),
  })
  .openapi('UploadedImage');

const upload = createRoute({
  method: 'post',
  path: '/image',
  tags: ['images'],
  summary: 'Upload an image (JPEG, PNG, GIF or WebP by its bytes, at most IMAGE_MAX_BYTES); stored encrypted',
  middleware: [...can('images.edit'), multipartOnly, withinImageLimit],
  security,
  request: {
    body: {
      required: true,
      // A plain OpenAPI schema, not zod: the handler reads the form itself, so that a wrong content type or a
      // broken form gets this route's own message rather than the JSON routes' one.
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['file'],
            properties: { file: { type: 'string', format: 'binary' } },
          },
        },
      },
    },
  },
  responses: jsonResponse(Uploaded),
});

const Cipher = z
  .object({
    algorithm: z.literal('AES-CBC'),
    padding: z.literal('PKCS7'),
    marker: z.string(),
    key: z.string().openapi({ description: 'Hexadecimal' }),
    iv: z.string().openapi({ description: 'Hexadecimal' }),
    maxBytes: z
      .number()
      .int()
      .openapi({ description: 'Largest upload (IMAGE_MAX_BYTES), for the form to check first' }),
  })
  .openapi('ImageCipher');

const cipher = createRoute({
  method: 'get',
  path: '/cipher',
  tags: ['images'],
  summary:
    'Key and IV of the stored images, for the admin to decrypt them, and the upload limit (operators only, never cached)',
  middleware: asAnyOperator,
  security,
  responses: jsonResponse(Cipher),
});

function uploadRoutes() {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(auditedRoute(upload), async (c) => {
    const { config, images, clock, logger, db } = c.get('deps');
    let form: FormData;
    try {
      form = await c.req.formData();
    } catch {
      throw invalidField('file', 'image.multipart');
    }
    const file = form.get('file');
    if (file === null || typeof file === 'string') throw invalidField('file', 'image.fileRequired');
    if (file.size > config.imageMaxBytes) throw tooLarge(config.imageMaxBytes);
    if (file.size === 0) throw invalidField('file', 'image.empty');
    const bytes = new Uint8Array(await file.arrayBuffer());
    const format = sniffImage(bytes);
    if (!format) throw invalidField('file', 'image.type', { types: ACCEPTED_TYPES });
    const path = newImagePath(clock.now(), format.ext);
    await images.put(path, await encryptImage(imageCipher(config), bytes));
    logger.info({ path, size: bytes.length, operator: c.get('operator').id }, 'image uploaded');
    const stored = {
      path,
      size: bytes.length,
      type: format.mime,
      width: format.width,
      height: format.height,
    };
    // The file is written outside any transaction: its entry follows in one of its own (a file whose entry failed
    // is an unreferenced upload, as one whose form was never saved).
    await transaction(db, (tx) =>
      audit(tx, c, {
        resource: 'images',
        action: 'upload',
        recordId: path,
        changes: { after: snapshot({ ...stored, name: file.name }) },
      }),
    );
    return ok(c, stored);
  });

  app.openapi(cipher, (c) => {
    const { config } = c.get('deps');
    const { key, iv } = imageCipher(config);
    c.header('Cache-Control', 'no-store');
    return ok(c, {
      algorithm: 'AES-CBC' as const,
      padding: 'PKCS7' as const,
      marker: IMAGE_MARKER,
      key,
      iv,
      maxBytes: config.imageMaxBytes,
    });
  });

  return app;
}

/**
 * Images: upload and the cipher the admin decrypts with under /app/admin/upload; the image host at /img, outside
 * /app.
 */
export default defineModule({
  name: 'images',
  permissions: [imagesPermissions],
  order: 50,
  mount: { '/admin/upload': uploadRoutes },
  rootMount: { '/img': () => imageHost() },
});

/**
 * The image host: `GET /img/<path>` answers the stored (encrypted) bytes as they are, not an envelope, cached
 * for ever (a path's bytes never change) and readable from any origin (they are useless without the key; the
 * content site fetches them too). Only paths of the upload shape are looked up, so nothing can walk out of the
 * store. Mounted at `/img`, outside `/app` and outside the OpenAPI document.
 */
export function imageHost() {
  const app = new Hono<AppEnv>();
  app.get('/*', async (c) => {
    const path = c.req.path.slice('/img'.length);
    const notFound = () => c.text('Not found', 404, { 'Cache-Control': 'no-cache' });
    if (!isImagePath(path)) return notFound();
    const bytes = await c.get('deps').images.get(path);
    if (!bytes) return notFound();
    const etag = etagOf(path);
    const headers = {
      'Cache-Control': 'public, max-age=31536000, immutable',
      ETag: etag,
      'Access-Control-Allow-Origin': '*',
      'X-Content-Type-Options': 'nosniff',
    };
    const match = c.req.header('if-none-match');
    if (match?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag))
      return c.body(null, 304, headers);
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      ...headers,
      'Content-Type': 'application/octet-stream',
    });
  });
  return app;
}
