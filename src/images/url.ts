/**
 * Where an image is shown from: `imgdomain` (system settings) + the stored path. An empty imgdomain means this
 * server's own image host, `/img` (same origin), so images work out of the box with `npm start` and in demo
 * mode. An absolute URL (`https://…`, `//host/…`, `data:`, `blob:`) is used as it is.
 */
export const DEFAULT_IMAGE_HOST = '/img';

const ABSOLUTE = /^(?:[a-z][a-z\d+.-]*:|\/\/)/i;

export function imageUrl(src: string | null | undefined, imgdomain?: string | null): string {
  if (!src) return '';
  if (ABSOLUTE.test(src)) return src;
  const host = (imgdomain?.trim() || DEFAULT_IMAGE_HOST).replace(/\/+$/, '');
  return `${host}/${src.replace(/^\/+/, '')}`;
}
