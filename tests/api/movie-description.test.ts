import { afterAll, beforeAll, expect, test } from 'vitest';
import { MAX_MOVIE_DESCRIPTION } from '../../common/movie';
import { startApi, type TestApi } from './harness';

/**
 * A description as long as the MacCMS move may write (common/movie.ts MAX_MOVIE_DESCRIPTION, far above the 5,000 the
 * form once took) is saved, read and saved again as the form sends it back; one character more is refused by name.
 */
let api: TestApi;
let admin: string;
beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
});
afterAll(() => api.close());

test('the longest description the move writes can be saved again; one more character is refused naming the field', async () => {
  const long = `<p>${'长'.repeat(MAX_MOVIE_DESCRIPTION - 7)}</p>`;
  expect(long).toHaveLength(MAX_MOVIE_DESCRIPTION);
  const made = await api.call('POST', '/app/admin/movie/movies', {
    token: admin,
    body: { title: '长简介', description: long },
  });
  expect(made.body.code).toBe(20000);
  const read = await api.call('GET', `/app/admin/movie/movies/${made.body.data.id}`, { token: admin });
  expect(read.body.data.description).toBe(long);
  const again = await api.call('PUT', `/app/admin/movie/movies/${made.body.data.id}`, {
    token: admin,
    body: { ...read.body.data, title: '长简介（改）' },
  });
  expect(again.body.code).toBe(20000);
  const tooLong = await api.call('PUT', `/app/admin/movie/movies/${made.body.data.id}`, {
    token: admin,
    body: { ...again.body.data, description: `${long}x` },
    headers: { 'Accept-Language': 'en-US' },
  });
  expect(tooLong.body.code).toBe(40000);
  expect(Object.keys(tooLong.body.data.fields)).toEqual(['description']);
  expect(tooLong.body.msg).toContain('Description');
});
