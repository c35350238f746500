import { richTextToPlain } from './rich-text';
import { countWords } from './words';

/**
 * A MacCMS article's pages as our novel's chapters, and back. MacCMS v10 keeps an article's pages in one text
 * (`art_content`, HTML) and their titles in another (`art_title`), each joined with `$$$`; v8 ended each page with
 * `[/page]`. The MacCMS move (server/node/maccms) and collection (server/modules/collect) read them with
 * `artChapters`, and the provide API writes ours with `artPagesText`, so the three agree on one notation.
 */

/** MacCMS v10's `$$$`, or v8's `[/page]`. */
export const PAGE_SEPARATOR = /\$\$\$|\[\/page\]/;
export const PAGE_JOIN = '$$$';
/** What a chapter title holds at most (novel_chapters.title). */
export const MAX_CHAPTER_TITLE = 200;

export interface ArtChapter {
  title: string;
  /** Plain text: the page's HTML through the sanitizer, tags gone. */
  content: string;
  words: number;
}

/**
 * The chapters of one article: each non-empty page in order, titled by its `art_title` piece, else by the article's
 * name (with its number when there are several pages). `limits` bound what a remote article can make (pages, and
 * characters a chapter keeps: CHAPTER_MAX_CHARS, what the chapter form accepts).
 */
export function artChapters(
  name: string,
  contentHtml: string,
  titles: string,
  limits: { maxPages: number; maxChars: number } = { maxPages: Infinity, maxChars: Infinity },
) {
  const pages = contentHtml.split(PAGE_SEPARATOR);
  const names = titles.split(PAGE_SEPARATOR);
  const out: ArtChapter[] = [];
  for (let i = 0; i < pages.length && out.length < limits.maxPages; i++) {
    const content = richTextToPlain(pages[i]).slice(0, limits.maxChars);
    if (!content) continue;
    const t = (names[i] ?? '').trim() || (pages.length > 1 ? `${name} (${i + 1})` : name);
    out.push({ title: [...t].slice(0, MAX_CHAPTER_TITLE).join(''), content, words: countWords(content) });
  }
  return out;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"]/g, (ch) => (ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : ch === '>' ? '&gt;' : '&quot;'));

/** A plain-text chapter as MacCMS's article HTML: one paragraph per line, escaped. */
export const chapterHtml = (content: string) =>
  content
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => `<p>${escapeHtml(l)}</p>`)
    .join('');

/**
 * Our chapters in MacCMS's notation (`art_content`, `art_title`): each chapter's HTML and title joined with `$$$`.
 * A `$$$` inside a chapter would split it when read back: it is written as `$$ $`.
 */
export function artPagesText(chapters: readonly { title: string; content: string }[]) {
  const safe = (s: string) => s.replaceAll(PAGE_JOIN, () => '$$ $').replaceAll('[/page]', '[ /page]');
  return {
    content: chapters.map((c) => safe(chapterHtml(c.content))).join(PAGE_JOIN),
    titles: chapters.map((c) => safe(c.title.replace(/\s+/g, ' '))).join(PAGE_JOIN),
  };
}
