/**
 * MacCMS's text as stored, turned into ours, saying what was done. The move reads every string as the bytes MariaDB
 * holds (character_set_results = binary), so nothing is decoded before it is looked at:
 * - valid UTF-8 (utf8 / utf8mb4 tables) is taken as it is, unless it is "mojibake": text that was UTF-8 or GBK,
 *   written through a latin1 connection into a utf8 table (PHP sites of the GBK era and misconfigured `SET NAMES`),
 *   so each byte became a Latin-1 character. Such text holds only characters up to U+00FF with some above U+007F;
 *   its characters taken back as bytes (Windows-1252, MySQL's "latin1") decode as UTF-8, or else as GBK, into text
 *   with Chinese in it: then that decoding is taken and the row's report says which;
 * - bytes that are not UTF-8 (a latin1 or gbk table) are decoded as GBK when every byte pair is GBK and the result
 *   holds Chinese, otherwise as UTF-8 with U+FFFD for each bad sequence, reported;
 * - NUL and other control characters but tab and line ends are removed (PostgreSQL refuses NUL in text).
 */

/** What a text needed: the report's reasons. */
export type TextFix = 'utf8Mojibake' | 'gbkMojibake' | 'gbk' | 'badUtf8' | 'controls';

const utf8Strict = new TextDecoder('utf-8', { fatal: true });
const utf8Lenient = new TextDecoder('utf-8');
const gbkStrict = new TextDecoder('gbk', { fatal: true });

/** Windows-1252's characters in 0x80–0x9F, which MySQL's latin1 maps those bytes to. */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const FROM_CP1252 = new Map<number, number>(
  [...CP1252_HIGH].map((ch, i) => [ch.codePointAt(0) as number, 0x80 + i]),
);

/** CJK ideographs, CJK punctuation and full-width forms: what GBK text is made of beyond ASCII. */
const CHINESE = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]/;
const NOT_CHINESE_HIGH =
  /[^\t\n\r -~\u00b7\u2010-\u203f\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Latin-1-looking text back to the bytes it was read from, or undefined when it holds a character no byte gives. */
function latin1Bytes(s: string): Uint8Array | undefined {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c <= 0xff) out[i] = c;
    else {
      const b = FROM_CP1252.get(c);
      if (b === undefined) return undefined;
      out[i] = b;
    }
  }
  return out;
}

function tryDecode(decoder: TextDecoder, bytes: Uint8Array): string | undefined {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/** GBK's decoding of bytes when it is Chinese text (every non-ASCII character Chinese), else undefined. */
function asGbk(bytes: Uint8Array): string | undefined {
  const s = tryDecode(gbkStrict, bytes);
  return s !== undefined && CHINESE.test(s) && !NOT_CHINESE_HIGH.test(s) ? s : undefined;
}

/** Text that was mojibake, decoded again; undefined when it is not (plain ASCII, real Latin text, Chinese). */
function unMojibake(s: string): { text: string; fix: TextFix } | undefined {
  if (!/[\u0080-\u00ff]/.test(s)) return undefined;
  const bytes = latin1Bytes(s);
  if (!bytes) return undefined;
  const u = tryDecode(utf8Strict, bytes);
  if (u !== undefined && /[\u0100-\uffff]/.test(u)) return { text: u, fix: 'utf8Mojibake' };
  const g = asGbk(bytes);
  return g !== undefined ? { text: g, fix: 'gbkMojibake' } : undefined;
}

/** Bytes (or a string a driver gave) as our text, with what was done to it. */
export function decodeText(raw: Uint8Array | string | null | undefined): { text: string; fixes: TextFix[] } {
  const fixes: TextFix[] = [];
  if (raw === null || raw === undefined) return { text: '', fixes };
  let text: string;
  if (typeof raw === 'string') text = raw;
  else {
    const u = tryDecode(utf8Strict, raw);
    if (u !== undefined) text = u;
    else {
      const g = asGbk(raw);
      if (g !== undefined) {
        text = g;
        fixes.push('gbk');
      } else {
        text = utf8Lenient.decode(raw);
        fixes.push('badUtf8');
      }
    }
  }
  if (!fixes.length) {
    const m = unMojibake(text);
    if (m) {
      text = m.text;
      fixes.push(m.fix);
    }
  }
  const clean = text.replace(CONTROLS, '');
  if (clean.length !== text.length) {
    text = clean;
    fixes.push('controls');
  }
  return { text, fixes };
}

/** A string cut to `max` characters (code points, as varchar counts them); whether it was cut. */
export function cut(s: string, max: number): { text: string; cut: boolean } {
  if (s.length <= max) return { text: s, cut: false };
  const chars = [...s];
  if (chars.length <= max) return { text: s, cut: false };
  return { text: chars.slice(0, max).join(''), cut: true };
}

/** MacCMS's times are unix seconds, 0 for none (and MySQL's zero dates read as 0 or a '0000-…' text). */
export function unixTime(v: unknown): Date | null {
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(n) || n <= 0) return null;
  // Beyond year 2100 is a broken value, not a date.
  if (n > 4_102_444_800) return null;
  return new Date(n * 1000);
}

/** MacCMS's addresses are IPv4 as unsigned integers (ip2long); 0 for none. */
export function ipv4(v: unknown): string {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0 || n > 0xffffffff) return '';
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

export { splitList } from '../../../common/maccms-lists';

/** An image or link as a URL we keep: http(s) or a site path; anything else ('javascript:', data:) is refused. */
export function safeUrl(s: string): boolean {
  if (!s) return true;
  if (/\s/.test(s)) return false;
  if (/^https?:\/\//i.test(s) || s.startsWith('//')) return true;
  return !/^[a-z][a-z0-9+.-]*:/i.test(s);
}
