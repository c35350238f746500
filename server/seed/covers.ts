import type { Config } from '../config';
import { joinBytes } from '../core/bytes';
import type { ImageStorage } from '../core/image-storage';
import { encryptImage, imageCipher } from '../modules/images/cipher';
import { rng } from './random';

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Uint8Array) => {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

function chunk(type: string, data: Uint8Array) {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** zlib data of `raw` in stored (uncompressed) deflate blocks: a valid PNG stream without a compressor. */
function zlibStored(raw: Uint8Array) {
  const blocks = Math.max(1, Math.ceil(raw.length / 65535));
  const out = new Uint8Array(2 + raw.length + blocks * 5 + 4);
  out.set([0x78, 0x01], 0);
  let at = 2;
  for (let i = 0; i < blocks; i++) {
    const part = raw.subarray(i * 65535, Math.min(raw.length, (i + 1) * 65535));
    out[at] = i === blocks - 1 ? 1 : 0;
    out[at + 1] = part.length & 0xff;
    out[at + 2] = part.length >>> 8;
    out[at + 3] = ~part.length & 0xff;
    out[at + 4] = (~part.length >>> 8) & 0xff;
    out.set(part, at + 5);
    at += 5 + part.length;
  }
  let a = 1;
  let b = 0;
  for (const byte of raw) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  new DataView(out.buffer).setUint32(at, ((b << 16) | a) >>> 0);
  return out;
}

type Rgb = [number, number, number];

/** A 16:9 PNG: a diagonal gradient between two colours with a lighter band, enough to tell covers apart. */
export function coverPng(from: Rgb, to: Rgb, width = 128, height = 72): Uint8Array {
  const raw = new Uint8Array((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      const band = Math.abs(y - height * 0.62) < height * 0.08 ? 40 : 0;
      for (let k = 0; k < 3; k++)
        raw[row + 1 + x * 3 + k] = Math.min(255, Math.round(from[k] + (to[k] - from[k]) * t) + band);
    }
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlibStored(raw)),
    chunk('IEND', new Uint8Array()),
  ];
  return joinBytes(parts);
}

const hsl = (h: number, s: number, l: number): Rgb => {
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
};

/**
 * `count` cover images, encrypted and stored as uploads are (deterministic paths and colours by `seed`), for the
 * sample data; returns their paths.
 */
export async function seedCovers(images: ImageStorage, config: Config, seed: number, count = 12) {
  const r = rng(seed + 7);
  const cipher = imageCipher(config);
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const hue = Math.round((360 / count) * i + r.int(0, 20));
    const png = coverPng(hsl(hue, 0.55, 0.35), hsl((hue + 40) % 360, 0.6, 0.6));
    const hex = Array.from({ length: 32 }, () => r.int(0, 15).toString(16)).join('');
    const path = `/upload/2026/06/${hex}.png`;
    await images.put(path, await encryptImage(cipher, png));
    paths.push(path);
  }
  return paths;
}
