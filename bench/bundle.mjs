// The login page's initial JS: every script Chromium fetches to show /login, gzip-compressed size summed.
// Target (issue #2): ≤ 200 KB gzip; a bare react-admin app is about 400 KB.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../scripts/chromium.mjs';
import { ensureBuilt, startServer, stop } from './_server.mjs';

ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), 'zhanggui-bench-'));
const server = await startServer(dir, 23500 + Math.floor(Math.random() * 400));
const browser = await launchChromium();
const page = await browser.newPage();
const scripts = [];
page.on('response', async (res) => {
  if (res.request().resourceType() !== 'script') return;
  const body = await res.body().catch(() => Buffer.alloc(0));
  scripts.push({
    url: new URL(res.url()).pathname,
    raw: body.length,
    gzip: gzipSync(body, { level: 9 }).length,
  });
});
await page.goto(`${server.url}/login`, { waitUntil: 'networkidle' });
await page.locator('input[name="username"]').waitFor();
await browser.close();
await stop(server.child);
rmSync(dir, { recursive: true, force: true });
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
for (const s of scripts)
  console.log(`  ${s.url.padEnd(48)} ${kb(s.raw).padStart(10)} raw ${kb(s.gzip).padStart(9)} gzip`);
const total = scripts.reduce((a, s) => a + s.gzip, 0);
console.log(
  `login page initial JS: ${scripts.length} files, ${kb(scripts.reduce((a, s) => a + s.raw, 0))} raw, ${kb(total)} gzip (${total} bytes; target ≤ 200 KB)`,
);
