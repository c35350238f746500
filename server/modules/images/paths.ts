import { z } from '@hono/zod-openapi';
import { isHttpUrl } from '../../core/url';
import type { ImageFormat } from './format';

/**
 * Where an image is stored and how it is addressed: `/upload/YYYY/MM/<32 hex digits>.<ext>`. An upload's digits are
 * 128 random bits, so a path is never reused (its bytes never change, so it can be cached for ever) and cannot be
 * guessed; a collected cover's are its URL's hash (`collectedImagePath`), written once. The admin shows it at
 * `imgdomain + path`.
 */
export const IMAGE_PATH = /^\/upload\/\d{4}\/(0[1-9]|1[0-2])\/[0-9a-f]{32}\.(jpg|png|gif|webp)$/;

export function isImagePath(path: string): boolean {
  return IMAGE_PATH.test(path);
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

const imagePath = (year: string, month: string, id: string, ext: ImageFormat['ext']) =>
  `/upload/${year}/${month}/${id}.${ext}`;

export function newImagePath(now: Date, ext: ImageFormat['ext']): string {
  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  return imagePath(String(now.getUTCFullYear()), month, hex(crypto.getRandomValues(new Uint8Array(16))), ext);
}

/** The formats a stored image can have, in the order a collected cover's path is looked for. */
export const IMAGE_EXTS = ['jpg', 'png', 'webp', 'gif'] as const satisfies readonly ImageFormat['ext'][];

/**
 * Where a collected cover fetched from `url` is stored: its name is the first 128 bits of the URL's SHA-256, under
 * year 0000 (which no upload has), so the path depends on the URL and the format alone. A rerun finds the file its
 * last run stored and writes the same path into the item, which then stays unchanged.
 */
export async function collectedImagePath(url: string, ext: ImageFormat['ext']): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(url)));
  return imagePath('0000', '01', hex(digest.subarray(0, 16)), ext);
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
