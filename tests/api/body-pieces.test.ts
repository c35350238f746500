import fc from 'fast-check';
import { expect, test } from 'vitest';
import { jsonInPieces } from '../../server/core/body';

/**
 * `jsonInPieces` (core/body.ts): a big body of one list decoded and parsed in pieces. Whatever the bytes, a value it
 * gives is the whole body's (strict UTF-8 decoding, then JSON.parse), with the same answer to "has a \u escape";
 * and a body of one list cut into pieces is actually taken in pieces.
 */
const utf8 = new TextEncoder();
/** The value and escapes of `jsonInPieces`, without its count of pieces. */
const pieced = (bytes: Uint8Array, size: number) => {
  const got = jsonInPieces(bytes, size);
  return got && { value: got.value, escapes: got.escapes };
};
const whole = (bytes: Uint8Array) => {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { value: JSON.parse(text) as unknown, escapes: text.includes('\\u') };
  } catch {
    return undefined;
  }
};

/** Strings that make cuts hard: `},{` inside them, escapes, quotes, backslashes, non-ASCII, a byte order mark. */
const tricky = fc.oneof(
  fc.string(),
  fc.constantFrom('},{', '"},{"', '\\', '\\u0041', '\u00e9', '中文', '\ufeff', '\ud83d\ude00', '"'),
  fc
    .array(fc.constantFrom('},{', '{', '}', '[', ']', ',', '"', '\\', 'a', '\u4e2d', '\ufeff'), {
      maxLength: 12,
    })
    .map((a) => a.join('')),
);
/** Items such as a site sends: objects of strings without braces, numbers and nulls (and a few others). */
const plainText = fc.string().filter((t) => !/[{}]/.test(t));
const plainItem = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(plainText, fc.oneof(plainText, fc.integer(), fc.constant(null))) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), plainText, fc.constant(null)) },
);
/** Any items: strings with `},{` in them, nested lists of objects (`},{` one level down). */
const item = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(tricky, fc.oneof(tricky, fc.integer(), fc.constant(null))) },
  { weight: 1, arbitrary: fc.array(fc.dictionary(fc.string(), tricky, { maxKeys: 3 }), { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.record({ list: fc.array(fc.record({ s: tricky }), { maxLength: 4 }) }) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), tricky, fc.constant(null)) },
);

test('a body of one list, its strings without braces, goes in pieces and gives the whole body’s value', () => {
  let cuttable = 0;
  let cut = 0;
  fc.assert(
    fc.property(
      fc.array(plainItem, { minLength: 2, maxLength: 40 }),
      fc.integer({ min: 8, max: 200 }),
      (list, size) => {
        const bytes = utf8.encode(JSON.stringify({ events: list }));
        const got = jsonInPieces(bytes, size);
        if (bytes.length <= size) {
          expect(got).toBeUndefined();
          return;
        }
        expect(pieced(bytes, size)).toEqual(whole(bytes));
        // Cut wherever a piece would pass the size and an item ends with `}` before the next begins with `{`.
        if (
          bytes.length > 3 * size &&
          list.filter((x) => x && typeof x === 'object' && !Array.isArray(x)).length > 3
        )
          cuttable++;
        if (got && got.pieces > 1) cut++;
      },
    ),
    { numRuns: 400 },
  );
  expect(cut).toBeGreaterThan(cuttable / 2);
});

test('whatever the bytes, a value given is the whole body’s: tricky strings, nesting, mutations, bad UTF-8', () => {
  const mutate = fc.tuple(
    fc.oneof(
      fc.array(item, { minLength: 2, maxLength: 20 }),
      fc.array(plainItem, { minLength: 2, maxLength: 20 }),
    ),
    fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('set', 'cut', 'insert')), {
      minLength: 0,
      maxLength: 3,
    }),
    fc.integer({ min: 8, max: 120 }),
  );
  let taken = 0;
  fc.assert(
    fc.property(mutate, ([list, edits, size]) => {
      let bytes = utf8.encode(JSON.stringify({ events: list }));
      for (const [at, byte, how] of edits) {
        const k = at % bytes.length;
        if (how === 'set') bytes[k] = byte;
        else if (how === 'cut') bytes = bytes.slice(0, k);
        else bytes = new Uint8Array([...bytes.subarray(0, k), byte, ...bytes.subarray(k)]);
      }
      const got = pieced(bytes, size);
      if (got === undefined) return;
      taken++;
      expect(got).toEqual(whole(bytes));
    }),
    { numRuns: 1500 },
  );
  expect(taken).toBeGreaterThan(200); // many bodies, some of them mutated, still went by pieces
});

test('the cases a cut could get wrong are left to the whole body', () => {
  // 'pieces': cut, the same value; 'same': the same value, or none (then the whole body is parsed); 'none': no value.
  const cases: [string, 'pieces' | 'same' | 'none'][] = [
    [`{"events":[{"a":"x"},{"b":1},{"c":2}]}`, 'pieces'],
    // A `},{` inside a string: the piece before it leaves the string open, and does not parse.
    [`{"events":[{"a":"x},{y"},{"b":1},{"c":2}]}`, 'same'],
    [`{"events":[{"b":1},{"a":"x},{y},{z"},{"c":2}]}`, 'same'],
    // One level down: the piece before leaves the item open.
    [`{"events":[{"a":[{"x":1},{"y":2},{"z":3}]},{"b":1}]}`, 'same'],
    [`{"events":[{"b":1},{"a":[{"x":1},{"y":2}]},{"c":2}]}`, 'same'],
    // A byte order mark at the first piece's start is a character (not JSON whitespace): the body is not JSON.
    [`{"events":[\ufeff{"a":1},{"b":2},{"c":3}]}`, 'none'],
    [`{"events":[{"a":1},\ufeff{"b":2},{"c":3}]}`, 'none'],
    // A trailing comma; another key after the list; no end of the list.
    [`{"events":[{"a":1},{"b":2},]}`, 'none'],
    [`{"events":[{"a":1},{"b":2}x}`, 'none'],
    // Not a name and a list at the start.
    [`{"events":x{"a":1},{"b":2}]}`, 'none'],
    [`{xevents":[{"a":1},{"b":2}]}`, 'none'],
    [`{"":[{"a":1},{"b":2}]}`, 'none'],
    [`{"events":[{"a":1},{"b":2}],"x":1}`, 'none'],
    [`{"events":[{"a":1},{"b":2}]}  \n`, 'pieces'],
    [`{"__proto__":[{"a":1},{"b":2},{"c":3}]}`, 'pieces'],
  ];
  for (const [text, how] of cases) {
    const bytes = utf8.encode(text);
    const got = jsonInPieces(bytes, 12);
    if (how === 'none') expect(got, text).toBeUndefined();
    else if (how === 'same')
      expect([undefined, JSON.stringify(whole(bytes))], text).toContain(
        JSON.stringify(got && pieced(bytes, 12)),
      );
    else {
      expect(pieced(bytes, 12), text).toEqual(whole(bytes));
      expect(got?.pieces, text).toBeGreaterThan(1);
      expect(Object.keys(got?.value as object), text).toEqual([Object.keys(JSON.parse(text))[0]]);
    }
  }
  // Invalid UTF-8 inside one piece: no value, so the whole body is refused for its encoding.
  const bad = utf8.encode(`{"events":[{"a":"xx"},{"b":"yy"},{"c":"zz"}]}`);
  bad[bad.indexOf(0x79)] = 0xff;
  expect(jsonInPieces(bad, 12)).toBeUndefined();
  // Small bodies, and bodies of another shape, are not cut.
  expect(jsonInPieces(utf8.encode(`{"events":[{"a":1},{"b":2}]}`))).toBeUndefined();
  expect(jsonInPieces(utf8.encode(`[{"a":1},{"b":2},{"c":3}]`), 4)).toBeUndefined();
  expect(jsonInPieces(utf8.encode(`{ "events":[{"a":1},{"b":2}]}`), 4)).toBeUndefined();
});
