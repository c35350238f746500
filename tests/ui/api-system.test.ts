// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onToast, type Toast } from '../../src/api/events';
import { setLocale } from '../../src/api/locale';
import {
  getSystemSettings,
  loadSystemSettings,
  saveSystemSettings,
  useSystemSettings,
} from '../../src/api/system';
import { envelope, json, queryOf, stubFetch } from './api-fetch-stub';

const platforms = [
  { name: '樱桃', key: 2 },
  { name: '一号', key: 1 },
  { name: '樱花', key: 4 },
];
const answer = { imgdomain: 'https://img.example', platforms, version: 3, notice: 'hi' };

let toasts: Toast[];
const off: Array<() => void> = [];

beforeEach(() => {
  localStorage.clear();
  toasts = [];
  off.push(onToast((t) => toasts.push(t)));
});

afterEach(() => {
  for (const fn of off.splice(0)) fn();
  vi.unstubAllGlobals();
});

describe('loadSystemSettings', () => {
  it('GETs admin/sys/getSetting for tenant 2 and stores the fields with the platform map', async () => {
    const seen = stubFetch(envelope(answer));
    const settings = await loadSystemSettings();
    expect(seen[0].url.split('?')[0]).toBe('/app/admin/sys/getSetting');
    expect(queryOf(seen[0].url)).toEqual({ tenant: '2' });
    expect(settings).toEqual({ ...answer, platformMap: { '2': '樱桃', '1': '一号', '4': '樱花' } });
    expect(getSystemSettings()).toEqual(settings);
  });

  it('asks for another tenant when told', async () => {
    const seen = stubFetch(envelope(answer));
    await loadSystemSettings(5);
    expect(queryOf(seen[0].url)).toEqual({ tenant: '5' });
  });

  it('re-renders useSystemSettings when the store changes', async () => {
    stubFetch(envelope({ ...answer, imgdomain: 'https://a' }));
    await loadSystemSettings();
    const { result } = renderHook(() => useSystemSettings());
    expect(result.current?.imgdomain).toBe('https://a');
    stubFetch(envelope({ ...answer, imgdomain: 'https://b' }));
    await act(() => loadSystemSettings());
    expect(result.current?.imgdomain).toBe('https://b');
  });

  it('toasts the error message once and resolves null on failure', async () => {
    stubFetch(envelope(null, 50014, 'Your session has expired'));
    await expect(loadSystemSettings()).resolves.toBeNull();
    expect(toasts).toEqual([{ type: 'error', message: 'Your session has expired', duration: 5000 }]);
  });

  it("toasts the fallback '系统配置请求失败' when the failure has no message", async () => {
    stubFetch(json({ oops: true }, 502));
    await expect(loadSystemSettings()).resolves.toBeNull();
    expect(toasts).toEqual([{ type: 'error', message: '系统配置请求失败', duration: 5000 }]);
  });

  it('toasts the English fallback in en-US', async () => {
    setLocale('en-US');
    stubFetch(envelope(null, 40000, ''));
    await loadSystemSettings();
    expect(toasts.map((t) => t.message)).toEqual(['System configuration request failed']);
  });

  it('toasts a transport error message', async () => {
    stubFetch(new TypeError('Failed to fetch'));
    await loadSystemSettings();
    expect(toasts.map((t) => t.message)).toEqual(['Failed to fetch']);
  });
});

describe('saveSystemSettings', () => {
  it('POSTs updateSetting without the derived map, then refreshes the store', async () => {
    const saved = { ...answer, notice: 'new', version: 4 };
    const seen = stubFetch(envelope(saved), envelope(saved));
    const result = await saveSystemSettings({
      tenant: 2,
      version: 3,
      notice: 'new',
      platformMap: { 2: 'x' },
    });
    expect(result).toEqual(saved);
    expect(seen[0]).toMatchObject({ url: '/app/admin/sys/updateSetting', method: 'POST' });
    expect(seen[0].body).toEqual({ tenant: 2, version: 3, notice: 'new' });
    expect(seen[1].url).toBe('/app/admin/sys/getSetting?tenant=2');
    expect(getSystemSettings()).toMatchObject({ notice: 'new', version: 4 });
  });

  it('toasts and rethrows a refusal', async () => {
    stubFetch(envelope(null, 40900, 'Someone else changed this record'));
    await expect(saveSystemSettings({ version: 1 })).rejects.toMatchObject({ code: 40900 });
    expect(toasts.map((t) => t.message)).toEqual(['Someone else changed this record']);
  });
});
