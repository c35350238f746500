import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, expectAccessible, launch, screenshot, sendEvents, session, settled, visit } from './browser';

/**
 * Issue #12's journey: the content site sends events through the public ingestion with the site key, the rollup
 * runs (the admin's POST /app/admin/stats/rollup), and every stats screen shows them: hot keywords with the
 * zero-result one in the demand gap (adopted onto a movie from there), movies and tags with the unseen movie,
 * domains hour by hour, a domain's visits by referrer and channel. Then every screen under axe in both languages
 * and themes, with screenshots.
 */

let browser: Browser;
const stamp = Date.now().toString(36);
const fx = {
  hot: `长安夜行${stamp}`,
  cold: `冷门纪录${stamp}`,
  tag: `热门${stamp}`,
  www: `www-${stamp}.cherry.example`,
  m: `m-${stamp}.cherry.example`,
  found: `仙侠${stamp}`,
  gap: `无此片${stamp}`,
  gap2: `找不到${stamp}`,
};
const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

beforeAll(async () => {
  browser = await launch();
  const column = await api('/app/admin/movie/columns', { json: { name: `统计${stamp}`, sort: 1 } });
  const tag = await api('/app/admin/movie/tags', { json: { name: fx.tag, group: 'mood' } });
  const movie = (title: string) =>
    api('/app/admin/movie/movies', {
      json: { title, columnId: column.id, tagIds: [tag.id], platforms: [2] },
    });
  const hot = await movie(fx.hot);
  const cold = await movie(fx.cold);
  await api('/app/admin/movie/movies/batch', { json: { action: 'approve', ids: [hot.id, cold.id] } });

  // A minute ago, so the events fall on today in any time zone's report of "last 7 days".
  const time = new Date(Date.now() - 60_000).toISOString();
  let n = 0;
  const ev = (over: Record<string, unknown>) => ({
    id: `e2e-${stamp}-${++n}`,
    type: 'pageview',
    time,
    domain: fx.www,
    path: '/',
    visitor: `v${n % 5}`,
    ua: n % 3 ? DESKTOP : PHONE,
    ip: '120.24.78.68',
    ...over,
  });
  const events = [
    ...Array.from({ length: 12 }, () =>
      ev({
        path: `/movie/${hot.id}`,
        object: { type: 'movie', id: hot.id },
        referrer: 'https://www.baidu.com/s?wd=x',
      }),
    ),
    ...Array.from({ length: 4 }, () =>
      ev({ type: 'play', path: `/movie/${hot.id}`, object: { type: 'movie', id: hot.id } }),
    ),
    ...Array.from({ length: 5 }, (_, i) =>
      ev({
        domain: fx.m,
        path: i % 2 ? '/list' : '/',
        referrer: i % 2 ? 'https://www.google.com/' : '',
        channel: 'agent7',
      }),
    ),
    ...Array.from({ length: 6 }, () => ev({ type: 'search', keyword: fx.found, results: 9 })),
    ...Array.from({ length: 3 }, () => ev({ type: 'search', keyword: fx.gap, results: 0 })),
    ...Array.from({ length: 2 }, () => ev({ type: 'search', keyword: fx.gap2, results: 0 })),
  ];
  const body = await sendEvents(events);
  expect(body.data).toMatchObject({ accepted: events.length, duplicates: 0, rejected: [] });
  await api('/app/admin/stats/rollup', { json: {} });
});
afterAll(() => browser?.close());

/** The table's row that contains `text`. */
const row = (p: Page, text: string) => p.getByRole('row').filter({ hasText: text });

const TEXT = {
  'zh-CN': {
    gap: '需求缺口',
    adopt: `把「${fx.gap}」加为别名或标签…`,
    record: '选择内容',
    add: '添加',
    added: `已把「${fx.gap}」加到「${fx.hot}」`,
    zero: '无结果',
    unseen: '本时段无人浏览',
    referrer: '来源',
    channel: '渠道',
    device: '设备',
    desktop: '电脑',
    region: '地区',
    domainOf: `域名：${fx.www}`,
  },
  'en-US': {
    gap: 'Demand gap',
    adopt: `Add “${fx.gap}” as an alias or tag to…`,
    record: 'Which one',
    add: 'Add',
    added: `“${fx.gap}” was added to ${fx.hot}`,
    zero: 'No results',
    unseen: 'Not seen in this period',
    referrer: 'Referrer',
    channel: 'Channel',
    device: 'Device',
    desktop: 'Desktop',
    region: 'Region',
    domainOf: `Domain: ${fx.www}`,
  },
};

test('journey (zh-CN): events in, rollup, every report shows them; the gap keyword is adopted onto a movie', async () => {
  const t = TEXT['zh-CN'];
  const p = await session(browser, { locale: 'zh-CN' });
  await p.goto('/stats');
  await p.waitForURL('**/stats/hotkeyword');
  // hot keywords: the searched ones, the empty one flagged
  await expect.poll(() => row(p, fx.found).count()).toBe(1);
  expect(await row(p, fx.found).getByRole('cell').first().innerText()).toMatch(/^6/);
  expect(await row(p, fx.gap).getByText(t.zero).count()).toBe(1);
  // the demand gap: adopt the empty keyword onto the hot movie
  await p.getByRole('tab', { name: t.gap }).click();
  await p.getByRole('button', { name: t.adopt }).click();
  const dialog = p.getByRole('dialog');
  await dialog.getByRole('combobox', { name: t.record }).fill(fx.hot.slice(0, 4));
  await p.getByRole('option', { name: fx.hot }).click();
  await dialog.getByRole('button', { name: t.add }).click();
  await expect.poll(() => p.getByText(t.added).count()).toBeGreaterThan(0);
  await screenshot(p, 'stats-journey-adopted-zh-CN');

  // movies: views, plays, viewers, play rate; the cold one is unseen
  await visit(p, '/stats/movies');
  await expect.poll(() => row(p, fx.hot).count()).toBe(1);
  const figures = await row(p, fx.hot).getByRole('cell').allInnerTexts();
  expect(figures.map((c) => c.split('\n')[0])).toEqual(['12', '4', '4', '33.3%']); // viewers: the 4 who played
  await p.getByRole('tab', { name: t.unseen }).click();
  await expect.poll(() => row(p, fx.cold).count()).toBe(1);
  expect(await row(p, fx.hot).count()).toBe(0);

  // tags: the tag carries its movie's views
  await visit(p, '/stats/tags');
  await expect.poll(() => row(p, fx.tag).count()).toBe(1);

  // domains: the row opens the domain hour by hour
  await visit(p, '/stats/domains');
  await expect.poll(() => row(p, fx.www).count()).toBe(1);
  await p.getByRole('link', { name: fx.www, exact: true }).click();
  await p.waitForURL(`**/stats/domains/detail?domain=${fx.www}`);
  await expect.poll(() => p.getByRole('heading', { name: t.domainOf }).count()).toBe(1);
  // every hour of the period, a day a page: shown a week a page, their page views add up to the domain's twelve
  await p.locator('main .MuiTablePagination-root [role="combobox"]').click();
  await p.getByRole('option', { name: '168', exact: true }).click();
  await expect.poll(() => p.locator('main tbody tr').count()).toBeGreaterThan(24);
  const pageViews = () =>
    p
      .locator('tbody tr')
      .evaluateAll((rows) =>
        rows.reduce(
          (sum, r) => sum + (Number.parseInt(r.querySelector('td')?.textContent ?? '', 10) || 0),
          0,
        ),
      );
  await expect.poll(pageViews).toBe(12);

  // domain visits: choose the mobile domain; its referrers and channels
  await visit(p, '/stats/domainsvisit');
  await p.getByRole('link', { name: fx.m, exact: true }).click();
  await p.waitForURL(`**/stats/domainsvisit/detail?domain=${fx.m}`);
  await expect.poll(() => row(p, '/list').count()).toBe(1);
  await p.getByRole('tab', { name: t.referrer }).click();
  await expect.poll(() => row(p, 'google').count()).toBe(1);
  await p.getByRole('tab', { name: t.channel }).click();
  await expect.poll(() => row(p, 'agent7').count()).toBe(1);
  expect((await row(p, 'agent7').getByRole('cell').allInnerTexts()).at(-1)?.split('\n')[0]).toBe('100.0%');
  // devices by class, in the operator's words; the region from the address (ip2region)
  await p.getByRole('tab', { name: t.device }).click();
  await expect.poll(() => row(p, t.desktop).count()).toBe(1);
  await p.getByRole('tab', { name: t.region }).click();
  await expect.poll(() => row(p, '广东省').count()).toBe(1);
  await p.context().close();
});

// Every stats screen in both languages and themes: one logged-in page per language and theme, one test per screen
// and dialog (eleven chart screens under axe in one test took up to two minutes on a busy machine).
for (const locale of ['zh-CN', 'en-US'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    describe(`stats screens are accessible and photographed: ${locale} ${theme}`, () => {
      const t = TEXT[locale];
      let p: Page;
      beforeAll(async () => {
        p = await session(browser, { locale, theme });
      });
      afterAll(() => p?.context().close());
      const screens: [string, string, string?][] = [
        ['/stats/hotkeyword', 'stats-hotkeyword'],
        ['/stats/hotkeyword', 'stats-hotkeyword-gap', t.gap],
        ['/stats/movies', 'stats-movies'],
        ['/stats/movies', 'stats-movies-unseen', t.unseen],
        ['/stats/tags', 'stats-tags'],
        ['/stats/domains', 'stats-domains'],
        [`/stats/domains/detail?domain=${fx.www}`, 'stats-domains-detail'],
        ['/stats/domainsvisit', 'stats-domainsvisit'],
        [`/stats/domainsvisit/detail?domain=${fx.m}`, 'stats-domainsvisit-detail'],
        [`/stats/domainsvisit/detail?domain=${fx.m}`, 'stats-domainsvisit-referrer', t.referrer],
        [`/stats/domainsvisit/detail?domain=${fx.m}`, 'stats-domainsvisit-device', t.device],
      ];
      for (const [path, name, tab] of screens) {
        test(name, async () => {
          await visit(p, path, 'tbody tr');
          if (tab) {
            await p.getByRole('tab', { name: tab }).click();
            await settled(p);
          }
          await expectAccessible(p);
          await screenshot(p, `${name}-${locale}-${theme}`);
        });
      }
      test('the adopt dialog over the gap', async () => {
        await visit(p, '/stats/hotkeyword', 'tbody tr');
        await p.getByRole('tab', { name: t.gap }).click();
        await p.getByRole('button', { name: t.adopt.replace(fx.gap, fx.gap2) }).click();
        await p.getByRole('dialog').waitFor();
        await expectAccessible(p);
        await screenshot(p, `stats-adopt-dialog-${locale}-${theme}`);
      });
    });
  }
}
