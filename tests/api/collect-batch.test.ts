import { describe, expect, test } from 'vitest';
import { EMPTY_ITEM, type RemotePage } from '../../server/modules/collect/reader';
import { MAX_BATCH_ITEMS, readPages } from '../../server/modules/collect/run';

/**
 * Issue #49 (collection into PGlite ≥ 500 items/s): a run writes the pages fetched meanwhile together, up to
 * MAX_BATCH_ITEMS items, so a fast site's small pages share one transaction. The page reader, with fetches that
 * answer at once (so no batch waits on its timer): batches in order, at least one page each, a failure after the
 * pages before it, the first page's verdict, an empty page as the last, and no fetch after stop().
 */
const pageOf = (page: number, items: number, pageCount = 1000): RemotePage => ({
  page,
  pageCount,
  total: pageCount * items,
  classes: [],
  items: Array.from({ length: items }, (_, i) => ({
    ...EMPTY_ITEM,
    remoteId: page * 1000 + i,
    title: `t${page}-${i}`,
    typeId: 1,
  })),
});

async function drain(reader: ReturnType<typeof readPages>) {
  const batches: number[][] = [];
  for (;;) {
    const b = await reader.take();
    if (!b.length) return batches;
    batches.push(b.map((f) => f.page));
  }
}

describe('the page reader', () => {
  test('pages waiting are taken together up to MAX_BATCH_ITEMS items, in order, to the last page', async () => {
    const fetched: number[] = [];
    const per = MAX_BATCH_ITEMS / 5;
    const reader = readPages({
      first: 1,
      last: 1000,
      fetch: async (page) => {
        fetched.push(page);
        return pageOf(page, per, 12);
      },
      onFirst: (a) => a.pageCount,
    });
    expect(await drain(reader)).toEqual([
      [1, 2, 3, 4, 5],
      [6, 7, 8, 9, 10],
      [11, 12],
    ]);
    expect(reader.last).toBe(12);
    expect(fetched).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  test('a page larger than a batch is taken alone; an empty page is the last', async () => {
    const sizes = [MAX_BATCH_ITEMS + 50, 10, 10, 0, 10];
    const reader = readPages({
      first: 1,
      last: 10,
      fetch: async (page) => pageOf(page, sizes[page - 1]),
      onFirst: () => 10,
    });
    expect(await drain(reader)).toEqual([[1], [2, 3, 4]]);
  });

  test('a failed fetch is thrown after the pages before it; the first page can refuse the run', async () => {
    const failing = readPages({
      first: 1,
      last: 10,
      fetch: async (page) => {
        if (page === 3) throw new Error('page 3 failed');
        return pageOf(page, 20);
      },
      onFirst: () => 10,
    });
    expect((await failing.take()).map((f) => f.page)).toEqual([1, 2]);
    await expect(failing.take()).rejects.toThrow('page 3 failed');

    const refused = readPages({
      first: 1,
      last: 10,
      fetch: async (page) => pageOf(page, 20),
      onFirst: () => {
        throw new Error('too many pages');
      },
    });
    await expect(refused.take()).rejects.toThrow('too many pages');
  });

  test('after stop() no page more is fetched', async () => {
    let fetches = 0;
    const reader = readPages({
      first: 1,
      last: 1000,
      fetch: async (page) => {
        fetches++;
        return pageOf(page, 20);
      },
      onFirst: () => 1000,
    });
    expect((await reader.take()).length).toBe(MAX_BATCH_ITEMS / 20);
    reader.stop();
    const seen = fetches;
    await new Promise((r) => setTimeout(r, 20));
    expect(fetches).toBeLessThanOrEqual(seen + 1);
    expect(fetches).toBeLessThan(3 * (MAX_BATCH_ITEMS / 20));
  });
});

describe('pages that share an item', () => {
  test('a page sharing a remote id or a title with an earlier one of its batch starts the next batch', async () => {
    const pages: Record<number, RemotePage> = {
      1: pageOf(1, 3),
      2: pageOf(2, 3),
      3: { ...pageOf(3, 3), items: [...pageOf(3, 2).items, { ...pageOf(1, 1).items[0], remoteId: 9999 }] },
      4: { ...pageOf(4, 3), items: [...pageOf(4, 2).items, pageOf(3, 1).items[0]] },
      5: pageOf(5, 3),
    };
    // page 3 repeats page 1's first title (another remote id); page 4 repeats page 3's first remote id and title
    const reader = readPages({
      first: 1,
      last: 5,
      fetch: async (page) => pages[page],
      onFirst: () => 5,
    });
    expect(await drain(reader)).toEqual([[1, 2], [3], [4, 5]]);
  });
});
