/**
 * SPEC.md §7: an image whose bytes start with the 3-character marker is AES-CBC encrypted (PKCS#7 padding) with
 * the session's key and IV; anything else is an image as it is. crypto-js rather than WebCrypto, because
 * WebCrypto exists only on https or localhost, and an admin on a plain-http intranet address must still see
 * its images.
 */
import AES from 'crypto-js/aes';
import CryptoJS from 'crypto-js/core';
import Hex from 'crypto-js/enc-hex';
import NoPadding from 'crypto-js/pad-nopadding';
import { IMAGE_MARKER } from '../../common/images';
import { getImageCipher } from './cipher';

export { IMAGE_MARKER };

const MARKER_BYTES = Array.from(IMAGE_MARKER, (ch) => ch.charCodeAt(0));

export class ImageDecryptError extends Error {
  constructor(reason: string) {
    super(`cannot decrypt the image: ${reason}`);
    this.name = 'ImageDecryptError';
  }
}

export function hasMarker(bytes: Uint8Array): boolean {
  return MARKER_BYTES.every((b, i) => bytes[i] === b);
}

function toWordArray(bytes: Uint8Array): CryptoJS.lib.WordArray {
  const words: number[] = new Array((bytes.length + 3) >>> 2).fill(0);
  for (let i = 0; i < bytes.length; i++) words[i >>> 2] |= bytes[i] << (24 - (i % 4) * 8);
  return CryptoJS.lib.WordArray.create(words, bytes.length);
}

function fromWordArray(wa: CryptoJS.lib.WordArray): Uint8Array {
  const out = new Uint8Array(wa.sigBytes);
  for (let i = 0; i < wa.sigBytes; i++) out[i] = (wa.words[i >>> 2] >>> (24 - (i % 4) * 8)) & 0xff;
  return out;
}

/**
 * AES-CBC decryption of `ciphertext`, then PKCS#7 unpadding checked byte by byte. crypto-js's own Pkcs7 unpad
 * trusts the last byte blindly, so a wrong key would give garbage instead of an error; checking the padding
 * turns that into an ImageDecryptError (a wrong key passes it about once in 256).
 */
export function aesCbcPkcs7Decrypt(ciphertext: Uint8Array, keyHex: string, ivHex: string): Uint8Array {
  if (ciphertext.length === 0 || ciphertext.length % 16 !== 0)
    throw new ImageDecryptError('the ciphertext is not a whole number of blocks');
  const params = CryptoJS.lib.CipherParams.create({ ciphertext: toWordArray(ciphertext) });
  const padded = fromWordArray(
    AES.decrypt(params, Hex.parse(keyHex), {
      iv: Hex.parse(ivHex),
      mode: CryptoJS.mode.CBC,
      padding: NoPadding,
    }),
  );
  const n = padded[padded.length - 1];
  if (!n || n > 16 || n > padded.length) throw new ImageDecryptError('bad padding (wrong key or IV?)');
  for (let i = padded.length - n; i < padded.length; i++)
    if (padded[i] !== n) throw new ImageDecryptError('bad padding (wrong key or IV?)');
  return padded.subarray(0, padded.length - n);
}

/** The image's bytes: decrypted when they carry the marker (fetching the key once per session), else as they are. */
export async function decryptImage(bytes: Uint8Array): Promise<Uint8Array> {
  if (!hasMarker(bytes)) return bytes;
  const { key, iv } = await getImageCipher();
  return aesCbcPkcs7Decrypt(bytes.subarray(MARKER_BYTES.length), key, iv);
}

function startsWith(b: Uint8Array, at: number, sig: readonly number[] | string): boolean {
  const bytes = typeof sig === 'string' ? Array.from(sig, (ch) => ch.charCodeAt(0)) : sig;
  return bytes.every((x, i) => b[at + i] === x);
}

/** The MIME type of an image by its first bytes (JPEG, PNG, GIF, WebP), or '' when it is none of them. */
export function imageMime(b: Uint8Array): string {
  if (startsWith(b, 0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(b, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(b, 0, 'GIF87a') || startsWith(b, 0, 'GIF89a')) return 'image/gif';
  if (startsWith(b, 0, 'RIFF') && startsWith(b, 8, 'WEBP')) return 'image/webp';
  return '';
}
