/**
 * The word count of a text, as Chinese readers and editors count it: every CJK character (Han, kana, Hangul) is a
 * word, every run of other letters or digits is one word (`don't`, `e-mail` and `3.14` included), and punctuation,
 * symbols and spaces count nothing. One function for the API (chapter and novel counts) and the SPA (the counter
 * of the chapter editor), so the number an operator sees while typing is the number that is saved.
 *
 * A loop over UTF-16 code units rather than a regular expression: a 10 MB novel is counted in tens of milliseconds.
 */
export function countWords(text: string): number {
  let words = 0;
  let inWord = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      // ASCII: letters and digits make words; ' - . join two word characters (don't, e-mail, 3.14).
      if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39)) {
        if (!inWord) words++;
        inWord = true;
      } else if (inWord && (c === 0x27 || c === 0x2d || c === 0x2e) && isWordCode(text, i + 1)) {
        // stays in the word
      } else inWord = false;
      continue;
    }
    if (isCjk(c)) {
      words++;
      inWord = false;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      // A supplementary-plane character: CJK extensions B–G count one each; other letters join words.
      const cp = text.codePointAt(i) as number;
      i++;
      if (cp >= 0x20000 && cp <= 0x3134f) {
        words++;
        inWord = false;
      } else if (LETTER.test(String.fromCodePoint(cp))) {
        if (!inWord) words++;
        inWord = true;
      } else inWord = false;
      continue;
    }
    if (c === 0x2019 && inWord && isWordCode(text, i + 1)) continue; // don’t
    if (LETTER.test(text[i])) {
      if (!inWord) words++;
      inWord = true;
    } else inWord = false;
  }
  return words;
}

/** Letters, digits and combining marks of any script (what is left once ASCII and CJK are handled). */
const LETTER = /[\p{L}\p{N}\p{M}]/u;

/** Han (with extension A and compatibility ideographs), kana and Hangul syllables: one word each. */
function isCjk(c: number): boolean {
  return (
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0x3040 && c <= 0x30ff) ||
    (c >= 0xac00 && c <= 0xd7af) ||
    c === 0x3007 // 〇
  );
}

function isWordCode(text: string, i: number): boolean {
  if (i >= text.length) return false;
  const c = text.charCodeAt(i);
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);
  return !isCjk(c) && LETTER.test(text[i]);
}
