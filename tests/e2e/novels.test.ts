import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gb18030 } from '../api/novels-helpers';
import { api, expectAccessible, launch, screenshot, session, settled, visit } from './browser';

/**
 * Issue #4's novel journey: create a novel through the form, import a TXT file of chapters (previewing the split),
 * reorder two chapters, approve the novel — in both languages with screenshots; then every novel screen under axe
 * in both languages and themes.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

const TXT = [
  '《长夜行》',
  '作者：佚名',
  '',
  '第一章 出城',
  '　　天还没亮，他就出了城。城外的雪下了一整夜。',
  '',
  '第二章 渡口',
  '　　渡口的船夫认出了他，却什么也没说。',
  '',
  '第三章 归来',
  '　　三年后，他回来了，带着一把剑。',
  '',
].join('\r\n');

const TEXT = {
  'zh-CN': {
    create: '新建小说',
    title: '书名 *',
    author: '作者',
    completed: '已完结',
    save: '保存',
    manage: '管理章节',
    import: '导入 TXT',
    choose: '选择文件',
    preview: '预览拆分结果',
    confirmImport: '导入 3 章',
    down: (t: string) => `下移 ${t}`,
    toNovel: '编辑小说信息',
    approve: '审核通过',
    confirm: '确认',
    summary: '共 3 章',
  },
  'en-US': {
    create: 'New novel',
    title: 'Title *',
    author: 'Author',
    completed: 'Completed',
    save: 'Save',
    manage: 'Manage chapters',
    import: 'Import TXT',
    choose: 'Choose a file',
    preview: 'Preview the split',
    confirmImport: 'Import 3 chapter(s)',
    down: (t: string) => `Move ${t} down`,
    toNovel: 'Edit the novel',
    approve: 'Approve',
    confirm: 'Confirm',
    summary: '3 chapter(s)',
  },
} as const;

const chapterTitles = async (novelId: number) =>
  (await api(`/app/admin/novel/chapters?novelId=${novelId}&pageSize=50`)).list.map((c: any) => c.title);

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`novel journey (${locale}): create, import a TXT file, reorder two chapters, approve`, async () => {
    const t = TEXT[locale];
    const stamp = Date.now().toString(36);
    const title = locale === 'zh-CN' ? `长夜行${stamp}` : `The Long Night ${stamp}`;
    const p = await session(browser, { locale });

    await p.goto('/novel');
    await p.waitForURL((u) => u.pathname === '/novel/review');
    await p.getByRole('link', { name: t.create }).first().click();
    await p.waitForURL((u) => u.pathname === '/novel/review/edit');
    await p.getByLabel(t.title).fill(title);
    await p.getByLabel(t.author).fill('佚名');
    await p.getByRole('radio', { name: t.completed }).check();
    await p.getByRole('button', { name: t.save, exact: true }).click();
    await p.waitForURL((u) => /^\/novel\/review\/edit\/\d+$/.test(u.pathname));
    const id = Number(new URL(p.url()).pathname.split('/').pop());
    expect(await api(`/app/admin/novel/novels/${id}`)).toMatchObject({
      title,
      author: '佚名',
      serialStatus: 'completed',
      status: 'pending',
      chapterCount: 0,
    });

    // Import: the file (GB18030, as Chinese Windows tools write it), the dry run's split, then the import.
    await p.getByRole('link', { name: t.manage }).click();
    await p.waitForURL((u) => u.pathname === `/novel/chapters/${id}`);
    await p.getByRole('button', { name: t.import }).first().click();
    const dialog = p.getByRole('dialog');
    await dialog.locator('input[type="file"]').setInputFiles({
      name: 'changyexing.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(gb18030(TXT)),
    });
    await dialog.getByRole('button', { name: t.preview }).click();
    await expect.poll(() => dialog.getByText('第三章 归来').count()).toBe(1);
    expect(await dialog.textContent()).toContain('GB18030');
    await screenshot(p, `novel-journey-import-${locale}`);
    await dialog.getByRole('button', { name: t.confirmImport }).click();
    await expect.poll(() => p.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => p.getByRole('row', { name: /第二章 渡口/ }).count()).toBe(1);
    expect(await api(`/app/admin/novel/novels/${id}`)).toMatchObject({ chapterCount: 3 });

    // Reorder: chapter one goes down, below chapter two.
    await p.getByRole('button', { name: t.down('第一章 出城') }).click();
    await expect.poll(() => chapterTitles(id)).toEqual(['第二章 渡口', '第一章 出城', '第三章 归来']);
    await expect
      .poll(async () => (await p.getByRole('row').nth(1).textContent()) ?? '')
      .toContain('第二章 渡口');
    await screenshot(p, `novel-journey-chapters-${locale}`);

    // Approve from the novel's page: it goes online and back to the list.
    await p.getByRole('link', { name: t.toNovel }).click();
    await p.waitForURL((u) => u.pathname === `/novel/review/edit/${id}`);
    await expect.poll(() => p.getByText(t.summary).count()).toBeGreaterThan(0);
    await p.getByRole('button', { name: t.approve, exact: true }).click();
    await p.getByRole('dialog').getByRole('button', { name: t.confirm }).click();
    await p.waitForURL((u) => u.pathname === '/novel/review');
    const novel = await api(`/app/admin/novel/novels/${id}`);
    expect(novel).toMatchObject({ status: 'online', chapterCount: 3 });
    expect(novel.publishedAt).not.toBeNull();
    await screenshot(p, `novel-journey-list-${locale}`);
    await p.context().close();
  });
}

test('a stale save of a novel is refused with a reload offer; nothing is overwritten', async () => {
  const novel = await api('/app/admin/novel/novels', {
    json: { title: `E2E 冲突 ${Date.now().toString(36)}` },
  });
  const p = await session(browser, { locale: 'en-US' });
  await p.goto(`/novel/review/edit/${novel.id}`);
  const title = p.getByLabel('Title *');
  await expect.poll(() => title.inputValue()).toBe(novel.title);
  await api(`/app/admin/novel/novels/${novel.id}`, { method: 'PUT', json: { title: 'Theirs', version: 1 } });
  await title.fill('Mine');
  await p.getByRole('button', { name: 'Save', exact: true }).click();
  await expect.poll(() => p.getByText('Someone else changed this record').count()).toBeGreaterThan(0);
  expect((await api(`/app/admin/novel/novels/${novel.id}`)).title).toBe('Theirs');
  await p.getByRole('button', { name: 'Reload' }).click();
  await expect.poll(() => title.inputValue()).toBe('Theirs');
  await p.context().close();
});

// Every novel screen in both languages and themes: one logged-in page per language and theme, one test per screen
// and dialog (ten of them under axe in one test outgrew its minute on a busy machine; each now has its own).
for (const locale of ['zh-CN', 'en-US'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    describe(`novel screens are accessible and photographed: ${locale} ${theme}`, () => {
      let p: Page;
      let novel: { id: number };
      let first: { id: number };
      beforeAll(async () => {
        const stamp = Date.now().toString(36);
        const column = await api('/app/admin/novel/columns', { json: { name: `玄幻 ${stamp}` } });
        await api('/app/admin/novel/columns', { json: { name: `东方玄幻 ${stamp}`, parentId: column.id } });
        novel = await api('/app/admin/novel/novels', {
          json: {
            title: `剑起青云 ${stamp}`,
            author: '墨染青衫',
            columnId: column.id,
            tags: ['热血', '升级'],
            description: '一部用于可访问性检查的小说。',
            freeChapters: 1,
          },
        });
        first = await api('/app/admin/novel/chapters', {
          json: {
            novelId: novel.id,
            title: '第一章 山门',
            content: '　　少年在山门前站了很久。\n\n　　风吹过竹林。',
          },
        });
        await api('/app/admin/novel/chapters', {
          json: { novelId: novel.id, title: '第二章 下山', content: '下山。' },
        });
        p = await session(browser, { locale, theme });
      });
      afterAll(() => p?.context().close());
      const screens: [() => string, string][] = [
        [() => '/novel/review', 'novel-review'],
        [() => '/novel/review/edit', 'novel-create'],
        [() => `/novel/review/edit/${novel.id}`, 'novel-edit'],
        [() => `/novel/chapters/${novel.id}`, 'novel-chapters'],
        [() => `/novel/chapters/edit?novelId=${novel.id}`, 'novel-chapter-create'],
        [() => `/novel/chapters/edit/${first.id}`, 'novel-chapter-edit'],
        [() => '/novel/category', 'novel-category'],
        [() => '/novel/category/create', 'novel-category-create'],
      ];
      for (const [path, shot] of screens) {
        test(shot, async () => {
          await visit(p, path());
          await expectAccessible(p);
          await screenshot(p, `${shot}-${locale}-${theme}`);
        });
      }
      test('the import dialog with a previewed split', async () => {
        await visit(p, `/novel/chapters/${novel.id}`);
        await p.getByRole('button', { name: TEXT[locale].import }).first().click();
        const dialog = p.getByRole('dialog');
        await dialog
          .locator('input[type="file"]')
          .setInputFiles({ name: 'novel.txt', mimeType: 'text/plain', buffer: Buffer.from(TXT) });
        await dialog.getByRole('button', { name: TEXT[locale].preview }).click();
        await expect.poll(() => dialog.getByText('第三章 归来').count()).toBe(1);
        await settled(p);
        await expectAccessible(p);
        await screenshot(p, `novel-import-dialog-${locale}-${theme}`);
        await p.keyboard.press('Escape');
      });
      test('the batch delete question', async () => {
        await visit(p, `/novel/chapters/${novel.id}`);
        await p.getByRole('checkbox').nth(1).check();
        await p
          .getByRole('button', { name: locale === 'zh-CN' ? '删除' : 'Delete' })
          .first()
          .click();
        await p.getByRole('dialog').waitFor();
        await settled(p);
        await expectAccessible(p);
        await screenshot(p, `novel-chapters-delete-${locale}-${theme}`);
      });
    });
  }
}
