// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18nProvider, getMessages, i18nProvider } from '../../src/i18n';

beforeEach(() => localStorage.clear());
afterEach(() => vi.restoreAllMocks());

describe('i18nProvider', () => {
  it('offers 中文 and English', () => {
    expect(i18nProvider.getLocales?.()).toEqual([
      { locale: 'zh-CN', name: '中文' },
      { locale: 'en-US', name: 'English' },
    ]);
  });

  it('starts in the stored locale, zh-CN by default', () => {
    expect(createI18nProvider().getLocale()).toBe('zh-CN');
    expect(createI18nProvider().translate('ra.action.save')).toBe('保存');
    localStorage.setItem('locale', 'en-US');
    expect(createI18nProvider().translate('ra.action.save')).toBe('Save');
  });

  it('changeLocale switches the messages and persists the choice', async () => {
    const provider = createI18nProvider();
    await provider.changeLocale('en-US');
    expect(provider.getLocale()).toBe('en-US');
    expect(provider.translate('http.confirmLogout.relogin')).toBe('Re-Login');
    expect(localStorage.getItem('locale')).toBe('en-US');
    await provider.changeLocale('zh-CN');
    expect(provider.translate('http.confirmLogout.relogin')).toBe('重新登录');
    expect(localStorage.getItem('locale')).toBe('zh-CN');
  });

  it('changeLocale to an unknown locale falls back to en-US', async () => {
    const provider = createI18nProvider();
    await provider.changeLocale('fr-FR');
    expect(provider.getLocale()).toBe('en-US');
    expect(localStorage.getItem('locale')).toBe('en-US');
  });

  it('an unknown locale gets the en-US messages', () => {
    expect(getMessages('xx')).toBe(getMessages('en-US'));
  });

  it('interpolates and pluralises react-admin messages in Chinese', () => {
    const provider = createI18nProvider('zh-CN');
    expect(provider.translate('ra.action.bulk_actions', { smart_count: 3 })).toBe('已选择 3 项');
    expect(
      provider.translate('ra.navigation.page_range_info', { offsetBegin: 1, offsetEnd: 20, total: 42 }),
    ).toBe('第 1-20 条，共 42 条');
  });

  it('shows a missing key (and warns) in development', () => {
    const warn = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(createI18nProvider('en-US').translate('shell.nope.missing')).toBe('shell.nope.missing');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('shell.nope.missing'));
  });
});
