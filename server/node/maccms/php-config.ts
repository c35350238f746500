/**
 * MacCMS keeps its settings in `application/extra/maccms.php` as `<?php return array ( 'key' => value, … );` (what
 * PHP's var_export writes). This reads exactly that literal, never by running PHP: strings in single or double
 * quotes, integers, decimals, true/false/null, `array (…)` and `[…]` nested, with or without keys. Bounded: the file
 * size, the nesting depth and the number of values; anything else (a function call, a constant, a variable) is an
 * error naming its place.
 */

export type PhpValue = string | number | boolean | null | PhpArray;
export interface PhpArray {
  [key: string]: PhpValue;
}

export const MAX_CONFIG_BYTES = 2 * 1024 * 1024;
const MAX_DEPTH = 16;
const MAX_VALUES = 100_000;

export class PhpConfigError extends Error {}

export function parsePhpConfig(source: string): PhpArray {
  if (source.length > MAX_CONFIG_BYTES) throw new PhpConfigError(`larger than ${MAX_CONFIG_BYTES} bytes`);
  let i = 0;
  let values = 0;
  const fail = (what: string): never => {
    const line = source.slice(0, i).split('\n').length;
    throw new PhpConfigError(`${what} at line ${line}`);
  };
  const skip = () => {
    for (;;) {
      const rest = source.slice(i, i + 2);
      if (/^\s/.test(rest)) i++;
      else if (rest === '//' || rest[0] === '#') {
        const end = source.indexOf('\n', i);
        i = end < 0 ? source.length : end + 1;
      } else if (rest === '/*') {
        const end = source.indexOf('*/', i + 2);
        if (end < 0) fail('an unclosed comment');
        i = end + 2;
      } else return;
    }
  };
  const eat = (token: string) => {
    skip();
    if (source.slice(i, i + token.length).toLowerCase() !== token) fail(`"${token}" expected`);
    i += token.length;
  };
  const str = (): string => {
    const quote = source[i++];
    let out = '';
    for (;;) {
      if (i >= source.length) fail('an unclosed string');
      const ch = source[i++];
      if (ch === quote) return out;
      if (ch !== '\\') {
        out += ch;
        continue;
      }
      const next = source[i++];
      if (quote === "'") out += next === "'" || next === '\\' ? next : `\\${next}`;
      else {
        const esc: Record<string, string> = {
          n: '\n',
          t: '\t',
          r: '\r',
          '"': '"',
          '\\': '\\',
          $: '$',
          '0': '\0',
        };
        out += esc[next] ?? `\\${next}`;
      }
    }
  };
  const value = (depth: number): PhpValue => {
    if (++values > MAX_VALUES) fail('too many values');
    skip();
    const ch = source[i];
    if (ch === "'" || ch === '"') return str();
    const num = /^-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(source.slice(i, i + 40));
    if (num) {
      i += num[0].length;
      return Number(num[0]);
    }
    const word = /^[a-zA-Z_]+/.exec(source.slice(i, i + 16))?.[0].toLowerCase();
    if (word === 'true' || word === 'false' || word === 'null') {
      i += word.length;
      return word === 'true' ? true : word === 'false' ? false : null;
    }
    if (word === 'array' || ch === '[') {
      if (depth >= MAX_DEPTH) fail('arrays nested too deep');
      let close = ']';
      if (word === 'array') {
        i += 5;
        eat('(');
        close = ')';
      } else i++;
      const out: PhpArray = {};
      let next = 0;
      for (;;) {
        skip();
        if (source[i] === close) {
          i++;
          return out;
        }
        const first = value(depth + 1);
        skip();
        if (source.startsWith('=>', i)) {
          i += 2;
          if (typeof first !== 'string' && typeof first !== 'number')
            fail('a key that is not a string or number');
          out[String(first)] = value(depth + 1);
          if (typeof first === 'number' && first >= next) next = first + 1;
        } else out[String(next++)] = first;
        skip();
        if (source[i] === ',') i++;
        else if (source[i] !== close) fail('"," or the end of the array expected');
      }
    }
    return fail('a value PHP would have to run');
  };
  skip();
  if (source.startsWith('<?php', i)) i += 5;
  eat('return');
  const v = value(0);
  skip();
  if (source[i] === ';') i++;
  if (typeof v !== 'object' || v === null) fail('an array expected');
  return v as PhpArray;
}

/** The settings of a MacCMS config that have a home here: site name, keywords, description, statistics code. */
export function siteSettingsOf(config: PhpArray): Record<string, string> {
  const site = config.site;
  if (!site || typeof site !== 'object') return {};
  const pick = (k: string) => {
    const v = (site as PhpArray)[k];
    return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
  };
  const out: Record<string, string> = {};
  const map: [string, string][] = [
    ['site_name', 'siteName'],
    ['site_keywords', 'siteKeywords'],
    ['site_description', 'siteDescription'],
    ['site_tj', 'statisticsCode'],
  ];
  for (const [from, to] of map) {
    const v = pick(from);
    if (v !== undefined) out[to] = v;
  }
  return out;
}
