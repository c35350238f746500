import { IMAGE_MARKER } from '../../../common/images';
import type { Config } from '../../config';

/**
 * Stored images are `IMAGE_MARKER` (3 ASCII bytes) followed by the AES-CBC ciphertext of the image, PKCS#7
 * padded (WebCrypto's AES-CBC pads with PKCS#7), with the key and IV of the configuration (SPEC.md §7: the admin
 * decrypts what starts with the marker and shows anything else as it is). No JPEG, PNG, GIF or WebP starts with
 * these bytes, so a plain image is never mistaken for an encrypted one.
 *
 * One key and one IV for every image, as SPEC.md §7 has it (readers hold one built-in pair); the price is that two
 * uploads of the same file give the same ciphertext. The secret is the key, not the IV.
 */
export { IMAGE_MARKER };

/**
 * Used when IMAGE_KEY and IMAGE_IV are not set: fine for development and demo mode, never for a real site (the
 * Node entry warns when NODE_ENV=production). ASCII "zhanggui-development-image-key!!" and "zhanggui-dev-iv!".
 */
export const DEVELOPMENT_KEY = '7a68616e676775692d646576656c6f706d656e742d696d6167652d6b65792121';
export const DEVELOPMENT_IV = '7a68616e676775692d6465762d697621';

export interface ImageCipher {
  /** Hexadecimal, 32, 48 or 64 digits (AES-128/192/256). */
  key: string;
  /** Hexadecimal, 32 digits. */
  iv: string;
  /** True when the configuration has none and the development pair is in use. */
  development: boolean;
}

export function imageCipher(config: Pick<Config, 'imageKey' | 'imageIv'>): ImageCipher {
  if (config.imageKey && config.imageIv)
    return { key: config.imageKey.toLowerCase(), iv: config.imageIv.toLowerCase(), development: false };
  return { key: DEVELOPMENT_KEY, iv: DEVELOPMENT_IV, development: true };
}

const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (h) => Number.parseInt(h, 16));
const MARKER_BYTES = new TextEncoder().encode(IMAGE_MARKER);

async function aesKey(cipher: ImageCipher, use: 'encrypt' | 'decrypt') {
  return crypto.subtle.importKey('raw', fromHex(cipher.key) as BufferSource, { name: 'AES-CBC' }, false, [
    use,
  ]);
}

/** The marker followed by the ciphertext: the bytes that are stored and served. */
export async function encryptImage(cipher: ImageCipher, plain: Uint8Array): Promise<Uint8Array> {
  const encrypted = await crypto.subtle.encrypt(
    { name: 'AES-CBC', iv: fromHex(cipher.iv) as BufferSource },
    await aesKey(cipher, 'encrypt'),
    plain as BufferSource,
  );
  const out = new Uint8Array(MARKER_BYTES.length + encrypted.byteLength);
  out.set(MARKER_BYTES, 0);
  out.set(new Uint8Array(encrypted), MARKER_BYTES.length);
  return out;
}

export function hasMarker(bytes: Uint8Array): boolean {
  return MARKER_BYTES.every((b, i) => bytes[i] === b);
}

/** The inverse of encryptImage (tests, tools); throws on a wrong key or damaged bytes. */
export async function decryptImage(cipher: ImageCipher, stored: Uint8Array): Promise<Uint8Array> {
  if (!hasMarker(stored)) throw new Error('not an encrypted image');
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-CBC', iv: fromHex(cipher.iv) as BufferSource },
    await aesKey(cipher, 'decrypt'),
    stored.subarray(MARKER_BYTES.length) as BufferSource,
  );
  return new Uint8Array(plain);
}
