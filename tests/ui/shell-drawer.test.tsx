// @vitest-environment jsdom

import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { AdminContext, Notification, testDataProvider } from 'react-admin';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { confirmLogout, setReload } from '../../src/api/events';
import { createI18nProvider } from '../../src/i18n';
import { ConfirmLogoutDialog } from '../../src/layout/ConfirmLogoutDialog';
import { SettingsDrawer } from '../../src/layout/SettingsDrawer';
import { getSettings, resetSettingsCache, updateSettings } from '../../src/settings/store';
import { ScreenCss, screenTheme, warmUpScreens } from './warm-up';

warmUpScreens();

const wrap = (children: ReactNode) =>
  render(
    <ScreenCss>
      <AdminContext
        dataProvider={testDataProvider()}
        i18nProvider={createI18nProvider('zh-CN')}
        theme={screenTheme}
      >
        {children}
        <Notification />
      </AdminContext>
    </ScreenCss>,
  );

beforeEach(() => {
  localStorage.clear();
  resetSettingsCache();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

test('the drawer edits the settings, persists them, copies them with a message, and cancel closes it', async () => {
  const writeText = vi.fn(async () => {});
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  updateSettings({ globalSettings: true });
  wrap(<SettingsDrawer />);
  fireEvent.click(screen.getByRole('switch', { name: '底部' }));
  expect(getSettings().footer).toBe(false);
  fireEvent.click(screen.getByRole('switch', { name: '色弱模式' }));
  expect(document.body.style.filter).toBe('invert(80%)');
  fireEvent.change(screen.getByLabelText('菜单宽度 (px)'), { target: { value: '300' } });
  expect(getSettings().menuWidth).toBe(300);
  fireEvent.change(screen.getByLabelText('设备'), { target: { value: 'mobile' } });
  expect(getSettings().device).toBe('mobile');
  expect(JSON.parse(localStorage.getItem('settings')!)).toMatchObject({ footer: false, menuWidth: 300 });
  fireEvent.click(screen.getByRole('button', { name: '复制配置' }));
  await waitFor(() => expect(writeText).toHaveBeenCalled());
  expect(JSON.parse((writeText.mock.calls[0] as unknown as [string])[0])).toMatchObject({
    footer: false,
    menuWidth: 300,
  });
  expect(await screen.findByText('复制成功，请粘贴到部署配置中')).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: '取消' }));
  expect(getSettings().globalSettings).toBe(false);
  updateSettings({ colorWeak: false });
});

test('a floating settings button opens the drawer when the navbar is hidden', () => {
  updateSettings({ navbar: false });
  wrap(<SettingsDrawer />);
  fireEvent.click(screen.getByRole('button', { name: '打开页面配置' }));
  expect(getSettings().globalSettings).toBe(true);
});

test("'Confirm logout' opens on the client's request; Re-Login logs out and reloads", async () => {
  const reload = vi.fn();
  setReload(reload);
  localStorage.setItem('token', 't');
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response('{"code":20000,"msg":"ok","data":null}', {
          headers: { 'Content-Type': 'application/json' },
        }),
    ),
  );
  wrap(<ConfirmLogoutDialog />);
  expect(screen.queryByText('确认退出')).toBeNull();
  confirmLogout();
  expect(await screen.findByText('确认退出')).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: '重新登录' }));
  await waitFor(() => expect(reload).toHaveBeenCalled());
  expect(localStorage.getItem('token')).toBeNull();
});
