import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/app';
import { silentLogger } from '../../server/core/logger';
import { REPLAY_WINDOW_S, SWEEP_EVERY_MS } from '../../server/modules/site/secret';
import { startApi, type TestApi, USER_PASSWORD } from './harness';
import { signedHeaders, siteDoor } from './site-door';
import { event } from './stats-helpers';

/**
 * Issue #48: the public door has two keys (DESIGN.md decision 11). The browser key sends anonymous traffic and guest
 * posts; money, signups and a member's identity come signed by the site's server (HMAC-SHA256 over
 * `<timestamp>.<raw body>`, ±5 minutes, each signature once, per tenant); a client's address is never a body field.
 */
let api: TestApi;
let admin: string;
let door: Awaited<ReturnType<typeof siteDoor>>;
let movieId: number;
let memberId: number;
const EVENTS = '/app/site/events';

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  const [m] = await api.query<{ id: number }>(
    sql`insert into movies (title, status) values ('门', 'online') returning id`,
  );
  movieId = m.id;
  const [u] = await api.query<{ id: number }>(
    sql`insert into site_users (tenant, account) values (2, 'door-member') returning id`,
  );
  memberId = u.id;
});
afterAll(() => api.close());

const anonymous = (over: Record<string, unknown> = {}) => {
  const { ip: _, ...e } = event(over);
  return e;
};
/** Saves a module's filter rules with some changed. */
async function setFilter(module: 'comment' | 'guestbook', over: Record<string, unknown>) {
  const FILTERS = '/app/admin/comment/filters';
  const current = (await api.call('GET', FILTERS, { token: admin })).body.data.list.find(
    (f: any) => f.module === module,
  );
  const { module: _, version, updatedAt: __, ...rules } = current;
  const saved = await api.call('PUT', `${FILTERS}/${module}`, {
    token: admin,
    body: { ...rules, ...over, version },
  });
  expect(saved.body.code).toBe(20000);
}

const stored = async (ids: unknown[]) =>
  (
    await api.query<{ n: number }>(
      sql`select count(*)::int as n from stat_events where id = any(${sql.param(ids)}::text[])`,
    )
  )[0].n;

describe('the secret', () => {
  test('none yet: a signed request is refused, saying so', async () => {
    const key = (await api.call('POST', '/app/admin/setting/site-key/regenerate', { token: admin })).body.data
      .key;
    const text = JSON.stringify({ events: [anonymous()] });
    const r = await api.call('POST', EVENTS, {
      raw: text,
      headers: {
        'Site-Key': key,
        'Content-Type': 'application/json',
        'Accept-Language': 'en-US',
        ...signedHeaders('ss_guess', text, api.clock.now()),
      },
    });
    expect(r.body).toMatchObject({
      code: 40100,
      msg: 'No site server secret yet: an admin makes one in Base settings',
    });
  });

  test('made by an admin only, shown once, stored encrypted; the key read never shows it', async () => {
    await api.createOperator(admin, { account: 'door-user' });
    const user = await api.login('door-user', USER_PASSWORD);
    expect((await api.call('POST', '/app/admin/setting/site-key/secret', { token: user })).body.code).toBe(
      40300,
    );
    door = await siteDoor(api, admin);
    expect(door.secret).toMatch(/^ss_[A-Za-z0-9_-]{43}$/);
    const read = (await api.call('GET', '/app/admin/setting/site-key', { token: admin })).body.data;
    expect(read).toEqual({
      key: door.key,
      updatedAt: expect.any(String),
      secretUpdatedAt: api.clock.now().toISOString(),
    });
    expect(JSON.stringify(read)).not.toContain(door.secret);
    const [row] = await api.query<{ secret_cipher: string }>(
      sql`select secret_cipher from site_state where tenant = 2`,
    );
    expect(row.secret_cipher).toMatch(/^v1\./);
    expect(row.secret_cipher).not.toContain(door.secret.slice(3));
  });
});

describe('the browser key', () => {
  test('sends anonymous traffic: page views, plays, searches, ad impressions and clicks, tag clicks', async () => {
    const batch = ['pageview', 'play', 'ad_impression', 'ad_click', 'tag_click'].map((type) =>
      anonymous({ type, object: { type: 'movie', id: movieId } }),
    );
    batch.push(anonymous({ type: 'search', keyword: '门' }));
    const r = await door.browser(EVENTS, { events: batch });
    expect(r.body.data).toMatchObject({ accepted: 6, rejected: [] });
  });

  test('a signup, a recharge, an address or an amount refuses the whole batch, naming each event and its type', async () => {
    const batch = [
      anonymous(),
      anonymous({ type: 'recharge', amount: 999_999_999, channel: 'kol-li' }),
      anonymous({ type: 'signup' }),
      { ...anonymous(), ip: '203.0.113.9' },
    ];
    const en = await door.browser(EVENTS, { events: batch }, { 'Accept-Language': 'en-US' });
    expect(en.body.code).toBe(40300);
    expect(en.body.msg).toMatch(
      /^Events › item 2 › Type: Events of type "recharge" must be signed by the site's server/,
    );
    expect(Object.keys(en.body.data.fields)).toEqual([
      'events.1.type',
      'events.1.amount',
      'events.2.type',
      'events.3.ip',
    ]);
    expect(en.body.data.fields['events.2.type']).toMatch(/"signup"/);
    const zh = await door.browser(EVENTS, { events: batch });
    expect(zh.body.msg).toMatch(/^事件 · 第 2 项 · 类型：“recharge”事件只能由站点服务器签名发送/);
    expect(await stored(batch.map((e) => e.id))).toBe(0);
  });

  test("a guest's post from the connection's address; naming a member or an address is refused", async () => {
    await setFilter('comment', { loginRequired: false });
    api.setAddress('192.0.2.50');
    const comment = { targetType: 'movie', targetId: movieId, content: '路过' };
    const guest = await door.browser('/app/site/comments', comment);
    expect(guest.body.code).toBe(20000);
    const [row] = await api.query<{ address: string; user_id: number | null }>(
      sql`select address, user_id from comments where id = ${guest.body.data.id}`,
    );
    expect(row).toEqual({ address: '192.0.2.50', user_id: null });
    const asMember = await door.browser(
      '/app/site/comments',
      { ...comment, userId: memberId },
      {
        'Accept-Language': 'en-US',
      },
    );
    expect(asMember.body.code).toBe(40300);
    expect(asMember.body.msg).toMatch(/^Member: Only a request signed by the site's server/);
    const elsewhere = await door.browser('/app/site/guestbook', { content: '嗨', address: '198.51.100.3' });
    expect(elsewhere.body.code).toBe(40300);
    expect(Object.keys(elsewhere.body.data.fields)).toEqual(['address']);
    expect(
      (await door.browser('/app/site/users', { account: 'nobody', address: '198.51.100.3' })).body.code,
    ).toBe(40300);
  });

  test("the blacklist and the address interval hold against the connection's address", async () => {
    await setFilter('guestbook', { loginRequired: false, addressInterval: 60, blacklist: ['192.0.2.0/24'] });
    api.setAddress('192.0.2.77');
    expect((await door.browser('/app/site/guestbook', { content: '你好' })).body.code).toBe(40300);
    api.setAddress('198.51.100.40');
    expect((await door.browser('/app/site/guestbook', { content: '你好' })).body.code).toBe(20000);
    expect((await door.browser('/app/site/guestbook', { content: '又来了' })).body.code).toBe(42900);
  });

  test("another database's filter at the same version is not this one's", async () => {
    // The compiled rules are kept per version; versions are counted per database, and test files (as two apps in one
    // process) each bring their own. Two fresh databases whose guestbook filters both stand at their second version:
    // only the first blacklists the address.
    const apis = [await startApi(), await startApi()];
    try {
      const codes: number[] = [];
      for (const [i, other] of apis.entries()) {
        const token = await other.login();
        const list = (await other.call('GET', '/app/admin/comment/filters', { token })).body.data.list;
        const {
          module: _,
          version,
          updatedAt: __,
          ...rules
        } = list.find((f: any) => f.module === 'guestbook');
        const blacklist = i === 0 ? ['192.0.2.0/24'] : [];
        const body = { ...rules, loginRequired: false, addressInterval: 0, blacklist, version };
        expect(
          (await other.call('PUT', '/app/admin/comment/filters/guestbook', { token, body })).body.code,
        ).toBe(20000);
        other.setAddress('192.0.2.77');
        const theirs = await siteDoor(other, token);
        codes.push((await theirs.browser('/app/site/guestbook', { content: '你好' })).body.code);
      }
      expect(codes).toEqual([40300, 20000]);
    } finally {
      for (const other of apis) await other.close();
    }
  });
});

describe("the site's server", () => {
  test('signs money and members: a recharge and a signup are taken, a member posts with the address it names', async () => {
    const recharge = event({ type: 'recharge', amount: 30, channel: 'kol-li' });
    expect((await door.signed(EVENTS, { events: [recharge] })).body.data).toMatchObject({ accepted: 1 });
    const signup = await door.signed('/app/site/users', { account: 'signed-up', address: '198.51.100.21' });
    expect(signup.body.code).toBe(20000);
    const post = await door.signed('/app/site/comments', {
      targetType: 'movie',
      targetId: movieId,
      userId: signup.body.data.id,
      address: '198.51.100.21',
      content: '签名评论',
    });
    expect(post.body.code).toBe(20000);
    const [row] = await api.query<{ address: string; user_id: number }>(
      sql`select address, user_id from comments where id = ${post.body.data.id}`,
    );
    expect(row).toEqual({ address: '198.51.100.21', user_id: signup.body.data.id });
  });

  test('a wrong, tampered, malformed, stale or replayed signature is 40100, nothing stored', async () => {
    const send = (text: string, headers: Record<string, string>) =>
      api.call('POST', EVENTS, {
        raw: text,
        headers: {
          'Site-Key': door.key,
          'Content-Type': 'application/json',
          'Accept-Language': 'en-US',
          ...headers,
        },
      });
    const now = api.clock.now();
    const e = event({ type: 'recharge', amount: 5 });
    const text = JSON.stringify({ events: [e] });
    const wrong = await send(text, signedHeaders(`${door.secret}x`, text, now));
    expect(wrong.body).toMatchObject({ code: 40100, msg: expect.stringMatching(/does not match/) });
    const tampered = await send(
      text.replace('"amount":5', '"amount":5000'),
      signedHeaders(door.secret, text, now),
    );
    expect(tampered.body.code).toBe(40100);
    const good = signedHeaders(door.secret, text, now);
    expect((await send(text, { ...good, 'Site-Signature': good['Site-Signature'].slice(3) })).body.code).toBe(
      40100,
    );
    expect((await send(text, { 'Site-Signature': good['Site-Signature'] })).body.msg).toMatch(/timestamp/);
    const stale = new Date(now.getTime() - 301_000);
    expect((await send(text, signedHeaders(door.secret, text, stale))).body.msg).toMatch(/300 s/);
    const ahead = new Date(now.getTime() + 301_000);
    expect((await send(text, signedHeaders(door.secret, text, ahead))).body.code).toBe(40100);
    expect(await stored([e.id])).toBe(0);
    expect((await send(text, good)).body.code).toBe(20000);
    const replay = await send(text, good);
    expect(replay.body).toMatchObject({
      code: 40100,
      msg: 'This signature was used before: each signed request is accepted once',
    });
  });

  test('a signature seen by one instance is refused by another on the same database; old ones are cleared', async () => {
    const other = createApp({
      db: api.database.db,
      config: api.config,
      clock: api.clock,
      logger: silentLogger,
      clientAddress: () => '10.0.0.9',
      images: api.images,
    });
    const text = JSON.stringify({ events: [event({ type: 'signup' })] });
    const headers = {
      'Site-Key': door.key,
      'Content-Type': 'application/json',
      ...signedHeaders(door.secret, text, api.clock.now()),
    };
    const first = await api.app.request(EVENTS, { method: 'POST', headers, body: text });
    expect((await first.json()).code).toBe(20000);
    const again = await other.request(EVENTS, { method: 'POST', headers, body: text });
    expect((await again.json()).code).toBe(40100);
    const count = async () =>
      (await api.query<{ n: number }>(sql`select count(*)::int as n from site_signatures`))[0].n;
    expect(await count()).toBeGreaterThan(1);
    api.clock.advance(601_000);
    expect(
      (await door.signed(EVENTS, { events: [event({ time: api.clock.now().toISOString() })] })).body.code,
    ).toBe(20000);
    expect(await count()).toBe(1);
  });

  test('old signatures are deleted at most every SWEEP_EVERY_MS, not by every signed batch', async () => {
    const expired = async () => {
      const seen = new Date(api.clock.now().getTime() - 2 * REPLAY_WINDOW_S * 1000 - 1000);
      await api.query(
        sql`insert into site_signatures (tenant, signature, seen_at) values (1, ${`old-${seen.getTime()}`}, ${seen})`,
      );
    };
    const old = async () =>
      (
        await api.query<{ n: number }>(
          sql`select count(*)::int as n from site_signatures where signature like 'old-%'`,
        )
      )[0].n;
    const signed = async () =>
      expect(
        (await door.signed(EVENTS, { events: [event({ time: api.clock.now().toISOString() })] })).body.code,
      ).toBe(20000);
    api.clock.advance(SWEEP_EVERY_MS);
    await expired();
    await signed();
    expect(await old()).toBe(0);
    await expired();
    api.clock.advance(SWEEP_EVERY_MS - 1000);
    await signed();
    expect(await old()).toBe(1); // swept less than SWEEP_EVERY_MS ago: left for the next sweep
    api.clock.advance(1000);
    await signed();
    expect(await old()).toBe(0);
  });

  test('rotating the secret stops the old one at once', async () => {
    const old = door.secret;
    const fresh = (await api.call('POST', '/app/admin/setting/site-key/secret', { token: admin })).body.data
      .secret;
    expect(fresh).not.toBe(old);
    const text = JSON.stringify({ events: [event({ type: 'signup', time: api.clock.now().toISOString() })] });
    const post = (secret: string) =>
      api.call('POST', EVENTS, {
        raw: text,
        headers: {
          'Site-Key': door.key,
          'Content-Type': 'application/json',
          ...signedHeaders(secret, text, api.clock.now()),
        },
      });
    expect((await post(old)).body.code).toBe(40100);
    expect((await post(fresh)).body.code).toBe(20000);
  });
});
