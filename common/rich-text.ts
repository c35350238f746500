import sanitizeHtml from 'sanitize-html';

/**
 * The limited rich text of pop-up notices, sanitized by `sanitize-html` (htmlparser2 underneath, no DOM), so the
 * same code runs in Node, in the browser (demo mode, and the admin's live preview) and in tests. It is the one
 * package `common/` may import (see tests/ui/layers.test.ts).
 *
 * The library parses the input and writes the output itself: text is decoded and escaped again, tags are balanced
 * (a stray closing tag goes, an element left open is closed), and of the tags only `p`, `br`, `strong`, `em`, `ul`,
 * `ol`, `li` and `a` are written (`b` as `strong`, `i` as `em`), with no attribute but an `a`'s `href` when it is
 * an http(s) address (then with `rel="noopener noreferrer nofollow"` and `target="_blank"`; a link without one is
 * its text alone). Any other tag is dropped and its text kept, except the contents of elements that are not text
 * (`script`, `style`, …), which go entirely.
 */

export const RICH_TEXT_TAGS = ['p', 'br', 'strong', 'em', 'a', 'ul', 'ol', 'li'] as const;

/** C0 controls but tab and newline, and DEL: never useful in rich text, and they hide tricks in URLs. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/**
 * An `href` worth keeping (its value as parsed, references already decoded): an absolute http(s) URL with a host,
 * after removing what browsers ignore.
 */
export function safeHref(raw: string): string | undefined {
  // Browsers drop ASCII tab and newlines anywhere in a URL and trim spaces and controls at both ends.
  const value = raw
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

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...RICH_TEXT_TAGS],
  allowedAttributes: { a: ['href', 'rel', 'target'] },
  allowedSchemes: ['http', 'https'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: [
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
  ],
  selfClosing: ['br'],
  nestingLimit: 20,
  transformTags: {
    b: 'strong',
    i: 'em',
    // A link keeps a safe `href` alone, with rel and target set here; otherwise it becomes a tag not allowed
    // (dropped, its text kept).
    a: (_tag, attribs): sanitizeHtml.Tag => {
      const href = safeHref(attribs.href ?? '');
      return href
        ? { tagName: 'a', attribs: { href, rel: 'noopener noreferrer nofollow', target: '_blank' } }
        : { tagName: 'span', attribs: {} };
    },
  },
  textFilter: (text) => text.replace(CONTROLS, ''),
  parser: { lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true },
};

/** The largest input read (a pop-up's content is limited well below this by the API's schema). */
const MAX_INPUT = 200_000;

/** Elements a block closes when it opens (as a browser's parser does), and the blocks. */
const INLINE = new Set(['strong', 'em', 'a', 'p']);
const BLOCK = new Set(['p', 'ul', 'ol', 'li']);

/**
 * The library's output balanced the way a browser parses it, so that parsing it again gives the same tree: a block
 * closes the inline elements (and the `p`) around it, an `li` the previous `li`, a link an open link; a closing tag
 * that is not open goes, and so does an element left empty. Only the library's canonical tags and escaped text
 * reach here, so a tag is exactly `<name …>` or `</name>`.
 */
function balance(html: string): string {
  const out: string[] = [];
  const open: string[] = [];
  const closeTo = (index: number) => {
    while (open.length > index) {
      const tag = open.pop()!;
      if (out.at(-1)?.startsWith(`<${tag}`)) out.pop();
      else out.push(`</${tag}>`);
    }
  };
  for (const part of html.split(/(<[^>]*>)/)) {
    const m = /^<(\/?)([a-z]+)/.exec(part);
    if (!m) {
      if (part) out.push(part);
      continue;
    }
    const [, closing, tag] = m;
    if (tag === 'br') {
      if (!closing) out.push('<br>');
      continue;
    }
    if (closing) {
      const at = open.lastIndexOf(tag);
      if (at >= 0) closeTo(at);
      continue;
    }
    if (BLOCK.has(tag)) {
      let keep = open.length;
      while (keep > 0 && INLINE.has(open[keep - 1])) keep--;
      if (tag === 'li' && open[keep - 1] === 'li') keep--;
      closeTo(keep);
    }
    if (tag === 'a' && open.includes('a')) closeTo(open.lastIndexOf('a'));
    out.push(part);
    open.push(tag);
  }
  closeTo(0);
  return out.join('');
}

export function sanitizeRichText(html: string): string {
  return balance(sanitizeHtml(String(html ?? '').slice(0, MAX_INPUT), OPTIONS));
}

const ESCAPED: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"' };

/** The text of sanitized rich text (tags removed, references decoded): for "is it empty?" and for search. */
export function richTextToPlain(html: string): string {
  return sanitizeRichText(html)
    .replace(/<br>|<\/(p|li)>/g, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot);/g, (m) => ESCAPED[m])
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
