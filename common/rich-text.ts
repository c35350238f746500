/**
 * The limited rich text of pop-up notices: a whitelist sanitizer with no DOM, so the same code runs in Node, in the
 * browser (demo mode, and the admin's live preview) and in tests.
 *
 * What comes out is built here, never copied: the input is read as a stream of tags, comments and text; text is
 * decoded and escaped again; of the tags only `p`, `br`, `strong`, `em`, `ul`, `ol`, `li` and `a` are written, in
 * their canonical form, with no attribute but an `a`'s `href` when it is an http(s) address (then with
 * `rel="noopener noreferrer nofollow"` and `target="_blank"`). Any other tag is dropped and its text kept, except
 * the contents of elements that are not text (`script`, `style`, …), which go entirely. Tags are balanced: a
 * closing tag with no matching open one is dropped, an element left open is closed at the end, and a block cannot
 * sit inside an inline element (an open `strong` is closed before a `p`). Whatever the input, the output is
 * well-formed and holds nothing that runs.
 */

export const RICH_TEXT_TAGS = ['p', 'br', 'strong', 'em', 'a', 'ul', 'ol', 'li'] as const;
type Tag = (typeof RICH_TEXT_TAGS)[number];

const ALLOWED = new Set<string>(RICH_TEXT_TAGS);
/** Synonyms written as the allowed tag. */
const ALIASES: Record<string, Tag> = { b: 'strong', i: 'em' };
/** Elements whose contents are not text: dropped with the element. */
const DROP_CONTENT = new Set([
  'script',
  'style',
  'template',
  'textarea',
  'title',
  'iframe',
  'noscript',
  'noembed',
  'noframes',
  'xmp',
  'object',
  'svg',
  'math',
  'select',
]);
const INLINE = new Set<string>(['strong', 'em', 'a']);
const BLOCK = new Set<string>(['p', 'ul', 'ol', 'li']);

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  middot: '·',
  ldquo: '“',
  rdquo: '”',
  lsquo: '‘',
  rsquo: '’',
};

/** Decodes character references (numeric, and a few named ones); anything else stays as written. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});?/gi, (m, ref: string) => {
    if (ref[0] === '#') {
      const code =
        ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
      return String.fromCodePoint(code);
    }
    const named = NAMED[ref.toLowerCase()];
    return named ?? m;
  });
}

export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );
}

/** C0 controls but tab and newline, and DEL: never useful in rich text, and they hide tricks in URLs. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** An `href` worth keeping: an absolute http(s) URL with a host, after decoding and removing what browsers ignore. */
export function safeHref(raw: string): string | undefined {
  // Browsers drop ASCII tab and newlines anywhere in a URL and trim spaces and controls at both ends.
  const value = decodeEntities(raw)
    .replace(/[\t\n\r]/g, '')
    .replace(CONTROLS, '')
    .trim();
  if (!/^https?:\/\/[^\s/?#\\]+/i.test(value) || /\s/.test(value)) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  } catch {
    return undefined;
  }
  return value;
}

interface Token {
  kind: 'text' | 'open' | 'close';
  /** Text (raw, not decoded), or the lower-cased tag name. */
  value: string;
  /** The attribute text of an opening tag. */
  attrs?: string;
  selfClosing?: boolean;
}

/** Splits HTML into text and tags the way a browser's tokenizer broadly does; comments and `<!…>`/`<?…>` go. */
function* tokens(html: string): Generator<Token> {
  let i = 0;
  const n = html.length;
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      yield { kind: 'text', value: html.slice(i) };
      return;
    }
    if (lt > i) yield { kind: 'text', value: html.slice(i, lt) };
    const next = html[lt + 1];
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end < 0 ? n : end + 3;
      continue;
    }
    if (next === '!' || next === '?' || (next === '/' && html[lt + 2] && !/[a-z]/i.test(html[lt + 2]))) {
      // A bogus comment: up to the next `>` (`</>` and `</ x>` are one too).
      const end = html.indexOf('>', lt + 1);
      i = end < 0 ? n : end + 1;
      continue;
    }
    const closing = next === '/';
    const nameStart = lt + (closing ? 2 : 1);
    if (!/[a-z]/i.test(html[nameStart] ?? '')) {
      // `<` not followed by a tag name is text.
      yield { kind: 'text', value: '<' };
      i = lt + 1;
      continue;
    }
    // The tag runs to the first `>` outside a quoted attribute value; a tag cut off by the end is dropped.
    let j = nameStart;
    let quote: string | undefined;
    for (; j < n; j++) {
      const ch = html[j];
      if (quote) {
        if (ch === quote) quote = undefined;
      } else if (ch === '"' || ch === "'") {
        // Only a value's opening quote counts: `a="…"`, not a stray quote in a name.
        if (/=\s*$/.test(html.slice(Math.max(nameStart, j - 8), j))) quote = ch;
      } else if (ch === '>') break;
    }
    if (j >= n) return;
    const inside = html.slice(nameStart, j);
    const name = /^[^\s/>]+/.exec(inside)![0].toLowerCase();
    const rest = inside.slice(name.length);
    i = j + 1;
    if (closing) yield { kind: 'close', value: name };
    else yield { kind: 'open', value: name, attrs: rest, selfClosing: /\/\s*$/.test(rest) };
  }
}

/** The value of `href` among an opening tag's attributes (quoted or not), if any. */
function hrefOf(attrs: string): string | undefined {
  const re = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  for (let m = re.exec(attrs); m; m = re.exec(attrs)) {
    if (m[1].toLowerCase() === 'href') return m[2] ?? m[3] ?? m[4] ?? '';
  }
  return undefined;
}

/** The largest input read (a pop-up's content is limited well below this by the API's schema). */
const MAX_INPUT = 200_000;
/** Nesting deeper than this is flattened (lists in lists in lists…). */
const MAX_DEPTH = 20;

export function sanitizeRichText(html: string): string {
  const input = String(html ?? '').slice(0, MAX_INPUT);
  const out: string[] = [];
  const open: Tag[] = [];
  let dropping: string | undefined;

  const closeTo = (index: number) => {
    while (open.length > index) out.push(`</${open.pop()}>`);
  };

  for (const t of tokens(input)) {
    if (dropping) {
      if (t.kind === 'close' && t.value === dropping) dropping = undefined;
      continue;
    }
    if (t.kind === 'text') {
      out.push(escapeHtml(decodeEntities(t.value).replace(CONTROLS, '')));
      continue;
    }
    if (DROP_CONTENT.has(t.value)) {
      if (t.kind === 'open' && !t.selfClosing) dropping = t.value;
      continue;
    }
    const tag = (ALIASES[t.value] ?? t.value) as Tag;
    if (!ALLOWED.has(tag)) continue;
    if (t.kind === 'close') {
      if (tag === 'br') {
        out.push('<br>'); // `</br>` is a line break to browsers too
        continue;
      }
      const at = open.lastIndexOf(tag);
      if (at >= 0) closeTo(at);
      continue;
    }
    if (tag === 'br') {
      out.push('<br>');
      continue;
    }
    if (BLOCK.has(tag)) {
      // A block closes the inline elements around it (and an open `p`, as a browser does); an `li` closes the
      // previous `li` of its list.
      let keep = open.length;
      while (keep > 0 && (INLINE.has(open[keep - 1]) || open[keep - 1] === 'p')) keep--;
      if (tag === 'li' && open[keep - 1] === 'li') keep--;
      closeTo(keep);
    }
    if (tag === 'a' && open.includes('a')) closeTo(open.lastIndexOf('a')); // no link inside a link
    if (open.length >= MAX_DEPTH) continue;
    if (tag === 'a') {
      const href = safeHref(hrefOf(t.attrs ?? '') ?? '');
      if (!href) continue; // a link without a safe address is its text alone
      out.push(`<a href="${escapeHtml(href)}" rel="noopener noreferrer nofollow" target="_blank">`);
    } else {
      out.push(`<${tag}>`);
    }
    if (t.selfClosing) {
      out.push(`</${tag}>`);
      continue;
    }
    open.push(tag);
  }
  closeTo(0);
  return out.join('');
}

/** The text of sanitized rich text (tags removed, references decoded): for "is it empty?" and for search. */
export function richTextToPlain(html: string): string {
  return decodeEntities(
    sanitizeRichText(html)
      .replace(/<br>|<\/(p|li)>/g, '\n')
      .replace(/<[^>]*>/g, ''),
  )
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
