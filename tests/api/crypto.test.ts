import { expect, test } from 'vitest';
import { sha256, sha256Hex } from '../../server/core/crypto';

/**
 * Issue #18: a session's token is hashed on every request by a plain-JavaScript SHA-256 (WebCrypto's digest cost more
 * than the rest of a request's own work). It must equal WebCrypto's digest for every length (padding crosses block
 * boundaries at 55/56 and 119/120 bytes) and for any text.
 */
const webDigest = async (bytes: Uint8Array) =>
  new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource));

test('the known vectors of FIPS 180-4', async () => {
  expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  expect(await sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
    '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
  );
});

test('equals WebCrypto for every length up to 300 bytes and for non-ASCII text', async () => {
  for (let n = 0; n <= 300; n++) {
    const bytes = crypto.getRandomValues(new Uint8Array(n));
    expect(sha256(bytes), `length ${n}`).toEqual(await webDigest(bytes));
  }
  const text = '掌柜 token ✓ 😀'.repeat(9);
  expect(sha256(new TextEncoder().encode(text))).toEqual(await webDigest(new TextEncoder().encode(text)));
});
