import { afterAll, beforeAll, expect, test } from 'vitest';
import { isDebutBeforeBirth, isFutureDay, isFutureYear, latestToday } from '../../common/dates';
import { startApi, type TestApi } from './harness';

/**
 * Issue #17: impossible values are refused wherever they are entered (the rule in common/dates.ts, which the forms
 * check too). The test clock says 2026-06-01T08:00Z.
 */
let api: TestApi;
let user: string;
beforeAll(async () => {
  api = await startApi();
  const admin = await api.login();
  await api.createOperator(admin, { account: 'dates-user', role: 'user' });
  user = await api.login('dates-user', 'user-pass-1');
});
afterAll(() => api.close());

const call = (method: string, path: string, body: unknown, locale = 'zh-CN') =>
  api.call(method, path, { token: user, body, headers: { 'Accept-Language': locale } });

test('the rule: today anywhere on earth is allowed, the day after is not', () => {
  const now = new Date('2026-06-01T12:00:00Z'); // already 2 June at UTC+14
  expect(latestToday(now)).toBe('2026-06-02');
  expect(isFutureDay('2026-06-02', now)).toBe(false);
  expect(isFutureDay('2026-06-03', now)).toBe(true);
  expect(isFutureDay(null, now)).toBe(false);
  expect(isFutureYear(2026, now)).toBe(false);
  expect(isFutureYear(2030, now)).toBe(true);
  expect(isDebutBeforeBirth(1999, '2000-05-01')).toBe(true);
  expect(isDebutBeforeBirth(2000, '2000-05-01')).toBe(false);
  expect(isDebutBeforeBirth(null, '2000-05-01')).toBe(false);
});

test("an actress's debut in 2030 or before her birth is refused, on create and on edit, naming the field", async () => {
  const future = await call('POST', '/app/admin/actresses', { name: '未来出道', debutYear: 2030 });
  expect(future.body.code).toBe(40000);
  expect(future.body.msg).toBe('出道年份：出道年份不能晚于今年');
  const early = await call(
    'POST',
    '/app/admin/actresses',
    { name: '早出道', birthday: '2000-01-01', debutYear: 1995 },
    'en-US',
  );
  expect(early.body.data.fields).toHaveProperty('debutYear');
  expect(early.body.msg).toMatch(/^Debut year: The debut year cannot be before the year of birth/);
  const ok = await call('POST', '/app/admin/actresses', {
    name: '正常',
    birthday: '2000-01-01',
    debutYear: 2020,
  });
  expect(ok.body.code).toBe(20000);
  const { id, version } = ok.body.data;
  // An edit of one of the two is checked against the other as stored.
  const edit = await call('PUT', `/app/admin/actresses/${id}`, { debutYear: 1990, version });
  expect(edit.body.data.fields).toHaveProperty('debutYear');
  const birth = await call('PUT', `/app/admin/actresses/${id}`, { birthday: '2024-01-01', version });
  expect(birth.body.data.fields).toHaveProperty('debutYear');
  expect((await call('PUT', `/app/admin/actresses/${id}`, { debutYear: 2030, version })).body.code).toBe(
    40000,
  );
  expect((await call('PUT', `/app/admin/actresses/${id}`, { debutYear: 2026, version })).body.code).toBe(
    20000,
  );
});

test("a movie's release date after today is refused, on create and on edit", async () => {
  const future = await call('POST', '/app/admin/movie/movies', {
    title: '未上映',
    releaseDate: '2026-12-01',
  });
  expect(future.body.code).toBe(40000);
  expect(future.body.msg).toBe('发行日期：发行日期不能晚于今天');
  const ok = await call('POST', '/app/admin/movie/movies', { title: '已上映', releaseDate: '2026-06-01' });
  expect(ok.body.code).toBe(20000);
  const edit = await call('PUT', `/app/admin/movie/movies/${ok.body.data.id}`, {
    releaseDate: '2027-01-01',
    version: ok.body.data.version,
  });
  expect(edit.body.data.fields).toEqual({ releaseDate: '发行日期不能晚于今天' });
});
