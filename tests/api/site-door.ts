import { createHmac } from 'node:crypto';
import type { TestApi } from './harness';

/** The headers of a request signed by the site's server: `<timestamp>.<body>` under HMAC-SHA256 with the secret. */
export function signedHeaders(secret: string, body: string, at: Date): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const hex = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return { 'Site-Timestamp': timestamp, 'Site-Signature': `v1=${hex}` };
}

/**
 * The tenant's two doors (DESIGN.md decision 11): a fresh browser key and server secret, and a sender for each. The
 * signed sender signs at the harness clock's time less a second per request (within the replay window): the clock
 * stands still, and a retried batch signed in the same second would be the same signature, refused as a replay — as a
 * site's server that retries re-signs at its later time.
 */
export async function siteDoor(api: TestApi, adminToken: string) {
  const key = (await api.call('POST', '/app/admin/setting/site-key/regenerate', { token: adminToken })).body
    .data.key as string;
  const secret = (await api.call('POST', '/app/admin/setting/site-key/secret', { token: adminToken })).body
    .data.secret as string;
  const browser = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    api.call('POST', path, { body, headers: { 'Site-Key': key, ...headers } });
  let sent = 0;
  const signed = (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    const at = new Date(api.clock.now().getTime() - (sent++ % 290) * 1000);
    return api.call('POST', path, {
      raw: text,
      headers: {
        'Content-Type': 'application/json',
        'Site-Key': key,
        ...signedHeaders(secret, text, at),
        ...headers,
      },
    });
  };
  return { key, secret, browser, signed };
}
