import { expect, test } from 'vitest';
import { ValidationError } from '../../server/core/errors';
import { checkJsonValue, MAX_JSON_DEPTH } from '../../server/core/input-guard';

/** `checkJsonValue` (core/input-guard.ts): what it refuses, and the field it names. */
const refusal = (value: unknown, opts?: { strings?: boolean }) => {
  try {
    checkJsonValue(value, opts);
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as ValidationError).fields;
  }
};
const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) });

test('names the refused string by its path: keys, array indexes, the value itself', () => {
  expect(refusal({ events: [{ id: 'ok' }, { path: '/x', ua: 'a\u0000b' }] })).toEqual({
    'events.1.ua': { key: 'field.invalid' },
  });
  expect(refusal({ a: { b: ['\ud800'] } })).toEqual({ 'a.b.0': { key: 'field.invalid' } });
  expect(refusal({ a: { 'k\u0000': 1 } })).toEqual({ a: { key: 'field.invalid' } }); // a key: its object
  expect(refusal({ 'k\u0000': 1 })).toEqual({ _: { key: 'field.invalid' } });
  expect(refusal('\udc00')).toEqual({ _: { key: 'field.invalid' } });
  expect(refusal({ ok: ['a', 1, null, true, { fine: '\ud83d\ude00' }] })).toBeNull(); // a pair is fine
});

test('refuses nesting deeper than the limit, naming where it starts, with or without the strings checked', () => {
  for (const strings of [true, false]) {
    expect(refusal(nested(MAX_JSON_DEPTH), { strings })).toBeNull();
    const deep = refusal(nested(MAX_JSON_DEPTH + 1), { strings });
    expect(Object.values(deep ?? {})).toEqual([{ key: 'field.tooDeep' }]);
    expect(Object.keys(deep ?? {})[0]).toBe(Array(MAX_JSON_DEPTH).fill('a').join('.'));
  }
});

test('strings: false leaves the strings to the caller (the body had no \\u escape to make them)', () => {
  expect(refusal({ s: 'a\u0000b' }, { strings: false })).toBeNull();
  expect(refusal({ s: 'a\u0000b' })).not.toBeNull();
});
