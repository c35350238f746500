import type { Identifier, RaRecord, SortPayload } from 'ra-core';
import type { ResourceDataProvider } from '../api/dataProvider';

/** What react-admin keeps of a list in its store (`<resource>.listParams`): the operator's filter, sort and page. */
export interface StoredListParams {
  filter?: Record<string, unknown>;
  sort?: string;
  order?: 'ASC' | 'DESC';
  page?: number;
  perPage?: number;
}

/** The list a review queue is worked from: its fixed filter (the list's `filter` prop) and its default sort. */
export interface ReviewQueue {
  filter?: Record<string, unknown>;
  sort: SortPayload;
}

/**
 * The item after `current` in the list as the operator left it (filter, sort and page from react-admin's store;
 * the queue's fixed filter on top): the one that follows it on its page, the first of the next page when it was the
 * last, or the page's first other item when it is no longer on the page (it left the list meanwhile). Asked before
 * the decision, while `current` is still in the list. Undefined at the end of the queue.
 */
export async function nextInQueue(
  dataProvider: ResourceDataProvider,
  resource: string,
  queue: ReviewQueue,
  stored: StoredListParams | undefined,
  current: Identifier,
): Promise<Identifier | undefined> {
  const filter = { ...(stored?.filter ?? {}), ...(queue.filter ?? {}) };
  const sort: SortPayload = stored?.sort
    ? { field: stored.sort, order: stored.order === 'ASC' ? 'ASC' : 'DESC' }
    : queue.sort;
  const perPage = stored?.perPage ?? 20;
  const page = stored?.page ?? 1;
  const read = async (p: number) =>
    (await dataProvider.getList<RaRecord>(resource, { filter, sort, pagination: { page: p, perPage } })).data;
  const rows = await read(page);
  const here = rows.findIndex((r) => String(r.id) === String(current));
  if (here >= 0 && here + 1 < rows.length) return rows[here + 1].id;
  if (here >= 0) return (await read(page + 1)).find((r) => String(r.id) !== String(current))?.id;
  const other = rows.find((r) => String(r.id) !== String(current));
  if (other) return other.id;
  return page > 1 ? (await read(1)).find((r) => String(r.id) !== String(current))?.id : undefined;
}

/** The keys of the review queue (letters, lower case; pressed outside text fields). */
export const REVIEW_KEYS = { approve: 'a', reject: 'r', next: 'j', help: '?' } as const;

/** True when a key press belongs to what has focus (typing in a field, a menu, a dialog) rather than the page. */
export function isTyping(target: EventTarget | null) {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target.closest('[role="dialog"], [role="listbox"], [role="menu"]')) return true;
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}
