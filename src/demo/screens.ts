/**
 * The demo's own screens, drawn before React and the admin load (plain DOM, the login bundle's messages): the
 * start-up progress (what is loading, how far) and the page a second tab shows (one tab at a time, take over).
 * The first paint comes from the markup vite.config.ts puts into index.html for the demo build; these replace it.
 */
import { getLocale } from '../api/locale';
import { type LoginKey, loginT } from '../login/messages';

/** A first visit from the prebuilt database (mocks/browser.ts has the other plan: migrate and seed in the page). */
export const DEMO_STEPS = ['code', 'data', 'engine', 'api'] as const;
export type DemoStep = 'code' | 'data' | 'engine' | 'migrate' | 'seed' | 'api';
const STEP_KEY: Record<DemoStep, LoginKey> = {
  code: 'demoStepCode',
  data: 'demoStepData',
  engine: 'demoStepEngine',
  migrate: 'demoStepMigrate',
  seed: 'demoStepSeed',
  api: 'demoStepApi',
};

const t = (key: LoginKey, params?: Record<string, string>) => loginT(getLocale(), key, params);

function dark(): boolean {
  try {
    const stored = localStorage.getItem('theme');
    if (stored) return stored === 'dark';
  } catch {}
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
}

/** The full-page layer both screens draw in (above the admin, which a tab that hands over still holds). */
function layer(): HTMLElement {
  let el = document.getElementById('zg-demo');
  if (!el) {
    el = document.createElement('div');
    el.id = 'zg-demo';
    el.className = 'zg-demo';
    document.body.appendChild(el);
  }
  el.classList.toggle('zg-demo-dark', dark());
  document.documentElement.lang = getLocale();
  return el;
}

function card(children: (HTMLElement | string)[]): HTMLElement {
  const box = document.createElement('div');
  box.className = 'zg-demo-card';
  const brand = document.createElement('div');
  brand.className = 'zg-demo-brand';
  brand.textContent = t('brand');
  box.append(brand, ...children);
  return box;
}

function text(tag: string, className: string, value: string): HTMLElement {
  const el = document.createElement(tag);
  el.className = className;
  el.textContent = value;
  return el;
}

/**
 * Start-up progress: the step under way, its number in its plan, and a bar; `done` (0…1) is how far into the step
 * (the database's download, shown in MB when `bytes` is known).
 */
export function showProgress(
  step: DemoStep,
  plan: readonly DemoStep[] = DEMO_STEPS,
  done?: number,
  bytes?: number,
): void {
  const n = plan.indexOf(step) + 1;
  const total = plan.length;
  const bar = document.createElement('div');
  bar.className = 'zg-demo-bar';
  bar.setAttribute('role', 'progressbar');
  bar.setAttribute('aria-label', t('demoStarting'));
  bar.setAttribute('aria-valuemin', '0');
  bar.setAttribute('aria-valuemax', String(total));
  bar.setAttribute('aria-valuenow', String(n - 1));
  bar.setAttribute('aria-valuetext', t(STEP_KEY[step]));
  const fill = document.createElement('div');
  fill.className = 'zg-demo-fill';
  fill.style.width = `${Math.round(((n - 1 + (done ?? 0.5)) / total) * 100)}%`;
  bar.append(fill);
  const el = layer();
  el.dataset.screen = 'progress';
  el.dataset.step = step;
  el.replaceChildren(
    card([
      text('h1', 'zg-demo-title', t('demoStarting')),
      bar,
      text(
        'p',
        'zg-demo-step',
        [
          t(STEP_KEY[step]),
          done !== undefined && bytes
            ? t('demoStepDataOf', { done: mb(done * bytes), total: mb(bytes) })
            : null,
          t('demoStep', { n: String(n), total: String(total) }),
        ]
          .filter(Boolean)
          .join(' · '),
      ),
    ]),
  );
}

const mb = (bytes: number) =>
  (bytes / 1e6).toLocaleString(getLocale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** Started: the admin takes the page. */
export function hideProgress(): void {
  document.getElementById('zg-demo')?.remove();
}

/** Another tab has the demo: say why, and offer to take it over (the other tab then shows this page). */
export function showOtherTab(takeOver: () => Promise<void>): void {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'zg-demo-button';
  button.textContent = t('demoTakeOver');
  button.addEventListener('click', () => {
    button.disabled = true;
    button.textContent = t('demoTakingOver');
    takeOver().catch(() => {
      button.disabled = false;
      button.textContent = t('demoTakeOver');
    });
  });
  const el = layer();
  el.dataset.screen = 'other-tab';
  el.replaceChildren(
    card([
      text('h1', 'zg-demo-title', t('demoTabTitle')),
      text('p', 'zg-demo-body', t('demoTabBody')),
      text('p', 'zg-demo-body', t('demoTabHint')),
      button,
    ]),
  );
  document.title = `${t('demoTabTitle')} - ${t('brand')}`;
  button.focus();
}
