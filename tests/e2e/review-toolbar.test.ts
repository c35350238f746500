import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { api, LOOKS, launch, screenshot, session, visit } from './browser';

/**
 * Issue #10 §1: movies and novels share one review toolbar, declared per section. Its edit pages in both
 * languages and themes: the toolbar offers the actions the item's status allows, and asks before one runs.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

const TEXT = {
  'zh-CN': { save: '保存', approve: '审核通过', reject: '驳回', cancel: '取消' },
  'en-US': { save: 'Save', approve: 'Approve', reject: 'Reject', cancel: 'Cancel' },
} as const;

for (const [locale, theme] of LOOKS) {
  test(`the review toolbar of a movie and a novel: ${locale} ${theme}`, async () => {
    const t = TEXT[locale];
    const stamp = Date.now().toString(36);
    const movie = await api('/app/admin/movie/movies', {
      json: { title: `E2E toolbar ${stamp}`, description: 'e2e', platforms: [2], duration: 60 },
    });
    const novel = await api('/app/admin/novel/novels', { json: { title: `E2E 工具栏 ${stamp}` } });
    const p = await session(browser, { locale, theme });
    const context = p.context();
    for (const [name, path] of [
      ['movie', `/movie/review/edit/${movie.id}`],
      ['novel', `/novel/review/edit/${novel.id}`],
    ] as const) {
      await visit(p, path);
      const save = p.getByRole('button', { name: t.save, exact: true });
      await save.scrollIntoViewIfNeeded();
      // Pending: approve and reject, nothing else of the workflow.
      await expect.poll(() => p.getByRole('button', { name: t.approve, exact: true }).count()).toBe(1);
      expect(await p.getByRole('button', { name: t.reject, exact: true }).count()).toBe(1);
      await screenshot(p, `review-toolbar-${name}-${locale}-${theme}`);
      await p.getByRole('button', { name: t.reject, exact: true }).click();
      const dialog = p.getByRole('dialog');
      await expect.poll(() => dialog.getByRole('textbox').count()).toBe(1); // the reason
      await screenshot(p, `review-toolbar-${name}-reject-${locale}-${theme}`);
      await dialog.getByRole('button', { name: t.cancel }).click();
      await expect.poll(() => p.getByRole('dialog').count()).toBe(0);
    }
    await context.close();
  });
}
