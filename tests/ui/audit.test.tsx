// @vitest-environment jsdom
/**
 * The audit log screen (issue #52) over the real API in-process (PGlite): the menu entry for admins only, the list
 * of what changed with its empty state, a row opening its before and after (a secret shown as redacted), the
 * filters, the retention dialog, and the CSV the export writes.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { sql } from 'drizzle-orm';
import type { ReactNode } from 'react';
import { expect, test, vi } from 'vitest';
import { builtinPermissions } from '../../src/auth/catalog';
import { toCsv } from '../../src/components/ExportCsvButton';
import { sections } from '../../src/resources';
import { AuditList } from '../../src/resources/setting/audit/AuditList';
import { fieldChanges, summaryOf } from '../../src/resources/setting/audit/changes';
import { useFieldName } from '../../src/resources/setting/audit/fieldNames';
import { AUDIT_RESOURCE } from '../../src/resources/setting/names';
import { apiPaths } from '../../src/routes/build';
import { menuFor } from '../../src/routes/table';
import type { TestApi } from '../api/harness';
import { okData } from '../api/movies-helpers';
import { inProcessApi } from './in-process-api';
import { mountScreen } from './mount';

vi.setConfig({ testTimeout: 60_000 });

let api: TestApi;
let token: string;

inProcessApi((started, admin) => {
  api = started;
  token = admin;
});

const mount = (node: ReactNode, locale: 'zh-CN' | 'en-US' = 'zh-CN') =>
  mountScreen(node, { url: '/setting/audit', path: '/setting/audit', resource: AUDIT_RESOURCE, locale });

test('the screen is in the settings menu for admins only, at /setting/audit', () => {
  const items = (role: 'admin' | 'user') =>
    menuFor(sections, builtinPermissions(role))
      .find((s) => s.path === '/setting')
      ?.items.map((i) => i.path) ?? [];
  expect(items('admin')).toContain('/setting/audit');
  expect(items('user')).not.toContain('/setting/audit');
  expect(apiPaths(sections)).toMatchObject({ [AUDIT_RESOURCE]: 'admin/setting/audit' });
});

test('empty: the empty state, the filters still there', async () => {
  mount(<AuditList />);
  // A record no entry names.
  fireEvent.change(await screen.findByLabelText('记录 ID'), { target: { value: '999999' } });
  expect(await screen.findByText('暂无记录')).toBeTruthy();
  expect(screen.getByRole('combobox', { name: '模块' })).toBeTruthy();
});

test('a change shows in the list; its row opens the fields before and after, the secret redacted', async () => {
  await okData(api.call('POST', '/app/admin/sys/updateSetting', { token, body: { siteName: '旧站名' } }));
  await okData(
    api.call('POST', '/app/admin/sys/updateSetting', {
      token,
      body: { siteName: '新站名', provideKey: 'very-secret-key' },
    }),
  );
  mount(<AuditList />);
  // Fields by the names their screen gives them, not their keys.
  const cell = (await screen.findAllByText('字段：站点名称, 接口密钥'))[0];
  expect(screen.queryByText(/siteName/)).toBeNull();
  expect(screen.getAllByText('系统设置').length).toBeGreaterThan(0);
  // The resource is named in the interface language, never as the API's English tag.
  expect(screen.queryByText('settings')).toBeNull();
  fireEvent.click(cell);
  const detail = await screen.findByTestId('audit-detail');
  const table = within(detail).getByRole('table', { name: '变更的字段' });
  expect(within(table).getByText('站点名称')).toBeTruthy();
  expect(within(table).getByText('接口密钥')).toBeTruthy();
  expect(within(table).getByText('旧站名')).toBeTruthy();
  expect(within(table).getByText('新站名')).toBeTruthy();
  expect(within(table).getByText('[redacted]')).toBeTruthy();
  expect(screen.queryByText(/very-secret-key/)).toBeNull();
  expect(within(detail).getByText('POST /app/admin/sys/updateSetting')).toBeTruthy();
});

test('in English: fields by their screen’s names, a key nobody names as it is, a module’s own action by its name', async () => {
  const [source] = await api.query<{ id: number }>(
    sql`insert into collect_sources (name, url) values ('站', 'https://res.example/api.php/provide/vod/') returning id`,
  );
  // A remote type id is a field no screen names: shown as it is.
  await okData(
    api.call('PUT', `/app/admin/collect/sources/${source.id}/bindings`, {
      token,
      body: { bindings: [{ remoteTypeId: 7, remoteTypeName: '电影', columnId: null, skipped: true }] },
    }),
  );
  mount(<AuditList />, 'en-US');
  expect((await screen.findAllByText('Fields: Site name, API key')).length).toBeGreaterThan(0);
  const bindings = await screen.findByText('Fields: 7');
  fireEvent.click(bindings);
  const detail = await screen.findByTestId('audit-detail');
  const table = within(detail).getByRole('table', { name: 'Changed fields' });
  expect(within(table).getByText('7')).toBeTruthy();
  expect(within(detail).getByText('PUT /app/admin/collect/sources/:id/bindings')).toBeTruthy();
  expect(screen.getAllByText('Bind types').length).toBeGreaterThan(0);
});

test('field names, both languages: the screen’s label first, else the API’s field name, else the key', async () => {
  function Names() {
    const name = useFieldName();
    const settings = { section: 'sys', resource: 'settings' };
    const elsewhere = { section: 'domain', resource: 'domain config' };
    return (
      <span data-testid="names">
        {[name('siteName', settings), name('hostname', elsewhere), name('swappedWith', elsewhere)].join('|')}
      </span>
    );
  }
  const names = async (locale: 'zh-CN' | 'en-US') => {
    mount(<Names />, locale);
    const text = (await screen.findByTestId('names')).textContent;
    cleanup();
    return text;
  };
  expect(await names('zh-CN')).toBe('站点名称|域名|swappedWith');
  expect(await names('en-US')).toBe('Site name|Hostname|swappedWith');
});

test('filters: by section only that section’s entries', async () => {
  await okData(
    api.call('POST', '/app/admin/setting/notices', {
      token,
      body: {
        type: 'marquee',
        title: '审计公告',
        content: 'x',
        platforms: [2],
        startAt: '2026-06-01T00:00:00Z',
      },
    }),
  );
  mount(<AuditList />, 'en-US');
  expect((await screen.findAllByText('Notices')).length).toBeGreaterThan(0);
  fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'Section' }));
  fireEvent.click(await screen.findByRole('option', { name: 'System settings' }));
  await waitFor(() => expect(screen.queryByText('Notices')).toBeNull());
  expect(screen.getAllByText('System settings').length).toBeGreaterThan(1);
});

test('retention: the dialog refuses a value out of range and saves one in range', async () => {
  mount(<AuditList />);
  fireEvent.click(await screen.findByRole('button', { name: '保留 180 天' }));
  const input = await screen.findByLabelText('保留天数');
  fireEvent.change(input, { target: { value: '3' } });
  expect(screen.getByText('请输入 7 到 3650 之间的天数')).toBeTruthy();
  expect((screen.getByRole('button', { name: '保存' }) as HTMLButtonElement).disabled).toBe(true);
  fireEvent.change(input, { target: { value: '90' } });
  fireEvent.click(screen.getByRole('button', { name: '保存' }));
  expect(await screen.findByRole('button', { name: '保留 90 天' })).toBeTruthy();
  expect((await okData(api.call('GET', '/app/admin/setting/audit/settings', { token }))).retentionDays).toBe(
    90,
  );
});

test('the CSV: one line per entry, the changes as JSON, a secret only as [redacted]', async () => {
  const { list } = await okData(
    api.call('GET', '/app/admin/setting/audit?section=sys&pageSize=10', { token }),
  );
  const t = (key: string) => key;
  const csv = toCsv(
    list,
    [
      { label: 'at', value: (r) => r.at },
      { label: 'changes', value: (r) => JSON.stringify(r.changes) },
    ],
    t,
  );
  expect(csv.split('\r\n')).toHaveLength(list.length + 1);
  expect(csv).toContain('[redacted]');
  expect(csv).not.toContain('very-secret-key');
  const last = list[0];
  expect(fieldChanges(last.changes).map((c) => c.field)).toEqual(['siteName', 'provideKey']);
  expect(summaryOf({ ids: [1, 2], count: 2, changed: 2 })).toEqual({ kind: 'batch', text: '2', names: [] });
});
