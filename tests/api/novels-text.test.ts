import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { countWords } from '../../common/words';
import { decodeText, isHeading, splitChapters } from '../../server/modules/novel/import';
import { gb18030 } from './novels-helpers';

/** Issue #4: the word count shared by the API and the chapter editor, and the TXT split and decoding. */
describe('countWords', () => {
  test.each([
    ['', 0],
    ['   \n\t　', 0],
    ['，。！？、“”《》……——', 0],
    ['天色将晚', 4],
    ['天色将晚，他推门而出。', 9],
    ['Hello, world!', 2],
    ["don't stop", 2],
    ['don’t stop', 2],
    ['e-mail me at 3.14 pm', 5],
    ['end. Next', 2],
    ['他说：OK，我们走吧', 7],
    ['iPhone15很好用', 4],
    ['ひらがなカタカナ', 8],
    ['한국어 텍스트', 6],
    ['Ｈｅｌｌｏ　ｗｏｒｌｄ', 2],
    ['Привет мир', 2],
    ['𠀀𠀁 extension B', 4],
    ['café naïve', 2],
    ['第12章', 3],
    ['〇一二', 3],
  ])('%j counts %i', (text, words) => {
    expect(countWords(text)).toBe(words);
  });

  test('every Chinese character is one word, whatever surrounds it', () => {
    const han = fc.stringMatching(/^[\u4e00-\u9fa5]{0,40}$/);
    const punct = fc.stringMatching(/^[，。！？\s]{0,5}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(han, punct)), (parts) => {
        const text = parts.map(([h, p]) => h + p).join('');
        const hanCount = parts.reduce((n, [h]) => n + [...h].length, 0);
        expect(countWords(text)).toBe(hanCount);
      }),
    );
  });

  test('Latin words separated by spaces are counted one each', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[A-Za-z0-9]{1,12}$/), { maxLength: 50 }), (words) => {
        expect(countWords(words.join(' '))).toBe(words.length);
        expect(countWords(words.join('，'))).toBe(words.length);
      }),
    );
  });

  // Its speed is the novel-import benchmark's to measure (npm run bench -- novel-import): a clock here failed on a
  // busy machine.
  test('a 10 MB text is counted exactly', () => {
    const text = '　　天色将晚，他推门而出。The night was long.\n'.repeat(250_000);
    expect(countWords(text)).toBe(250_000 * 13);
  });
});

describe('headings and the split', () => {
  test.each([
    '第十二章 风起',
    '第12章',
    '第１２章：开始',
    '第一百零五回 林黛玉',
    '第十二章风起云涌',
    '第 3 章 空格',
    '第二十节 小节',
    'Chapter 12 The End',
    'CHAPTER XII',
    'chapter iv: x',
    'Chap. 8',
    '序章',
    '楔子 少年',
    '番外一 夏天',
    'Prologue',
  ])('%j is a heading', (line) => {
    expect(isHeading(line)).toBe(true);
  });

  test.each([
    '',
    '第二卷 风起',
    '这是第十二章的内容',
    '第一回合，他输了。',
    'Chapter did not end',
    'Chapters',
    `第一章 ${'长'.repeat(60)}`,
    '第一百章节课，他睡着了。',
  ])('%j is not a heading', (line) => {
    expect(isHeading(line)).toBe(false);
  });

  test('joining chapters under headings and splitting them again gives them back', () => {
    const chapter = fc.record({
      n: fc.integer({ min: 1, max: 9999 }),
      name: fc.stringMatching(/^[\u4e00-\u9fa5a-z]{0,10}$/),
      body: fc.array(
        fc.stringMatching(/^　　[\u4e00-\u9fa5a-z]([\u4e00-\u9fa5，a-z ]{0,28}[\u4e00-\u9fa5，a-z])?$/),
        {
          minLength: 1,
          maxLength: 5,
        },
      ),
    });
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.array(chapter, { maxLength: 8 }), (preface, chapters) => {
        const safePreface = preface.replace(/[\r\n]/g, ' ').trim();
        fc.pre(!isHeading(safePreface) && chapters.every((c) => c.body.every((l) => !isHeading(l.trim()))));
        const text = [
          safePreface,
          ...chapters.map((c) => `第${c.n}章 ${c.name}\r\n${c.body.join('\r\n')}`),
        ].join('\r\n');
        const split = splitChapters(text);
        expect(split.preface).toBe(safePreface);
        expect(split.chapters.map((c) => c.title)).toEqual(
          chapters.map((c) => `第${c.n}章 ${c.name}`.trim()),
        );
        expect(split.chapters.map((c) => c.content)).toEqual(
          chapters.map((c) => c.body.join('\n').trimEnd()),
        );
        expect(split.chapters.map((c) => c.words)).toEqual(split.chapters.map((c) => countWords(c.content)));
      }),
    );
  });

  test('decoding: UTF-8 (BOM dropped), GB18030 when not UTF-8, UTF-16 by its BOM; NUL means binary', () => {
    const text = '第一章 开始\n正文';
    expect(decodeText(new TextEncoder().encode(text))).toEqual({ text, encoding: 'utf-8' });
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]))).toEqual({
      text,
      encoding: 'utf-8',
    });
    expect(decodeText(gb18030(text))).toEqual({ text, encoding: 'gb18030' });
    const le = new Uint8Array([
      0xff,
      0xfe,
      ...[...text].flatMap((ch) => [ch.charCodeAt(0) & 0xff, ch.charCodeAt(0) >> 8]),
    ]);
    expect(decodeText(le)).toEqual({ text, encoding: 'utf-16le' });
    expect(decodeText(new Uint8Array([0x41, 0x00, 0x42]))).toBeUndefined();
  });
});
