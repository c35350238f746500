import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { loadUser, login } from '../../src/api/session';
import { ADMIN_PASSWORD, startApi, type TestApi } from '../api/harness';

type StartOptions = Parameters<typeof startApi>;

type Ready = (api: TestApi, token: string) => Promise<void> | void;
interface Options {
  env?: StartOptions[0];
  start?: StartOptions[1];
  /** false: the file signs the SPA in itself. */
  signIn?: boolean;
}

/**
 * The API in process (PGlite) for the file's tests: started before them, with the SPA's fetch answered by its app
 * (global fetch stubbed), and closed after them; what each test rendered is unmounted after it. `ready` gets the API
 * and an admin's token first, to keep them and to put in the file's data; then the SPA's own session is the admin's
 * (its token in localStorage, the identity loaded), unless `signIn: false`.
 */
export function inProcessApi(ready: Ready): void;
export function inProcessApi(options: Options, ready: Ready): void;
export function inProcessApi(first: Options | Ready, second?: Ready) {
  const [options, ready] = typeof first === 'function' ? [{}, first] : [first, second!];
  let api: TestApi | undefined;
  beforeAll(async () => {
    api = await startApi(options.env, options.start);
    const app = api.app;
    vi.stubGlobal('fetch', (url: string, init?: RequestInit) => app.request(url, init));
    await ready(api, await api.login());
    if (options.signIn === false) return;
    localStorage.clear();
    await login('admin', ADMIN_PASSWORD);
    await loadUser();
  }, 120_000);
  afterEach(() => cleanup());
  afterAll(async () => {
    vi.unstubAllGlobals();
    await api?.close();
  });
}
