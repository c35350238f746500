import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { addDays } from '../../common/period';
import { rowsOf } from '../../server/db/migrate';
import { type AdReportQuery, adReport, adsStamp, type Grouping } from '../../server/modules/ad/reports';
import { ADS, ADVERTISERS, adFixture, createAd, material, POSITIONS } from './ad-helpers';
import { startApi, type TestApi } from './harness';
import { event, rollup, siteSender, watchedDb } from './stats-helpers';

/**
 * Issue #13: the ads reports keep the sums and clickers of the days before today between reads (`periodSums`). A
 * report must be the one read from every day, through any sequence of rollups (of today, and of earlier days with
 * late events) and of material changes, for every grouping, a scope, and the comparison.
 */
let api: TestApi;
let admin: string;
let send: Awaited<ReturnType<typeof siteSender>>;
const TODAY = '2026-06-01'; // the harness clock: 16:00 in Asia/Shanghai
const ids: number[] = [];
let fx: { positionId: number; advertiserId: number };

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  send = await siteSender(api, admin);
  fx = await adFixture(api, admin, 'kept');
  const other = await adFixture(api, admin, 'kept2');
  const at = { startAt: '2026-04-20T00:00:00+08:00', endAt: null };
  for (const [pricing, price, on] of [
    ['cpm', 12.5, fx],
    ['cpc', 0.3, fx],
    ['cpa', 7, other],
    ['monthly', 3100, other],
    ['cpm', 0, fx], // the fallback
  ] as const)
    ids.push((await createAd(api, admin, material(on, { title: pricing, pricing, price, ...at }))).id);
  const pos = (await api.call('GET', `${POSITIONS}/${fx.positionId}`, { token: admin })).body.data;
  await api.call('PUT', `${POSITIONS}/${fx.positionId}`, {
    token: admin,
    body: { fallbackAdId: ids[4], version: pos.version },
  });
});
afterAll(() => api?.close());

const MONEY = new Set(['revenue', 'ecpm', 'cpc', 'idle']);
/** The same report, money within a cent (the kept part and today's are added as two numbers). */
function same(a: unknown, b: unknown, path = ''): void {
  if (typeof a === 'number' && typeof b === 'number' && MONEY.has(path.split('.').at(-1) ?? ''))
    expect(Math.abs(a - b), path).toBeLessThanOrEqual(0.011);
  else if (a && b && typeof a === 'object' && typeof b === 'object') {
    expect(Object.keys(a).sort(), path).toEqual(Object.keys(b).sort());
    for (const k of Object.keys(a))
      same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
  } else expect(a, path).toEqual(b);
}

const report = (group: Grouping, from: string, compare: boolean, scope: boolean, today?: string) => {
  const base: Omit<AdReportQuery, 'group'> = {
    tenant: 2,
    timeZone: 'Asia/Shanghai',
    period: { from, to: TODAY },
    ...(scope ? { scope: sql`a.position_id = ${fx.positionId}` } : {}),
    ...(today ? { today } : {}),
  };
  return adReport(api.database.db, base, group, {
    page: 1,
    pageSize: 50,
    compare,
    idle: group === 'position',
  });
};

async function compareAll() {
  for (const group of ['position', 'advertiser', 'ad', 'day'] as const)
    for (const [from, compare, scope] of [
      [addDays(TODAY, -13), false, false],
      [addDays(TODAY, -6), true, false],
      [addDays(TODAY, -13), true, true],
    ] as const) {
      const kept = await report(group, from, compare, scope, TODAY);
      const again = await report(group, from, compare, scope, TODAY);
      const whole = await report(group, from, compare, scope);
      same(kept, whole, `${group} ${from} ${compare} ${scope}`);
      same(again, whole, `${group} ${from} ${compare} ${scope} again`);
    }
}

test('the kept reading equals reading every day, through rollups and material changes', async () => {
  const ev = fc.record({
    daysBefore: fc.integer({ min: 0, max: 12 }),
    ad: fc.integer({ min: 0, max: 4 }),
    visitor: fc.integer({ min: 0, max: 30 }),
    type: fc.constantFrom('ad_impression', 'ad_impression', 'ad_click', 'signup'),
  });
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.tuple(fc.array(ev, { minLength: 1, maxLength: 30 }), fc.constantFrom('none', 'price', 'title')),
        {
          minLength: 2,
          maxLength: 3,
        },
      ),
      async (batches) => {
        run++;
        for (const [batch, change] of batches) {
          const r = await send(
            batch.map((e, i) =>
              event({
                id: `ak-${run}-${i}-${Math.random().toString(36).slice(2)}`,
                type: e.type,
                visitor: `ak-v${e.visitor}`,
                object: { type: 'ad', id: ids[e.ad] },
                time: `${addDays(TODAY, -e.daysBefore)}T03:00:00Z`,
              }),
            ),
          );
          expect(r.body.data.rejected).toEqual([]);
          await rollup(api, admin);
          await compareAll();
          if (change !== 'none') {
            // A material's price, or its title (the figures as they were, the names not), changes between two
            // reads, with no rollup between them.
            const ad = (await api.call('GET', `/app/admin/ad/ads/${ids[0]}`, { token: admin })).body.data;
            const put = await api.call('PUT', `/app/admin/ad/ads/${ids[0]}`, {
              token: admin,
              body: change === 'price' ? { ...ad, price: ad.price + 1 } : { ...ad, title: `${ad.title}+` },
            });
            expect(put.body.code).toBe(20000);
            await compareAll();
          }
        }
      },
    ),
    { numRuns: 4 },
  );
  const all = await report('ad', addDays(TODAY, -13), false, false, TODAY);
  expect(all.totals.impressions).toBeGreaterThan(0);
  expect(all.totals.clickers).toBeGreaterThan(0);
});

test("after a rollup of today the next read reads today's rows only; after one of yesterday, yesterday's too", async () => {
  const yesterday = addDays(TODAY, -1);
  const { db, seen } = watchedDb(api.database.db);
  // Kept parts are kept per database handle: this one, which records the statements.
  const read = () =>
    adReport(
      db,
      {
        tenant: 2,
        timeZone: 'Asia/Shanghai',
        period: { from: addDays(TODAY, -13), to: TODAY },
        today: TODAY,
      },
      'ad',
      { page: 1, pageSize: 50, compare: false, idle: false },
    );
  await read();
  for (const daysBefore of [0, 1]) {
    const r = await send([
      event({
        visitor: `ak-late${daysBefore}`,
        type: 'ad_impression',
        object: { type: 'ad', id: ids[0] },
        time: `${addDays(TODAY, -daysBefore)}T03:00:00Z`,
      }),
    ]);
    expect(r.body.data.accepted).toBe(1);
    await rollup(api, admin);
    seen.length = 0;
    await read();
    // The day ranges of the statements that read the rollup rows.
    const days = seen
      .filter((s) => s.sql.includes('stat_object_daily'))
      .map((s) => s.params.filter((p) => typeof p === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(p)));
    expect(days).toContainEqual([TODAY, TODAY]);
    expect(days.some((d) => d.includes(yesterday))).toBe(daysBefore === 1);
  }
});

test('an edit that leaves the figures as they were keeps the period sums; one that changes them reads every day again', async () => {
  const { db, seen } = watchedDb(api.database.db);
  const read = (group: Grouping, on = db) =>
    adReport(
      on,
      {
        tenant: 2,
        timeZone: 'Asia/Shanghai',
        period: { from: addDays(TODAY, -13), to: TODAY },
        today: TODAY,
      },
      group,
      { page: 1, pageSize: 50, compare: false, idle: group === 'position' },
    );
  /** Whether the reads of every group after `edit` read the rollup rows of the days before yesterday again. */
  const rereads = async (edit: () => Promise<unknown>) => {
    for (const group of ['ad', 'position', 'advertiser', 'day'] as const) await read(group);
    await edit();
    seen.length = 0;
    const answers = [];
    for (const group of ['ad', 'position', 'advertiser', 'day'] as const) answers.push(await read(group));
    const rows = seen.filter((x) => x.sql.includes('stat_object_daily'));
    const older = rows.some((x) => x.params.includes(addDays(TODAY, -13)));
    return { older, any: rows.length > 0, answers };
  };
  const put = async (path: string, change: (row: Record<string, any>) => Record<string, unknown>) => {
    const row = (await api.call('GET', path, { token: admin })).body.data;
    const r = await api.call('PUT', path, { token: admin, body: { ...row, ...change(row) } });
    expect(r.body.code, JSON.stringify(r.body)).toBe(20000);
  };
  const ad = `${ADS}/${ids[1]}`;
  // Names, links, a pause, an advertiser's details: the kept sums hold, and the answers show the new names.
  const renamed = await rereads(() =>
    put(ad, (a) => ({ title: `${a.title} 改`, landingUrl: 'https://example.com/x' })),
  );
  expect(renamed.older).toBe(false);
  // Nor today's: the whole period's sums are kept until the next rollup.
  expect(renamed.any).toBe(false);
  expect(renamed.answers[0].list.map((r) => r.label)).toContain('cpc 改');
  expect((await rereads(() => put(ad, () => ({ enabled: false })))).older).toBe(false);
  expect((await rereads(() => put(`${ADVERTISERS}/${fx.advertiserId}`, () => ({ notes: '改' })))).older).toBe(
    false,
  );
  expect(
    (await rereads(() => put(`${POSITIONS}/${fx.positionId}`, (p) => ({ name: `${p.name} 改` })))).older,
  ).toBe(false);
  // A price, a position, a fallback: every day again.
  const priced = await rereads(() => put(ad, (a) => ({ price: a.price + 1 })));
  expect(priced.older).toBe(true);
  // And none of the answers is a kept one from before the price: each equals the same read on a handle with nothing
  // kept.
  const nothingKept = watchedDb(api.database.db).db;
  for (const [i, group] of (['ad', 'position', 'advertiser', 'day'] as const).entries())
    same(priced.answers[i], await read(group, nothingKept));
  const other = (await api.call('GET', `${ADS}/${ids[2]}`, { token: admin })).body.data;
  expect((await rereads(() => put(ad, () => ({ positionId: other.positionId })))).older).toBe(true);
  expect(
    (await rereads(() => put(`${POSITIONS}/${fx.positionId}`, () => ({ fallbackAdId: null })))).older,
  ).toBe(true);
});

test('the stamp the kept answers depend on moves with each write to the materials, positions and advertisers (migration 0116)', async () => {
  const db = api.database.db;
  const stamp = async (tenant = 2) =>
    String(rowsOf<{ v: string }>(await db.execute(sql`select ${adsStamp(tenant)} as v`))[0]?.v ?? '');
  const [figures, names] = (await stamp()).split(';').map(Number);
  const moved = async (write: () => Promise<unknown>) => {
    const before = (await stamp()).split(';').map(Number);
    await write();
    const after = (await stamp()).split(';').map(Number);
    return { figures: after[0] - before[0], names: after[1] - before[1] };
  };
  expect(names).toBeGreaterThan(0); // the fixtures' writes
  expect(figures).toBeGreaterThan(0);
  const ad = async () => (await api.call('GET', `${ADS}/${ids[1]}`, { token: admin })).body.data;
  const put = async (path: string, body: Record<string, unknown>) => {
    const row = (await api.call('GET', path, { token: admin })).body.data;
    const r = await api.call('PUT', path, { token: admin, body: { ...row, ...body } });
    expect(r.body.code, JSON.stringify(r.body)).toBe(20000);
  };
  // A name moves the names only; a price, the figures too; so do a new material and its removal.
  expect(await moved(async () => put(`${ADS}/${ids[1]}`, { title: `${(await ad()).title}·` }))).toEqual({
    figures: 0,
    names: 1,
  });
  expect(await moved(async () => put(`${ADS}/${ids[1]}`, { price: (await ad()).price + 1 }))).toEqual({
    figures: 1,
    names: 1,
  });
  expect(await moved(() => put(`${ADVERTISERS}/${fx.advertiserId}`, { notes: '盖章' }))).toEqual({
    figures: 0,
    names: 1,
  });
  expect(await moved(() => put(`${POSITIONS}/${fx.positionId}`, { fallbackAdId: ids[4] }))).toEqual({
    figures: 1,
    names: 1,
  });
  let created = 0;
  expect(
    await moved(async () => {
      created = (await createAd(api, admin, material(fx, { title: 'stamp' }))).id;
    }),
  ).toEqual({ figures: 1, names: 1 });
  expect(await moved(() => db.execute(sql`delete from ads where id = ${created}`))).toEqual({
    figures: 1,
    names: 1,
  });
  // A write rolled back moves nothing; another tenant's writes leave this one's stamp.
  expect(
    await moved(() =>
      db
        .transaction(async (tx) => {
          await tx.execute(sql`update ads set price = price + 1 where id = ${ids[0]}`);
          throw new Error('rolled back');
        })
        .catch(() => {}),
    ),
  ).toEqual({ figures: 0, names: 0 });
  expect(
    await moved(() =>
      db.execute(sql`insert into ad_advertisers (tenant, name) values (77, 'another tenant')`),
    ),
  ).toEqual({ figures: 0, names: 0 });
  expect(await stamp(77)).toBe('0;1');
  expect(await stamp(78)).toBe('0;0');
});
