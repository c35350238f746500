import { asc, eq, inArray, sql } from 'drizzle-orm';
import { notFound } from '../../core/errors';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';
import { novelChapters, novels } from './schema';

/**
 * The chapter-numbering rules every chapter write follows, in its transaction:
 * - lock the novel first (`lockNovel`), so writers of one novel's chapters take turns and the counts the triggers
 *   keep and the numbers stay consistent;
 * - numbers are 1…n without gaps; a write that changes them goes through negative numbers (`applyNumbers`,
 *   `compact`), so the unique (novel_id, number) index never sees two chapters on one number mid-statement.
 */

/** Locks the novels (in id order) for the chapter writes that follow; 40400 when one is missing. */
export async function lockNovels(db: Executor, ids: number[]) {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  if (!unique.length) return [];
  const rows = await db
    .select({ id: novels.id, chapterCount: novels.chapterCount, freeChapters: novels.freeChapters })
    .from(novels)
    .where(inArray(novels.id, unique))
    .orderBy(asc(novels.id))
    .for('update');
  if (rows.length !== unique.length) throw notFound();
  return rows;
}

export async function lockNovel(db: Executor, novelId: number) {
  const [row] = await lockNovels(db, [novelId]);
  return row;
}

/** The next free number of a novel (its chapters are numbered 1…n). */
export async function nextNumber(db: Executor, novelId: number) {
  const [row] = await db
    .select({ n: sql<number>`coalesce(max(${novelChapters.number}), 0)::int` })
    .from(novelChapters)
    .where(eq(novelChapters.novelId, novelId));
  return Number(row.n) + 1;
}

/** Gives chapters of one novel new numbers (`ids[i]` → `numbers[i]`), through negatives; answers how many moved. */
export async function applyNumbers(db: Executor, novelId: number, ids: number[], numbers: number[]) {
  if (!ids.length) return 0;
  const moved = rowsOf(
    await db.execute(sql`
      update novel_chapters c set number = -v.n
      from unnest(${sql.param(ids)}::integer[], ${sql.param(numbers)}::integer[]) as v(id, n)
      where c.id = v.id and c.novel_id = ${novelId} and c.number <> v.n
      returning c.id`),
  ).length;
  if (moved)
    await db.execute(
      sql`update novel_chapters set number = -number where novel_id = ${novelId} and number < 0`,
    );
  return moved;
}

/** Closes the gaps a delete left in the numbers of these novels (1…n again, in the same order). */
export async function compact(db: Executor, novelIds: number[]) {
  if (!novelIds.length) return;
  const ids = sql.param([...new Set(novelIds)]);
  await db.execute(sql`
    with ranked as (
      select id, number, row_number() over (partition by novel_id order by number)::int as n
      from novel_chapters where novel_id = any(${ids}::integer[])
    )
    update novel_chapters c set number = -r.n from ranked r where c.id = r.id and r.number <> r.n`);
  await db.execute(
    sql`update novel_chapters set number = -number where novel_id = any(${ids}::integer[]) and number < 0`,
  );
}

export interface NewChapter {
  title: string;
  content: string;
  words: number;
}

/** Rows per INSERT statement of an import, and characters of content per statement. */
const BATCH_ROWS = 2000;
const BATCH_CHARS = 4_000_000;

/**
 * Appends chapters after the novel's last one (the novel is locked by the caller): a few INSERT … SELECT FROM
 * unnest(arrays) statements rather than one bind parameter per value, so a 10 MB import is a handful of statements
 * (and a handful of count-trigger runs).
 */
export async function appendChapters(db: Executor, novelId: number, chapters: NewChapter[], now: Date) {
  let number = await nextNumber(db, novelId);
  const at = now.toISOString();
  for (let i = 0; i < chapters.length; ) {
    const numbers: number[] = [];
    const titles: string[] = [];
    const contents: string[] = [];
    const words: number[] = [];
    let chars = 0;
    while (i < chapters.length && numbers.length < BATCH_ROWS && (chars < BATCH_CHARS || !numbers.length)) {
      const ch = chapters[i++];
      numbers.push(number++);
      titles.push(ch.title);
      contents.push(ch.content);
      words.push(ch.words);
      chars += ch.content.length;
    }
    await db.execute(sql`
      insert into novel_chapters (novel_id, number, title, content, word_count, created_at, updated_at)
      select ${novelId}::integer, v.n, v.t, v.c, v.w, ${at}::timestamptz, ${at}::timestamptz
      from unnest(${sql.param(numbers)}::integer[], ${sql.param(titles)}::text[], ${sql.param(contents)}::text[],
                  ${sql.param(words)}::integer[]) as v(n, t, c, w)`);
  }
  return chapters.length;
}
