// @vitest-environment jsdom
import { describe, expect, test } from 'vitest';
import type { ResourceDataProvider } from '../../src/api/dataProvider';
import { isTyping, nextInQueue } from '../../src/components/reviewQueue';

/** A list of ids 1…n served in pages, recording what each getList asked. */
function listOf(n: number) {
  const asked: any[] = [];
  const ids = Array.from({ length: n }, (_, i) => i + 1);
  const dp = {
    getList: async (_resource: string, params: any) => {
      asked.push(params);
      const { page, perPage } = params.pagination;
      return { data: ids.slice((page - 1) * perPage, page * perPage).map((id) => ({ id })), total: n };
    },
  } as unknown as ResourceDataProvider;
  return { dp, asked };
}

const queue = { filter: { view: 'review' }, sort: { field: 'createdAt', order: 'DESC' as const } };

describe('the next item of a review queue', () => {
  test('is the one after it on its page, with the stored filter and sort under the fixed filter', async () => {
    const { dp, asked } = listOf(10);
    const stored = {
      filter: { q: 'x', view: 'online' },
      sort: 'title',
      order: 'ASC' as const,
      page: 1,
      perPage: 5,
    };
    expect(await nextInQueue(dp, 'movie/review', queue, stored, 3)).toBe(4);
    expect(asked[0]).toEqual({
      filter: { q: 'x', view: 'review' },
      sort: { field: 'title', order: 'ASC' },
      pagination: { page: 1, perPage: 5 },
    });
  });
  test('is the first of the next page after the last of a page', async () => {
    const { dp } = listOf(10);
    expect(await nextInQueue(dp, 'r', queue, { page: 1, perPage: 5 }, 5)).toBe(6);
  });
  test('is the first other item when it is no longer on its page; none at the end', async () => {
    const { dp, asked } = listOf(10);
    expect(await nextInQueue(dp, 'r', queue, undefined, 99)).toBe(1);
    expect(asked[0].sort).toEqual(queue.sort); // nothing stored: the list's default sort
    expect(await nextInQueue(dp, 'r', queue, { page: 2, perPage: 5 }, 10)).toBeUndefined();
    expect(await nextInQueue(listOf(1).dp, 'r', queue, undefined, 1)).toBeUndefined();
  });
});

test('keys typed into a field or a dialog are not shortcuts', () => {
  const input = document.createElement('input');
  const button = document.createElement('button');
  const dialog = document.createElement('div');
  dialog.setAttribute('role', 'dialog');
  const inDialog = document.createElement('button');
  dialog.append(inDialog);
  document.body.append(input, button, dialog);
  expect(isTyping(input)).toBe(true);
  expect(isTyping(inDialog)).toBe(true);
  expect(isTyping(button)).toBe(false);
  expect(isTyping(document.body)).toBe(false);
});
