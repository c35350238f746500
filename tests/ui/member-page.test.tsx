// @vitest-environment jsdom
/**
 * Issue #52: a member's own page (`/users/detail/:id`) over the real API in-process (PGlite): the profile with the
 * agent and inviter they came by, their comments, guestbook entries and bans; the admin's edit saved on the version
 * read (a stale save offers a reload and overwrites nothing); the reset code shown once; read-only for operators.
 */
import { fireEvent, screen, within } from '@testing-library/react';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { sha256Hex } from '../../server/core/crypto';
import { clearUser, loadUser, login } from '../../src/api/session';
import { ADMIN_PASSWORD, type TestApi, USER_PASSWORD } from '../api/harness';
import { okData } from '../api/movies-helpers';
import { inProcessApi } from './in-process-api';
import { mountAdmin } from './mount';

vi.setConfig({ testTimeout: 60_000 });

let api: TestApi;
let token: string;
let memberId: number;
let inviterId: number;

const version = async () =>
  (await api.query<{ version: number }>(sql`select version from site_users where id = ${memberId}`))[0]
    .version;
const points = async () =>
  (await api.query<{ points: number }>(sql`select points from site_users where id = ${memberId}`))[0].points;

inProcessApi({ signIn: false }, async (started, admin) => {
  api = started;
  token = admin;
  await api.createOperator(token, { account: 'reader' });
  await okData(
    api.call('POST', '/app/admin/agents', {
      token,
      body: { name: '星河联盟', channel: 'xinghe', model: 'share', rate: 30 },
    }),
  );
  [{ id: inviterId }] = await api.query<{ id: number }>(
    sql`insert into site_users (tenant, account) values (2, 'friendly') returning id`,
  );
  [{ id: memberId }] = await api.query<{ id: number }>(sql`
    insert into site_users (tenant, account, nickname, phone, "group", points, channel, inviter, signup_address,
      last_login_at, last_login_address)
    values (2, 'pagemember', '追剧达人', '13812345678', 'normal', 120, 'xinghe', ${inviterId}, '198.51.100.7',
      '2026-05-31T10:00:00Z', '203.0.113.9')
    returning id`);
  const [{ id: movie }] = await api.query<{ id: number }>(
    sql`insert into movies (title) values ('星际穿越') returning id`,
  );
  await api.query(sql`insert into comments (tenant, target_type, target_id, user_id, content, status)
    values (2, 'movie', ${movie}, ${memberId}, '第一条评论：画面很好', 'online'),
           (2, 'movie', ${movie}, ${memberId}, '第二条评论：剧情一般', 'pending')`);
  await api.query(sql`insert into guestbook (tenant, user_id, content, status)
    values (2, ${memberId}, '希望多更新纪录片', 'online')`);
  // One ban, undone an hour later: the history shows both.
  await okData(api.call('POST', `/app/admin/users/${memberId}/ban`, { token }));
  api.clock.advance(3_600_000);
  await okData(api.call('POST', `/app/admin/users/${memberId}/undo-ban`, { token }));
});

async function signIn(account: string, password: string) {
  clearUser();
  localStorage.clear();
  await login(account, password);
  await loadUser();
}

const mount = (path = `/users/detail/${memberId}`) => mountAdmin(path);

const SAVE = /保存/;

describe('as admin', () => {
  beforeAll(() => signIn('admin', ADMIN_PASSWORD));

  test('the profile, where they came from, their posts (each linking to it) and their bans', async () => {
    mount();
    await screen.findByText('追剧达人');
    // Contacts in full for an admin, the last login with its address.
    expect(screen.getByText('13812345678')).toBeTruthy();
    expect(screen.getByText('最后登录').nextElementSibling?.textContent).toMatch(/· 203\.0\.113\.9$/);
    const agent = await screen.findByRole('link', { name: '星河联盟' });
    expect(agent.getAttribute('href')).toMatch(/^\/agents\/stat\/\d+$/);
    expect(screen.getByRole('link', { name: `#${inviterId}` }).getAttribute('href')).toBe(
      `/users/detail/${inviterId}`,
    );
    const comment = await screen.findByRole('link', { name: '第一条评论：画面很好' });
    const [{ id: commentId }] = await api.query<{ id: number }>(
      sql`select id from comments where content = '第一条评论：画面很好'`,
    );
    expect(decodeURIComponent(comment.getAttribute('href')!)).toBe(
      `/comment/list?filter={"ids":"${commentId}"}`,
    );
    expect(screen.getByRole('link', { name: '第二条评论：剧情一般' })).toBeTruthy();
    const entry = await screen.findByRole('link', { name: '希望多更新纪录片' });
    expect(decodeURIComponent(entry.getAttribute('href')!)).toMatch(
      /^\/comment\/guestbook\?filter=\{"ids":"\d+"\}$/,
    );
    // The ban: what it hid and blacklisted, undone by the admin.
    const ban = (await screen.findByText('2 条评论，1 条留言')).closest('tr') as HTMLElement;
    expect(within(ban).getByText('203.0.113.9')).toBeTruthy();
    expect(within(ban).getAllByText(/admin|管理员/).length).toBeGreaterThan(0);
    expect(screen.queryByText('生效中')).toBeNull();
  });

  test('a save goes on the version read; a stale one offers a reload and overwrites nothing', async () => {
    mount();
    const input = (await screen.findByLabelText(/积分/, { selector: 'input' })) as HTMLInputElement;
    await screen.findByDisplayValue('120');
    fireEvent.change(input, { target: { value: '500' } });
    const before = await version();
    fireEvent.click(screen.getByRole('button', { name: SAVE }));
    await screen.findByText('会员已保存');
    expect(await points()).toBe(500);
    expect(await version()).toBe(before + 1);

    // Someone else saves first: this page's version is now stale.
    await okData(
      api.call('PUT', `/app/admin/users/${memberId}`, { token, body: { points: 777, version: before + 1 } }),
    );
    fireEvent.change(input, { target: { value: '900' } });
    fireEvent.click(screen.getByRole('button', { name: SAVE }));
    expect(await screen.findByText('该记录已被他人修改，请重新加载查看最新版本。')).toBeTruthy();
    expect(await points()).toBe(777);
    fireEvent.click(screen.getByRole('button', { name: '重新加载' }));
    await screen.findByDisplayValue('777');
    expect(screen.queryByText('该记录已被他人修改，请重新加载查看最新版本。')).toBeNull();
  });

  test('taking the VIP level to 0 ends its expiry too; members are not deleted here', async () => {
    await api.query(sql`update site_users set vip_level = 2, vip_expires_at = '2026-09-01T00:00:00Z',
      version = version + 1 where id = ${memberId}`);
    mount();
    const level = (await screen.findByLabelText(/VIP 等级/, { selector: 'input' })) as HTMLInputElement;
    await screen.findByDisplayValue('2');
    expect(screen.queryByRole('button', { name: /删除/ })).toBeNull();
    fireEvent.change(level, { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: SAVE }));
    await screen.findByText('会员已保存');
    const [row] = await api.query<{ vip_level: number; vip_expires_at: string | null }>(
      sql`select vip_level, vip_expires_at from site_users where id = ${memberId}`,
    );
    expect(row).toEqual({ vip_level: 0, vip_expires_at: null });
  });

  test('the reset code is shown once, kept only hashed, and gone when its dialog closes', async () => {
    mount();
    fireEvent.click(await screen.findByRole('button', { name: '生成重置码' }));
    const ask = await screen.findByRole('dialog');
    expect(within(ask).getByText(/为 pagemember 生成一次性密码重置码/)).toBeTruthy();
    fireEvent.click(within(ask).getByRole('button', { name: /确认/ }));
    const shown = await screen.findByTestId('reset-code');
    const code = shown.textContent!;
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    expect(screen.getByText(/只显示这一次/)).toBeTruthy();
    const [row] = await api.query<{ code_hash: string }>(
      sql`select code_hash from site_user_reset_codes where user_id = ${memberId} and used_at is null`,
    );
    expect(row.code_hash).toBe(await sha256Hex(code.replace(/-/g, '')));
    fireEvent.click(screen.getByRole('button', { name: '完成' }));
    await vi.waitFor(() => expect(screen.queryByTestId('reset-code')).toBeNull());
    expect(document.body.textContent).not.toContain(code);
    // What stays is whether the latest code was used, never the code.
    expect((await screen.findByText(/生成 · 未使用，.+前有效$/)).dataset.testid).toBe('latest-code');
  });
});

describe('as an operator (user role)', () => {
  beforeAll(() => signIn('reader', USER_PASSWORD));

  test('read-only: the reason at the top, no save, inputs and the reset code disabled; posts still open', async () => {
    mount();
    expect(await screen.findByText('你可以查看此页面；你的角色没有修改权限。')).toBeTruthy();
    await screen.findByText('追剧达人');
    // Contacts masked for operators.
    expect(screen.getByText('138****5678')).toBeTruthy();
    expect(
      screen.queryAllByRole('button', { name: SAVE }).filter((b) => !(b as HTMLButtonElement).disabled),
    ).toEqual([]);
    const input = (await screen.findByLabelText(/积分/, { selector: 'input' })) as HTMLInputElement;
    expect(input.matches(':disabled')).toBe(true);
    expect((screen.getByRole('button', { name: '生成重置码' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByTestId('latest-code')).toBeNull();
    expect(await screen.findByRole('link', { name: '希望多更新纪录片' })).toBeTruthy();
  });
});
