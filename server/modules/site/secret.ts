import { lt } from 'drizzle-orm';
import { newToken, sha256 } from '../../core/crypto';
import type { Executor } from '../../db/types';
import { siteSignatures } from './schema';

/**
 * The site's server secret (DESIGN.md decision 11). Requests that move money, register members or speak for a member
 * are signed by the site's server: `Site-Timestamp: <unix seconds>` and `Site-Signature: v1=<hex>`, the hex being
 * HMAC-SHA256 with the secret over the bytes `<timestamp>.<raw body>`. Verifying needs the secret itself, so it is
 * kept encrypted (AES-256-GCM) with the server's key (SITE_SECRET_KEY), never as plain text, and shown only when made.
 * WebCrypto only, so demo mode runs the same code.
 */
export const TIMESTAMP_HEADER = 'Site-Timestamp';
export const SIGNATURE_HEADER = 'Site-Signature';
/** A signed request's timestamp may be this far from the server's clock, either way. */
export const REPLAY_WINDOW_S = 300;

const enc = new TextEncoder();
const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const unb64 = (s: string) => Uint8Array.from(atob(s), (ch) => ch.charCodeAt(0));
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * Without SITE_SECRET_KEY (tests, demo mode: the Node server always has one, from DATA_DIR when not set) the secrets
 * are sealed with a key everyone can read here, as the images' development key is: a database copied from such a
 * setup keeps working, and it protects nothing.
 */
const DEVELOPMENT_KEY = hex(sha256(enc.encode('zhanggui development site secret key')));

const keys = new Map<string, Promise<CryptoKey>>();
function wrappingKey(keyHex: string | undefined): Promise<CryptoKey> {
  const k = keyHex ?? DEVELOPMENT_KEY;
  let key = keys.get(k);
  if (!key) {
    const raw = Uint8Array.from(k.match(/../g)!, (h) => Number.parseInt(h, 16));
    key = crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
    keys.set(k, key);
  }
  return key;
}

/** A new secret for a tenant's site server: 256 random bits. */
export const newSecret = () => `ss_${newToken()}`;

/** The secret as stored: `v1.<iv>.<ciphertext and tag>`, both base64. */
export async function sealSecret(keyHex: string | undefined, secret: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv },
    await wrappingKey(keyHex),
    enc.encode(secret),
  );
  return `v1.${b64(iv)}.${b64(new Uint8Array(sealed))}`;
}

/** The secret of a stored seal, or undefined when it does not open with this key (another SITE_SECRET_KEY). */
export async function openSecret(keyHex: string | undefined, stored: string): Promise<string | undefined> {
  const [v, iv, data] = stored.split('.');
  if (v !== 'v1' || !iv || !data) return undefined;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: unb64(iv) },
      await wrappingKey(keyHex),
      unb64(data),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return undefined;
  }
}

/** The signature's hex: HMAC-SHA256 with the secret over `<timestamp>.<body>` (the body's bytes as received). */
export async function signatureOf(secret: string, timestamp: string, body: Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    enc.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const head = enc.encode(`${timestamp}.`);
  const text = new Uint8Array(head.length + body.length);
  text.set(head);
  text.set(body, head.length);
  return hex(new Uint8Array(await crypto.subtle.sign('HMAC', key, text)));
}

/** Two hex strings of one length compared in time that does not depend on where they differ. */
export function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** How often the signatures past the window are deleted, at most, per database. */
export const SWEEP_EVERY_MS = 10_000;
/** Per database handle, its clock's time when its old signatures were last deleted. */
const sweptAt = new WeakMap<object, number>();

/**
 * Records an accepted signature; false when it was seen before (a replay), by this instance or another. Signatures
 * older than the window on both sides are deleted, at most every SWEEP_EVERY_MS: a timestamp may be up to
 * REPLAY_WINDOW_S ahead, so a signature seen at T can be valid until T + 2 × REPLAY_WINDOW_S, and not after. A row
 * left a little longer changes nothing (a replay of it is refused by its timestamp first), and the site's server sends
 * a signed batch of events every few milliseconds when busy: a delete each would be a statement a batch.
 */
export async function firstSighting(db: Executor, tenant: number, signature: string, now: Date) {
  const at = now.getTime();
  const last = sweptAt.get(db);
  if (last === undefined || at - last >= SWEEP_EVERY_MS || at < last) {
    sweptAt.set(db, at);
    await db
      .delete(siteSignatures)
      .where(lt(siteSignatures.seenAt, new Date(at - 2 * REPLAY_WINDOW_S * 1000)));
  }
  const rows = await db
    .insert(siteSignatures)
    .values({ tenant, signature, seenAt: now })
    .onConflictDoNothing()
    .returning({ tenant: siteSignatures.tenant });
  return rows.length > 0;
}
