// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { LoginPage, WELCOME_FLAG } from '../../src/login/LoginPage';

const envelope = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  window.history.replaceState(null, '', '/login?redirect=%2Fsetting%2Foperators');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const fill = (name: string, value: string) =>
  fireEvent.change(document.querySelector(`input[name="${name}"]`)!, { target: { value } });

test('empty fields say 用户名不能为空 / 密码不能为空 and nothing is sent', async () => {
  const fetch = vi.fn();
  vi.stubGlobal('fetch', fetch);
  render(<LoginPage onSuccess={() => {}} />);
  fireEvent.click(screen.getByRole('button', { name: '登录' }));
  expect(await screen.findByText('用户名不能为空')).toBeTruthy();
  expect(screen.getByText('密码不能为空')).toBeTruthy();
  expect(fetch).not.toHaveBeenCalled();
});

test('a successful login stores token and uid, flags the welcome and goes to the redirect target', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => envelope({ code: 20000, msg: 'ok', data: { token: 'tok', id: 7 } })),
  );
  const onSuccess = vi.fn();
  render(<LoginPage onSuccess={onSuccess} />);
  fill('username', 'admin');
  fill('password', 'secret-1');
  fireEvent.click(screen.getByRole('button', { name: '登录' }));
  await waitFor(() => expect(onSuccess).toHaveBeenCalledWith('/setting/operators'));
  expect(localStorage.getItem('token')).toBe('tok');
  expect(localStorage.getItem('uid')).toBe('7');
  expect(sessionStorage.getItem(WELCOME_FLAG)).toBe('1');
});

test("wrong credentials show the server's message; a transport failure shows 登录出错，请稍后重试", async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => envelope({ code: 40100, msg: '用户名或密码错误', data: null })),
  );
  render(<LoginPage onSuccess={() => {}} />);
  fill('username', 'admin');
  fill('password', 'nope');
  fireEvent.click(screen.getByRole('button', { name: '登录' }));
  expect(await screen.findByText('用户名或密码错误')).toBeTruthy();
  expect(localStorage.getItem('token')).toBeNull();
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
  );
  fireEvent.click(screen.getByRole('button', { name: '登录' }));
  expect(await screen.findByText('登录出错，请稍后重试')).toBeTruthy();
});

test('remember keeps the user name (never the password); forgot and register explain who creates accounts', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => envelope({ code: 20000, msg: 'ok', data: { token: 't', id: 1 } })),
  );
  render(<LoginPage onSuccess={() => {}} />);
  fill('username', 'lily');
  fill('password', 'pass-1234');
  fireEvent.click(screen.getByLabelText('记住密码'));
  fireEvent.click(screen.getByRole('button', { name: '登录' }));
  await waitFor(() => expect(localStorage.getItem('remember-username')).toBe('lily'));
  expect(JSON.stringify({ ...localStorage })).not.toContain('pass-1234');
  fireEvent.click(screen.getByRole('button', { name: '注册账号' }));
  expect(screen.getByRole('note').textContent).toContain('管理员创建');
});

test('the language switch changes the page to English and saves it', async () => {
  render(<LoginPage onSuccess={() => {}} />);
  fireEvent.change(screen.getByLabelText('语言'), { target: { value: 'en-US' } });
  expect(await screen.findByRole('button', { name: 'Log in' })).toBeTruthy();
  expect(localStorage.getItem('locale')).toBe('en-US');
  expect(document.documentElement.lang).toBe('en-US');
});

test("the server's sentence only for refused logins (40100, 42900); server errors get the generic failure", async () => {
  let answer = { code: 42900, msg: '尝试次数过多，请稍后再试', data: null };
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => envelope(answer)),
  );
  render(<LoginPage onSuccess={() => {}} />);
  fill('username', 'admin');
  fill('password', 'secret-1');
  fireEvent.click(screen.getByRole('button', { name: '登录' }));
  expect(await screen.findByText('尝试次数过多，请稍后再试')).toBeTruthy();
  answer = { code: 50000, msg: 'Internal error (request id abc)', data: null };
  fireEvent.click(screen.getByRole('button', { name: '登录' }));
  expect(await screen.findByText('登录出错，请稍后重试')).toBeTruthy();
  expect(screen.queryByText(/Internal error/)).toBeNull();
});

test('in production mode there is no demo badge nor demo credentials', () => {
  render(<LoginPage onSuccess={() => {}} />);
  expect(screen.queryByText('演示')).toBeNull();
  expect(screen.queryByText(/demo1234/)).toBeNull();
});

test('in demo mode a badge and the demo login (admin / demo1234) show', () => {
  vi.stubEnv('MODE', 'demo');
  try {
    render(<LoginPage onSuccess={() => {}} />);
    expect(screen.getByText('演示')).toBeTruthy();
    expect(screen.getByText(/用户名 admin，密码 demo1234/)).toBeTruthy();
  } finally {
    vi.unstubAllEnvs();
  }
});

test('what follows the login loads while the operator types: preload once on the first focus, not on show', async () => {
  const preload = vi.fn();
  vi.stubGlobal('fetch', vi.fn());
  render(<LoginPage onSuccess={() => {}} preload={preload} />);
  expect(preload).not.toHaveBeenCalled(); // the page's own load stays small (npm run bench -- bundle)
  fireEvent.focus(document.querySelector('input[name="username"]')!);
  fill('username', 'admin');
  fireEvent.focus(document.querySelector('input[name="password"]')!);
  fireEvent.pointerDown(screen.getByRole('button', { name: '登录' }));
  expect(preload).toHaveBeenCalledTimes(1);
});

test('right after the login GET admin/info is asked, before the admin shows (it needs the role first)', async () => {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      urls.push(String(url));
      return url.includes('admin/login')
        ? envelope({ code: 20000, msg: 'ok', data: { token: 'tok', id: 7 } })
        : envelope({ code: 20000, msg: 'ok', data: { uid: 7, account: 'admin', role: 'admin' } });
    }),
  );
  const onSuccess = vi.fn();
  render(<LoginPage onSuccess={onSuccess} />);
  fill('username', 'admin');
  fill('password', 'secret-1');
  fireEvent.click(screen.getByRole('button', { name: '登录' }));
  await waitFor(() => expect(onSuccess).toHaveBeenCalled());
  expect(urls).toEqual(['/app/admin/login', '/app/admin/info?id=7']);
});
