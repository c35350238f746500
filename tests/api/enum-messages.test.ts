import { afterAll, beforeAll, expect, test } from 'vitest';
import { enumParams, fieldMessage } from '../../server/core/i18n';
import { startApi, type TestApi } from './harness';

// Issue #17: a value outside a field's choices is answered with the choices as the operator knows them (their
// names in the request's language, the value sent after each), or at least quoted — never a bare list of codes.

test('the allowed values are named by their labels where the field has them, quoted where not', () => {
  const statuses = enumParams(['pending', 'rejected']);
  expect(fieldMessage('zh-CN', 'status', 'field.enum', statuses)).toBe(
    '请从以下取值中选择一个：待审核（pending）、已驳回（rejected）',
  );
  expect(fieldMessage('en-US', 'status', 'field.enum', statuses)).toBe(
    'Choose one of: Pending (pending), Rejected (rejected)',
  );
  // an item's field is named by its own key; a value without a label is quoted
  expect(fieldMessage('en-US', 'operators.2.role', 'field.enum', enumParams(['admin', 'user']))).toBe(
    'Choose one of: Admin (admin), User (user)',
  );
  expect(fieldMessage('zh-CN', 'type', 'field.enum', enumParams(['marquee', 'popup']))).toBe(
    '请从以下取值中选择一个：“marquee”、“popup”',
  );
  expect(fieldMessage('en-US', 'type', 'field.enum', enumParams(['marquee', 'popup']))).toBe(
    'Choose one of: "marquee", "popup"',
  );
});

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

test("the API's answer names the field and its choices in the request's language", async () => {
  const admin = await api.login();
  const zh = await api.call('GET', '/app/admin/movie/movies?view=review&status=online', { token: admin });
  expect(zh.body).toMatchObject({
    code: 40000,
    msg: '状态：请从以下取值中选择一个：待审核（pending）、已驳回（rejected）',
    data: { fields: { status: '请从以下取值中选择一个：待审核（pending）、已驳回（rejected）' } },
  });
  const en = await api.call('GET', '/app/admin/movie/movies?view=review&status=online', {
    token: admin,
    headers: { 'Accept-Language': 'en-US' },
  });
  expect(en.body.code).toBe(40000);
  expect(en.body.data.fields.status).toMatch(/^Choose one of: \S.* \(pending\), \S.* \(rejected\)$/);
  // an operator's role is one of the roles the tenant has (no fixed list): an unknown one is named as such
  const role = await api.call('POST', '/app/admin/operators', {
    token: admin,
    headers: { 'Accept-Language': 'en-US' },
    body: { account: 'enum-check', password: 'password-1', nickname: 'x', role: 'root' },
  });
  expect(role.body.data.fields.role).toBe('No such role: choose one under Roles');
  expect(en.body.msg).not.toMatch(/\{values\}/);
});
