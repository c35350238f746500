/**
 * The bridge between the HTTP client (which runs everywhere, login page included) and whatever UI is mounted:
 * toasts, the 'Confirm logout' dialog, navigation and reload. No React, no react-admin.
 */
export type ToastType = 'error' | 'success' | 'info' | 'warning';
export interface Toast {
  type: ToastType;
  message: string;
  /** Milliseconds. */
  duration: number;
}

type Listener<T> = (value: T) => void;

function channel<T>() {
  const listeners = new Set<Listener<T>>();
  return {
    on(fn: Listener<T>): () => void {
      listeners.add(fn);
      return () => {
        listeners.delete(fn);
      };
    },
    emit(value: T): boolean {
      for (const fn of [...listeners]) fn(value);
      return listeners.size > 0;
    },
  };
}

const toasts = channel<Toast>();
const confirmLogouts = channel<void>();

/** Listen to toasts; returns the unsubscribe function. */
export const onToast = (fn: (t: Toast) => void): (() => void) => toasts.on(fn);

/** Show a toast; with nobody listening it goes to console.warn. */
export function toast(t: Toast): void {
  if (!toasts.emit(t)) console.warn(`[${t.type}] ${t.message}`);
}

/** Listen to the request for the 'Confirm logout' dialog (codes 50008/50012/50014). */
export const onConfirmLogout = (fn: () => void): (() => void) => confirmLogouts.on(fn);

/** Ask the mounted UI to show the 'Confirm logout' dialog. */
export function confirmLogout(): void {
  if (!confirmLogouts.emit()) console.warn('[confirm-logout] the session has ended');
}

let navigateImpl: (to: string) => void = (to) => window.location.assign(to);
let reloadImpl: () => void = () => window.location.reload();

/** Route navigation requests (e.g. to the router's navigate); the default is a full page load. */
export function setNavigate(fn: (to: string) => void): void {
  navigateImpl = fn;
}

export function navigate(to: string): void {
  navigateImpl(to);
}

/** Replace the page reload (used by 'Re-Login'); the default is `window.location.reload()`. */
export function setReload(fn: () => void): void {
  reloadImpl = fn;
}

export function reload(): void {
  reloadImpl();
}
