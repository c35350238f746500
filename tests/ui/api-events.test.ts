// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  confirmLogout,
  navigate,
  onConfirmLogout,
  onToast,
  reload,
  setNavigate,
  setReload,
  toast,
} from '../../src/api/events';

afterEach(() => vi.restoreAllMocks());

describe('events', () => {
  it('delivers toasts to listeners until they unsubscribe', () => {
    const seen: string[] = [];
    const off = onToast((t) => seen.push(t.message));
    toast({ type: 'success', message: 'one', duration: 5000 });
    off();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    toast({ type: 'success', message: 'two', duration: 5000 });
    expect(seen).toEqual(['one']);
  });

  it('sends toasts to console.warn when nobody listens', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    toast({ type: 'error', message: 'lonely', duration: 5000 });
    expect(warn).toHaveBeenCalledWith('[error] lonely');
  });

  it('delivers the confirm-logout request', () => {
    const fn = vi.fn();
    const off = onConfirmLogout(fn);
    confirmLogout();
    off();
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('routes navigate and reload to what was set', () => {
    const go = vi.fn();
    const again = vi.fn();
    setNavigate(go);
    setReload(again);
    navigate('/login?redirect=%2F');
    reload();
    expect(go).toHaveBeenCalledWith('/login?redirect=%2F');
    expect(again).toHaveBeenCalledTimes(1);
  });
});
