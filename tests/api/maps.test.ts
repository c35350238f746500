import { expect, test } from 'vitest';
import { entry, memo, memoFromSecond, metSlots } from '../../server/core/maps';
import { STANDS_FOR } from '../../server/db/stand-in';

test('entry makes a missing value once, in a Map and a WeakMap alike', () => {
  const map = new Map<string, number[]>();
  const weak = new WeakMap<object, number[]>();
  const key = {};
  let made = 0;
  const make = () => {
    made++;
    return [made];
  };
  expect(entry(map, 'a', make)).toBe(entry(map, 'a', make));
  expect(entry(weak, key, make)).toBe(entry(weak, key, make));
  expect(made).toBe(2);
});

test("a stand-in for a database (a request's auditing view) keeps its values under the database itself", () => {
  // A mutating admin request reaches the database through a stand-in (core/audit.ts); what is kept per database
  // handle (kept reports, folds, caches) must be the database's, or each request would start a store of its own.
  const weak = new WeakMap<object, number[]>();
  const db = {};
  const standIn = new Proxy(db, { get: (t, p) => (p === STANDS_FOR ? t : Reflect.get(t, p)) });
  const kept = entry(weak, db, () => [1]);
  expect(entry(weak, standIn, () => [2])).toBe(kept);
  expect(weak.has(standIn)).toBe(false);
});

test('memo computes a key once while kept, and lets every key go once it holds max', () => {
  const computed: string[] = [];
  const m = memo(2, (k: string) => {
    computed.push(k);
    return { k };
  });
  const a = m('a');
  expect(m('a')).toBe(a);
  m('b');
  m('c'); // full at two: a and b go, c is kept
  expect(m('c').k).toBe('c');
  m('a');
  expect(computed).toEqual(['a', 'b', 'c', 'a']);
});

test('memoFromSecond keeps a key from its second time: keys met once take no room from those that come again', () => {
  const computed: string[] = [];
  const m = memoFromSecond(2, (k, kept) => {
    computed.push(`${k}${kept ? '+' : ''}`);
    return { k, kept };
  });
  expect(m('a').kept).toBe(false); // first time: made, not kept
  const a = m('a');
  expect(a.kept).toBe(true); // second: made and kept
  expect(m('a')).toBe(a); // then served as kept
  for (let i = 0; i < 1000; i++) m(`once-${i}`); // a thousand keys met once: none is kept
  expect(m('a')).toBe(a); // so the max of two was never reached and a stays
  m('b');
  m('b');
  m('c');
  m('c'); // kept, the third: the kept ones go first
  expect(m('a')).not.toBe(a);
  expect(computed.filter((c) => !c.startsWith('once'))).toEqual(['a', 'a+', 'b', 'b+', 'c', 'c+', 'a+']);
});

test('memoFromSecond: two keys that share a slot and come in turn are both kept from their second time', () => {
  const byFirst = new Map<number, string>();
  let pair: [string, string] | undefined;
  for (let i = 0; !pair; i++) {
    const k = `1.${i % 200}.${(i >> 8) % 250}.${i % 251}`;
    const [, first] = metSlots(k);
    const other = byFirst.get(first);
    if (other !== undefined && metSlots(other)[0] !== metSlots(k)[0]) pair = [other, k];
    else byFirst.set(first, k);
  }
  const [a, b] = pair;
  const computed: string[] = [];
  const m = memoFromSecond(10, (k, kept) => {
    computed.push(`${k}${kept ? '+' : ''}`);
    return k;
  });
  for (let i = 0; i < 4; i++) {
    m(a);
    m(b);
  }
  expect(computed).toEqual([a, b, `${a}+`, `${b}+`]);
});

test('memoFromSecond keeps nearly every one of 50,000 addresses that come again', () => {
  let kept = 0;
  const m = memoFromSecond(100_000, (_k, k) => {
    if (k) kept++;
    return k;
  });
  const addresses = Array.from({ length: 50_000 }, (_, w) => `1.${w % 200}.${(w >> 8) % 250}.${w % 251}`);
  for (let round = 0; round < 3; round++) for (const a of addresses) m(a);
  // Kept at their second round, or (two of their slots taken by others) at their third: some 98 % at the second.
  expect(kept).toBeGreaterThan(49_000);
  const after = kept;
  for (const a of addresses) m(a);
  expect(kept).toBe(after); // the fourth round finds them all
});
