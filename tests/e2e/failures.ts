import { mkdirSync } from 'node:fs';
import { beforeEach } from 'vitest';
import { openBrowsers, SCREENSHOTS } from './browser';

/**
 * When an end-to-end test fails, what each open page showed: its address and its accessibility tree in the test's
 * output (CI keeps only the output), and a screenshot beside the others. A failure seen only in a full run on a
 * busy machine can then be read, not guessed.
 */
beforeEach((ctx) => {
  ctx.onTestFailed(async () => {
    let n = 0;
    for (const browser of openBrowsers)
      for (const context of browser.contexts())
        for (const page of context.pages()) {
          n += 1;
          // the screen itself (the menu is the same on every one), or the whole page where there is no layout
          const screen = page.locator('[data-location]');
          const tree = await ((await screen.count()) === 1 ? screen : page.locator('body'))
            .ariaSnapshot({ timeout: 5_000 })
            .catch((err: Error) => `(no accessibility tree: ${err.message.split('\n')[0]})`);
          const shot = `${SCREENSHOTS}/failed-${ctx.task.id}-${n}.png`;
          mkdirSync(SCREENSHOTS, { recursive: true });
          await page.screenshot({ path: shot, timeout: 5_000 }).catch(() => undefined);
          console.error(
            `── page ${n} at ${page.url()} when "${ctx.task.name}" failed (${shot}):\n${tree.slice(0, 8_000)}`,
          );
        }
  });
});
