/**
 * Lists of whole numbers read as one text (`string_agg` of ids, or of "id:number" pairs): one value to transfer and
 * parse instead of a row each, which node-postgres makes an object of (a million pairs split into strings took
 * about a second).
 */

/**
 * Reads "a,b,…" or "a:x,b:y,…" (whole numbers, as string_agg writes them) digit by digit, calling `each` for every
 * item (`x` 0 when it has none): a million items split into strings took about a second. Stops when `each` answers
 * false, and answers whether it read them all.
 */
export function eachNumbered(text: string, each: (n: number, x: number) => boolean | undefined): boolean {
  let n = 0;
  let x = 0;
  let second = false;
  for (let i = 0; i <= text.length && text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 44;
    if (c === 58)
      second = true; // ':'
    else if (c !== 44) {
      if (second) x = x * 10 + c - 48;
      else n = n * 10 + c - 48;
    } else {
      if (each(n, x) === false) return false;
      n = 0;
      x = 0;
      second = false;
    }
  }
  return true;
}

/** The numbers of "a,b,…" (none for null or ''). */
export function idList(text: string | null): number[] {
  const ids: number[] = [];
  if (text) eachNumbered(text, (n) => void ids.push(n));
  return ids;
}
