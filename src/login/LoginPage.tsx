import { type FormEvent, useEffect, useId, useState } from 'react';
import { ApiFailure } from '../api/http';
import { getLocale, type Locale, setLocale } from '../api/locale';
import { loadUser, login } from '../api/session';
import { safeRedirect } from '../routes/guard';
import { applySettings, getSettings, updateSettings } from '../settings/store';
import { DemoHint } from './DemoHint';
import './login.css';
import { type LoginKey, loginT } from './messages';

export const REMEMBER_KEY = 'remember-username';
/** Read by the admin once it shows, to greet with '欢迎使用' there. */
export const WELCOME_FLAG = 'welcome';

interface Props {
  /** Called with the target after a successful login (the redirect query value, or home). */
  onSuccess: (target: string) => void;
  /**
   * Called once, when the operator first focuses or touches the form: starts loading what follows the login (the
   * admin's code, the home screen's chunk) while they type, not before (the page's own initial JS stays small).
   */
  preload?: () => void;
}

/**
 * The login page (SPEC.md §5). Deliberately light: plain React and CSS, no react-admin or MUI, so the first
 * screen an operator sees loads little. Its messages come from i18n/<locale>/login.ts only.
 */
export function LoginPage({ onSuccess, preload }: Props) {
  const [locale, setLocaleState] = useState<Locale>(getLocale);
  const [theme, setTheme] = useState(getSettings().theme);
  const [username, setUsername] = useState(() => localStorage.getItem(REMEMBER_KEY) ?? '');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(() => localStorage.getItem(REMEMBER_KEY) !== null);
  const [errors, setErrors] = useState<{ username?: LoginKey; password?: LoginKey }>({});
  const [message, setMessage] = useState<{ text: string; kind: 'error' | 'info' } | null>(null);
  const [help, setHelp] = useState<LoginKey | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const [preloaded, setPreloaded] = useState(false);
  const startPreload = () => {
    if (preloaded || !preload) return;
    setPreloaded(true);
    preload();
  };
  const t = (key: LoginKey, params?: Record<string, string>) => loginT(locale, key, params);

  useEffect(() => {
    document.documentElement.lang = locale;
    document.title = `${t('submit')} - ${t('brand')}`;
  });
  useEffect(() => applySettings(), []);

  const switchLocale = (next: Locale) => {
    setLocale(next);
    setLocaleState(next);
  };
  const toggleTheme = () => setTheme(updateSettings({ theme: theme === 'dark' ? 'light' : 'dark' }).theme);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const next = {
      username: username.trim() ? undefined : ('usernameRequired' as const),
      password: password ? undefined : ('passwordRequired' as const),
    };
    setErrors(next);
    if (next.username || next.password) return;
    setBusy(true);
    setMessage(null);
    try {
      await login(username.trim(), password, { quiet: true });
      // The admin asks GET admin/info first (the role, before any screen): ask it now, while its code loads.
      loadUser().catch(() => {});
      if (remember) {
        localStorage.setItem(REMEMBER_KEY, username.trim());
        await offerToPasswordManager(e.currentTarget as HTMLFormElement);
      } else localStorage.removeItem(REMEMBER_KEY);
      sessionStorage.setItem(WELCOME_FLAG, '1');
      onSuccess(safeRedirect(new URLSearchParams(window.location.search).get('redirect')));
    } catch (err) {
      setMessage({ kind: 'error', text: loginFailureText(err) ?? t('failed') });
      setBusy(false);
    }
  }

  return (
    <div className="zg-login" data-theme={theme}>
      <header className="zg-login__bar">
        <span className="zg-login__brand">
          {t('brand')}
          {import.meta.env.MODE === 'demo' && <span className="zg-login__badge">{t('demo')}</span>}
        </span>
        <span className="zg-login__tools">
          <label className="zg-visually-hidden" htmlFor={`${id}-lang`}>
            {t('language')}
          </label>
          <select id={`${id}-lang`} value={locale} onChange={(e) => switchLocale(e.target.value as Locale)}>
            <option value="zh-CN">中文</option>
            <option value="en-US">English</option>
          </select>
          <button
            type="button"
            className="zg-login__icon"
            onClick={toggleTheme}
            aria-label={theme === 'dark' ? t('themeLight') : t('themeDark')}
          >
            {theme === 'dark' ? '☀' : '☾'}
          </button>
        </span>
      </header>
      <main className="zg-login__main">
        <form
          className="zg-login__card"
          onSubmit={submit}
          onFocus={startPreload}
          onPointerDown={startPreload}
          noValidate
          aria-labelledby={`${id}-title`}
        >
          <h1 id={`${id}-title`}>{t('title')}</h1>
          <p className="zg-login__subtitle">{t('subtitle')}</p>
          {import.meta.env.MODE === 'demo' && <DemoHint text={t('demoHint')} />}
          <label htmlFor={`${id}-user`}>{t('username')}</label>
          <input
            id={`${id}-user`}
            name="username"
            autoComplete="username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            aria-invalid={!!errors.username}
            aria-describedby={errors.username ? `${id}-user-err` : undefined}
          />
          {errors.username && (
            <p className="zg-login__field-error" id={`${id}-user-err`} role="alert">
              {t(errors.username)}
            </p>
          )}
          <label htmlFor={`${id}-pass`}>{t('password')}</label>
          <input
            id={`${id}-pass`}
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={!!errors.password}
            aria-describedby={errors.password ? `${id}-pass-err` : undefined}
          />
          {errors.password && (
            <p className="zg-login__field-error" id={`${id}-pass-err`} role="alert">
              {t(errors.password)}
            </p>
          )}
          <div className="zg-login__row">
            <label className="zg-login__check">
              <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
              {t('remember')}
            </label>
            <button type="button" className="zg-login__link" onClick={() => setHelp('forgotHelp')}>
              {t('forgot')}
            </button>
          </div>
          <button type="submit" className="zg-login__submit" disabled={busy}>
            {busy ? t('submitting') : t('submit')}
          </button>
          <button
            type="button"
            className="zg-login__link zg-login__register"
            onClick={() => setHelp('registerHelp')}
          >
            {t('register')}
          </button>
          {help && (
            <div className="zg-login__help" role="note">
              <p>{t(help)}</p>
              <button type="button" className="zg-login__link" onClick={() => setHelp(null)}>
                {t('close')}
              </button>
            </div>
          )}
          <div className="zg-login__message" role="status" aria-live="polite">
            {message && <p className={`zg-login__${message.kind}`}>{message.text}</p>}
          </div>
        </form>
      </main>
    </div>
  );
}

/** Codes whose server message speaks to the operator (wrong credentials, too many attempts, bad input). */
const SAYS_WHY = new Set([40000, 40100, 42900, 50300]);

/** The server's own sentence for a refused login; undefined (→ the generic failure) for transport or server errors. */
export function loginFailureText(err: unknown): string | undefined {
  return err instanceof ApiFailure && SAYS_WHY.has(err.code) && err.msg ? err.msg : undefined;
}

/** "Remember password": hand the credentials to the browser's password manager; we never store a password. */
async function offerToPasswordManager(form: HTMLFormElement) {
  const PasswordCredentialCtor = (
    window as unknown as { PasswordCredential?: new (f: HTMLFormElement) => Credential }
  ).PasswordCredential;
  if (!PasswordCredentialCtor || !navigator.credentials?.store) return;
  try {
    await navigator.credentials.store(new PasswordCredentialCtor(form));
  } catch {
    // the browser declined: nothing to do
  }
}
