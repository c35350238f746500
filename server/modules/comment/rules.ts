import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import { Code } from '../../../common/codes';
import {
  type CompiledFilter,
  checkText,
  type FilterModule,
  type FilterOutcome,
  inRanges,
  TRIAL_LIMIT,
} from '../../../common/comment';
import { ApiError, invalidField } from '../../core/errors';
import type { Executor, Tx } from '../../db/types';
import { siteUsers } from '../users/schema';
import { comments, guestbook } from './schema';

/**
 * The filter at work: on a post from the site (`checkPost`), and over past items (`tryRules` for the trial,
 * `applyRules` for the bulk application). The trial and the application run one function (`plan`) on the same
 * rows, so what the trial promises is what the application does.
 */

export const tableOf = (module: FilterModule) => (module === 'comment' ? comments : guestbook);

/** What the rules do to a past item: block hides it, hold sends a shown one back to review, mask rewrites it. */
export interface Planned {
  id: number;
  outcome: FilterOutcome;
  /** The text the rules were applied to (the member's original, when it was masked before). */
  text: string;
  content: string;
  words: string[];
  status: string;
  /** The status it gets (the same when it keeps its own). */
  to: string;
}

/** The past items the rules are tried on: the newest TRIAL_LIMIT that are shown or pending. */
async function pastItems(db: Executor, tenant: number, module: FilterModule, lock = false) {
  const t = tableOf(module);
  const q = db
    .select({ id: t.id, content: t.content, original: t.originalContent, status: t.status })
    .from(t)
    .where(and(eq(t.tenant, tenant), inArray(t.status, ['online', 'pending'])))
    .orderBy(desc(t.createdAt), desc(t.id))
    .limit(TRIAL_LIMIT);
  return lock ? q.for('update') : q;
}

function plan(filter: CompiledFilter, rows: Awaited<ReturnType<typeof pastItems>>): Planned[] {
  return rows.map((r) => {
    const text = r.original ?? r.content;
    const v = checkText(filter, text);
    const to = v.outcome === 'block' ? 'offline' : v.outcome === 'hold' ? 'pending' : r.status;
    return { id: r.id, outcome: v.outcome, text, content: v.content, words: v.words, status: r.status, to };
  });
}

const summary = (planned: Planned[]) => {
  const counts = { checked: planned.length, block: 0, hold: 0, mask: 0, pass: 0 };
  for (const p of planned) counts[p.outcome]++;
  return counts;
};

/** The trial: counts per outcome and up to 20 examples of each outcome but pass. Reads only. */
export async function tryRules(db: Executor, tenant: number, module: FilterModule, filter: CompiledFilter) {
  const planned = plan(filter, await pastItems(db, tenant, module));
  const examples = (['block', 'hold', 'mask'] as const).flatMap((o) =>
    planned
      .filter((p) => p.outcome === o)
      .slice(0, 20)
      .map((p) => ({ id: p.id, outcome: o, text: p.text, content: p.content, words: p.words, to: p.to })),
  );
  return { ...summary(planned), examples };
}

/** The application: the same plan on the same rows (locked), written; answers the trial's counts and how many changed. */
export async function applyRules(
  tx: Tx,
  tenant: number,
  module: FilterModule,
  filter: CompiledFilter,
  now: Date,
) {
  const t = tableOf(module);
  const planned = plan(filter, await pastItems(tx, tenant, module, true));
  const changedIds: number[] = [];
  for (const p of planned) {
    const masked = p.outcome === 'mask';
    const content = masked ? p.content : p.text;
    const current = await tx
      .select({ content: t.content, original: t.originalContent })
      .from(t)
      .where(eq(t.id, p.id));
    const wasMasked = current[0].original !== null;
    if (p.to === p.status && content === current[0].content && masked === wasMasked) continue;
    await tx
      .update(t)
      .set({
        status: p.to as any,
        content,
        originalContent: masked ? p.text : null,
        version: sql`${t.version} + 1`,
        updatedAt: now,
      })
      .where(eq(t.id, p.id));
    changedIds.push(p.id);
  }
  return { ...summary(planned), changed: changedIds.length, changedIds };
}

/** A post from the site, checked by the filter: answers the status and content to store, or refuses it. */
export async function checkPost(
  tx: Tx,
  at: {
    tenant: number;
    module: FilterModule;
    filter: CompiledFilter;
    userId?: number;
    address: string;
    content: string;
    now: Date;
  },
) {
  const { rules } = at.filter;
  const t = tableOf(at.module);
  if (at.userId !== undefined) {
    // One post at a time per member (the interval is checked against the last one).
    const [u] = await tx
      .select({ status: siteUsers.status })
      .from(siteUsers)
      .where(and(eq(siteUsers.id, at.userId), eq(siteUsers.tenant, at.tenant)))
      .for('update');
    if (!u) throw invalidField('userId', 'field.notFound');
    if (u.status !== 'active') throw new ApiError(Code.FORBIDDEN, 'comment.userBlocked');
  }
  if (!rules.enabled) return { status: 'online' as const, content: at.content, original: null, words: [] };
  if (rules.loginRequired && at.userId === undefined)
    throw new ApiError(Code.FORBIDDEN, 'comment.loginRequired');
  if (inRanges(at.filter.ranges, at.address)) throw new ApiError(Code.FORBIDDEN, 'comment.addressBlocked');
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`zg-post:${at.tenant}:${at.address}`}))`);
  const since = (seconds: number) => new Date(at.now.getTime() - seconds * 1000);
  const tooSoon = async (where: ReturnType<typeof eq>, seconds: number) => {
    if (!seconds) return false;
    const [r] = await tx
      .select({ one: sql`1` })
      .from(t)
      .where(and(where, gt(t.createdAt, since(seconds))))
      .limit(1);
    return !!r;
  };
  if (at.userId !== undefined && (await tooSoon(eq(t.userId, at.userId), rules.userInterval)))
    throw new ApiError(Code.TOO_MANY, 'comment.tooSoon', { seconds: rules.userInterval });
  if (await tooSoon(and(eq(t.tenant, at.tenant), eq(t.address, at.address))!, rules.addressInterval))
    throw new ApiError(Code.TOO_MANY, 'comment.tooSoon', { seconds: rules.addressInterval });
  const v = checkText(at.filter, at.content);
  if (v.outcome === 'block') throw invalidField('content', 'comment.blocked');
  const held = v.outcome === 'hold' || rules.reviewFirst;
  return {
    status: held ? ('pending' as const) : ('online' as const),
    content: v.content,
    original: v.outcome === 'mask' ? at.content : null,
    words: v.words,
  };
}
