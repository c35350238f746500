/** Small real images, one per accepted format, for the API and UI tests of the image feature. */
const b64 = (s: string) => new Uint8Array(Buffer.from(s, 'base64'));

export const IMAGES = {
  /** 1×1 baseline JPEG. */
  jpeg: b64(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  ),
  /** 3×2 RGB PNG. */
  png: b64(
    'iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAHElEQVR4nGM4wcBwQo7hhA0DwwmGlBNyKSdsUgA99AaRb1NHywAAAABJRU5ErkJggg==',
  ),
  /** 1×1 GIF89a. */
  gif: b64('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=='),
  /** 1×1 lossless WebP (VP8L). */
  webp: b64('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=='),
};

const ascii = (s: string) => Array.from(s, (ch) => ch.charCodeAt(0));
const le16 = (n: number) => [n & 0xff, (n >> 8) & 0xff];
const le24 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff];
const be16 = (n: number) => [(n >> 8) & 0xff, n & 0xff];

/** A lossy WebP header (VP8 key frame) of the given size; the codec data after it is left out. */
export const vp8Webp = (width: number, height: number) =>
  new Uint8Array([
    ...ascii('RIFF'),
    ...[30, 0, 0, 0],
    ...ascii('WEBPVP8 '),
    ...[14, 0, 0, 0],
    ...[0x30, 0x01, 0x00],
    ...[0x9d, 0x01, 0x2a],
    ...le16(width),
    ...le16(height),
    ...new Array(8).fill(0),
  ]);

/** An extended WebP header (VP8X) of the given size. */
export const vp8xWebp = (width: number, height: number) =>
  new Uint8Array([
    ...ascii('RIFF'),
    ...[30, 0, 0, 0],
    ...ascii('WEBPVP8X'),
    ...[10, 0, 0, 0],
    ...[0x10, 0, 0, 0],
    ...le24(width - 1),
    ...le24(height - 1),
    ...new Array(8).fill(0),
  ]);

/** A progressive JPEG header with an APP0 and an APP1 segment and fill bytes before its frame (SOF2). */
export const progressiveJpeg = (width: number, height: number) =>
  new Uint8Array([
    0xff,
    0xd8,
    ...[0xff, 0xe0, ...be16(16), ...ascii('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0],
    ...[0xff, 0xe1, ...be16(8), ...ascii('Exif\0\0')],
    0xff,
    0xff,
    ...[0xff, 0xc2, ...be16(11), 8, ...be16(height), ...be16(width), 1, 1, 0x11, 0],
    ...[0xff, 0xda, ...be16(8), 1, 1, 0, 0, 0x3f, 0],
    0xff,
    0xd9,
  ]);

/** A PNG header (signature and IHDR) followed by `total` bytes in all: passes the type check at any size. */
export function paddedPng(total: number): Uint8Array {
  const out = new Uint8Array(total);
  out.set(IMAGES.png.subarray(0, 33));
  return out;
}
