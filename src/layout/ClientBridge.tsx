import { useEffect } from 'react';
import { useLocaleState, useNotify } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { onToast, setNavigate } from '../api/events';
import { loadSystemSettings } from '../api/system';
import { WELCOME_FLAG } from '../login/LoginPage';
import { LOCALE_CHANGED_FLAG } from './LocaleSwitch';

/**
 * Connects the UI-agnostic HTTP client to the admin: its toasts become react-admin notifications (5 s for errors),
 * its navigations go through the router; greets after login and loads the system settings once (SPEC.md §7).
 */
export function ClientBridge() {
  const notify = useNotify();
  const navigate = useNavigate();
  // The router's navigate changes with every location: what depends on it is rebound, the settings are not reloaded.
  useEffect(() => {
    setNavigate((to) => navigate(to));
  }, [navigate]);
  useEffect(
    () =>
      onToast((t) =>
        notify(t.message, { type: t.type, autoHideDuration: t.duration, messageArgs: { _: t.message } }),
      ),
    [notify],
  );
  useEffect(() => {
    loadSystemSettings();
  }, []);
  useEffect(() => {
    if (!sessionStorage.getItem(WELCOME_FLAG)) return;
    sessionStorage.removeItem(WELCOME_FLAG);
    notify('shell.user.welcome', { type: 'success' });
  }, [notify]);
  const [locale] = useLocaleState();
  useEffect(() => {
    if (sessionStorage.getItem(LOCALE_CHANGED_FLAG) !== locale) return;
    // react-admin remounts its notification context while it switches the bundles: post once that has settled
    const timer = setTimeout(() => {
      sessionStorage.removeItem(LOCALE_CHANGED_FLAG);
      notify('shell.navbar.languageChanged', { type: 'success' });
    }, 400);
    return () => clearTimeout(timer);
  }, [locale, notify]);
  return null;
}
