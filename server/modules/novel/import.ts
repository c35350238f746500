import { countWords } from '../../../common/words';

/** The encodings a TXT novel may come in; anything that is not valid UTF-8 (or UTF-16 with a BOM) is GB18030. */
export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'gb18030';

/**
 * The text of an uploaded file: UTF-16 when it starts with a UTF-16 byte-order mark, UTF-8 when the bytes are valid
 * UTF-8 (a BOM is dropped), GB18030 otherwise (a superset of GBK and GB2312, what Chinese Windows tools write).
 * Undefined for a file with NUL characters: a binary file, not text.
 */
export function decodeText(bytes: Uint8Array): { text: string; encoding: TextEncoding } | undefined {
  let encoding: TextEncoding;
  let text: string;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) encoding = 'utf-16le';
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) encoding = 'utf-16be';
  else encoding = 'utf-8';
  if (encoding === 'utf-8') {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      encoding = 'gb18030';
      text = new TextDecoder('gb18030').decode(bytes);
    }
  } else text = new TextDecoder(encoding).decode(bytes);
  if (text.includes('\u0000')) return undefined;
  return { text, encoding };
}

/** Chinese numerals as headings write them (第十二章, 第一百零五回, 第12章, 第１２章, 第壹佰章). */
const NUM = '[0-9０-９零〇一二两三四五六七八九十百千万壹贰叁肆伍陆柒捌玖拾佰仟]+';
/** 第…章 / 回 / 节 / 话, then the chapter's name (with or without a separator). */
const ZH_HEADING = new RegExp(
  `^第[ \\t]*${NUM}[ \\t]*[章回节話话](?:$|[^\\p{L}\\p{N}]|\\p{Script=Han})`,
  'u',
);
/** Named chapters of Chinese novels: a prologue, an epilogue, an extra. */
const ZH_NAMED =
  /^(?:序章|楔子|引子|尾声|終章|终章|后记|番外)(?:$|[\s:：、.．·—\-(（【[]|[一二三四五六七八九十0-9篇])/;
/** Chapter 12, CHAPTER XII, Chap. 3 (Roman numerals I–MMMM), then the chapter's name. */
const EN_HEADING =
  /^chap(?:ter|\.)?[ \t]*(?:\d+|(?=[mdclxvi])m{0,4}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3}))(?:$|[^a-z0-9])/i;
const EN_NAMED = /^(?:prologue|epilogue)(?:$|[^a-z0-9])/i;

/** Longest line taken for a heading: a longer one is a sentence that happens to start like one. */
export const HEADING_MAX_CHARS = 60;

/**
 * True when a line (trimmed) is a chapter heading. A line with a Chinese comma or full stop is prose that happens
 * to start like one ("第一回合，他输了。"): headings do not have them.
 */
export function isHeading(line: string): boolean {
  if (!line || line.length > HEADING_MAX_CHARS || /[，。]/.test(line)) return false;
  return ZH_HEADING.test(line) || ZH_NAMED.test(line) || EN_HEADING.test(line) || EN_NAMED.test(line);
}

export interface SplitChapter {
  title: string;
  content: string;
  words: number;
}

export interface Split {
  /** Text before the first heading (a title page, a blurb), trimmed; '' when there is none. */
  preface: string;
  chapters: SplitChapter[];
  /** Headings with no text under them (a table of contents at the top), left out. */
  skipped: number;
}

/** Removes blank lines at both ends but keeps the first line's indentation (the 　　 of Chinese paragraphs). */
function trimBlankLines(lines: string[]): string {
  let a = 0;
  let b = lines.length;
  while (a < b && !lines[a].trim()) a++;
  while (b > a && !lines[b - 1].trim()) b--;
  return lines
    .slice(a, b)
    .map((l) => l.trimEnd())
    .join('\n');
}

/**
 * Splits a whole novel into chapters at its heading lines (`isHeading`). A chapter's title is its heading line with
 * its spaces tidied; its content is the lines up to the next heading. Headings with nothing under them are left out
 * (a table of contents would otherwise become hundreds of empty chapters) and counted in `skipped`.
 */
export function splitChapters(text: string): Split {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const chapters: SplitChapter[] = [];
  let preface = '';
  let skipped = 0;
  let title: string | undefined;
  let body: string[] = [];
  const flush = () => {
    const content = trimBlankLines(body);
    if (title === undefined) preface = content;
    else if (content) chapters.push({ title, content, words: countWords(content) });
    else skipped++;
    body = [];
  };
  for (const raw of lines) {
    const line = raw.trim();
    if (isHeading(line)) {
      flush();
      title = line.replace(/[\s\u3000]+/g, ' ');
    } else body.push(raw);
  }
  flush();
  return { preface, chapters, skipped };
}
