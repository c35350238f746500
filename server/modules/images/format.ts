/**
 * What an uploaded file is, from its bytes only (the name and the declared type are the client's word): JPEG,
 * PNG, GIF or WebP, with the pixel size read from the header. A file whose header cannot give a size is
 * truncated or not an image at all, and is refused like any other type.
 */
export interface ImageFormat {
  ext: 'jpg' | 'png' | 'gif' | 'webp';
  mime: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
  width: number;
  height: number;
}

export const ACCEPTED_TYPES = 'JPEG, PNG, GIF, WebP';

const ascii = (b: Uint8Array, at: number, text: string) => {
  if (b.length < at + text.length) return false;
  for (let i = 0; i < text.length; i++) if (b[at + i] !== text.charCodeAt(i)) return false;
  return true;
};
const u16be = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
const u16le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const u24le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);
const u32be = (b: Uint8Array, at: number) =>
  ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;

const sized = (format: Omit<ImageFormat, 'width' | 'height'>, width: number, height: number) =>
  width > 0 && height > 0 ? { ...format, width, height } : null;

function png(b: Uint8Array): ImageFormat | null {
  // Signature, then the IHDR chunk first: length 13, type, width, height (big-endian).
  if (b.length < 24 || !ascii(b, 12, 'IHDR')) return null;
  return sized({ ext: 'png', mime: 'image/png' }, u32be(b, 16), u32be(b, 20));
}

function gif(b: Uint8Array): ImageFormat | null {
  if (b.length < 10) return null;
  return sized({ ext: 'gif', mime: 'image/gif' }, u16le(b, 6), u16le(b, 8));
}

/** Walks the JPEG segments up to the first start-of-frame marker, which carries height and width. */
function jpeg(b: Uint8Array): ImageFormat | null {
  let i = 2;
  while (i + 3 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan data before any frame
    const length = u16be(b, i + 2);
    if (length < 2) return null;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (i + 9 > b.length) return null;
      return sized({ ext: 'jpg', mime: 'image/jpeg' }, u16be(b, i + 7), u16be(b, i + 5));
    }
    i += 2 + length;
  }
  return null;
}

/** RIFF container, WEBP form; the first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended). */
function webp(b: Uint8Array): ImageFormat | null {
  const format = { ext: 'webp', mime: 'image/webp' } as const;
  if (ascii(b, 12, 'VP8 ') && b.length >= 30) {
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null; // key frame start code
    return sized(format, u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
  }
  if (ascii(b, 12, 'VP8L') && b.length >= 25) {
    if (b[20] !== 0x2f) return null;
    const bits = (b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24)) >>> 0;
    return sized(format, (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (ascii(b, 12, 'VP8X') && b.length >= 30) return sized(format, u24le(b, 24) + 1, u24le(b, 27) + 1);
  return null;
}

export function sniffImage(bytes: Uint8Array): ImageFormat | null {
  const b = bytes;
  if (b.length >= 8 && b[0] === 0x89 && ascii(b, 1, 'PNG\r\n\x1a\n')) return png(b);
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpeg(b);
  if (ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a')) return gif(b);
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')) return webp(b);
  return null;
}
