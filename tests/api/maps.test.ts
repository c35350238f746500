import { expect, test } from 'vitest';
import { entry, memo } from '../../server/core/maps';

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
