import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CopyData, type CopyIn, copierOf, copyField, copyInWith } from '../../server/db/copy-in';
import type { Db } from '../../server/db/types';
import { forgetSpareNumbers, ingest, waitingForCopy } from '../../server/modules/statistics/ingest';
import { onPostgres, startApi, type TestApi } from './harness';
import { event, report, rollup, siteSender, watchedDb } from './stats-helpers';

/** Issue #12: POST /app/site/events — per-event validation, idempotency, settings, bots, CORS, the site key. */
let api: TestApi;
let admin: string;
let send: Awaited<ReturnType<typeof siteSender>>;

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  send = await siteSender(api, admin);
});
afterAll(() => api.close());

describe('ingestion', () => {
  test('a retried batch counts once: duplicates, not new events', async () => {
    const batch = [event(), event(), event({ type: 'search', keyword: ' Hello  World ', results: 3 })];
    const first = await send(batch);
    expect(first.body.code).toBe(20000);
    expect(first.body.data).toEqual({ accepted: 3, duplicates: 0, dropped: 0, rejected: [] });
    const again = await send(batch);
    expect(again.body.data).toEqual({ accepted: 0, duplicates: 3, dropped: 0, rejected: [] });
    const ids = batch.map((e) => e.id as string);
    const rows = await api.query<{ n: number }>(
      sql`select count(*)::int as n from stat_events where id in (${sql.join(
        ids.map((i) => sql`${i}`),
        sql`, `,
      )})`,
    );
    expect(rows[0].n).toBe(3);
    const [kw] = await api.query<{ keyword: string; device: string; country: string }>(
      sql`select keyword, device, country from stat_events where id = ${ids[2]}`,
    );
    expect(kw).toEqual({ keyword: 'hello world', device: 'mobile', country: 'unknown' });
  });

  test('the same id twice in one batch is stored once', async () => {
    const e = event();
    const r = await send([e, { ...e }]);
    expect(r.body.data).toMatchObject({ accepted: 1, duplicates: 1 });
  });

  test('a batch of stored and new ids, over two days, keeps the new ones; new events are inserted without on conflict', async () => {
    const stored = [event(), event({ time: '2026-05-31T07:00:00Z' })];
    expect((await send(stored)).body.data).toMatchObject({ accepted: 2, duplicates: 0 });
    const fresh = [event(), event({ time: '2026-05-31T07:10:00Z' })];
    const r = await send([stored[1], fresh[0], stored[0], fresh[1]]);
    expect(r.body.data).toEqual({ accepted: 2, duplicates: 2, dropped: 0, rejected: [] });
    const ids = [...stored, ...fresh].map((e) => e.id as string);
    const rows = await api.query<{ id: string }>(
      sql`select id from stat_events where id = any(${sql.param(ids)}::text[]) order by id`,
    );
    expect(rows.map((x) => x.id)).toEqual([...ids].sort());

    const { db, seen } = watchedDb(api.database.db as unknown as Db);
    const inserts = () => seen.filter((q) => /insert into stat_events/.test(q.sql)).map((q) => q.sql);
    await ingest(db, 2, [event({ time: '2026-06-01T06:00:00Z' })], {
      now: api.clock.now(),
      clientAddress: '',
    });
    expect(inserts()).toHaveLength(1);
    expect(inserts()[0]).not.toMatch(/on conflict/);
    // A batch that meets a stored id is inserted again, skipping those.
    const again = event({ time: '2026-06-01T06:00:00Z' });
    await ingest(db, 2, [again], { now: api.clock.now(), clientAddress: '' });
    const out = await ingest(db, 2, [again, event({ time: '2026-06-01T06:01:00Z' })], {
      now: api.clock.now(),
      clientAddress: '',
    });
    expect(out).toMatchObject({ accepted: 1, duplicates: 1 });
    expect(
      inserts()
        .slice(1)
        .map((q) => /on conflict/.test(q)),
    ).toEqual([false, false, true]);
  });

  test('bad events are rejected by index and field, in the request language; the rest are kept', async () => {
    const good = event();
    const r = await send(
      [
        { ...event(), type: 'jump' },
        good,
        { ...event(), time: 'yesterday', path: 'no-slash' },
        { ...event(), type: 'search' },
        { ...event(), time: '2020-01-01T00:00:00Z' },
        'not an object',
        { ...event(), extra: 1 },
      ],
      { 'Accept-Language': 'en-US' },
    );
    expect(r.body.code).toBe(20000);
    expect(r.body.data.accepted).toBe(1);
    const byIndex = Object.fromEntries(r.body.data.rejected.map((x: any) => [x.index, x.fields]));
    expect(Object.keys(byIndex).map(Number)).toEqual([0, 2, 3, 4, 5, 6]);
    expect(byIndex[0].type).toMatch(/^Choose one of: "pageview", "play"/); // the values named, no bare {values}
    expect(Object.keys(byIndex[2]).sort()).toEqual(['path', 'time']);
    expect(byIndex[2].path).toBe('Should start with /');
    expect(byIndex[3]).toEqual({ keyword: 'Required' });
    expect(byIndex[4].time).toMatch(/Out of range/);
    expect(byIndex[6]).toEqual({ extra: 'Unsupported field' });
    const zh = await send([{ ...event(), path: 'x' }]);
    expect(zh.body.data.rejected[0].fields.path).toBe('应以 / 开头');
  });

  test('bad bodies: no events, too many, not an array, unknown field, too large', async () => {
    for (const body of [
      {},
      { events: [] },
      { events: 'x' },
      { events: Array.from({ length: 501 }, () => event()) },
    ]) {
      const r = await api.call('POST', '/app/site/events', {
        body,
        headers: { 'Site-Key': (await keyOf()) as string },
      });
      expect(r.status).toBe(200);
      expect(r.body.code).toBe(40000);
      expect(Object.keys(r.body.data.fields)).toEqual(['events']);
    }
    const big = await send([event({ path: `/${'x'.repeat(2_000_000)}` })]);
    expect(big.body.code).toBe(40000);
    const notJson = await api.call('POST', '/app/site/events', {
      raw: '{nope',
      headers: { 'Site-Key': (await keyOf()) as string, 'Content-Type': 'application/json' },
    });
    expect(notJson.body.code).toBe(40000);
  });

  test('a batch past 64 KB (read in pieces, core/body.ts): kept but its bad events; bad UTF-8 or \\u0000 anywhere refuses it', async () => {
    const key = (await keyOf()) as string;
    const post = (raw: Uint8Array | string) =>
      api.call('POST', '/app/site/events', {
        raw: raw as BodyInit,
        headers: { 'Site-Key': key, 'Content-Type': 'application/json', 'Accept-Language': 'en-US' },
      });
    const batch = Array.from({ length: 400 }, (_, i) => anonymous({ path: `/long/${'p'.repeat(220)}/${i}` }));
    batch[7] = { ...batch[7], path: 'no-slash' };
    batch[390] = { ...batch[390], type: 'jump' };
    const text = JSON.stringify({ events: batch });
    expect(text.length).toBeGreaterThan(3 * 64 * 1024); // several pieces
    const ok = await post(text);
    expect(ok.body.data).toMatchObject({ accepted: 398, duplicates: 0 });
    expect(ok.body.data.rejected.map((r: { index: number }) => r.index)).toEqual([7, 390]);
    const stored = await api.query<{ n: number }>(
      sql`select count(*)::int as n from stat_events where id = any(${sql.param(batch.map((e) => e.id))}::text[])`,
    );
    expect(stored[0].n).toBe(398);
    // Invalid UTF-8 in the last piece, and a U+0000 escape there: refused whole, nothing stored.
    const fresh = () =>
      Array.from({ length: 400 }, (_, i) => anonymous({ path: `/long/${'q'.repeat(220)}/${i}` }));
    const bytes = new TextEncoder().encode(JSON.stringify({ events: fresh() }));
    bytes[bytes.length - 20] = 0xff;
    const badUtf8 = await post(bytes);
    expect(badUtf8.body).toMatchObject({ code: 40000, msg: 'The request body is not valid UTF-8 text' });
    const nul = fresh();
    nul[399] = { ...nul[399], channel: 'a\u0000b' };
    const badNul = await post(JSON.stringify({ events: nul }));
    expect(badNul.body.code).toBe(40000);
    expect(Object.keys(badNul.body.data.fields)).toEqual(['events.399.channel']);
    const none = await api.query<{ n: number }>(
      sql`select count(*)::int as n from stat_events where path like '/long/q%'`,
    );
    expect(none[0].n).toBe(0);
  });

  test('a body in many chunks, characters split between them, is read as sent; a shorter one next reads only its own', async () => {
    const key = (await keyOf()) as string;
    /** The body sent as a stream of `size`-byte chunks (core/body.ts joins them to decode). */
    const stream = (text: string, size: number) => {
      const bytes = new TextEncoder().encode(text);
      let at = 0;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (at >= bytes.length) return controller.close();
          controller.enqueue(bytes.slice(at, at + size));
          at += size;
        },
      });
    };
    const post = async (events: Record<string, unknown>[], size: number) => {
      const res = await api.app.request('/app/site/events', {
        method: 'POST',
        headers: { 'Site-Key': key, 'Content-Type': 'application/json' },
        body: stream(JSON.stringify({ events }), size),
        // @ts-expect-error Node's fetch needs this for a stream body
        duplex: 'half',
      });
      return res.json();
    };
    const long = Array.from({ length: 60 }, (_, i) =>
      anonymous({ type: 'search', keyword: `长关键词${'很'.repeat(40)}${i}`, results: 1 }),
    );
    expect((await post(long, 7)).data).toMatchObject({ accepted: 60, rejected: [] });
    const short = [anonymous({ type: 'search', keyword: '短', results: 1 })];
    expect((await post(short, 5)).data).toMatchObject({ accepted: 1, rejected: [] });
    const kept = await api.query<{ keyword: string }>(
      sql`select keyword from stat_events where id = any(${sql.param([...long, ...short].map((e) => e.id))}::text[])
        order by keyword`,
    );
    expect(kept.map((r) => r.keyword).sort()).toEqual([...long, ...short].map((e) => e.keyword).sort());
    // A byte that is not UTF-8, in a later chunk: refused.
    const bytes = new TextEncoder().encode(JSON.stringify({ events: [anonymous()] }));
    bytes[bytes.length - 10] = 0xff;
    const bad = await api.app.request('/app/site/events', {
      method: 'POST',
      headers: { 'Site-Key': key, 'Content-Type': 'application/json' },
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.slice(0, 20));
          controller.enqueue(bytes.slice(20));
          controller.close();
        },
      }),
      // @ts-expect-error Node's fetch needs this for a stream body
      duplex: 'half',
    });
    expect((await bad.json()).code).toBe(40000);
  });

  test('a missing or wrong site key is 40100; an Admin-Token is no key', async () => {
    const none = await api.call('POST', '/app/site/events', { body: { events: [event()] } });
    expect(none.body.code).toBe(40100);
    const wrong = await api.call('POST', '/app/site/events', {
      body: { events: [event()] },
      headers: { 'Site-Key': 'sk_wrongwrongwrongwrongwrong' },
    });
    expect(wrong.body.code).toBe(40100);
    const token = await api.call('POST', '/app/site/events', { body: { events: [event()] }, token: admin });
    expect(token.body.code).toBe(40100);
  });

  test('CORS: a preflight from any origin may POST with Site-Key and Content-Type', async () => {
    const res = await api.app.request('/app/site/events', {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://site.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'site-key, content-type',
      },
    });
    expect(res.status).toBeLessThan(300);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('site-key');
  });

  test('an OPTIONS that is no preflight is a request like the others: without a key, 40100 in the envelope', async () => {
    const res = await api.app.request('/app/site/events', { method: 'OPTIONS' });
    expect(res.status).toBe(200);
    expect((await res.json()).code).toBe(40100);
  });

  test('bots, switched-off types and sampled-out visitors are dropped', async () => {
    const bot = event({ ua: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });
    expect((await send([bot])).body.data).toMatchObject({ accepted: 0, dropped: 1 });
    const settings = (await api.call('GET', '/app/admin/setting/statistics', { token: admin })).body.data;
    const saved = await api.call('PUT', '/app/admin/setting/statistics', {
      token: admin,
      body: { version: settings.version, events: { search: false }, sampleRate: 50 },
    });
    expect(saved.body.code).toBe(20000);
    const searches = Array.from({ length: 10 }, () => event({ type: 'search', keyword: 'k', results: 1 }));
    expect((await send(searches)).body.data).toMatchObject({ accepted: 0, dropped: 10 });
    const views = Array.from({ length: 200 }, (_, i) => event({ visitor: `sample-${i}` }));
    const r = (await send(views)).body.data;
    expect(r.accepted + r.dropped).toBe(200);
    expect(r.accepted).toBeGreaterThan(60);
    expect(r.accepted).toBeLessThan(140);
    // the same visitor is always in or always out
    const again = (await send(views.map((v) => ({ ...v, id: `${v.id}-b` })))).body.data;
    expect(again.accepted).toBe(r.accepted);
    await api.call('PUT', '/app/admin/setting/statistics', {
      token: admin,
      body: { version: saved.body.data.version, events: { search: true }, sampleRate: 100 },
    });
  });

  test('a new time zone applies from the next batch: saving the settings moves the site version the batches carry', async () => {
    const dayOfEvent = async (id: unknown) =>
      (await api.query<{ day: string }>(sql`select day::text as day from stat_events where id = ${id}`))[0]
        ?.day;
    const late = { time: '2026-06-01T20:00:00Z' }; // 2 June 04:00 in Shanghai
    const before = event(late);
    expect((await send([before])).body.data).toMatchObject({ accepted: 1 });
    expect(await dayOfEvent(before.id)).toBe('2026-06-02');
    const setZone = async (timeZone: string) => {
      const current = (await api.call('GET', '/app/admin/sys/getSetting', { token: admin })).body.data;
      const saved = await api.call('POST', '/app/admin/sys/updateSetting', {
        token: admin,
        body: { version: current.version, timeZone },
      });
      expect(saved.body.code).toBe(20000);
    };
    await setZone('UTC');
    try {
      const after = event(late);
      expect((await send([after])).body.data).toMatchObject({ accepted: 1 });
      expect(await dayOfEvent(after.id)).toBe('2026-06-01');
    } finally {
      await setZone('Asia/Shanghai');
    }
  });

  test('a batch reads the settings again only when its site version moved; without one, every time', async () => {
    const { db } = watchedDb(api.database.db as unknown as Db); // a handle of its own: nothing kept for it yet
    const tenant = 31;
    const late = () => event({ time: '2026-06-01T20:00:00Z' });
    const dayOf = async (e: Record<string, unknown>) =>
      (
        await api.query<{ day: string }>(
          sql`select day::text as day from stat_events where tenant = ${tenant} and id = ${e.id}`,
        )
      )[0]?.day;
    const at = async (siteVersion: number | undefined) => {
      const e = late();
      const out = await ingest(db, tenant, [e], {
        now: new Date('2026-06-01T12:00:00Z'),
        clientAddress: '',
        siteVersion,
      });
      expect(out.accepted).toBe(1);
      return dayOf(e);
    };
    try {
      expect(await at(7)).toBe('2026-06-02'); // Shanghai, the default
      // written behind the site version's back: a batch of version 7 keeps what it read
      await api.query(
        sql`insert into system_settings (tenant, data) values (${tenant}, ${{ timeZone: 'UTC' }})`,
      );
      expect(await at(7)).toBe('2026-06-02');
      expect(await at(undefined)).toBe('2026-06-01');
      expect(await at(8)).toBe('2026-06-01');
      await api.query(
        sql`update system_settings set data = ${{ timeZone: 'Asia/Shanghai' }} where tenant = ${tenant}`,
      );
      expect(await at(undefined)).toBe('2026-06-02');
      expect(await at(8)).toBe('2026-06-01');
    } finally {
      await api.query(sql`delete from system_settings where tenant = ${tenant}`);
    }
  });

  test("an address's region and hash are worked out twice at most while it comes again, and stored with each event", async () => {
    const db = api.database.db as unknown as Db;
    const looked: string[] = [];
    const region = (ip: string) => {
      looked.push(ip);
      return ip === '9.9.9.9' ? { country: '中国', province: '广东' } : { country: 'Japan', province: '' };
    };
    const hashed: string[] = [];
    const md5 = (text: string) => {
      hashed.push(text);
      return createHash('md5').update(text).digest('hex');
    };
    const opts = { now: api.clock.now(), clientAddress: '', region, md5 };
    const batch = [
      event({ ip: '9.9.9.9' }),
      event({ ip: '9.9.9.9' }),
      event({ ip: '8.8.8.8' }),
      event({ ip: '9.9.9.9' }),
    ];
    expect(await ingest(db, 95, batch, opts)).toMatchObject({ accepted: 4 });
    expect(await ingest(db, 95, [event({ ip: '9.9.9.9' })], opts)).toMatchObject({ accepted: 1 });
    // Its first event and its second (from which it is kept: most addresses of some networks come once).
    expect(looked).toEqual(['9.9.9.9', '9.9.9.9', '8.8.8.8']);
    expect(hashed.filter((t) => t.includes('.'))).toEqual(['9.9.9.9', '9.9.9.9', '8.8.8.8']);
    const rows = await api.query<{ address: string; country: string; province: string; h: string }>(
      sql`select address, country, province, address_hash::text as h from stat_events where tenant = 95 order by at, id`,
    );
    const h = (ip: string) => BigInt.asIntN(64, BigInt(`0x${md5(ip).slice(0, 16)}`)).toString();
    expect(new Set(rows.map((r) => `${r.address} ${r.country} ${r.province} ${r.h}`))).toEqual(
      new Set([`9.9.9.9 中国 广东 ${h('9.9.9.9')}`, `8.8.8.8 Japan unknown ${h('8.8.8.8')}`]),
    );
  });

  test('signups and recharges are always collected; a recharge needs its amount', async () => {
    const r = await send([
      event({ type: 'signup' }),
      event({ type: 'recharge', amount: 30 }),
      event({ type: 'recharge' }),
    ]);
    expect(r.body.data.accepted).toBe(2);
    expect(r.body.data.rejected[0]).toMatchObject({ index: 2, fields: { amount: expect.any(String) } });
  });

  test('the OpenAPI document describes the ingestion with the site key', async () => {
    const doc = (await api.call('GET', '/app/openapi.json')).body;
    const op = doc.paths['/app/site/events'].post;
    expect(op.security).toEqual([{ SiteKey: [] }, { SiteKey: [], SiteSignature: [] }]);
    expect(doc.components.securitySchemes.SiteSignature).toMatchObject({
      in: 'header',
      name: 'Site-Signature',
    });
    expect(doc.components.securitySchemes.SiteSignature.description).toMatch(/HMAC-SHA256/);
  });

  test('events reach the reports after a rollup', async () => {
    await send([
      event({ domain: 'b.example.com', visitor: 'r1', path: '/x' }),
      event({ domain: 'b.example.com', visitor: 'r2', path: '/x' }),
      event({ domain: 'b.example.com', visitor: 'r2', path: '/y' }),
    ]);
    await rollup(api, admin);
    const r = await report(api, admin, 'domains', { from: '2026-06-01', to: '2026-06-01' });
    expect(r.body.code).toBe(20000);
    const b = r.body.data.list.find((x: any) => x.key === 'b.example.com');
    expect(b).toMatchObject({ pageViews: 3, visitors: 2, newVisitors: 2, bounceRate: 0.5 });
  });
});

describe('COPY (PostgreSQL: the server stores a batch of one day with COPY)', () => {
  const md5 = (text: string) => createHash('md5').update(text).digest('hex');
  /** The raw rows of a tenant but their tenant and batch, in id order. */
  const stored = (tenant: number) =>
    api.query<
      Record<string, unknown>
    >(sql`select day::text, id, type, at, domain, path, referrer, device, browser, os,
      country, province, address, address_hash::text, address_reg, visitor, visitor_hash::text, visitor_reg, channel,
      object_type, object_id, keyword, results, amount::text from stat_events where tenant = ${tenant} order by id`);
  /** The copier of the server's database, counting its calls (and failing a call when `refuse` says so). */
  const counted = (db: Db) => {
    const real = copierOf(db)!;
    const calls = { n: 0 };
    const wrapped: CopyIn = (text, data) => {
      calls.n++;
      return real(text, data);
    };
    copyInWith(db, wrapped);
    return { calls, restore: () => copyInWith(db, real) };
  };

  test('a field of COPY text: null, backslash, tab and line ends escaped', () => {
    expect(copyField(null)).toBe('\\N');
    expect(copyField(12)).toBe('12');
    expect(copyField('a\\b\tc\nd\re')).toBe('a\\\\b\\tc\\nd\\re');
    expect(copyField('\\N')).toBe('\\\\N'); // the text \N, not null
    expect(copyField('中文 "q"')).toBe('中文 "q"');
  });

  test("COPY's data: the lines as UTF-8, whatever their characters, in chunks of the size asked or of a line", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 40 })), fc.nat(64), (lines, size) => {
        const data = new CopyData(size);
        for (const line of lines) data.add(line);
        // Each chunk decodes on its own (no character cut between two), and no chunk is larger than it must be.
        expect(data.data.map((c) => new TextDecoder().decode(c)).join('')).toBe(lines.join(''));
        const longest = Math.max(0, ...lines.map((l) => l.length * 3));
        for (const chunk of data.data) expect(chunk.length).toBeLessThanOrEqual(Math.max(size, longest));
        if (lines.join('').length > 0) expect(data.data.every((c) => c.length > 0)).toBe(true);
      }),
    );
    // A batch's lines past a chunk: several chunks, none past it.
    const data = new CopyData();
    for (let i = 0; i < 1000; i++) data.add(`${'x'.repeat(200)}\n`);
    expect(data.data.length).toBeGreaterThan(2);
    expect(data.data.every((c) => c.length <= 64 * 1024)).toBe(true);
  });

  test.runIf(onPostgres)(
    'COPY stores exactly what the insert stores (any text, hashes, registers), and queues its batch',
    async () => {
      const db = api.database.db as unknown as Db;
      const { calls, restore } = counted(db);
      const { db: plain } = watchedDb(db); // a handle with no COPY: the insert
      expect(copierOf(plain)).toBeUndefined();
      const text = fc.string({
        unit: fc.constantFrom('a', '\\', '\t', '\n', '\r', 'N', '中', '"', ',', '{', ' '),
        maxLength: 12,
      });
      let tenant = 100;
      try {
        await fc.assert(
          fc.asyncProperty(
            fc.array(
              fc.record({
                type: fc.constantFrom('pageview', 'search', 'play', 'recharge'),
                visitor: text.filter((v) => v.trim().length > 0),
                path: text.map((p) => `/${p}`),
                keyword: text.filter((k) => k.trim().length > 0),
                channel: fc.constantFrom('', 'c1', 'c\\2'),
                minute: fc.integer({ min: 0, max: 59 }),
              }),
              { minLength: 1, maxLength: 20 },
            ),
            async (specs) => {
              tenant += 2;
              const batch = specs.map((x) => {
                const e = event({
                  type: x.type,
                  visitor: x.visitor,
                  path: x.path,
                  time: `2026-06-01T07:${String(x.minute).padStart(2, '0')}:00Z`,
                  ...(x.channel ? { channel: x.channel } : {}),
                  ...(x.type === 'search' ? { keyword: x.keyword, results: x.minute % 3 } : {}),
                  ...(x.type === 'recharge' ? { amount: x.minute + 0.5 } : {}),
                });
                return e;
              });
              // A region of every character COPY escapes: the run of the address's fields is escaped once.
              const region = () => ({ country: 'c\\N\t"中', province: 'p\n\r,' });
              const opts = { now: api.clock.now(), clientAddress: '', md5, region };
              const before = calls.n;
              const a = await ingest(db, tenant, batch, opts);
              expect(calls.n).toBe(before + 1);
              const b = await ingest(plain, tenant + 1, batch, opts);
              expect(calls.n).toBe(before + 1);
              expect(a).toEqual(b);
              expect(a).toMatchObject({ accepted: batch.length, rejected: [] }); // every kind stored, none refused
              expect(await stored(tenant)).toEqual(await stored(tenant + 1));
              // One batch number for the statement's events, queued once for their day.
              const [q] = await api.query<{ n: number; batches: number; queued: number }>(
                sql`select count(*)::int as n, count(distinct e.batch)::int as batches,
                  (select count(*)::int from stat_fold_queue q where q.tenant = ${tenant} and q.day = '2026-06-01'
                    and q.batch = min(e.batch)) as queued
                  from stat_events e where e.tenant = ${tenant}`,
              );
              expect(q).toEqual({ n: a.accepted, batches: 1, queued: 1 });
            },
          ),
          { numRuns: 25 },
        );
      } finally {
        restore();
      }
    },
  );

  test.runIf(onPostgres)(
    'a COPY refused (a stored id, a queue row that fails) leaves nothing: the insert stores the batch once',
    async () => {
      const db = api.database.db as unknown as Db;
      const { calls, restore } = counted(db);
      const opts = { now: api.clock.now(), clientAddress: '', md5 };
      try {
        // A retried batch: COPY meets the stored ids, the insert skips them.
        const first = [event(), event()];
        expect(await ingest(db, 90, first, opts)).toMatchObject({ accepted: 2, duplicates: 0 });
        const retried = await ingest(db, 90, [...first, event()], opts);
        expect(retried).toMatchObject({ accepted: 1, duplicates: 2 });
        expect(calls.n).toBe(2);
        // The queue row of the COPY's batch fails (taken already): its events go with it, and the insert takes the
        // next batch number. Without spare numbers, the COPY takes the sequence's next and the insert the one after.
        forgetSpareNumbers(db);
        const [{ next }] = await api.query<{ next: string }>(
          sql`select (nextval('stat_event_batches') + 1)::text as next`,
        );
        await api.query(
          sql`insert into stat_fold_queue (tenant, day, batch) values (91, '2026-06-01', ${next}::bigint)`,
        );
        const out = await ingest(db, 91, [event(), event()], opts);
        expect(out).toMatchObject({ accepted: 2, duplicates: 0 });
        expect(calls.n).toBe(3);
        const rows = await api.query<{ batch: string }>(
          sql`select batch::text as batch from stat_events where tenant = 91`,
        );
        expect(rows.map((r) => r.batch)).toEqual([String(BigInt(next) + 1n), String(BigInt(next) + 1n)]);
        // A day without its partition: made by the insert.
        const partition = () =>
          api.query<{ t: string | null }>(sql`select to_regclass('stat_events_p20260520')::text as t`);
        expect((await partition())[0].t).toBeNull();
        const fresh = await ingest(db, 91, [event({ time: '2026-05-20T07:00:00Z' })], opts);
        expect(fresh).toMatchObject({ accepted: 1 });
        expect(calls.n).toBe(4);
        expect((await partition())[0].t).toBe('stat_events_p20260520');
      } finally {
        restore();
      }
    },
  );

  test.runIf(onPostgres)(
    'batch numbers are taken ahead: one round trip to the sequence serves the COPYs of many batches',
    async () => {
      const db = api.database.db as unknown as Db;
      const opts = { now: api.clock.now(), clientAddress: '', md5 };
      const last = async () =>
        BigInt(
          (await api.query<{ v: string }>(sql`select last_value::text as v from stat_event_batches`))[0].v,
        );
      forgetSpareNumbers(db);
      const before = await last();
      for (let i = 0; i < 5; i++)
        expect(await ingest(db, 94, [event()], opts)).toMatchObject({ accepted: 1 });
      expect((await last()) - before).toBe(32n); // one refill of 32, not one number a batch
      const batches = await api.query<{ batch: string }>(
        sql`select batch::text as batch from stat_events where tenant = 94 order by batch`,
      );
      expect(batches.map((b) => BigInt(b.batch) - before)).toEqual([1n, 2n, 3n, 4n, 5n]);
    },
  );

  test.runIf(onPostgres)(
    'batches of a day that arrive while a COPY runs go in the next COPY together, each answered its own',
    async () => {
      const db = api.database.db as unknown as Db;
      const real = copierOf(db)!;
      const lines: number[] = []; // events per COPY
      let hold: Promise<void> | undefined; // the next COPY waits for it
      copyInWith(db, async (text, data) => {
        lines.push(new TextDecoder().decode(Buffer.concat(data)).split('\n').length - 1);
        const wait = hold;
        hold = undefined;
        await wait;
        return real(text, data);
      });
      const opts = { now: api.clock.now(), clientAddress: '', md5 };
      const send = (events: object[]) => ingest(db, 93, events, opts);
      /** Sends `first`, and `more` while its COPY is held: those wait, then go together. */
      const meanwhile = async (first: object[], more: object[][]) => {
        let open!: () => void;
        hold = new Promise<void>((r) => {
          open = r;
        });
        const answers = [send(first)];
        while (hold) await new Promise((r) => setTimeout(r, 5)); // the first COPY has started
        answers.push(...more.map(send));
        while (waitingForCopy(db) < more.length) await new Promise((r) => setTimeout(r, 5));
        open();
        return Promise.all(answers);
      };
      const batchesOf = async (events: Record<string, unknown>[]) =>
        (
          await api.query<{ batch: string }>(
            sql`select distinct batch::text as batch from stat_events where tenant = 93
              and id = any(${sql.param(events.map((e) => String(e.id)))}::text[])`,
          )
        ).map((r) => r.batch);
      try {
        const [a, b, c] = [[event()], [event(), event()], [event(), event(), event()]];
        const out = await meanwhile(a, [b, c]);
        expect(out.map((o) => [o.accepted, o.duplicates])).toEqual([
          [1, 0],
          [2, 0],
          [3, 0],
        ]);
        expect(lines).toEqual([1, 5]);
        // The two that waited went in one COPY, each under its own number, each queued once.
        const numbers = [...(await batchesOf(a)), ...(await batchesOf(b)), ...(await batchesOf(c))];
        expect(new Set(numbers).size).toBe(3);
        const queued = await api.query<{ batch: string }>(
          sql`select batch::text as batch from stat_fold_queue where tenant = 93 order by batch`,
        );
        expect(queued.map((q) => q.batch)).toEqual([...numbers].sort());

        // A retried batch among those that waited: their COPY is refused, each is copied again alone, and only the
        // retried one goes to the insert, which skips its stored ids.
        lines.length = 0;
        const d = [event()];
        const e = [event(), event()];
        const retried = [...b, event()];
        const again = await meanwhile(d, [e, retried]);
        expect(again.map((o) => [o.accepted, o.duplicates])).toEqual([
          [1, 0],
          [2, 0],
          [1, 2],
        ]);
        // The two that waited in the order they reached the queue, which their requests' own reads decide.
        expect([...lines.slice(0, 2), ...lines.slice(2).sort()]).toEqual([1, 5, 2, 3]);
        const [{ n, ids }] = await api.query<{ n: number; ids: number }>(
          sql`select count(*)::int as n, count(distinct id)::int as ids from stat_events where tenant = 93`,
        );
        expect([n, ids]).toEqual([10, 10]);
      } finally {
        copyInWith(db, real);
      }
    },
  );
});

/** An event as a browser sends it with the browser key: no `ip` (its address is the connection's). */
function anonymous(over: Record<string, unknown> = {}) {
  const { ip: _, ...e } = event(over);
  return e;
}

async function keyOf() {
  return (await api.call('GET', '/app/admin/setting/site-key', { token: admin })).body.data.key;
}
