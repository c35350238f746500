import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { api, expectAccessible, LOOKS, launch, look, screenshot, session, visit } from './browser';

/**
 * Issue #15's domain journey: paste hostnames with a bad line and a repeat (reported before sending), check them
 * against the store, import the good ones, find them; replace a channel's domain through the preview; see the swap
 * in the history. Then every domain screen under axe and photographed in both languages and themes, switched in
 * place.
 */

let browser: Browser;
let p: Page;
const stamp = Date.now().toString(36);
const channel = `e2e${stamp}`;
const fx: { pool: number; poolName: string; a: number; b: number } = { pool: 0, poolName: '', a: 0, b: 0 };

beforeAll(async () => {
  browser = await launch();
  fx.poolName = `E2E 池 ${stamp}`;
  fx.pool = (await api('/app/admin/domain/pools', { json: { name: fx.poolName, note: 'e2e' } })).id;
  const imp = (text: string, extra: Record<string, unknown>) =>
    api('/app/admin/domain/domains/import', { json: { text, poolId: fx.pool, ...extra } });
  await imp(`a-${stamp}.e2e-domains.com\nc-${stamp}.e2e-domains.com`, {
    status: 'active',
    role: 'channel',
    weight: 3,
    channel,
  });
  await imp(`b-${stamp}.e2e-domains.com\n例子${stamp}.e2e-domains.cn`, { status: 'standby' });
  const list = (await api(`/app/admin/domain/domains?poolId=${fx.pool}&pageSize=100`)).list as any[];
  fx.a = list.find((d) => d.hostname.startsWith('a-')).id;
  fx.b = list.find((d) => d.hostname.startsWith('b-')).id;
  p = await session(browser, { locale: 'zh-CN', theme: 'light' });
});
afterAll(() => browser?.close());

test('import: bad and repeated lines are reported before anything is saved; the good ones are imported', async () => {
  await visit(p, '/domain/storeAdd');
  const paste = p.getByTestId('domain-paste');
  await paste.fill(
    `n1-${stamp}.e2e-domains.com\n*.wild.com\nN1-${stamp}.e2e-domains.com\nn2-${stamp}.e2e-domains.net`,
  );
  const summary = p.getByTestId('domain-paste-summary');
  await expect.poll(() => summary.textContent()).toContain('2 个域名，2 行有问题');
  await expect.poll(() => p.getByRole('cell', { name: '不支持通配符域名（*）' }).count()).toBe(1);
  await expect.poll(() => p.getByRole('cell', { name: '与第 1 行重复' }).count()).toBe(1);
  await p.getByRole('button', { name: '与域名库核对' }).click();
  await expect.poll(() => summary.textContent()).toContain('新域名 2 个');
  await screenshot(p, 'domains-import-report-zh-CN-light');
  await p.getByRole('button', { name: '导入 2 个' }).click();
  await p.getByRole('dialog').getByRole('button', { name: '确认' }).click();
  await p.waitForURL((u) => u.pathname === '/domain/store');
  const found = await api(`/app/admin/domain/domains?q=n1-${stamp}`);
  expect(found.total).toBe(1);
  await p.getByPlaceholder('域名或注册域名开头').fill(`n2-${stamp}`);
  await expect.poll(() => p.getByText(`n2-${stamp}.e2e-domains.net`).count()).toBe(1);
});

test('replace a channel domain: previewed first, then applied in one step and in the history', async () => {
  await visit(p, `/domain/configEdit?channel=${channel}`);
  await p.getByRole('combobox', { name: '要替换的域名' }).click();
  await p.getByRole('option', { name: new RegExp(`a-${stamp}`) }).click();
  const to = p.getByRole('combobox', { name: '接替的备用域名' });
  await to.fill(`b-${stamp}`);
  await p.getByRole('option', { name: `b-${stamp}.e2e-domains.com` }).click();
  await p.getByRole('button', { name: '预览' }).click();
  const changes = p.getByRole('table', { name: '将要变更' });
  await expect.poll(() => changes.getByRole('row').count()).toBeGreaterThan(4);
  // Nothing changed yet
  expect((await api(`/app/admin/domain/domains/${fx.a}`)).channel).toBe(channel);
  await screenshot(p, 'domains-config-preview-zh-CN-light');
  await p.getByRole('button', { name: '执行替换' }).click();
  await p.getByRole('dialog').getByRole('button', { name: '确认' }).click();
  await p.waitForURL((u) => u.pathname === '/domain/config');
  expect(await api(`/app/admin/domain/domains/${fx.b}`)).toMatchObject({
    channel,
    status: 'active',
    weight: 3,
  });
  expect(await api(`/app/admin/domain/domains/${fx.a}`)).toMatchObject({ channel: null, status: 'retired' });
  await visit(p, `/domain/history?filter=${encodeURIComponent(JSON.stringify({ channel }))}`);
  await expect.poll(() => p.getByRole('cell', { name: '替换' }).count()).toBe(2);
});

const screens = (): [string, string, string][] => [
  ['/domain/store', 'domains-store', 'tbody tr'],
  ['/domain/storeAdd', 'domains-storeAdd', '[data-testid="domain-paste"]'],
  ['/domain/carousel', 'domains-carousel', 'table'],
  ['/domain/pool', 'domains-pool', 'table'],
  ['/domain/history', 'domains-history', 'tbody tr'],
  ['/domain/setting', 'domains-setting', 'form'],
  ['/domain/config', 'domains-config', 'table'],
  [`/domain/configEdit?channel=${channel}`, 'domains-configEdit', 'form, [role="combobox"]'],
  [`/domain/store/edit/${fx.b}`, 'domains-store-edit', 'form'],
];

for (const [locale, theme] of LOOKS) {
  // axe once per language and once per theme (zh-CN light, en-US dark); every screen photographed in all four
  const axe = (locale === 'zh-CN') === (theme === 'light');
  test(`every domain screen, ${locale} ${theme}: photographed${axe ? ', accessible' : ''}`, async () => {
    // switched in place: the same session, another language and theme
    await look(p, locale, theme);
    for (const [path, name, ready] of screens()) {
      await visit(p, path, ready);
      if (axe) await expectAccessible(p);
      await screenshot(p, `${name}-${locale}-${theme}`);
    }
  });
}
