// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { getLocale, LOCALE_KEY, setLocale } from '../../src/i18n';

beforeEach(() => localStorage.clear());

describe('getLocale / setLocale', () => {
  it('defaults to zh-CN when nothing is stored', () => {
    expect(getLocale()).toBe('zh-CN');
  });

  it.each(['zh-CN', 'en-US'] as const)('returns the stored %s', (locale) => {
    localStorage.setItem(LOCALE_KEY, locale);
    expect(getLocale()).toBe(locale);
  });

  it.each(['fr-FR', 'zh', 'en', 'EN-us'])('falls back to en-US for the unknown stored value %s', (value) => {
    localStorage.setItem(LOCALE_KEY, value);
    expect(getLocale()).toBe('en-US');
  });

  it("persists under 'locale', storing en-US for an unknown value", () => {
    setLocale('en-US');
    expect(localStorage.getItem('locale')).toBe('en-US');
    expect(setLocale('de-DE')).toBe('en-US');
    expect(localStorage.getItem('locale')).toBe('en-US');
  });
});
