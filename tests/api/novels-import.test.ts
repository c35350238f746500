import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { countWords } from '../../common/words';
import { startApi, type TestApi } from './harness';
import {
  addChapter,
  CH,
  chapterOrder,
  createNovel,
  expectCountsRight,
  gb18030,
  N,
  okData,
  upload,
} from './novels-helpers';

/** Issue #4: importing a TXT novel — encodings, heading styles, the dry run, appending in one transaction. */
let api: TestApi;
let admin: string;

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
});
afterAll(() => api.close());

const BOOK = [
  '《风起长安》',
  '作者：佚名',
  '',
  '第一章 少年出城',
  '　　天还没亮，他就出了城。',
  '',
  '第2章 夜雨',
  '　　雨下了一整夜。',
  '第十二章：归来',
  '　　他回来了，带着一把剑。',
  'Chapter 13 The Sword',
  'He drew the sword.',
  'CHAPTER XIV',
  'It was over.',
  '',
].join('\r\n');

const titlesOf = (preview: any) => preview.chapters.map((c: any) => c.title);

describe('import', () => {
  test('the dry run splits a UTF-8 file at Chinese and English headings and writes nothing', async () => {
    const n = await createNovel(api, admin, { title: '预览' });
    const preview = await okData(upload(api, admin, `${N}/${n.id}/import/preview`, BOOK));
    expect(preview.encoding).toBe('utf-8');
    expect(titlesOf(preview)).toEqual([
      '第一章 少年出城',
      '第2章 夜雨',
      '第十二章：归来',
      'Chapter 13 The Sword',
      'CHAPTER XIV',
    ]);
    expect(preview.chapters.map((c: any) => c.words)).toEqual([9, 6, 9, 4, 3]);
    expect(preview.totalWords).toBe(31);
    expect(preview.preface).toEqual({
      words: countWords('《风起长安》\n作者：佚名'),
      excerpt: '《风起长安》\n作者：佚名',
    });
    expect(preview.skipped).toBe(0);
    expect((await okData(api.call('GET', `${N}/${n.id}`, { token: admin }))).chapterCount).toBe(0);
  });

  test('a GB18030 file is detected and reads the same as its UTF-8 original', async () => {
    const n = await createNovel(api, admin, { title: 'GB18030' });
    const bytes = gb18030(BOOK);
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow();
    const preview = await okData(upload(api, admin, `${N}/${n.id}/import/preview`, bytes));
    expect(preview.encoding).toBe('gb18030');
    expect(titlesOf(preview)[0]).toBe('第一章 少年出城');
    expect(preview.totalWords).toBe(31);
    const done = await okData(upload(api, admin, `${N}/${n.id}/import`, bytes));
    expect(done).toMatchObject({ encoding: 'gb18030', added: 5, chapterCount: 5, wordCount: 31 });
    const first = await okData(
      api.call(
        'GET',
        `${CH}/${(await okData(api.call('GET', `${CH}?novelId=${n.id}`, { token: admin }))).list[0].id}`,
        {
          token: admin,
        },
      ),
    );
    expect(first.content).toBe('　　天还没亮，他就出了城。');
  });

  test('a UTF-8 file with a BOM and numerals of every style; a table of contents is skipped', async () => {
    const n = await createNovel(api, admin, { title: '标题样式' });
    const text =
      '\uFEFF目录\n第一章 甲\n第二章 乙\n\n第一章 甲\n甲文\n第二章 乙\n乙文\n第１２章 全角\n全角\n第一百零五回 回目\n回目\n' +
      '第三節 節\n節文\nchapter 7: lower\nlower text\nChap. 8\neight\n楔子\n楔子文\n番外一 夏天\n夏天的故事\n' +
      '第一回合，他输了。\n第十二章的内容写在这里，很长很长。\n第三卷 新卷\n卷文\n';
    const preview = await okData(upload(api, admin, `${N}/${n.id}/import/preview`, text));
    expect(titlesOf(preview)).toEqual([
      '第一章 甲',
      '第二章 乙',
      '第１２章 全角',
      '第一百零五回 回目',
      'chapter 7: lower',
      'Chap. 8',
      '楔子',
      '番外一 夏天',
    ]);
    expect(preview.skipped).toBe(2); // the table of contents' two headings have no text
    expect(preview.preface.excerpt).toBe('目录');
    // Prose that starts like a heading, and a volume line, stay in the chapter before them.
    await okData(upload(api, admin, `${N}/${n.id}/import`, text));
    const list = await okData(api.call('GET', `${CH}?novelId=${n.id}&pageSize=20`, { token: admin }));
    const last = await okData(api.call('GET', `${CH}/${list.list.at(-1).id}`, { token: admin }));
    expect(last.content).toBe(
      '夏天的故事\n第一回合，他输了。\n第十二章的内容写在这里，很长很长。\n第三卷 新卷\n卷文',
    );
    // 第三節 is not a chapter heading here (節 is the traditional form): it is text of 第一百零五回.
    const hui = await okData(api.call('GET', `${CH}/${list.list[3].id}`, { token: admin }));
    expect(hui.content).toBe('回目\n第三節 節\n節文');
  });

  test('chapters are appended after the existing ones in one go; the preface is kept only when asked', async () => {
    const n = await createNovel(api, admin, { title: '追加' });
    await addChapter(api, admin, n.id, '已有一章', '已有');
    const r = await okData(upload(api, admin, `${N}/${n.id}/import`, BOOK, { keepPreface: 'true' }));
    expect(r).toMatchObject({ added: 6, chapterCount: 7 });
    const order = await chapterOrder(api, admin, n.id);
    expect(order.slice(0, 3)).toEqual([
      [1, '已有一章'],
      [2, '序'],
      [3, '第一章 少年出城'],
    ]);
    expect(order.at(-1)).toEqual([7, 'CHAPTER XIV']);
    const en = await okData(
      upload(
        api,
        admin,
        `${N}/${n.id}/import`,
        BOOK,
        { keepPreface: 'true' },
        { 'Accept-Language': 'en-US' },
      ),
    );
    expect(en.chapterCount).toBe(13);
    expect((await chapterOrder(api, admin, n.id))[7]).toEqual([8, 'Preface']);
    const novel = await okData(api.call('GET', `${N}/${n.id}`, { token: admin }));
    expect(novel).toMatchObject({ chapterCount: 13, version: 1 });
    await expectCountsRight(api, countWords);
  });

  test('content with quotes, backslashes, braces and the word NULL is stored as it is', async () => {
    const n = await createNovel(api, admin, { title: '转义' });
    const tricky = 'He said "hi" \\ {a,b} NULL\n\'single\' ,{}"';
    await okData(
      upload(api, admin, `${N}/${n.id}/import`, `第一章 "quoted" {x}\n${tricky}\n第二章 NULL\nNULL\n`),
    );
    const list = await okData(api.call('GET', `${CH}?novelId=${n.id}`, { token: admin }));
    expect(list.list.map((c: any) => c.title)).toEqual(['第一章 "quoted" {x}', '第二章 NULL']);
    const one = await okData(api.call('GET', `${CH}/${list.list[0].id}`, { token: admin }));
    expect(one.content).toBe(tricky);
    const two = await okData(api.call('GET', `${CH}/${list.list[1].id}`, { token: admin }));
    expect(two.content).toBe('NULL');
  });

  test('bad files are refused with a clear message and nothing is written', async () => {
    const n = await createNovel(api, admin, { title: '坏文件' });
    const path = `${N}/${n.id}/import`;
    const expectRefused = async (r: Promise<{ body: any }>, msg: string, field = 'file') => {
      const { body } = await r;
      expect(body.code, JSON.stringify(body)).toBe(40000);
      expect(body.data.fields[field]).toBe(msg);
    };
    await expectRefused(
      upload(api, admin, path, '只有正文，没有任何章节标题。\n第二行。'),
      '没有找到章节标题（如「第十二章 …」「第12章」「Chapter 12」）',
    );
    await expectRefused(upload(api, admin, path, '   \n\n'), '文件是空的');
    await expectRefused(
      upload(api, admin, path, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d])),
      '这不是文本文件（含有二进制内容）',
    );
    await expectRefused(
      upload(api, admin, path, `第一章\n${'长'.repeat(200_001)}`),
      '章节「第一章」超过 200000 字符，请检查章节标题是否被识别',
    );
    await expectRefused(
      upload(api, admin, path, BOOK, { keepPreface: 'yes' }),
      '请从以下取值中选择一个：保留（true）、不保留（false）',
      'keepPreface',
    );
    const json = await api.call('POST', path, { token: admin, body: { file: 'x' } });
    expect(json.body.code).toBe(40000);
    expect(json.body.data.fields.file).toBe('请以 multipart/form-data 表单上传 TXT 文件（字段 file）');
    const noFile = new FormData();
    noFile.append('keepPreface', 'true');
    const missing = await api.call('POST', path, { token: admin, raw: noFile });
    expect(missing.body.data.fields.file).toBe('请选择要导入的 TXT 文件');
    // Only a preface, asked to keep: one chapter.
    const preface = await okData(upload(api, admin, path, '没有标题的一段文字。', { keepPreface: 'true' }));
    expect(preface).toMatchObject({ added: 1, chapterCount: 1 });
    expect((await upload(api, admin, `${N}/999999/import/preview`, BOOK)).body.code).toBe(40400);
    await expectCountsRight(api, countWords);
  });

  test('a file above the app body limit is taken (the import has its own limit); above its own limit it is refused', async () => {
    const n = await createNovel(api, admin, { title: '大文件' });
    // 2 MB: twice the app's BODY_LIMIT_KB default.
    const chapter = `${'　　这是一段用来把文件撑大的正文，'.repeat(200)}\n`;
    const parts: string[] = [];
    for (let i = 1; parts.join('').length < 700_000; i++) parts.push(`第${i}章 大\n${chapter}`);
    const text = parts.join('');
    expect(new TextEncoder().encode(text).length).toBeGreaterThan(2_000_000);
    const r = await okData(upload(api, admin, `${N}/${n.id}/import`, text));
    expect(r.added).toBe(parts.length);
    const huge = new Uint8Array(33 * 1024 * 1024).fill(0x61);
    const refused = await upload(api, admin, `${N}/${n.id}/import/preview`, huge);
    expect(refused.body.code).toBe(40000);
    expect(refused.body.data.fields.file).toBe('文件过大（上限 32 MB）');
    // The app's own limit still applies to every other route.
    const big = await api.call('PUT', `${N}/${n.id}`, {
      token: admin,
      body: { description: 'x'.repeat(1_100_000), version: 1 },
    });
    expect(big.body.code).toBe(40000);
    expect(big.body.msg).toContain('请求体过大');
  });
});
