import englishMessages from 'ra-language-english';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/en-US';
import serverEn from '../../i18n/server/en-US';
import serverZh from '../../i18n/server/zh-CN';
import zh from '../../i18n/zh-CN';

type Tree = { [key: string]: string | Tree };

/** Every leaf of a message tree as [dotted key, value]. */
function leaves(tree: Tree, prefix = ''): Array<[string, string]> {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [[prefix + key, value] as [string, string]]
      : leaves(value, `${prefix}${key}.`),
  );
}

/** Every object node's dotted key (so a namespace present as {} on one side only is caught too). */
function branches(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [] : [prefix + key, ...branches(value, `${prefix}${key}.`)],
  );
}

const enLeaves = new Map(leaves(en as Tree));
const zhLeaves = new Map(leaves(zh as Tree));
const placeholders = (s: string) => [...new Set([...s.matchAll(/%\{(\w+)\}/g)].map((m) => m[1]))].sort();

describe('message bundles', () => {
  it("have react-admin's shape", () => {
    for (const bundle of [en, zh])
      expect(Object.keys(bundle).sort()).toEqual([
        'http',
        'images',
        'login',
        'ra',
        'report',
        'resources',
        'shell',
      ]);
  });

  it("en-US's ra namespace is ra-language-english's, but for the regex message (its pattern reads [object Object])", () => {
    const { validation, ...rest } = en.ra as typeof englishMessages.ra;
    const { validation: theirs, ...theirRest } = englishMessages.ra;
    expect(rest).toEqual(theirRest);
    expect({ ...validation, regex: theirs.regex }).toEqual(theirs);
    for (const bundle of [en, zh]) expect((bundle.ra as any).validation.regex).not.toContain('%{pattern}');
  });

  it('every en-US key exists in zh-CN', () => {
    expect([...enLeaves.keys()].filter((key) => !zhLeaves.has(key))).toEqual([]);
  });

  it('every zh-CN key exists in en-US', () => {
    expect([...zhLeaves.keys()].filter((key) => !enLeaves.has(key))).toEqual([]);
  });

  it('both bundles have the same nesting', () => {
    expect(branches(zh as Tree).sort()).toEqual(branches(en as Tree).sort());
  });

  it('no zh-CN value is empty (ra.boolean.null is a deliberate blank)', () => {
    const blank = [...zhLeaves].filter(([key, value]) => value.trim() === '' && key !== 'ra.boolean.null');
    expect(blank.map(([key]) => key)).toEqual([]);
  });

  it('zh-CN keeps the placeholders of en-US', () => {
    const differ = [...enLeaves]
      .filter(
        ([key, value]) =>
          zhLeaves.has(key) && placeholders(value).join() !== placeholders(zhLeaves.get(key)!).join(),
      )
      .map(([key]) => key);
    expect(differ).toEqual([]);
  });
});

/** The API's envelope messages: zh-CN's list types the keys, en-US is found by file name, so this holds them equal. */
describe("the API's message bundles", () => {
  const braces = (s: string) => [...new Set([...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort().join();

  it('have the same keys in zh-CN and en-US', () => {
    expect(Object.keys(serverEn).sort()).toEqual(Object.keys(serverZh).sort());
    expect(Object.keys(serverZh).length).toBeGreaterThan(100);
  });

  it('keep the same placeholders, and no value is empty', () => {
    const zhMessages = serverZh as Record<string, string>;
    const enMessages = serverEn as Record<string, string>;
    const differ = Object.keys(zhMessages).filter(
      (k) => braces(zhMessages[k]) !== braces(enMessages[k] ?? ''),
    );
    expect(differ).toEqual([]);
    expect(Object.keys(zhMessages).filter((k) => !zhMessages[k].trim() || !enMessages[k]?.trim())).toEqual(
      [],
    );
  });
});
