// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { AdminContext, ResourceContextProvider, SimpleForm, testDataProvider } from 'react-admin';
import { afterEach, expect, test, vi } from 'vitest';
import { countWords } from '../../common/words';
import { builtinPermissions } from '../../src/auth/catalog';
import { createI18nProvider } from '../../src/i18n';
import { sections } from '../../src/resources';
import { ChapterInputs } from '../../src/resources/novel/ChapterInputs';
import { fileSize, ImportDialog } from '../../src/resources/novel/ImportDialog';
import { formatWords } from '../../src/resources/novel/shared';
import { apiPaths } from '../../src/routes/build';
import { flattenRoutes, matchRoute, menuFor } from '../../src/routes/table';
import { envelope, stubFetch } from './api-fetch-stub';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function wrap(children: ReactNode, locale: 'zh-CN' | 'en-US' = 'zh-CN') {
  return render(
    <AdminContext dataProvider={testDataProvider()} i18nProvider={createI18nProvider(locale)}>
      <ResourceContextProvider value="novel/chapters">{children}</ResourceContextProvider>
    </AdminContext>,
  );
}

const counter = () => screen.getByTestId('word-count').textContent;

test('the chapter editor counts words as you type, as the API counts them', async () => {
  wrap(
    <SimpleForm defaultValues={{ title: '第一章', content: '' }} toolbar={false}>
      <ChapterInputs />
    </SimpleForm>,
  );
  const editor = screen.getByRole('textbox', { name: '正文' });
  expect(counter()).toBe('0 字 · 0 个字符');
  fireEvent.change(editor, { target: { value: '天色将晚，他推门而出。' } });
  await waitFor(() => expect(counter()).toBe('9 字 · 11 个字符'));
  const mixed = '　　他说：OK，we don’t stop at 3.14 点。\n\nChapter two 第二段';
  fireEvent.change(editor, { target: { value: mixed } });
  await waitFor(() => expect(counter()).toBe(`${countWords(mixed)} 字 · ${mixed.length} 个字符`));
  expect(countWords(mixed)).toBe(14);
  fireEvent.change(editor, { target: { value: '' } });
  await waitFor(() => expect(counter()).toBe('0 字 · 0 个字符'));
});

test('the counter reads in English and groups thousands', async () => {
  wrap(
    <SimpleForm defaultValues={{ title: 'One', content: 'word '.repeat(1234) }} toolbar={false}>
      <ChapterInputs />
    </SimpleForm>,
    'en-US',
  );
  await waitFor(() => expect(counter()).toBe('1,234 words · 6,170 characters'));
});

test('novel word counts read as 万 in Chinese', () => {
  expect(formatWords(3_104_835, 'zh-CN')).toBe('310.5万');
  expect(formatWords(20_000, 'zh-CN')).toBe('2万');
  expect(formatWords(9_999, 'zh-CN')).toBe('9,999');
  expect(formatWords(3_104_835, 'en-US')).toBe('3,104,835');
});

test('the section declares SPEC.md’s routes: hidden pages highlight the review list; the chapters have an API', () => {
  const routes = flattenRoutes(sections);
  const meta = (path: string) => matchRoute(routes, path);
  expect(meta('/novel/review')?.hideInMenu).toBe(false);
  for (const [path, locale] of [
    ['/novel/review/edit', 'resources.novel/review.page.editTitle'],
    ['/novel/review/edit/7', 'resources.novel/review.page.editTitle'],
    ['/novel/chapters/7', 'resources.novel/chapters.page.listTitle'],
    ['/novel/chapters/edit', 'resources.novel/chapters.page.editTitle'],
    ['/novel/chapters/edit/12', 'resources.novel/chapters.page.editTitle'],
  ]) {
    expect(meta(path), path).toMatchObject({ locale, hideInMenu: true, activeMenu: '/novel/review' });
  }
  expect(meta('/novel/category')?.hideInMenu).toBe(false);
  expect(meta('/novel/chapters')).toBeUndefined();
  const menu = menuFor(sections, builtinPermissions('user')).find((s) => s.path === '/novel');
  expect(menu?.items.map((i) => i.path)).toEqual(['/novel/review', '/novel/category']);
  expect(apiPaths(sections)).toMatchObject({
    'novel/review': 'admin/novel/novels',
    'novel/chapters': 'admin/novel/chapters',
    'novel/category': 'admin/novel/columns',
  });
});

test('import: choose a file, preview the split, keep the preface, import — the file goes as multipart', async () => {
  const preview = {
    encoding: 'gb18030',
    chapters: [
      { title: '第一章 少年', words: 1200 },
      { title: '第二章 夜雨', words: 980 },
    ],
    totalWords: 2180,
    skipped: 1,
    preface: { words: 12, excerpt: '《长夜行》 作者：佚名' },
  };
  const seen = stubFetch(
    envelope(preview),
    envelope({ encoding: 'gb18030', added: 3, chapterCount: 3, wordCount: 2192 }),
  );
  const onClose = vi.fn();
  wrap(<ImportDialog novelId={5} onClose={onClose} />);
  const confirm = () => screen.getByRole('button', { name: /^导入 \d+ 章$/ });
  expect(confirm()).toHaveProperty('disabled', true);
  const file = new File([new Uint8Array([0xb5, 0xda, 0xd2, 0xbb])], '长夜行.txt', { type: 'text/plain' });
  const input = document.querySelector('input[type="file"]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [file] } });
  expect(screen.getByText('长夜行.txt（1 KB）')).toBeTruthy();
  expect(fileSize(10 * 1048576)).toBe('10.0 MB');
  fireEvent.click(screen.getByRole('button', { name: '预览拆分结果' }));
  await screen.findByText('第二章 夜雨');
  expect(screen.getByText(/共 2 章，2,180 字（GB18030）/)).toBeTruthy();
  expect(screen.getByText(/有 1 个标题下没有正文/)).toBeTruthy();
  expect(seen[0].url).toBe('/app/admin/novel/novels/5/import/preview');
  expect(seen[0].body).toBeInstanceOf(FormData);
  expect((seen[0].body as FormData).get('file')).toBeInstanceOf(File);
  expect(Object.keys(seen[0].headers).map((h) => h.toLowerCase())).not.toContain('content-type');
  expect(confirm().textContent).toBe('导入 2 章');
  fireEvent.click(screen.getByRole('checkbox', { name: /把第一个标题之前的文字导入为第一章（12 字）/ }));
  expect(confirm().textContent).toBe('导入 3 章');
  fireEvent.click(confirm());
  await waitFor(() => expect(onClose).toHaveBeenCalled());
  expect(seen[1].url).toBe('/app/admin/novel/novels/5/import');
  expect((seen[1].body as FormData).get('keepPreface')).toBe('true');
});

test('import: the server’s refusal shows in the dialog, which stays open', async () => {
  stubFetch(
    envelope(
      { fields: { file: '没有找到章节标题（如「第十二章 …」「第12章」「Chapter 12」）' } },
      40000,
      '请求参数有误',
    ),
  );
  const onClose = vi.fn();
  wrap(<ImportDialog novelId={5} onClose={onClose} />);
  const input = document.querySelector('input[type="file"]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [new File(['正文'], 'a.txt')] } });
  fireEvent.click(screen.getByRole('button', { name: '预览拆分结果' }));
  await screen.findByText('没有找到章节标题（如「第十二章 …」「第12章」「Chapter 12」）');
  expect(onClose).not.toHaveBeenCalled();
});
