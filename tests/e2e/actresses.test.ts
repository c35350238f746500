import { deflateSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { api, expectAccessible, launch, login, newContext, screenshot, settled } from './browser';

/**
 * Issue #4's actress journey: create an actress with an avatar through the form, link her to a movie, see it on
 * her page and follow it to the movie's edit page, find her in the list by an alias, unlink, delete — in both
 * languages with screenshots; then every actress screen under axe in both languages and themes.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser?.close());

async function page(opts: Parameters<typeof newContext>[1] = {}): Promise<Page> {
  const context = await newContext(browser, opts);
  return context.newPage();
}

/** A small real PNG (a coloured disc on white), so the avatar visibly round-trips through upload and decryption. */
function png(size = 64): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const byte of b) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0);
    for (let x = 0; x < size; x++) {
      const inside = (x - size / 2) ** 2 + (y - size / 2) ** 2 < (size / 2.5) ** 2;
      rows.push(...(inside ? [220, 80, 120] : [255, 255, 255]));
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const TEXT = {
  'zh-CN': {
    create: '新建女优',
    name: '姓名 *',
    aliases: '别名',
    region: '地区',
    japan: '日本',
    debut: '出道年份',
    save: '保存',
    link: '关联影片',
    search: '搜索影片标题',
    confirm: '确认',
    unlink: '解除关联',
    listSearch: '搜索姓名或别名',
    deleteOne: '删除女优',
    noMovies: '还没有关联任何影片。',
    deleteQuestion: (n: number) => `她关联的 ${n} 部影片将同时解除关联`,
  },
  'en-US': {
    create: 'New actress',
    name: 'Name *',
    aliases: 'Aliases',
    region: 'Region',
    japan: 'Japan',
    debut: 'Debut year',
    save: 'Save',
    link: 'Link movies',
    search: 'Search movie titles',
    confirm: 'Confirm',
    unlink: 'Unlink',
    listSearch: 'Search name or alias',
    deleteOne: 'Delete actress',
    noMovies: 'No movie is linked to her yet.',
    deleteQuestion: (n: number) => `She is linked to ${n} movie(s)`,
  },
} as const;

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`actress journey (${locale}): create with an avatar, link a movie, see it, find her by alias, unlink, delete`, async () => {
    const t = TEXT[locale];
    const stamp = Date.now().toString(36);
    const name = locale === 'zh-CN' ? `佐藤结衣${stamp}` : `Yui Sato ${stamp}`;
    const alias = `Alias${stamp}`;
    const movie = await api('/app/admin/movie/movies', {
      json: { title: `E2E 女优影片 ${locale} ${stamp}` },
    });
    const second = await api('/app/admin/movie/movies', { json: { title: `E2E 第二部 ${locale} ${stamp}` } });
    const p = await page({ locale });
    await login(p);

    await p.goto('/actress');
    await p.waitForURL((u) => u.pathname === '/actress/list');
    await p.getByRole('link', { name: t.create }).first().click();
    await p.waitForURL((u) => u.pathname === '/actress/edit');
    await p.getByLabel(t.name).fill(name);
    const aliases = p.getByRole('combobox', { name: t.aliases });
    await aliases.fill(alias);
    await aliases.press('Enter');
    await p.getByRole('combobox', { name: t.region }).click();
    await p.getByRole('option', { name: t.japan }).click();
    await p.getByRole('spinbutton', { name: t.debut }).fill('2019');
    await p
      .locator('input[type="file"]')
      .setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: png() });
    // Uploaded, encrypted on the server, fetched back and decrypted by the page.
    const preview = p.locator('[data-image-state="ready"] img');
    await expect.poll(() => preview.count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await screenshot(p, `actress-journey-create-${locale}`);
    await p.getByRole('button', { name: t.save, exact: true }).click();
    await p.waitForURL((u) => /^\/actress\/edit\/\d+$/.test(u.pathname));
    const id = Number(new URL(p.url()).pathname.split('/').pop());
    const saved = await api(`/app/admin/actresses/${id}`);
    expect(saved).toMatchObject({ name, aliases: [alias], region: 'jp', debutYear: 2019, movieCount: 0 });
    expect(saved.avatar).toMatch(/^\/upload\/\d{4}\/\d{2}\/[0-9a-f]{32}\.png$/);
    await expect.poll(() => p.getByText(t.noMovies).count()).toBe(1);

    // Link two movies through the search picker: the server finds them by a fragment of their titles.
    await p.getByRole('button', { name: t.link }).click();
    const dialog = p.getByRole('dialog');
    const search = dialog.getByRole('combobox', { name: t.search });
    await search.fill(`${locale} ${stamp}`);
    await p.getByRole('option', { name: new RegExp(movie.title) }).click();
    await search.fill(`第二部 ${locale} ${stamp}`);
    await p.getByRole('option', { name: new RegExp(second.title) }).click();
    await screenshot(p, `actress-journey-link-${locale}`);
    await dialog.getByRole('button', { name: t.link }).click();
    const link = p.getByRole('link', { name: movie.title });
    await expect.poll(() => link.count()).toBe(1);
    await expect.poll(async () => (await api(`/app/admin/actresses/${id}`)).movieCount).toBe(2);
    expect((await api(`/app/admin/movie/movies/${movie.id}`)).actressIds).toEqual([id]);
    await screenshot(p, `actress-journey-movies-${locale}`);

    // Her movie leads to its edit page (pending: the review pages).
    await link.click();
    await p.waitForURL((u) => u.pathname === `/movie/review/edit/${movie.id}`);

    // The list finds her by her alias, with her works and avatar.
    await p.goto('/actress/list');
    await p.getByRole('textbox', { name: t.listSearch }).fill(alias.toLowerCase());
    const row = p.getByRole('row', { name: new RegExp(name) });
    await expect.poll(() => row.count()).toBe(1);
    await expect
      .poll(() => row.locator('[data-image-state="ready"] img').count(), { timeout: 20_000 })
      .toBe(1);
    await screenshot(p, `actress-journey-list-${locale}`);

    // Unlink one (asked first), then delete her: the question names how many movies get unlinked.
    await row.getByText(name).click();
    await p.waitForURL((u) => u.pathname === `/actress/edit/${id}`);
    await p.getByRole('button', { name: `${t.unlink} ${second.title}` }).click();
    await p.getByRole('dialog').getByRole('button', { name: t.confirm }).click();
    await expect.poll(async () => (await api(`/app/admin/actresses/${id}`)).movieCount).toBe(1);
    await p.getByRole('button', { name: t.deleteOne }).click();
    const question = p.getByRole('dialog');
    await expect.poll(() => question.textContent()).toContain(t.deleteQuestion(1));
    await screenshot(p, `actress-journey-delete-${locale}`);
    await question.getByRole('button', { name: t.confirm }).click();
    await p.waitForURL((u) => u.pathname === '/actress/list');
    expect((await api(`/app/admin/movie/movies/${movie.id}`)).actressIds).toEqual([]);
    await p.context().close();
  });
}

test('a stale save is refused with a reload offer; nothing is overwritten', async () => {
  const her = await api('/app/admin/actresses', { json: { name: `E2E 冲突 ${Date.now().toString(36)}` } });
  const p = await page({ locale: 'en-US' });
  await login(p);
  await p.goto(`/actress/edit/${her.id}`);
  const name = p.getByLabel('Name *');
  await expect.poll(() => name.inputValue()).toBe(her.name);
  await api(`/app/admin/actresses/${her.id}`, {
    method: 'PUT',
    json: { name: 'Theirs', version: her.version },
  });
  await name.fill('Mine');
  await p.getByRole('button', { name: 'Save', exact: true }).click();
  await expect.poll(() => p.getByText('Someone else changed this record').count()).toBeGreaterThan(0);
  expect((await api(`/app/admin/actresses/${her.id}`)).name).toBe('Theirs');
  await p.getByRole('button', { name: 'Reload' }).click();
  await expect.poll(() => name.inputValue()).toBe('Theirs');
  await p.context().close();
});

for (const locale of ['zh-CN', 'en-US'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test(`actress screens are accessible and photographed: ${locale} ${theme}`, async () => {
      const stamp = Date.now().toString(36);
      const her = await api('/app/admin/actresses', {
        json: {
          name: `林若溪 ${stamp}`,
          aliases: ['Lin Ruoxi'],
          region: 'cn',
          debutYear: 2016,
          birthday: '1996-05-01',
          height: 165,
          tags: ['清纯', '人气'],
          biography: '简介',
        },
      });
      const movie = await api('/app/admin/movie/movies', {
        json: { title: `E2E a11y ${locale} ${theme} ${stamp}` },
      });
      await api(`/app/admin/actresses/${her.id}/movies`, { json: { movieIds: [movie.id] } });
      const p = await page({ locale, theme });
      await login(p);
      const screens: [string, string][] = [
        ['/actress/list', 'actress-list'],
        ['/actress/edit', 'actress-create'],
        [`/actress/edit/${her.id}`, 'actress-edit'],
      ];
      for (const [path, shot] of screens) {
        await p.goto(path);
        await settled(p); // the pickers loaded too: a fixed wait after the network's calm was not, on a busy machine
        await expectAccessible(p);
        await screenshot(p, `${shot}-${locale}-${theme}`);
      }
      // The dialogs of the profile page.
      await p.getByRole('button', { name: TEXT[locale].link }).click();
      await p.getByRole('dialog').getByRole('combobox').fill('E2E');
      await p.waitForTimeout(800);
      await expectAccessible(p);
      await screenshot(p, `actress-link-dialog-${locale}-${theme}`);
      await p.keyboard.press('Escape');
      await p.keyboard.press('Escape');
      await p.getByRole('button', { name: TEXT[locale].deleteOne }).click();
      await p.getByRole('dialog').waitFor();
      await p.waitForTimeout(300);
      await expectAccessible(p);
      await screenshot(p, `actress-delete-dialog-${locale}-${theme}`);
      await p.context().close();
    });
  }
}
