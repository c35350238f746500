/**
 * The key and IV of the stored images (GET admin/upload/cipher), fetched once per session and kept in memory
 * only: the cached answer belongs to the token it was fetched with, so a logout or another login never reuses
 * it, and logout drops it (src/api/session.ts). No crypto here, so the login page's modules may import it.
 */
import { request } from '../api/http';
import { getToken } from '../api/storage';

export interface ImageCipher {
  algorithm: 'AES-CBC';
  padding: 'PKCS7';
  marker: string;
  /** Hexadecimal. */
  key: string;
  /** Hexadecimal. */
  iv: string;
  /** The server's upload limit (IMAGE_MAX_BYTES). */
  maxBytes: number;
}

let cached: { token: string | null; answer: Promise<ImageCipher> } | null = null;

/** The session's cipher; concurrent callers share one request, and a failed request is not kept. */
export function getImageCipher(): Promise<ImageCipher> {
  const token = getToken();
  if (cached && cached.token === token) return cached.answer;
  const entry = { token, answer: request<ImageCipher>('admin/upload/cipher', { quiet: true }) };
  cached = entry;
  entry.answer.catch(() => {
    if (cached === entry) cached = null;
  });
  return entry.answer;
}

/** Forget the cipher (logout). */
export function clearImageCipher(): void {
  cached = null;
}
