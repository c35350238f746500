import { describe, expect, test } from 'vitest';
import { COUNT_CAP } from '../../server/core/totals';
import { providedTotal } from '../../server/modules/provide/read';

/**
 * Issue #49: the provide API's `total` (and so `pagecount`) beyond COUNT_CAP. Exact up to the cap, as every list's;
 * beyond it a floor a page ahead of each full page, so that MacCMS's collector, which goes on while its page is
 * below the page's `pagecount`, reads to the end rather than stopping at page COUNT_CAP / pagesize.
 */
const pagecount = (total: number, size: number) => Math.ceil(total / size);

describe('the provide total beyond the cap', () => {
  test('an exact total is answered as it is', () => {
    expect(providedTotal({ total: 37, totalExact: true }, 20, 17, 20)).toEqual({
      total: 37,
      totalExact: true,
    });
  });

  test('a full page at or past the cap promises one page more; the first short page is the last', () => {
    const capped = { total: COUNT_CAP, totalExact: false };
    const size = 20;
    const lastCounted = COUNT_CAP / size;
    // the page where the count stops: without the floor its pagecount would say it is the last
    const atCap = providedTotal(capped, (lastCounted - 1) * size, size, size);
    expect(pagecount(atCap.total, size)).toBe(lastCounted + 1);
    expect(atCap.totalExact).toBe(false);
    const deep = providedTotal(capped, (lastCounted + 99) * size, size, size);
    expect(pagecount(deep.total, size)).toBe(lastCounted + 101);
    // a short page ends it: its pagecount is its own page
    const end = providedTotal(capped, (lastCounted + 100) * size, 7, size);
    expect(end.total).toBe((lastCounted + 100) * size + 7);
    expect(pagecount(end.total, size)).toBe(lastCounted + 101);
    // a page past the end says the end was before it
    const past = providedTotal(capped, (lastCounted + 200) * size, 0, size);
    expect(pagecount(past.total, size)).toBe(lastCounted + 200);
  });
});
