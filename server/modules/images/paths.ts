import { z } from '@hono/zod-openapi';
import { isHttpUrl } from '../../core/url';
import type { ImageFormat } from './format';

/**
 * Where an image is stored and how it is addressed: `/upload/YYYY/MM/<32 hex digits>.<ext>`, 128 random bits so
 * a path is never reused (its bytes never change, so it can be cached for ever) and cannot be guessed. The
 * admin shows it at `imgdomain + path`.
 */
export const IMAGE_PATH = /^\/upload\/\d{4}\/(0[1-9]|1[0-2])\/[0-9a-f]{32}\.(jpg|png|gif|webp)$/;

export function isImagePath(path: string): boolean {
  return IMAGE_PATH.test(path);
}

export function newImagePath(now: Date, ext: ImageFormat['ext']): string {
  const id = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');
  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  return `/upload/${now.getUTCFullYear()}/${month}/${id}.${ext}`;
}

/** The random part of a path: a strong ETag, since the bytes behind a path never change. */
export const etagOf = (path: string) => `"${path.slice(path.lastIndexOf('/') + 1, path.lastIndexOf('.'))}"`;

/**
 * The one rule of every image field (movie and novel covers, actress and operator avatars, the site logo, app
 * icons…): empty, an uploaded image's path, or an http(s) URL — never `javascript:` or anything else a page would
 * put in `src`. 40000 "field.image" naming the field otherwise.
 */
export const imageField = (max = 512) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((v) => v === '' || isImagePath(v) || isHttpUrl(v), { params: { key: 'field.image' } })
    .openapi({ description: 'Empty, an uploaded image path (/upload/…), or an http(s) URL' });
