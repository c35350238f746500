import { lazy, StrictMode, Suspense, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { getLocale } from './api/locale';
import { loadUser } from './api/session';
import { getToken } from './api/storage';
import { loginT } from './login/messages';
import { guardTarget, LOGIN_PATH } from './routes/guard';
import { preloadable } from './routes/lazy';
import { applySettings } from './settings/store';

// Demo mode: the real API starts in this page (msw + PGlite) before anything calls it. A production build
// replaces MODE with a constant, so none of this (nor msw, nor PGlite) is in its bundle.
// It says what it is doing from the first paint (src/demo/screens.ts) and, when another tab has the demo, waits
// there for good: the admin never starts in this tab.
if (import.meta.env.MODE === 'demo') {
  const screens = await import('./demo/screens');
  screens.showProgress('code');
  const { startDemo } = await import('../mocks/browser');
  if (!(await startDemo({ step: screens.showProgress, otherTab: screens.showOtherTab })))
    await new Promise<never>(() => {});
  screens.hideProgress();
}

// The entry stays tiny: the login page and the admin are separate chunks, and /login loads only its own.
const LoginPage = lazy(() => import('./login/LoginPage').then((m) => ({ default: m.LoginPage })));
const App = preloadable(() => import('./App').then((m) => m.default));

/**
 * What the login leads to, loaded while the operator types: the admin and the home screen's chunk (the review
 * list). Both then render at once after the login, without a fallback between (routes/lazy.ts `preloadable`).
 */
function preloadAdmin() {
  App.preload()
    .then(() => import('./App'))
    .then((m) => m.preloadHome())
    .catch(() => {});
}

/**
 * A direct open of a screen with a session (a bookmark, a reload): the admin's code, the operator's identity and the
 * screen's code are asked at once, not each after the one before (react-admin asks the identity once its code has
 * loaded, and the screen's code once the identity is known).
 */
function preloadOpened(pathname: string) {
  loadUser().catch(() => {}); // react-admin's check shares this request (session.ts); a failure is its to show
  App.preload()
    .then(() => import('./App'))
    .then((m) => m.preloadAt(pathname))
    .catch(() => {});
}

/** The guard's first decision (SPEC.md §4), made before any screen loads. */
function initialMode(): 'login' | 'admin' {
  const { pathname, search } = window.location;
  const target = guardTarget(pathname, search, !!getToken());
  if (target) window.history.replaceState(null, '', target);
  if (window.location.pathname === LOGIN_PATH) return 'login';
  preloadOpened(window.location.pathname);
  return 'admin';
}

function Root() {
  const [mode, setMode] = useState(initialMode);
  return (
    <Suspense
      fallback={<div className="zg-boot" role="progressbar" aria-label={loginT(getLocale(), 'loading')} />}
    >
      {mode === 'login' ? (
        <LoginPage
          preload={preloadAdmin}
          onSuccess={(target) => {
            import('./App').then((m) => m.prefetchHome(target)).catch(() => {});
            window.history.replaceState(null, '', target);
            setMode('admin');
          }}
        />
      ) : (
        <App />
      )}
    </Suspense>
  );
}

applySettings();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
