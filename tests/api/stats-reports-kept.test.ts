import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { addDays } from '../../common/period';
import {
  KeySums,
  pageOfSums,
  REPORTS,
  type ReportDef,
  type ReportQuery,
  runReport,
} from '../../server/modules/statistics/reports';
import { VISIT_DIMENSIONS } from '../../server/modules/statistics/schema';
import { startApi, type TestApi } from './harness';
import { event, rollup, siteSender, watchedDb } from './stats-helpers';

/**
 * Issue #12: a statistics report with no filter keeps its older days' sums per key between reads (reports.ts
 * `keySums`). A report must be the one read from every day, through any sequence of rollups (of today, and of earlier
 * days with late events), for every sort the keys' sums decide, with pages and the comparison.
 */
let api: TestApi;
let admin: string;
let send: Awaited<ReturnType<typeof siteSender>>;
const TODAY = '2026-06-01'; // the harness clock: 16:00 in Asia/Shanghai

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  send = await siteSender(api, admin);
});
afterAll(() => api?.close());

const CASES: [ReportDef, string, 'asc' | 'desc'][] = [
  [REPORTS.keywords, 'searches', 'desc'],
  [REPORTS.keywords, 'avgResults', 'asc'],
  [REPORTS.keywords, 'key', 'desc'],
  [REPORTS.domains, 'pageViews', 'desc'],
  [REPORTS.domains, 'bounceRate', 'asc'],
  [REPORTS.objects, 'views', 'desc'],
];

const query = (
  sort: string,
  order: 'asc' | 'desc',
  from: string,
  page: number,
  compare: boolean,
): ReportQuery => ({
  tenant: 2,
  period: { from, to: TODAY },
  scope: [],
  sort,
  order,
  page,
  pageSize: 3,
  compare,
});

async function compareAll() {
  for (const [def, sort, order] of CASES)
    for (const [from, compare] of [
      [addDays(TODAY, -11), false],
      [addDays(TODAY, -5), true],
    ] as const)
      for (const page of [1, 2]) {
        const q = query(sort, order, from, page, compare);
        const kept = await runReport(api.database.db, def, { ...q, today: TODAY });
        const whole = await runReport(api.database.db, def, { ...q, cache: false });
        expect(kept, `${def.table} ${sort} ${order} ${from} p.${page}`).toEqual(whole);
      }
}

test('the kept reading equals reading every day, through rollups of today and of earlier days', async () => {
  const ev = fc.record({
    daysBefore: fc.integer({ min: 0, max: 11 }),
    kind: fc.constantFrom('search', 'search', 'pageview', 'play'),
    word: fc.constantFrom('love', 'gap', 'Love', 'zero', '爱情', 'a b'),
    results: fc.integer({ min: 0, max: 3 }),
    domain: fc.constantFrom('a.example.com', 'b.example.com', 'c.example.com'),
    visitor: fc.integer({ min: 0, max: 9 }),
    movie: fc.integer({ min: 1, max: 4 }),
  });
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.array(ev, { minLength: 1, maxLength: 25 }), { minLength: 2, maxLength: 3 }),
      async (batches) => {
        run++;
        for (const batch of batches) {
          const r = await send(
            batch.map((e, i) =>
              event({
                id: `sk-${run}-${i}-${Math.random().toString(36).slice(2)}`,
                type: e.kind,
                time: `${addDays(TODAY, -e.daysBefore)}T03:00:00Z`,
                domain: e.domain,
                visitor: `sk-v${e.visitor}`,
                ...(e.kind === 'search' ? { keyword: e.word, results: e.results } : {}),
                ...(e.kind === 'search' ? {} : { object: { type: 'movie', id: e.movie } }),
              }),
            ),
          );
          expect(r.body.data.rejected).toEqual([]);
          await rollup(api, admin);
          await compareAll();
        }
      },
    ),
    { numRuns: 4 },
  );
  const all = await runReport(api.database.db, REPORTS.keywords, {
    ...query('searches', 'desc', addDays(TODAY, -11), 1, false),
    today: TODAY,
  });
  expect(all.total).toBeGreaterThan(0);
});

test("a domain's visits by any dimension, with no search: the totals and series are the domain's row (its daily rows and blocks), equal to every key's rows merged, and no read merges every key's sketches", async () => {
  const { db, seen } = watchedDb(api.database.db);
  let some = 0;
  let readDomain = false;
  for (const dimension of VISIT_DIMENSIONS)
    for (const domain of ['a.example.com', 'b.example.com'])
      for (const [from, compare] of [
        [addDays(TODAY, -11), false],
        [addDays(TODAY, -5), true],
      ] as const) {
        const q: ReportQuery = {
          ...query('pageViews', 'desc', from, 1, compare),
          scope: [sql`domain = ${domain}`, sql`dimension = ${dimension}`],
        };
        seen.length = 0;
        const fromDomain = await runReport(db, REPORTS.visits, {
          ...q,
          today: TODAY,
          totalsOf: { def: REPORTS.domains, key: domain },
        });
        const merging = seen.filter(
          (s) =>
            s.sql.includes('from stat_visit_daily') &&
            s.sql.includes('string_agg') &&
            !s.sql.includes(' in ('),
        );
        expect(merging, `${domain} ${dimension} ${from}`).toEqual([]);
        // The domain's totals are cached beside the domains report's, for every dimension.
        readDomain ||= seen.some((s) => s.sql.includes('from stat_domain_daily'));
        const fromKeys = await runReport(api.database.db, REPORTS.visits, { ...q, cache: false });
        expect(fromDomain, `${domain} ${dimension} ${from} ${compare}`).toEqual(fromKeys);
        some += Number(fromDomain.totals.pageViews);
      }
  expect(some).toBeGreaterThan(0);
  expect(readDomain).toBe(true);
});

test("the domains report reads its blocks' sketches row by row, grouped here: no statement concatenates sketches on the server", async () => {
  const { db, seen } = watchedDb(api.database.db);
  const answer = await runReport(db, REPORTS.domains, {
    ...query('pageViews', 'desc', addDays(TODAY, -11), 1, true),
    cache: false,
  });
  const blocks = seen.filter((s) => s.sql.includes('from stat_domain_blocks'));
  // the page's keys, the totals, each over this period and the previous one
  expect(blocks.length).toBeGreaterThanOrEqual(4);
  expect(blocks.filter((s) => s.sql.includes('string_agg'))).toEqual([]);
  expect(Number(answer.totals.visitors)).toBeGreaterThan(0);
  expect(answer.list.some((r) => Number(r.visitors) > 0)).toBe(true);
});

/** The days a statement's parameters name: a day, or the days of an array literal (`day = any($n::date[])`). */
const daysOf = (s: { params: unknown[] }) =>
  s.params.flatMap((p) =>
    typeof p !== 'string'
      ? []
      : /^\d{4}-\d{2}-\d{2}$/.test(p)
        ? [p]
        : /^\{.*\}$/.test(p)
          ? p
              .slice(1, -1)
              .split(',')
              .map((d) => d.replace(/"/g, ''))
          : [],
  );

/** Whether a statement sums every key's rows (of days or blocks) of the keywords (not the page's keys, not the total rows). */
const summing = (s: { sql: string }) =>
  /from stat_keyword_(daily|blocks)/.test(s.sql) &&
  s.sql.includes("keyword <> ''") &&
  !s.sql.includes('keyword in (');

test("after a rollup of today the next read sums today's rows only, the totals, series and page's keys too (read only then); after one of yesterday, yesterday's only; after one of an older day, every day but today; the next page none", async () => {
  const { db, seen } = watchedDb(api.database.db);
  const from = addDays(TODAY, -11);
  const yesterday = addDays(TODAY, -1);
  // Kept sums are kept per database handle: this one, which records the statements.
  const read = () =>
    runReport(db, REPORTS.keywords, { ...query('searches', 'desc', from, 1, false), today: TODAY });
  // The page (three keys, most searches first) holds keys of three searches each, which the late keywords below (two
  // at most) never displace: a key new to the page is read over every day, and is not what this test is about. It was
  // left to the earlier test's random keywords, and failed when those left room on the page.
  const page = ['kept-a', 'kept-b', 'kept-c'].flatMap((keyword) =>
    Array.from({ length: 3 }, () =>
      event({ type: 'search', keyword, results: 1, time: `${TODAY}T03:00:00Z` }),
    ),
  );
  expect((await send(page)).body.data.accepted).toBe(page.length);
  await rollup(api, admin);
  await read();
  for (const daysBefore of [0, 1, 0, 5]) {
    const r = await send([
      event({
        type: 'search',
        keyword: `late-${daysBefore}`,
        results: 1,
        time: `${addDays(TODAY, -daysBefore)}T03:00:00Z`,
      }),
    ]);
    expect(r.body.data.accepted).toBe(1);
    await rollup(api, admin);
    seen.length = 0;
    const answer = await read();
    expect(answer.total).toBeGreaterThan(0);
    // The statements that sum every key's rows (not the page's keys, not the total rows): their first days (of a day's
    // rows or of a block's).
    const sums = seen.filter(summing);
    const firstDays = sums.map((s) => daysOf(s).sort()[0]);
    // Today's sums are kept under today's stamp, yesterday's under its own and the older days': only the day rolled
    // up is read again (and after an older day, yesterday's with the older days).
    expect(firstDays.includes(TODAY)).toBe(daysBefore === 0);
    expect(firstDays.includes(yesterday)).toBe(daysBefore > 0);
    expect(firstDays.includes(from)).toBe(daysBefore === 5);
    // Nor the total rows (the totals row and the daily series) of yesterday and the older days.
    const totals = seen.filter(
      (s) => s.sql.includes('from stat_keyword_daily') && s.sql.includes("keyword = ''"),
    );
    expect(totals.length).toBeGreaterThan(0);
    expect(totals.some((s) => daysOf(s).includes(yesterday))).toBe(daysBefore > 0);
    expect(totals.some((s) => daysOf(s).includes(from))).toBe(daysBefore === 5);
    // Today's total rows are kept under today's stamp like its keys' rows: read again after a rollup of today only.
    expect(totals.some((s) => daysOf(s).includes(TODAY))).toBe(daysBefore === 0);
    // Nor the page's keys over those days (their sums and sketches kept since the first read).
    const pageKeys = seen.filter(
      (s) => s.sql.includes('from stat_keyword_daily') && s.sql.includes('keyword in ('),
    );
    expect(pageKeys.length).toBeGreaterThan(0);
    expect(pageKeys.some((s) => daysOf(s).includes(yesterday))).toBe(daysBefore > 0);
    expect(pageKeys.some((s) => daysOf(s).includes(from))).toBe(daysBefore === 5);
    // Their rows of today too, kept under today's stamp: read again after a rollup of today only.
    expect(pageKeys.some((s) => daysOf(s).includes(TODAY))).toBe(daysBefore === 0);
    // The next page before the next rollup sums no rows: today's sums are kept under today's stamp too.
    seen.length = 0;
    const next = await runReport(db, REPORTS.keywords, {
      ...query('searches', 'desc', from, 2, false),
      today: TODAY,
    });
    expect(next.total).toBe(answer.total);
    expect(seen.filter(summing)).toEqual([]);
  }
});

test("a page of the keys' sums is the page of all of them sorted, ties by key, nulls last", () => {
  const def = REPORTS.keywords;
  const sums = fc.dictionary(
    fc.constantFrom('a', 'b', 'B', 'c', 'd', '爱', 'e', 'f', 'g', 'h'),
    fc.record({
      searches: fc.integer({ min: 0, max: 3 }),
      zero: fc.integer({ min: 0, max: 2 }),
      rsum: fc.integer({ min: 0, max: 9 }),
    }),
  );
  fc.assert(
    fc.property(
      sums,
      sums,
      sums,
      fc.constantFrom('searches', 'avgResults', 'key', 'zeroResults'),
      fc.constantFrom('asc', 'desc'),
      fc.integer({ min: 1, max: 4 }),
      (older, late, recent, sort, order, page) => {
        const toPart = (d: Record<string, Record<string, number>>) =>
          new KeySums(
            Object.keys(d),
            Object.keys(def.sums).map((c) => Float64Array.from(Object.values(d), (v) => v[c])),
          );
        const q = { ...query(sort, order as 'asc' | 'desc', TODAY, page, false), pageSize: 3 };
        const parts = [older, late, recent].map(toPart);
        const shown = () => JSON.stringify(parts.map((p) => [p.keys, p.cols.map((c) => [...c])]));
        const before = shown();
        const got = pageOfSums(def, q, parts, (page - 1) * 3);
        expect(shown()).toBe(before); // the kept parts are left as they are
        // Every key's sums, sorted whole.
        const all = new Map<string, Record<string, number | string>>();
        for (const d of [older, late, recent])
          for (const [key, v] of Object.entries(d)) {
            const o = all.get(key) ?? { key, searches: 0, zero: 0, rsum: 0 };
            all.set(key, {
              key,
              searches: +o.searches + v.searches,
              zero: +o.zero + v.zero,
              rsum: +o.rsum + v.rsum,
            });
          }
        const value = (r: Record<string, number | string>) =>
          sort === 'key'
            ? null
            : sort === 'avgResults'
              ? +r.searches
                ? +r.rsum / +r.searches
                : null
              : sort === 'searches'
                ? +r.searches
                : +r.zero;
        const sign = order === 'desc' ? -1 : 1;
        const sorted = [...all.values()].sort((a, b) => {
          if (sort === 'key') return sign * (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
          const x = value(a);
          const y = value(b);
          const byKey = a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
          if (x === null || y === null) return x === y ? byKey : x === null ? 1 : -1;
          return sign * (x - y) || byKey;
        });
        expect(got.total).toBe(all.size);
        expect(got.page.map((r: Record<string, unknown>) => r.key)).toEqual(
          sorted.slice((page - 1) * 3, page * 3).map((r) => r.key),
        );
        // Each row of the page holds its key's sums over the three parts.
        for (const r of got.page as Record<string, unknown>[]) {
          const want = all.get(String(r.key))!;
          expect([+(r.searches as number), +(r.zero as number), +(r.rsum as number)]).toEqual([
            want.searches,
            want.zero,
            want.rsum,
          ]);
        }
      },
    ),
    { numRuns: 300 },
  );
});

test("a keywords or movies report with nothing cached reads each day's total row once, for its totals and its series alike", async () => {
  const from = addDays(TODAY, -11);
  const sent = [0, 1, 5, 9].flatMap((daysBefore) => {
    const time = `${addDays(TODAY, -daysBefore)}T03:00:00Z`;
    return [
      event({ type: 'search', keyword: `once-${daysBefore}`, results: 1, time }),
      event({ path: '/movie/7', object: { type: 'movie', id: 7 }, time }),
    ];
  });
  expect((await send(sent)).body.data.accepted).toBe(sent.length);
  await rollup(api, admin);
  for (const [def, sort, scope] of [
    [REPORTS.keywords, 'searches', []],
    [REPORTS.objects, 'views', [sql`object_type = ${'movie'}`]],
  ] as const)
    for (const today of [undefined, TODAY]) {
      // A new handle: nothing of it cached. Without `today` the period is read whole; with it, split into its parts.
      const { db, seen } = watchedDb(api.database.db);
      const answer = await runReport(db, def, {
        ...query(sort, 'desc', from, 1, false),
        scope: [...scope],
        today,
      });
      const sketch = Object.values(def.sketches)[0];
      const reads = seen.filter(
        (s) => s.sql.includes(`from ${def.table}`) && s.sql.includes(sketch) && !s.sql.includes(' in ('),
      );
      const days = reads.flatMap(daysOf);
      expect(days.length).toBeGreaterThanOrEqual(12);
      expect(new Set(days).size).toBe(days.length);
      // The totals are the series' days added up.
      const figure = sort as 'searches' | 'views';
      expect(Number(answer.totals[figure])).toBeGreaterThan(0);
      expect(Number(answer.totals[figure])).toBe(
        answer.series.reduce((sum, d) => sum + Number(d[figure]), 0),
      );
    }
});
