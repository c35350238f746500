/**
 * bytea as PostgreSQL's text protocol carries it (`\x` and two hex digits a byte), for PGlite, whose own parser reads
 * each byte with `substring` and `parseInt` and whose serializer maps every byte to a string: decoding the domains'
 * 16 KB sketches that way was most of a report's time on PGlite. These walk the text once with lookup tables (Node and the
 * browser alike: demo mode runs the same database).
 */

const NIBBLE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  NIBBLE['0123456789abcdef'.charCodeAt(i)] = i;
  NIBBLE['0123456789ABCDEF'.charCodeAt(i)] = i;
}
const PAIRS = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The bytes of `\x…` text; `fallback` for anything else (the escape format, which PGlite does not send by default). */
export function byteaFromText(text: string, fallback: (text: string) => Uint8Array): Uint8Array {
  if (text.charCodeAt(0) !== 92 || text.charCodeAt(1) !== 120 || text.length % 2 !== 0) return fallback(text);
  const out = new Uint8Array((text.length - 2) / 2);
  for (let i = 0, j = 2; i < out.length; i++, j += 2) {
    const hi = NIBBLE[text.charCodeAt(j)];
    const lo = NIBBLE[text.charCodeAt(j + 1)];
    if (hi === undefined || lo === undefined || hi < 0 || lo < 0) return fallback(text);
    out[i] = (hi << 4) | lo;
  }
  return out;
}

/** `\x…` text of bytes. */
export function byteaToText(bytes: Uint8Array): string {
  let out = '\\x';
  for (let i = 0; i < bytes.length; i++) out += PAIRS[bytes[i]];
  return out;
}
