import { confusablesMap } from 'confusables';

/**
 * Folding for matching: what a word filter and a uniqueness check compare instead of the text as typed,
 * so that look-alike spellings meet. Per character, so a caller can keep where each folded character came from.
 *
 * - Unicode compatibility (NFKC): full-width, circled, super/subscript, mathematical and Roman-numeral letters and
 *   digits become the plain ones (`ⓥ`, `𝐯`, `ᵛ`, `ⅴ` → `v`; `①`, `¹` → `1`; `Ａ` → `a`).
 * - Case folded (lower case).
 * - Default-ignorable code points dropped (zero-width and joiner characters, bidi controls, U+034F, the Hangul
 *   fillers U+115F/U+1160/U+3164/U+FFA0, U+17B4/17B5, Mongolian selectors, variation selectors, tags, BOM), and
 *   combining marks dropped (`\u0301`, `\u20DD`; a Latin, Greek or Cyrillic letter loses its accents).
 * - Look-alike letters of other scripts mapped to Latin (`х` Cyrillic → `x`) with the `confusables` package's
 *   table, taking only its entries for non-ASCII characters outside the CJK, kana, bopomofo and Hangul blocks:
 *   that table maps some ideographs to Latin letters (七 → T, 山 → W), which would change what Chinese text means.
 *
 * Nothing maps Chinese characters to other Chinese characters: traditional → simplified stays the comment filter's
 * own step (OpenCC), as before.
 */

const IGNORABLE = /^[\p{Default_Ignorable_Code_Point}\p{M}]$/u;
/** Scripts where a combining mark is an accent on a letter that reads as the bare letter. */
const ACCENTED = /^[\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF\u1E00-\u1FFF]$/u;

/** CJK, kana, bopomofo, Hangul and their compatibility and enclosed forms: never mapped by the confusables table. */
const EAST_ASIAN =
  /[\u1100-\u11FF\u2E80-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA960-\uA97F\uAC00-\uD7FF\uF900-\uFAFF\uFF65-\uFFDC]|[\u{20000}-\u{3FFFF}]/u;

const LOOK_ALIKE = new Map<string, string>();
for (const [ch, base] of confusablesMap)
  if (ch.codePointAt(0)! > 0x7f && !EAST_ASIAN.test(ch) && /^[a-z0-9]$/i.test(base))
    LOOK_ALIKE.set(ch, base.toLowerCase());

const cache = new Map<string, string>();

/** One character (a code point) folded: '' when it is ignorable or a combining mark. */
export function foldChar(ch: string): string {
  let out = cache.get(ch);
  if (out !== undefined) return out;
  out = '';
  if (!IGNORABLE.test(ch)) {
    for (let c of ch.normalize('NFKC').toLowerCase()) {
      if (IGNORABLE.test(c)) continue;
      if (ACCENTED.test(c)) c = c.normalize('NFD').replace(/\p{M}/gu, '');
      out += LOOK_ALIKE.get(c) ?? c;
    }
  }
  if (cache.size < 65_536) cache.set(ch, out);
  return out;
}

/** A text folded for matching (see above): what look-alike spellings of one word have in common. */
export function foldForMatch(text: string): string {
  let out = '';
  for (const ch of text) out += foldChar(ch);
  return out;
}
