import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../core/context';
import { invalidField } from '../../core/errors';
import { assertRefs } from '../../core/shared';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';
import { readSettings } from '../sys';
import { movieActresses, movieColumns, moviePlays, movieTagLinks, movieTags, videoSources } from './schema';

/** What a movie links to (a column, tags, actresses, platforms, play entries): the checks and the writing. */

/** The platform keys of the default tenant's settings. */
async function checkPlatforms(c: AppContext, db: Executor, platforms: number[] | undefined) {
  if (!platforms?.length) return;
  const settings = await readSettings(db, c.get('deps').config.defaultTenant);
  const known = new Set((settings.platforms as { key: number }[]).map((p) => Number(p.key)));
  const i = platforms.findIndex((k) => !known.has(k));
  if (i >= 0) throw invalidField(`platforms.${i}`, 'field.notFound');
}

/**
 * The actresses exist (40000 on `actressIds` otherwise). Read by the table's name: the actresses module builds on
 * this one (her movies), so this module does not import its declarations.
 */
async function assertActresses(db: Executor, ids: number[]) {
  const unique = [...new Set(ids)];
  if (!unique.length) return;
  const list = sql.join(
    unique.map((id) => sql`${id}`),
    sql`, `,
  );
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from actresses where id in (${list})`),
  );
  if (Number(row?.n) !== unique.length) throw invalidField('actressIds', 'field.notFound');
}

/** The ids a create or an update body references exist (40000 naming the field otherwise). */
export async function checkRefs(
  c: AppContext,
  db: Executor,
  body: {
    columnId?: number | null;
    tagIds?: number[];
    actressIds?: number[];
    platforms?: number[];
    plays?: { sourceId: number; line?: number }[];
  },
) {
  if (body.columnId != null) await assertRefs(db, movieColumns, movieColumns.id, [body.columnId], 'columnId');
  if (body.tagIds) await assertRefs(db, movieTags, movieTags.id, body.tagIds, 'tagIds');
  if (body.actressIds) await assertActresses(db, body.actressIds);
  if (body.plays?.length) {
    // A line is one source: its episodes play from the same CDN, as a MacCMS line is one player.
    const sourceOfLine = new Map<number, number>();
    body.plays.forEach((p, i) => {
      const line = p.line ?? i;
      const first = sourceOfLine.get(line);
      if (first === undefined) sourceOfLine.set(line, p.sourceId);
      else if (first !== p.sourceId)
        throw invalidField(`plays.${i}.sourceId`, 'movie.lineSources', { line: line + 1 });
    });
  }
  if (body.plays?.length)
    await assertRefs(
      db,
      videoSources,
      videoSources.id,
      body.plays.map((p) => p.sourceId),
      'plays',
    );
  await checkPlatforms(c, db, body.platforms);
}

/** Replaces the links a body carries (tags, actresses, plays); fields not sent are left alone. */
export async function writeLinks(
  db: Executor,
  movieId: number,
  body: {
    tagIds?: number[];
    actressIds?: number[];
    plays?: { sourceId: number; line?: number; name?: string; path: string; sort?: number }[];
  },
) {
  if (body.tagIds) {
    const want = [...new Set(body.tagIds)];
    await db
      .delete(movieTagLinks)
      .where(
        and(
          eq(movieTagLinks.movieId, movieId),
          want.length ? sql`${movieTagLinks.tagId} <> all(${sql.param(want)}::integer[])` : undefined,
        ),
      );
    if (want.length)
      await db
        .insert(movieTagLinks)
        .values(want.map((tagId) => ({ movieId, tagId })))
        .onConflictDoNothing();
  }
  if (body.actressIds) {
    // Only the links that change are written: each one moves an actress's movie count (a shared row).
    const want = [...new Set(body.actressIds)];
    await db
      .delete(movieActresses)
      .where(
        and(
          eq(movieActresses.movieId, movieId),
          want.length ? sql`${movieActresses.actressId} <> all(${sql.param(want)}::integer[])` : undefined,
        ),
      );
    if (want.length)
      await db
        .insert(movieActresses)
        .values(want.map((actressId) => ({ movieId, actressId })))
        .onConflictDoNothing();
  }
  if (body.plays) {
    await db.delete(moviePlays).where(eq(moviePlays.movieId, movieId));
    if (body.plays.length)
      await db.insert(moviePlays).values(
        // Entries sent without a line are each a line of their own, in their order (the form before episodes).
        body.plays.map((p, i) => ({
          movieId,
          sourceId: p.sourceId,
          line: p.line ?? i,
          name: p.name ?? '',
          path: p.path,
          sort: p.sort ?? (p.line === undefined ? 0 : i),
        })),
      );
  }
}
