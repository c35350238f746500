import { copyFileSync, mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, expectAccessible, launch, SCREENSHOTS, screenshot, session, visit } from './browser';

/**
 * The audit log screen (issue #52) in both languages and themes: the list after a few changes (settings with a
 * secret, a notice created and edited, a batch), a row opened to its before and after, the retention dialog and the
 * empty state, each under axe and photographed.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
  await api('/app/admin/sys/updateSetting', { json: { siteName: '掌柜演示站' } });
  await api('/app/admin/sys/updateSetting', {
    json: { siteName: '掌柜影视', provideKey: 'e2e-provide-key' },
  });
  const notice = await api('/app/admin/setting/notices', {
    json: {
      type: 'marquee',
      title: '审计示例公告',
      content: '今晚维护',
      platforms: [2],
      startAt: new Date().toISOString(),
    },
  });
  await api(`/app/admin/setting/notices/${notice.id}`, {
    method: 'PUT',
    json: { title: '审计示例公告（改）', version: notice.version },
  });
  const apps: { id: number }[] = [];
  for (const name of ['审计浏览器 A', '审计浏览器 B'])
    apps.push(
      await api('/app/admin/setting/promotion-apps', {
        json: { name, url: 'https://browser.example/app.apk', os: 'android', platforms: [2] },
      }),
    );
  await api('/app/admin/setting/promotion-apps/batch', {
    json: { action: 'delete', ids: apps.map((a) => a.id) },
  });
});
afterAll(() => browser?.close());

/** The screenshot beside the suite's, and a copy where the audit log's screens are looked at together. */
async function shot(p: Page, name: string) {
  await screenshot(p, name);
  mkdirSync('/tmp/shots/audit-log', { recursive: true });
  copyFileSync(`${SCREENSHOTS}/${name}.png`, `/tmp/shots/audit-log/${name}.png`);
}

const TEXT = {
  'zh-CN': {
    changes: '字段：站点名称, 接口密钥',
    retention: /保留 \d+ 天/,
    empty: '暂无记录',
    before: '修改前',
  },
  'en-US': {
    changes: 'Fields: Site name, API key',
    retention: /Kept \d+ days/,
    empty: 'No entries',
    before: 'Before',
  },
};

for (const locale of ['zh-CN', 'en-US'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    describe(`audit log: ${locale} ${theme}`, () => {
      let p: Page;
      const t = TEXT[locale];
      beforeAll(async () => {
        p = await session(browser, { locale, theme });
      });
      afterAll(() => p?.context().close());

      test('the list, a row opened, the retention dialog', async () => {
        await visit(p, '/setting/audit', 'table tbody tr');
        await expectAccessible(p);
        await shot(p, `audit-list-${locale}-${theme}`);
        await p.getByText(t.changes).first().click();
        await p.getByRole('columnheader', { name: t.before }).waitFor();
        expect(await p.getByText('e2e-provide-key').count()).toBe(0);
        await expectAccessible(p);
        await shot(p, `audit-detail-${locale}-${theme}`);
        await p.getByRole('button', { name: t.retention }).click();
        await p.getByRole('dialog').waitFor();
        await expectAccessible(p);
        await shot(p, `audit-retention-${locale}-${theme}`);
        await p.keyboard.press('Escape');
        await p.getByRole('dialog').waitFor({ state: 'detached' });
        // The pointer rests where the retention button was: a hover colour is no state the screen is checked in.
        await p.mouse.move(0, 0);
      });

      test('the empty state', async () => {
        const filter = encodeURIComponent(JSON.stringify({ recordId: '987654' }));
        await visit(p, `/setting/audit?filter=${filter}`);
        await p.getByText(t.empty).waitFor();
        await expectAccessible(p);
        await shot(p, `audit-empty-${locale}-${theme}`);
      });
    });
  }
}
