import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  daysSince,
  dropRawEvents,
  migrationsHash,
  seedDemo,
  shiftDates,
  snapshotFits,
} from '../../mocks/snapshot';
import { memoryImageStorage } from '../../server/core/image-storage';
import { migrations } from '../../server/db/migrate';
import { startApi, type TestApi } from './harness';

// Demo mode's prebuilt database (issue #17): used only when built from exactly the page's migrations, and its
// sample dates moved to today on load.

test('a snapshot is used only when built from exactly the migrations the page carries', async () => {
  const built = { url: '/assets/demo-db-x.tar', bytes: 1, seededAt: '2026-11-20T08:00:00Z' };
  expect(await snapshotFits({ ...built, migrations: await migrationsHash() })).toBe(true);
  // a migration added since the snapshot was built, one edited, one gone: stale, the page migrates and seeds
  const added = [...migrations, { name: '9999_new', text: 'create table x (id int);' }];
  const edited = migrations.map((m, i) => (i === migrations.length - 1 ? { ...m, text: `${m.text}\n` } : m));
  const gone = migrations.slice(0, -1);
  for (const list of [added, edited, gone])
    expect(await snapshotFits({ ...built, migrations: await migrationsHash() }, list)).toBe(false);
  expect(await snapshotFits(null)).toBe(false);
});

test("the dates move by the days from the seed's day to today in the tenant's time zone, never backwards", () => {
  const seededAt = '2026-11-20T08:00:00.000Z'; // 16:00 on 11-20 in Asia/Shanghai
  expect(daysSince(seededAt, new Date('2026-11-20T15:59:00Z'))).toBe(0); // 23:59 the same day
  expect(daysSince(seededAt, new Date('2026-11-20T16:00:00Z'))).toBe(1); // 00:00 the next
  expect(daysSince(seededAt, new Date('2026-11-23T07:59:59Z'))).toBe(3);
  expect(daysSince(seededAt, new Date('2026-11-01T00:00:00Z'))).toBe(0);
  // seeded at 23:48 and opened at 00:25: a day (24-hour periods made it none, and today had no data)
  expect(daysSince('2026-11-29T15:48:00Z', new Date('2026-11-29T16:25:00Z'))).toBe(1);
  expect(daysSince('2026-11-29T15:48:00Z', new Date('2026-11-29T16:25:00Z'), 'UTC')).toBe(0);
});

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

test('shiftDates moves every sample date and instant by whole days, keys and counts intact', async () => {
  const db = api.database.db;
  await seedDemo(db, api.config, memoryImageStorage(), new Date('2026-06-10T04:00:00Z'));
  // The raw events sit in day partitions: the snapshot leaves them out, and a shift refuses to run over them.
  await expect(shiftDates(db, 3)).rejects.toThrow(/stat_events/);
  await dropRawEvents(db);
  const probe = async () => {
    const [row] = await api.query<Record<string, string | number>>(sql`
      select
        (select max(day)::text from stat_visit_daily) as last_day,
        (select count(*)::int from stat_visit_daily) as daily_rows,
        (select min(start_at)::text from notices) as first_notice,
        (select max(created_at)::text from comments) as last_comment,
        (select min(birthday)::text from actresses) as first_birthday,
        (select max(end_at)::text from ads) as last_ad_end,
        (select sum(item_count)::int from movie_tags) as tag_counts,
        (select sum(version)::int from movies) as versions`);
    return row;
  };
  const before = await probe();
  expect(await shiftDates(db, 3)).toBeGreaterThan(20);
  const after = await probe();
  const plusDays = (value: string | number, days: number) => {
    const text = String(value);
    if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
      const d = new Date(`${text}T00:00:00Z`);
      d.setUTCDate(d.getUTCDate() + days);
      return d.toISOString().slice(0, 10);
    }
    return new Date(new Date(text).getTime() + days * 86_400_000).getTime();
  };
  const instant = (v: string | number) => (/^\d{4}-\d{2}-\d{2}$/.test(String(v)) ? v : new Date(v).getTime());
  for (const key of ['last_day', 'first_notice', 'last_comment', 'first_birthday', 'last_ad_end'])
    expect({ key, value: instant(after[key]) }).toEqual({ key, value: plusDays(before[key], 3) });
  // nothing else changed: no row lost, no trigger fired (counts and versions as they were)
  expect([after.daily_rows, after.tag_counts, after.versions]).toEqual([
    before.daily_rows,
    before.tag_counts,
    before.versions,
  ]);
  expect(await shiftDates(db, 0)).toBe(0);
}, 240_000);
