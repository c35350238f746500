import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  api,
  baseURL,
  expectAccessible,
  LOOKS,
  launch,
  look,
  screenshot,
  sendEvents,
  session,
  visit,
} from './browser';

/**
 * Issue #13's journey: an admin creates an advertiser, a position and a material with an uploaded image, replaces
 * the material's landing link in a batch and rolls it back; the site sends impressions and clicks through the event
 * endpoint, the rollup runs, and the reports show them. Then every ads screen under axe, in both languages and
 * themes (switched in place), with screenshots.
 */

let browser: Browser;
let p: Page;
const stamp = Date.now().toString(36);
const fx = {
  advertiser: `广告主${stamp}`,
  position: `位置${stamp}`,
  key: `e2e_${stamp}`,
  title: `素材${stamp}`,
  url: `https://old-${stamp}.example.com/landing`,
};
// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  browser = await launch();
  p = await session(browser, { locale: 'zh-CN', theme: 'light' });
});
afterAll(() => browser?.close());

/** The table's row that contains `text`. */
const row = (text: string) => p.getByRole('row').filter({ hasText: text });

async function choose(label: string, option: string) {
  await p.getByRole('combobox', { name: label }).click();
  await p.getByRole('option', { name: option, exact: true }).click();
}

let adId = 0;
let positionId = 0;

test('journey: advertiser, position, material with an image; replace a link and roll it back; events in the reports', {
  timeout: 120_000,
}, async () => {
  // advertiser (from the materials list)
  await visit(p, '/ad/list');
  await p.getByRole('button', { name: '广告主' }).click();
  const dialog = p.getByRole('dialog');
  await dialog.getByLabel('名称').fill(fx.advertiser);
  await dialog.getByRole('button', { name: '添加广告主' }).click();
  await expect.poll(() => dialog.getByRole('cell', { name: fx.advertiser, exact: true }).count()).toBe(1);
  await dialog.getByRole('button', { name: '关闭' }).click();

  // position
  await visit(p, '/ad/adplaceedit');
  await p.getByLabel('名称').fill(fx.position);
  await p.getByLabel('标识').fill(fx.key);
  await p.getByRole('button', { name: '保存' }).click();
  await p.waitForURL(/\/ad\/adplaceedit\/\d+$/);
  positionId = Number(p.url().split('/').pop());

  // material with an uploaded image
  await visit(p, '/ad/edit');
  await p.getByLabel('标题').fill(fx.title);
  await p.locator('input[type="file"]').setInputFiles({ name: 'ad.png', mimeType: 'image/png', buffer: PNG });
  await expect.poll(() => p.getByRole('img', { name: fx.title }).count()).toBeGreaterThan(0);
  await p.getByLabel('落地链接').fill('ftp://nope');
  await p.getByRole('button', { name: '保存' }).click();
  await expect.poll(() => p.getByText('应为 http:// 或 https:// 开头的地址').count()).toBeGreaterThan(0);
  await p.getByLabel('落地链接').fill(fx.url);
  await choose('广告位', fx.position);
  await choose('广告主', fx.advertiser);
  await p.getByLabel('价格').fill('10');
  await p.getByRole('button', { name: '保存' }).click();
  await p.waitForURL(/\/ad\/edit\/\d+$/);
  adId = Number(p.url().split('/').pop());
  await screenshot(p, 'ads-journey-material-zh-CN');

  // batch replacement over the list filtered by the landing URL, then its rollback
  await visit(p, '/ad/list');
  await p.getByRole('button', { name: '替换链接' }).first().click();
  await p.waitForURL('**/ad/editBatch');
  await p.getByLabel('查找', { exact: true }).fill(`old-${stamp}`);
  await p.getByLabel('替换为').fill(`new-${stamp}`);
  await p.getByRole('button', { name: '预览' }).click();
  await expect.poll(() => p.getByTestId('preview-row').filter({ hasText: fx.title }).count()).toBe(1);
  await screenshot(p, 'ads-journey-preview-zh-CN');
  await p.getByRole('button', { name: '替换', exact: true }).click();
  await p.getByRole('dialog').getByRole('button', { name: '确认' }).click();
  await expect
    .poll(async () => (await api(`/app/admin/ad/ads/${adId}`)).landingUrl)
    .toBe(`https://new-${stamp}.example.com/landing`);
  const change = p.getByTestId('change-set').filter({ hasText: `old-${stamp}` });
  await change.getByRole('button', { name: '回滚' }).click();
  await p.getByRole('dialog').getByRole('button', { name: '确认' }).click();
  await expect.poll(async () => (await api(`/app/admin/ad/ads/${adId}`)).landingUrl).toBe(fx.url);
  await expect.poll(() => change.getByText(/回滚/).count()).toBeGreaterThan(0);

  // the site reads it, then sends impressions and clicks; the rollup; the reports
  const key =
    (await api('/app/admin/setting/site-key')).key ??
    (await api('/app/admin/setting/site-key/regenerate', { json: {} })).key;
  const time = new Date(Date.now() - 60_000).toISOString();
  const events = Array.from({ length: 30 }, (_, i) => ({
    id: `e2e-ad-${stamp}-${i}`,
    type: i < 24 ? 'ad_impression' : 'ad_click',
    time,
    domain: 'www.example.com',
    path: '/',
    visitor: `adv${i % 6}`,
    ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
    ip: '120.24.78.68',
    object: { type: 'ad', id: adId },
  }));
  let body: any;
  for (let attempt = 0; attempt < 5; attempt++) {
    const k = attempt ? (await api('/app/admin/setting/site-key')).key : key;
    const site = await fetch(new URL(`/app/site/ads?platform=2`, baseURL()), { headers: { 'Site-Key': k } });
    const read = await site.json();
    if (read.code === 40100) continue;
    expect(read.data.positions.find((x: any) => x.key === fx.key).ads[0].id).toBe(adId);
    body = await sendEvents(events);
    if (body.code !== 40100) break;
  }
  expect(body.data.accepted).toBe(30);
  await api('/app/admin/stats/rollup', { json: {} });

  await visit(p, '/ad/report');
  await expect.poll(() => row(fx.position).count()).toBe(1);
  // requests 24, impressions 24, clicks 6, CTR 25%, clickers 6, revenue 0.24
  const cells = (await row(fx.position).getByRole('cell').allInnerTexts()).map((c) => c.split('\n')[0]);
  expect(cells.slice(0, 6)).toEqual(['24', '24', '6', '25.0%', '6', '0.2']);
  await p.getByRole('link', { name: fx.position }).click();
  await p.waitForURL(`**/ad/positon?id=${positionId}`);
  await expect.poll(() => p.getByTestId('totals').count()).toBe(1);
  await visit(p, `/ad/view?id=${adId}`);
  await expect.poll(() => p.getByTestId('totals').innerText()).toContain('24');
});

const SCREENS = (): [string, string][] => [
  ['/ad/list', 'ads-list'],
  [`/ad/edit/${adId}`, 'ads-edit'],
  ['/ad/editBatch', 'ads-editbatch'],
  ['/ad/report', 'ads-report'],
  [`/ad/view?id=${adId}`, 'ads-view'],
  ['/ad/daily', 'ads-daily'],
  [`/ad/advertiser?id=0`, 'ads-advertiser'],
  [`/ad/positon?id=${positionId}`, 'ads-positon'],
  ['/ad/adplacelist', 'ads-adplacelist'],
  [`/ad/adplaceedit/${positionId}`, 'ads-adplaceedit'],
];

// Every ads screen in both languages and themes, switched in place (one login): axe, then a screenshot.
for (const [locale, theme] of LOOKS)
  test(`ads screens are accessible and photographed: ${locale} ${theme}`, {
    timeout: 120_000,
  }, async () => {
    expect(adId).toBeGreaterThan(0);
    await look(p, locale, theme);
    for (const [path, name] of SCREENS()) {
      await visit(p, path, 'table, form');
      await expectAccessible(p);
      await screenshot(p, `${name}-${locale}-${theme}`);
    }
  });
