import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/types';
import { comments, guestbook } from './schema';

/**
 * What a member's ban does to their posts, and its undo: hide what they posted, and put back exactly what a ban hid.
 * The members module calls them through this module's `memberBan` declaration (index.ts), in the ban's transaction.
 */

type Changed = { id: number; status: string };

/** Hides every shown or pending comment and guestbook entry of a member; answers each one's status before. */
export async function hideAllOf(tx: Executor, userId: number, now: Date) {
  const out: { comments: Changed[]; guestbook: Changed[] } = { comments: [], guestbook: [] };
  for (const [key, table] of [
    ['comments', comments],
    ['guestbook', guestbook],
  ] as const) {
    const before = await tx
      .select({ id: table.id, status: table.status })
      .from(table)
      .where(and(eq(table.userId, userId), inArray(table.status, ['online', 'pending'])))
      .orderBy(table.id)
      .for('update');
    if (before.length)
      await tx
        .update(table)
        .set({ status: 'offline', version: sql`${table.version} + 1`, updatedAt: now })
        .where(
          inArray(
            table.id,
            before.map((r) => r.id),
          ),
        );
    out[key] = before;
  }
  return out;
}

/** Puts back the statuses a ban changed, for the items it hid that are still hidden (answers how many). */
export async function restoreHidden(
  tx: Executor,
  changes: { comments: Changed[]; guestbook: Changed[] },
  now: Date,
) {
  let restored = 0;
  for (const [key, table] of [
    ['comments', comments],
    ['guestbook', guestbook],
  ] as const) {
    for (const status of ['online', 'pending'] as const) {
      const ids = changes[key].filter((c) => c.status === status).map((c) => c.id);
      if (!ids.length) continue;
      const rows = await tx
        .update(table)
        .set({ status, version: sql`${table.version} + 1`, updatedAt: now })
        .where(and(inArray(table.id, ids), eq(table.status, 'offline')))
        .returning({ id: table.id });
      restored += rows.length;
    }
  }
  return restored;
}
