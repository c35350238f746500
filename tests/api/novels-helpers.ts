import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestApi } from './harness';
import { okData } from './movies-helpers';

export { okData };

export const N = '/app/admin/novel/novels';
export const CH = '/app/admin/novel/chapters';
export const COL = '/app/admin/novel/columns';

let gbTable: Map<string, number[]> | undefined;

/**
 * Encodes text as GB18030 for the import tests (Node's TextEncoder writes UTF-8 only): the table of every
 * two-byte code, read back through TextDecoder('gb18030'). ASCII stays one byte; characters outside the two-byte
 * range are not needed by the tests and throw.
 */
export function gb18030(text: string): Uint8Array {
  if (!gbTable) {
    const bytes: number[] = [];
    for (let lead = 0x81; lead <= 0xfe; lead++)
      for (let trail = 0x40; trail <= 0xfe; trail++) if (trail !== 0x7f) bytes.push(lead, trail);
    const chars = [...new TextDecoder('gb18030').decode(new Uint8Array(bytes))];
    expect(chars.length).toBe(bytes.length / 2);
    gbTable = new Map();
    chars.forEach((ch, i) => {
      if (!gbTable!.has(ch)) gbTable!.set(ch, [bytes[2 * i], bytes[2 * i + 1]]);
    });
  }
  const out: number[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x80) out.push(code);
    else {
      const pair = gbTable.get(ch);
      if (!pair) throw new Error(`no two-byte GB18030 code for ${ch}`);
      out.push(...pair);
    }
  }
  return new Uint8Array(out);
}

/** Posts a file (and form fields) as multipart/form-data. */
export function upload(
  api: TestApi,
  token: string,
  path: string,
  file: Uint8Array | string,
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  const form = new FormData();
  const bytes = typeof file === 'string' ? new TextEncoder().encode(file) : file;
  form.append('file', new Blob([bytes as BlobPart], { type: 'text/plain' }), 'novel.txt');
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return api.call('POST', path, { token, raw: form, headers });
}

export async function createNovel(api: TestApi, token: string, body: Record<string, unknown>) {
  return okData(api.call('POST', N, { token, body }), `create novel ${JSON.stringify(body)}`);
}

export async function addChapter(
  api: TestApi,
  token: string,
  novelId: number,
  title: string,
  content: string,
) {
  return okData(api.call('POST', CH, { token, body: { novelId, title, content } }), `add chapter ${title}`);
}

/** The chapters of a novel in number order: [number, title] pairs. */
export async function chapterOrder(api: TestApi, token: string, novelId: number) {
  const page = await okData(api.call('GET', `${CH}?novelId=${novelId}&pageSize=100`, { token }));
  return page.list.map((c: any) => [c.number, c.title]);
}

/**
 * The invariant behind the novel lists: stored counts equal the real ones, numbers are 1…n without gaps, and each
 * chapter's stored word count is its content's.
 */
export async function expectCountsRight(api: TestApi, countWords: (s: string) => number) {
  const wrong = await api.query(sql`
    select n.id, n.chapter_count, n.word_count,
           (select count(*) from novel_chapters c where c.novel_id = n.id)::int as real_chapters,
           (select coalesce(sum(word_count), 0) from novel_chapters c where c.novel_id = n.id)::int as real_words
    from novels n`);
  expect(
    wrong.filter((r: any) => r.chapter_count !== r.real_chapters || r.word_count !== r.real_words),
  ).toEqual([]);
  const gaps = await api.query(sql`
    select novel_id, array_agg(number order by number) as numbers from novel_chapters group by novel_id
    having min(number) <> 1 or max(number) <> count(*)`); // distinct (the unique index): so 1…n exactly
  expect(gaps).toEqual([]);
  const chapters = await api.query<{ id: number; content: string; word_count: number }>(
    sql`select id, content, word_count from novel_chapters`,
  );
  expect(chapters.filter((c) => countWords(c.content) !== c.word_count).map((c) => c.id)).toEqual([]);
  const columns = await api.query(sql`
    select c.id, c.item_count, (select count(*) from novels n where n.column_id = c.id)::int as real
    from novel_columns c`);
  expect(columns.filter((r: any) => r.item_count !== r.real)).toEqual([]);
}
