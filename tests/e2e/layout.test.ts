import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  api,
  expectAccessible,
  LOOKS,
  launch,
  look,
  screenshot,
  sendEvents,
  session,
  settled,
  shown,
  signedPost,
  visit,
} from './browser';

/**
 * Issue #52, layout: at 1280 px no screen of the menu scrolls sideways, in Chinese or in English, with data made to
 * break a layout — long unbroken titles, URLs, tags and names in every section that lists them. A wide table
 * scrolls inside its own container, its first column kept in view; the page itself never does.
 */

let browser: Browser;
const stamp = Date.now().toString(36);
const IDN = `阅读${stamp}.cn`;
const DOMAIN = `www.layout-${stamp}.example`;
let agent = 0;
const SHOTS = '/tmp/shots/layout';
/** No space, no hyphen: nothing for the browser to break at. */
const unbroken = (head: string, n: number) => `${head}${stamp}${'Ｗ'.repeat(4)}${'w'.repeat(n)}`.slice(0, n);
const longUrl = `https://very-long-subdomain-${stamp}-${'x'.repeat(40)}.example.com/${'path'.repeat(60)}?q=${'z'.repeat(200)}`;

async function site(path: string, body: unknown) {
  const env = (await signedPost(path, body)) as { code: number; msg: string; data: any };
  expect(env.code, `${path}: ${env.msg}`).toBe(20000);
  return env.data;
}

beforeAll(async () => {
  browser = await launch();
  const column = await api('/app/admin/movie/columns', { json: { name: unbroken('栏目', 32), sort: 1 } });
  const tags = [];
  for (const head of ['标签', 'Tag', '热门'])
    tags.push(
      (await api('/app/admin/movie/tags', { json: { name: unbroken(head, 32), group: unbroken('组', 32) } }))
        .id,
    );
  await api('/app/admin/movie/sources', {
    json: {
      name: unbroken('线路', 64),
      code: `c${stamp}${'x'.repeat(20)}`.slice(0, 32),
      baseUrl: longUrl.slice(0, 512),
      type: 'mp4',
      priority: 1,
      enabled: true,
    },
  }).catch(() => undefined);
  const movie = await api('/app/admin/movie/movies', {
    json: { title: unbroken('影片', 200), columnId: column.id, tagIds: tags, platforms: [2], duration: 5400 },
  });
  await api('/app/admin/movie/movies/batch', { json: { action: 'approve', ids: [movie.id] } });
  await api('/app/admin/novel/novels', { json: { title: unbroken('小说', 100) } }).catch(() => undefined);
  await api('/app/admin/actresses', { json: { name: unbroken('演员', 64) } }).catch(() => undefined);
  const advertiser = await api('/app/admin/ad/advertisers', { json: { name: unbroken('广告主', 64) } });
  const position = await api('/app/admin/ad/positions', {
    json: { name: unbroken('广告位', 64), key: `k${stamp}${'x'.repeat(64)}`.slice(0, 64), type: 'text' },
  });
  await api('/app/admin/ad/ads', {
    json: {
      title: unbroken('素材', 100),
      type: 'text',
      body: unbroken('文字', 200),
      landingUrl: longUrl,
      positionId: position.id,
      advertiserId: advertiser.id,
      startAt: new Date(Date.now() - 86_400_000).toISOString(),
      pricing: 'cpc',
      price: 12345678.9,
    },
  });
  await api('/app/admin/agents', {
    json: {
      name: unbroken('代理', 64),
      channel: `ch${stamp}${'x'.repeat(64)}`.slice(0, 64),
      notes: longUrl.slice(0, 500),
    },
  });
  // an agent whose bound domain is internationalised (stored in punycode)
  agent = (await api('/app/admin/agents', { json: { name: `阅读代理${stamp}`, channel: `idn${stamp}` } })).id;
  await api('/app/admin/domain/domains/import', { json: { text: IDN, status: 'active', role: 'channel' } });
  const ascii = new URL(`https://${IDN}`).hostname;
  const [idn] = (await api(`/app/admin/domain/domains?q=${encodeURIComponent(ascii)}`)).list;
  await api(`/app/admin/agents/${agent}/domains`, { method: 'PUT', json: { ids: [idn.id] } });
  // a domain's visits over yesterday's hours (unique visitors and addresses equal: two lines on one another)
  const { today } = await api('/app/admin/stats/meta');
  const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  const events = [];
  for (let h = 0; h < 24; h += 2)
    for (let v = 0; v < 1 + (h % 5); v++)
      events.push({
        id: `e2e-layout-${stamp}-${h}-${v}`,
        type: 'pageview',
        time: `${yesterday}T${String(h).padStart(2, '0')}:10:00+08:00`,
        domain: DOMAIN,
        path: '/',
        visitor: `v-${stamp}-${h}-${v}`,
        ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
        ip: `120.24.${h}.${v + 1}`,
      });
  expect((await sendEvents(events)).data).toMatchObject({ rejected: [] });
  await api('/app/admin/stats/rollup', { json: {} });
  await api('/app/admin/domain/domains/import', {
    json: { text: `${'a'.repeat(60)}${stamp}.${'b'.repeat(60)}.example.com`, status: 'active' },
  }).catch(() => undefined);
  await api('/app/admin/setting/notices', {
    json: {
      type: 'marquee',
      title: unbroken('公告', 100),
      content: longUrl.slice(0, 480),
      platforms: [2],
      startAt: new Date().toISOString(),
    },
  });
  await api('/app/admin/setting/promotion-apps', {
    json: { name: unbroken('应用', 64), url: longUrl.slice(0, 500), os: 'android', platforms: [2] },
  }).catch(() => undefined);
  await site('/app/site/guestbook', {
    guestName: unbroken('访客', 32),
    address: '203.0.113.91',
    content: `${unbroken('留言', 300)} ${longUrl}`,
  });
  const member = await site('/app/site/users', { account: `e2e${stamp}`, address: '203.0.113.90' });
  await site('/app/site/comments', {
    targetType: 'movie',
    targetId: movie.id,
    userId: member.id,
    guestName: unbroken('路人', 32),
    address: '203.0.113.92',
    content: `${unbroken('评论', 300)} ${longUrl}`,
  });
});
afterAll(() => browser?.close());

/** The page, or any element in the main area, that is wider than it is shown and scrolls (or would spill over). */
const sideways = (p: Page) =>
  p.evaluate(() => {
    const out: string[] = [];
    const root = document.scrollingElement!;
    if (root.scrollWidth > root.clientWidth + 1) out.push(`page ${root.scrollWidth}>${root.clientWidth}`);
    const main = document.querySelector<HTMLElement>('#main-content') ?? document.querySelector('main');
    const right = main ? main.getBoundingClientRect().right : root.clientWidth;
    const clipped = (el: HTMLElement) => {
      for (let a = el.parentElement; a && a !== main; a = a.parentElement)
        if (getComputedStyle(a).overflowX !== 'visible') return true;
      return false;
    };
    for (const el of document.querySelectorAll<HTMLElement>('main *')) {
      const o = getComputedStyle(el).overflowX;
      // a table may scroll inside its own container (nothing else in it: no toolbar, no form)
      if ((o === 'auto' || o === 'scroll') && el.scrollWidth > el.clientWidth + 1) {
        const table =
          el.querySelectorAll('table').length === 1 && !el.querySelector('form, .MuiToolbar-root');
        if (!table)
          out.push(
            `scrolls ${el.tagName.toLowerCase()}.${el.className.toString().slice(0, 50)} ${el.scrollWidth}>${el.clientWidth}`,
          );
      }
      if (el.getBoundingClientRect().right > right + 1 && !clipped(el))
        out.push(
          `spills ${el.tagName.toLowerCase()}.${el.className.toString().slice(0, 50)} ${Math.round(el.getBoundingClientRect().right)}>${Math.round(right)}`,
        );
    }
    return [...new Set(out)].slice(0, 5);
  });

async function settle(p: Page) {
  await shown(p);
  await settled(p);
  await expect
    .poll(() =>
      p
        .locator('main .MuiLinearProgress-root, main .MuiSkeleton-root, main .MuiCircularProgress-root')
        .count(),
    )
    .toBe(0);
}

test('no screen of the menu scrolls sideways at 1280 px, in Chinese and in English', {
  timeout: 240_000,
}, async () => {
  const p = await session(browser);
  await p.setViewportSize({ width: 1280, height: 800 });
  await p.goto('/');
  await shown(p);
  const found: unknown[] = [];
  for (const [locale] of LOOKS.filter(([, t]) => t === 'light')) {
    await look(p, locale, 'light');
    await p.locator('nav a[href^="/"]').first().waitFor();
    const links = await p
      .locator('nav a[href^="/"]')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    expect(links.length).toBeGreaterThan(20);
    for (const path of links) {
      await p.locator(`nav a[href="${path}"]`).click();
      await p.waitForURL((u) => u.pathname.startsWith(path));
      await settle(p);
      const bad = await sideways(p);
      if (bad.length) {
        found.push({ path, locale, bad });
        await screenshot(p, `layout-over-${locale}-${path.replace(/\//g, '_')}`);
      }
    }
  }
  expect(found).toEqual([]);
});

test('a list that fits keeps its header in view under the top bar as the page scrolls; a wider one scrolls in its box', async () => {
  // enough rows to scroll the page by more than the table's header
  for (let i = 0; i < 12; i++)
    await api('/app/admin/setting/notices', {
      json: {
        type: 'popup',
        title: `表头 ${stamp} ${i}`,
        content: '表头测试',
        platforms: [2],
        startAt: new Date().toISOString(),
      },
    });
  const p = await session(browser);
  await p.setViewportSize({ width: 1440, height: 420 });
  const seen: Record<string, string> = {};
  for (const path of ['/setting/notices', '/comment/list']) {
    await visit(p, path, 'main tbody tr');
    await settle(p);
    const state = await p.evaluate(async () => {
      const wrapper = document.querySelector<HTMLElement>('main .RaDatagrid-tableWrapper')!;
      const wide = wrapper.scrollWidth > wrapper.clientWidth + 1;
      // the table's top scrolled well above the top bar, its rows still on the screen
      const table = wrapper.querySelector('table')!;
      window.scrollBy(0, table.getBoundingClientRect().top - 60 + 120);
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const th = wrapper.querySelector<HTMLElement>('thead th:last-child')!;
      const r = th.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      const t = table.getBoundingClientRect();
      return {
        wide,
        overflowX: getComputedStyle(wrapper).overflowX,
        // the header would have left the screen with the table's top (and rows are left under it)
        scrolled: t.top < 60 - r.height && t.bottom > 60 + 2 * r.height,
        top: Math.round(r.top),
        shown: !!hit && th.contains(hit),
      };
    });
    if (state.wide) expect(state.overflowX, path).toBe('auto');
    else {
      expect(state.scrolled, path).toBe(true);
      expect({ path, overflowX: state.overflowX, top: state.top, shown: state.shown }).toEqual({
        path,
        overflowX: 'visible',
        top: 60,
        shown: true,
      });
    }
    seen[path] = state.wide ? 'wide' : 'fits';
  }
  // the notices fit at 1440 px: the header's rule was tried
  expect(seen['/setting/notices']).toBe('fits');
  await p.context().close();
});

/** A photograph of the page as it stands, for the record (beside the suite's own screenshots). */
async function shot(p: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await p.screenshot({ path: `${SHOTS}/${name}.png` });
}

test('the sidebar: a group’s header stays opaque above its items while the menu scrolls', async () => {
  const p = await session(browser);
  await p.setViewportSize({ width: 1280, height: 600 });
  await visit(p, '/ad/list');
  for (const [locale, theme] of LOOKS) {
    await look(p, locale, theme);
    // scroll the menu by part of a group: a header is stuck at the top with items passing under it
    const headers = await p.evaluate(() => {
      // react-admin's sidebar: fixed below the top bar, scrolling by itself
      const box = document.querySelector<HTMLElement>('.RaSidebar-fixed')!;
      box.scrollTop += 130;
      const view = box.getBoundingClientRect();
      return [...document.querySelectorAll<HTMLElement>('nav .MuiListSubheader-root')]
        .map((h) => ({ h, r: h.getBoundingClientRect() }))
        .filter(({ r }) => r.top >= view.top - 1 && r.bottom <= view.bottom + 1)
        .map(({ h, r }) => {
          const hit = document.elementFromPoint(r.right - 8, r.top + r.height / 2);
          return {
            text: h.textContent,
            stuck: Math.abs(r.top - view.top) <= 1,
            opaque: /^rgb\(/.test(getComputedStyle(h).backgroundColor),
            onTop: !!hit && h.contains(hit),
          };
        });
    });
    // one header is stuck at the top, items passing under it; every header shown is opaque and drawn on top
    expect(headers.filter((h) => h.stuck)).toHaveLength(1);
    // and the menu's end is on the screen (the sidebar is no taller than the window below the top bar)
    expect(
      await p.evaluate(() => document.querySelector('.RaSidebar-fixed')!.getBoundingClientRect().bottom),
    ).toBeLessThanOrEqual(600);
    expect(headers.filter((h) => !h.opaque || !h.onTop)).toEqual([]);
    await shot(p, `menu-scrolled-${locale}-${theme}`);
  }
  await p.context().close();
});

test('the changed screens in both languages and themes: axe-clean, photographed', {
  timeout: 240_000,
}, async () => {
  const p = await session(browser);
  await p.setViewportSize({ width: 1280, height: 800 });
  await visit(p, '/');
  for (const [locale, theme] of LOOKS) {
    await look(p, locale, theme);
    const tag = `${locale}-${theme}`;

    // a wide list: the table scrolls in its own box, its first column stays; filters start with 全部 / All
    await visit(p, '/comment/guestbook', 'main table');
    const status = p.getByRole('combobox', { name: locale === 'zh-CN' ? '状态' : 'Status' }).first();
    expect(await status.textContent()).toBe(locale === 'zh-CN' ? '全部' : 'All');
    await p
      .locator('main .RaDatagrid-tableWrapper')
      .first()
      .evaluate((el) => {
        el.scrollLeft = 400;
      });
    await expectAccessible(p);
    await shot(p, `guestbook-scrolled-${tag}`);

    await visit(p, '/ad/list', 'main table');
    await expectAccessible(p);
    await shot(p, `ad-list-${tag}`);

    await visit(p, '/ad/report', 'main table');
    await expectAccessible(p);
    await shot(p, `ad-report-${tag}`);

    // a domain's hours: a day a page, the chart stops at the present hour
    await visit(p, `/stats/domains/detail?domain=${DOMAIN}`, 'main [data-testid="report-chart"] svg');
    expect(await p.locator('main tbody tr').count()).toBe(24);
    await expectAccessible(p);
    await shot(p, `domain-hours-${tag}`);
    await p.locator('main [data-testid="report-chart"]').scrollIntoViewIfNeeded();
    await shot(p, `domain-hours-chart-${tag}`);

    // an agent's link: its host in Unicode, the punycode one to pick
    await visit(p, `/agents/edit/${agent}`, '[data-testid="promotion-link"]');
    await expect.poll(() => p.getByTestId('promotion-link').textContent()).toBe(`https://${IDN}/`);
    await p.getByTestId('promotion-link').scrollIntoViewIfNeeded();
    await expectAccessible(p);
    await shot(p, `agent-link-${tag}`);
  }
  await p.context().close();
});
