/**
 * A resource site's key (MacCMS's `?key=`): kept apart from the site's URL (`collect_sources.api_key`), answered
 * masked to everyone, sent only to the site, and taken out of whatever a run keeps of the site's words.
 */

/** What every reader of a source sees for a key that is set; sent back unchanged, it keeps the stored key. */
export const KEY_MASK = '******';

/** Query parameters whose value a URL answered to an operator never shows (the key itself never stays in a URL). */
const SECRET_PARAM = /^(key|.*_key|.*token|.*secret|sign|pass(word)?|pwd)$/i;

const queryOf = (url: string) => {
  const q = url.indexOf('?');
  if (q < 0) return null;
  const hash = url.indexOf('#', q);
  return {
    head: url.slice(0, q),
    query: url.slice(q + 1, hash < 0 ? undefined : hash),
    tail: hash < 0 ? '' : url.slice(hash),
  };
};

const decode = (v: string) => {
  try {
    return decodeURIComponent(v.replace(/\+/g, ' '));
  } catch {
    return v;
  }
};

/** The URL without its `key` parameter, and that key (decoded; '' when there is none). The rest is kept as written. */
export function splitKey(url: string): { url: string; key: string } {
  const parts = queryOf(url);
  if (!parts) return { url, key: '' };
  let key = '';
  const kept = parts.query.split('&').filter((pair) => {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    if (name.toLowerCase() !== 'key') return pair !== '';
    key = decode(eq < 0 ? '' : pair.slice(eq + 1));
    return false;
  });
  return { url: `${parts.head}${kept.length ? `?${kept.join('&')}` : ''}${parts.tail}`, key };
}

/** The URL as it is answered: the value of any parameter named like a secret masked. */
export function maskedUrl(url: string): string {
  const parts = queryOf(url);
  if (!parts) return url;
  const query = parts.query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq > 0 && eq < pair.length - 1 && SECRET_PARAM.test(pair.slice(0, eq))
        ? `${pair.slice(0, eq)}=${KEY_MASK}`
        : pair;
    })
    .join('&');
  return `${parts.head}?${query}${parts.tail}`;
}

/** `text` (a site's error message, a failure's detail) with the key, as written or URL-encoded, masked. */
export function withoutKey(text: string, key: string): string {
  if (!key) return text;
  let out = text;
  for (const form of new Set([key, encodeURIComponent(key)])) out = out.split(form).join(KEY_MASK);
  return out;
}
