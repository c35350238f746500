import { OpenAPIHono, z } from '@hono/zod-openapi';
import { and, eq, sql } from 'drizzle-orm';
import { cors } from 'hono/cors';
import { Code } from '../../../common/codes';
import { PAGE_SIZES } from '../../../common/paging';
import { dayOf, daysIn, isDay, type Period } from '../../../common/period';
import { audit, auditedRoute, diff, snapshot } from '../../core/audit';
import { can, security } from '../../core/auth';
import type { AppContext, AppEnv } from '../../core/context';
import { jsonBody, jsonResponse, ok } from '../../core/envelope';
import { ApiError, type FieldErrors, invalidField, notFound, ValidationError } from '../../core/errors';
import { fieldMessage } from '../../core/i18n';
import { createRoute } from '../../core/route';
import { containsPattern, intQuery, rejectUnknownQuery, transaction } from '../../core/shared';
import { tenantOf } from '../../core/tenant';
import { listTotalShape } from '../../core/totals';
import { rowsOf } from '../../db/migrate';
import type { Executor } from '../../db/types';
import { actresses } from '../actresses/schema';
import { lockMovies, touchMovies } from '../movie/model';
import { movies, movieTagLinks, movieTags } from '../movie/schema';
import { novels } from '../novel/schema';
import {
  eitherSecurity,
  isSigned,
  optionalSignature,
  requireSiteKey,
  SITE_KEY_HEADER,
  siteTenantOf,
  siteVersionOf,
} from '../site/routes';
import { BROWSER_TYPES, EventInput, MAX_BATCH, SERVER_FIELDS } from './events';
import { ingest, timeZoneOf } from './ingest';
import { domainHours, domainPageViews, earliestDay, REPORTS, type ReportDef, runReport } from './reports';
import { RollupStuck, runRollup, stuckDays } from './rollup';
import { VISIT_DIMENSIONS } from './schema';
import { type UnseenQuery, unseenPage } from './seen';
import { replayable } from './warm-reads';

const TAG = 'statistics';
/** The longest period a report reads (a year and a day), and a domain's hour by hour detail. */
const MAX_DAYS = 366;
const MAX_HOUR_DAYS = 31;

const IngestAnswer = z
  .object({
    accepted: z.number(),
    duplicates: z.number(),
    dropped: z.number().openapi({ description: 'Bots, sampled-out visitors and event types switched off' }),
    rejected: z.array(z.object({ index: z.number(), fields: z.record(z.string(), z.string()) })),
  })
  .openapi('StatIngestAnswer');

const ingestRoute = createRoute({
  method: 'post',
  path: '/',
  tags: ['site (public)'],
  security: eitherSecurity,
  summary: "The content site's events, in batches of 1 to 500 (browser key: anonymous traffic; signed: all)",
  description: [
    'Two doors (DESIGN.md decision 11). With the browser key alone (Site-Key, CORS open) a batch may hold only',
    'anonymous traffic: pageview, play, search, ad_impression, ad_click, tag_click, without `ip` or `amount` (the',
    "address is the connection's); anything else refuses the whole batch with 40300 naming the event and its type.",
    "`signup` and `recharge` events, and `ip`, come from the site's server, signed (Site-Timestamp, Site-Signature).",
    'Each event is checked on its own: a bad one is reported in `rejected` by its index and field, the others are',
    'kept. An event id already stored (a retried batch) counts in `duplicates`, once. Bots (isbot), visitors outside',
    'the sampling rate and event types switched off in the statistics settings count in `dropped`. The body is',
    'limited by BODY_LIMIT_KB. CORS is open (`*`).',
  ].join(' '),
  request: {
    body: jsonBody(z.object({ events: z.array(EventInput).min(1).max(MAX_BATCH) }).openapi('StatEventBatch')),
  },
  responses: jsonResponse(IngestAnswer),
});

export const dayParam = z.string().refine(isDay, { params: { key: 'field.date' } });
/** The query of a report over a period (the statistics' and the ads'): its days, comparison, sort and page. */
export const periodQuery = (sorts: readonly string[]) => ({
  from: dayParam.optional(),
  to: dayParam.optional(),
  compare: z.enum(['true', 'false']).optional(),
  sort: z.enum(sorts as [string, ...string[]]).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  page: intQuery(1, 1_000_000).optional(),
  pageSize: z
    .enum(PAGE_SIZES.map(String) as [string, ...string[]])
    .transform(Number)
    .optional(),
});
const baseQuery = (figures: readonly string[]) => ({
  ...periodQuery(['key', ...figures]),
  q: z.string().trim().max(100).optional(),
});
const domainParam = z.string().trim().toLowerCase().min(1).max(253);

const Figures = z.record(z.string(), z.any());
const ReportAnswer = z
  .object({
    list: z.array(Figures),
    total: z.number(),
    totalExact: listTotalShape.totalExact.optional(),
    totals: z.record(z.string(), z.any()),
    previousTotals: z.record(z.string(), z.any()).optional(),
    series: z.array(Figures),
  })
  .openapi('StatReport');

const reportRoute = <Q extends z.ZodObject>(name: string, summary: string, query: Q) =>
  createRoute({
    method: 'get',
    path: `/reports/${name}`,
    tags: [TAG],
    security,
    summary,
    description:
      'Reads only the rollups. Days are YYYY-MM-DD in the tenant time zone (from/to default to today); compare=true adds the previous period of the same length.',
    middleware: can('statistics.read'),
    request: { query },
    responses: jsonResponse(ReportAnswer),
  });

const unseenQuery = z.object({ ...baseQuery([]), type: z.enum(['movie', 'tag']) });
const unseenRoute = reportRoute('unseen', 'Online movies, or tags, with no view in the period', unseenQuery);

const metaRoute = createRoute({
  method: 'get',
  path: '/meta',
  tags: [TAG],
  security,
  summary: "The tenant's time zone, today there, and the first day with rolled-up data",
  middleware: can('statistics.read'),
  responses: jsonResponse(
    z
      .object({ timeZone: z.string(), today: z.string(), earliest: z.string().nullable() })
      .openapi('StatMeta'),
  ),
});

const rollupRoute = createRoute({
  method: 'post',
  path: '/rollup',
  tags: [TAG],
  security,
  summary: 'Run the rollup now (admin): fold the raw events received since the last run into the reports',
  middleware: can('statistics.settings'),
  responses: jsonResponse(
    z
      .object({ ran: z.boolean(), days: z.number(), droppedPartitions: z.number() })
      .openapi('StatRollupAnswer'),
  ),
});

const StuckDay = z
  .object({
    day: z.string(),
    error: z
      .string()
      .openapi({ description: 'The database or server error, as it was raised (not translated)' }),
    failedAt: z.string().openapi({ description: 'When the last attempt failed (ISO 8601)' }),
    attempts: z.number(),
  })
  .openapi('StatStuckDay');

const stuckRoute = createRoute({
  method: 'get',
  path: '/stuck',
  tags: [TAG],
  security,
  summary:
    'Days whose rollup failed for a reason retrying will not fix (admin); the rollup goes on with the others. POST /rollup tries them again',
  middleware: can('statistics.settings'),
  responses: jsonResponse(z.object({ list: z.array(StuckDay) })),
});

const AdoptBody = z
  .object({
    keyword: z.string().trim().min(1).max(100),
    target: z.enum(['movie', 'novel', 'actress']),
    id: z.number().int().positive().max(2_147_483_647),
    as: z.enum(['alias', 'tag']),
  })
  .strict()
  .openapi('StatAdopt');

const adoptRoute = createRoute({
  method: 'post',
  path: '/keywords/adopt',
  tags: [TAG],
  security,
  summary:
    'Demand gap (admin): add a zero-result keyword as an alias of an actress, or a tag of a movie, novel or actress',
  middleware: can('statistics.settings'),
  request: { body: jsonBody(AdoptBody) },
  responses: jsonResponse(
    z.object({ target: z.string(), id: z.number(), as: z.string(), keyword: z.string() }),
  ),
});

/**
 * The period of a report's query: from..to in the tenant's days (today by default), at most MAX_DAYS long; `timeZone`
 * the tenant's when the caller has read it already.
 */
export async function periodOf(
  c: AppContext,
  q: { from?: string; to?: string },
  maxDays = MAX_DAYS,
  timeZone?: string,
): Promise<Period> {
  const { db, clock } = c.get('deps');
  const today = dayOf(clock.now(), timeZone ?? (await timeZoneOf(db, tenantOf(c))));
  const from = q.from ?? q.to ?? today;
  const to = q.to ?? (q.from ? today : today);
  if (to < from) throw invalidField('to', 'stats.toBeforeFrom');
  if (daysIn(from, to) > maxDays) throw invalidField('to', 'stats.periodTooLong', { days: maxDays });
  return { from, to };
}

function pageOf(
  q: { sort?: string; order?: 'asc' | 'desc'; page?: number; pageSize?: number },
  figures: readonly string[],
) {
  return {
    sort: q.sort ?? figures[0] ?? 'key',
    order: q.order ?? (q.sort === 'key' ? 'asc' : 'desc'),
    page: q.page ?? 1,
    pageSize: q.pageSize ?? 20,
  } as const;
}

async function labels(db: Executor, table: 'movies' | 'movie_tags', ids: number[]) {
  if (!ids.length) return new Map<number, string>();
  const col = table === 'movies' ? 'title' : 'name';
  const rows = rowsOf<{ id: number; label: string }>(
    await db.execute(
      sql`select id, ${sql.raw(col)} as label from ${sql.raw(table)} where id in (${sql.join(
        ids.map((i) => sql`${i}`),
        sql`, `,
      )})`,
    ),
  );
  return new Map(rows.map((r) => [Number(r.id), r.label]));
}

/** Where the public ingestion is mounted under /app (beside the site API, with the same key). */
export const EVENTS_MOUNT = '/site/events';
export const SITE_EVENTS_PATH = `/app${EVENTS_MOUNT}`;

/**
 * The browser key's limits: events that move money or name a member (signup, recharge) and the fields only the site's
 * server may set (`ip`, `amount`) refuse the whole batch (40300, nothing stored), naming each event and what it held.
 */
function refuseServerEvents(events: unknown[]) {
  const fields: FieldErrors = {};
  events.forEach((e, i) => {
    if (!e || typeof e !== 'object' || Array.isArray(e)) return; // checked, and reported, with the others
    const { type } = e as Record<string, unknown>;
    if (typeof type === 'string' && !BROWSER_TYPES.has(type) && EventInput.shape.type.safeParse(type).success)
      fields[`events.${i}.type`] = { key: 'site.serverOnlyEvent', params: { type } };
    for (const f of SERVER_FIELDS)
      if (Object.hasOwn(e, f)) fields[`events.${i}.${f}`] = { key: 'site.serverOnlyField' };
  });
  if (Object.keys(fields).length) throw new ValidationError(fields, Code.FORBIDDEN);
}

/** The public ingestion, mounted at /app/site/events (beside the site API, with the same key). */
export function ingestRoutes() {
  const app = new OpenAPIHono<AppEnv>();

  const ingestCors = cors({
    origin: '*',
    allowMethods: ['POST', 'OPTIONS'],
    allowHeaders: [SITE_KEY_HEADER, 'Content-Type', 'Accept-Language'],
    maxAge: 86_400,
  });
  // As the site API: a CORS preflight is answered 204; any other request, an OPTIONS included, needs the key.
  app.use('*', (c, next) => {
    if (c.req.method !== 'OPTIONS') return ingestCors(c, () => requireSiteKey(c, next) as Promise<void>);
    return c.req.header('access-control-request-method') ? ingestCors(c, next) : requireSiteKey(c, next);
  });
  app.use('*', optionalSignature);

  app.post('/', async (c, next) => {
    // Each event is checked on its own below; the body itself must be {events: [...]} of 1..500.
    const body = await c.req.json().catch(() => undefined);
    const events = (body as { events?: unknown })?.events;
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw invalidField('events', 'field.required');
    if (!Array.isArray(events))
      throw invalidField('events', events === undefined ? 'field.required' : 'field.type', {
        expected: 'array',
      });
    if (events.length < 1) throw invalidField('events', 'field.required');
    if (events.length > MAX_BATCH) throw invalidField('events', 'field.tooLong', { max: MAX_BATCH });
    const unknown = Object.keys(body).find((k) => k !== 'events');
    if (unknown) throw invalidField(unknown, 'field.unknown');
    if (!isSigned(c)) refuseServerEvents(events);
    const { db, clock, clientAddress, region, md5 } = c.get('deps');
    const outcome = await ingest(db, siteTenantOf(c), events, {
      now: clock.now(),
      clientAddress: clientAddress(c),
      region,
      md5,
      siteVersion: siteVersionOf(c),
    });
    const locale = c.get('locale');
    void next;
    return ok(c, {
      ...outcome,
      rejected: outcome.rejected.map(({ index, fields }) => ({
        index,
        fields: Object.fromEntries(
          Object.entries(fields).map(([f, { key, params }]) => [f, fieldMessage(locale, f, key, params)]),
        ),
      })),
    });
  });
  // The route is handled above (per-event validation); this only documents it.
  app.openAPIRegistry.registerPath(ingestRoute);
  return app;
}

type ReportAnswer = Awaited<ReturnType<typeof runReport>>;
/** Any period report's validated query, its period resolved. */
type PeriodQuery = Period &
  Partial<z.infer<z.ZodObject<ReturnType<typeof baseQuery>>>> & {
    zeroOnly?: 'true' | 'false';
    domain?: string;
    dimension?: (typeof VISIT_DIMENSIONS)[number];
  };

const baseOf = (tenant: number, q: PeriodQuery, today: string, def: ReportDef) => ({
  tenant,
  period: { from: q.from, to: q.to },
  today,
  compare: q.compare === 'true',
  ...pageOf(q, def.figures),
});

/** A report over the rollups as its route serves it. */
interface PeriodReport {
  summary: string;
  query: z.ZodObject;
  /** The longest period it reads (default `MAX_DAYS`). */
  maxDays?: number;
  /**
   * Whether a read caches its answer (default: yes), so that reading it again after a rollup is worth it (`warmReads`).
   */
  caches?: (q: PeriodQuery) => boolean;
  answer: (db: Executor, tenant: number, q: PeriodQuery, today: string) => Promise<ReportAnswer>;
}

/**
 * Each report over a period: its route's query and summary, and the answer it serves, cached between reads
 * (report-cache.ts; but `caches`) and read again by the rollup timer after each run while operators read it
 * (warm-reads.ts).
 */
const PERIOD_REPORTS: Record<string, PeriodReport> = {
  keywords: {
    summary:
      'Hot keywords: searches, unique searchers, average results, zero-result searches (zeroOnly: demand gap)',
    query: z.object({
      ...baseQuery(REPORTS.keywords.figures),
      zeroOnly: z.enum(['true', 'false']).optional(),
    }),
    answer: (db, tenant, q, today) =>
      runReport(db, REPORTS.keywords, {
        ...baseOf(tenant, q, today, REPORTS.keywords),
        scope: [],
        filter: q.q ? sql`keyword like ${containsPattern(q.q.toLowerCase())}` : undefined,
        having: q.zeroOnly === 'true' ? sql`sum(searches) = sum(zero_results)` : undefined,
      }),
  },
  movies: objectsReport(
    'movies',
    'Movies: views, plays, viewers (distinct visitors who played), play rate (key = movie id, label = title)',
  ),
  tags: objectsReport(
    'tags',
    "Tags: views and plays of the tag's movies and pages, viewers (distinct visitors who played), play rate",
  ),
  domains: {
    summary: 'Domains: page views, unique visitors, addresses, new visitors, bounce rate',
    query: z.object(baseQuery(REPORTS.domains.figures)),
    answer: (db, tenant, q, today) =>
      runReport(db, REPORTS.domains, {
        ...baseOf(tenant, q, today, REPORTS.domains),
        scope: [],
        filter: q.q ? sql`domain like ${containsPattern(q.q.toLowerCase())}` : undefined,
      }),
  },
  'domain-hours': {
    summary: "One domain's figures hour by hour (at most 31 days)",
    query: z.object({ ...baseQuery(REPORTS.domains.figures), domain: domainParam }),
    maxDays: MAX_HOUR_DAYS,
    // at most 31 days of one domain's hourly rows, read afresh each time
    caches: () => false,
    answer: (db, tenant, q) =>
      domainHours(db, {
        tenant,
        period: { from: q.from, to: q.to },
        domain: String(q.domain),
        compare: q.compare === 'true',
        sort: q.sort,
        order: q.order,
      }),
  },
  visits: {
    summary: "One domain's page views by path, referrer, device, region or channel, with each one's share",
    query: z.object({
      ...baseQuery(REPORTS.visits.figures),
      domain: domainParam,
      dimension: z.enum(VISIT_DIMENSIONS),
    }),
    answer: async (db, tenant, q, today) => {
      const base = baseOf(tenant, q, today, REPORTS.visits);
      const data = await runReport(db, REPORTS.visits, {
        ...base,
        sort: base.sort === 'share' ? 'pageViews' : base.sort,
        scope: [sql`domain = ${q.domain}`, sql`dimension = ${q.dimension}`],
        filter: q.q ? sql`key like ${containsPattern(q.q)}` : undefined,
        totalsOf: { def: REPORTS.domains, key: String(q.domain) },
      });
      const all = await domainPageViews(db, tenant, String(q.domain), base.period);
      const withShare = (f: Record<string, unknown>, total: number) => ({
        ...f,
        share: total ? Math.round((Number(f.pageViews) / total) * 10_000) / 10_000 : 0,
      });
      data.list = data.list.map((r) => {
        const row = withShare(r, all);
        return r.previous ? { ...row, previous: r.previous } : row;
      });
      data.totals = withShare(data.totals, all) as any;
      data.series = data.series.map((s) => ({ ...s, share: 1 }));
      return data;
    },
  },
};

/** Each report as its route serves it, and the rollup timer's warm-up reads it again (warm-reads.ts). */
const servedReports = Object.fromEntries(
  Object.entries(PERIOD_REPORTS).map(([name, report]) => [
    name,
    replayable(`stats.${name}`, (db, tenant, q: PeriodQuery, { today }) =>
      report.answer(db, tenant, q, today),
    ),
  ]),
);

/**
 * The "not seen in this period" list as its route serves it; the rollup timer's warm-up reads an operator's recent
 * ones again after each run, so that the movies' last days (seen.ts) have followed the run before the next read.
 */
const servedUnseen = replayable(
  'stats.unseen',
  (db, tenant, { from, to, ...q }: Omit<UnseenQuery, 'tenant' | 'period'> & Period) =>
    unseenPage(db, { tenant, period: { from, to }, ...q }),
);

/** The movies' or tags' report, each row labelled with its title or name. */
function objectsReport(name: 'movies' | 'tags', summary: string): PeriodReport {
  return {
    summary,
    query: z.object(baseQuery(REPORTS.objects.figures)),
    // a title search reads the movies or tags, which change without a rollup
    caches: (q) => !q.q,
    answer: (db, tenant, q, today) => objectsAnswer(db, tenant, q, today, name),
  };
}

async function objectsAnswer(
  db: Executor,
  tenant: number,
  q: PeriodQuery,
  today: string,
  name: 'movies' | 'tags',
) {
  const table = name === 'movies' ? 'movies' : 'movie_tags';
  const data = await runReport(db, REPORTS.objects, {
    ...baseOf(tenant, q, today, REPORTS.objects),
    scope: [sql`object_type = ${name === 'movies' ? 'movie' : 'tag'}`],
    filter: q.q
      ? sql`object_id in (select id from ${sql.raw(table)} where ${sql.raw(name === 'movies' ? 'title' : 'name')} ilike ${containsPattern(q.q)})`
      : undefined,
    cache: !q.q,
  });
  const names = await labels(
    db,
    table,
    data.list.map((r) => Number(r.key)),
  );
  data.list = data.list.map((r) => ({ ...r, label: names.get(Number(r.key)) ?? null }));
  return data;
}

/** The reports over the rollups, the rollup on demand and the demand gap, mounted at /app/admin/stats. */
export function statsRoutes() {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(metaRoute, async (c) => {
    const { db, clock } = c.get('deps');
    const tenant = tenantOf(c);
    const timeZone = await timeZoneOf(db, tenant);
    return ok(c, { timeZone, today: dayOf(clock.now(), timeZone), earliest: await earliestDay(db, tenant) });
  });

  app.openapi(auditedRoute(rollupRoute), async (c) => {
    const { db, clock, config } = c.get('deps');
    // A database URL means PostgreSQL (a pool: each day's parts on connections of their own); else PGlite, one.
    const r = await runRollup(db, {
      now: clock.now(),
      defaultTenant: config.defaultTenant,
      parallel: Boolean(config.databaseUrl),
    }).catch((err) => {
      if (err instanceof RollupStuck) return err.result;
      throw err;
    });
    const answer = { ran: r.ran, days: r.days.length, droppedPartitions: r.droppedPartitions.length };
    // The tenant's own stuck days only: another tenant's error is not this admin's to read.
    const stuck = r.stuck.filter((d) => d.tenant === tenantOf(c));
    // The rollup commits each day in a transaction of its own: the entry, in one after them, says what the run was
    // asked (to fold what is marked now) and what it did (the request id names the run).
    const own = (d: { tenant: number }) => d.tenant === tenantOf(c);
    await transaction(db, (tx) =>
      audit(tx, c, {
        resource: 'statistics',
        action: 'rollup',
        changes: {
          after: snapshot({
            ran: r.ran,
            days: r.days.filter(own).map((d) => d.day),
            deferred: r.deferred.filter(own).map((d) => d.day),
            droppedPartitions: r.droppedPartitions,
            stuck: stuck.map((d) => d.day),
          }),
        },
      }),
    );
    if (stuck.length)
      throw new ApiError(
        Code.ROLLUP_STUCK,
        'stats.rollupStuck',
        { days: stuck.map((d) => d.day).join(', '), error: stuck[0].error },
        { ...answer, stuck: stuck.map(({ tenant: _, ...d }) => d) },
      );
    return ok(c, answer);
  });

  app.openapi(stuckRoute, async (c) => {
    const { db } = c.get('deps');
    const list = (await stuckDays(db, tenantOf(c))).map(({ tenant: _, ...d }) => d);
    return ok(c, { list });
  });

  for (const [name, report] of Object.entries(PERIOD_REPORTS)) {
    app.openapi(reportRoute(name, report.summary, report.query), async (c) => {
      const q = c.req.valid('query') as unknown as PeriodQuery;
      rejectUnknownQuery(c, report.query);
      const { db, clock } = c.get('deps');
      const tenant = tenantOf(c);
      const timeZone = await timeZoneOf(db, tenant);
      const period = await periodOf(c, q, report.maxDays ?? MAX_DAYS, timeZone);
      const now = clock.now();
      const data = await servedReports[name](db, {
        tenant,
        query: { ...q, ...period },
        at: { today: dayOf(now, timeZone), timeZone },
        now,
        remember: report.caches?.(q) !== false,
      });
      return ok(c, data);
    });
  }

  app.openapi(unseenRoute, async (c) => {
    const q = c.req.valid('query');
    rejectUnknownQuery(c, unseenQuery);
    const { db, clock } = c.get('deps');
    const tenant = tenantOf(c);
    const timeZone = await timeZoneOf(db, tenant);
    const period = await periodOf(c, q, MAX_DAYS, timeZone);
    const { page, pageSize } = pageOf(q, []);
    const now = clock.now();
    const { rows, total, totalExact } = await servedUnseen(db, {
      tenant,
      query: {
        type: q.type,
        ...period,
        q: q.q || undefined,
        page,
        pageSize,
        order: q.order === 'asc' ? 'asc' : 'desc',
      },
      at: { today: dayOf(now, timeZone), timeZone },
      now,
    });
    return ok(c, {
      list: rows.map((r) => ({
        key: String(r.key),
        label: r.label,
        publishedAt: r.published_at ? new Date(r.published_at).toISOString() : null,
      })),
      total,
      totalExact,
      totals: {},
      series: [],
    });
  });

  app.openapi(auditedRoute(adoptRoute), async (c) => {
    const { db, clock } = c.get('deps');
    const body = c.req.valid('json');
    const keyword = body.keyword.replace(/\s+/g, ' ');
    if (body.as === 'alias' && body.target !== 'actress') throw invalidField('as', 'stats.aliasOnlyActress');
    // The entry is the record's that took the keyword: its tags (or aliases) before and after.
    const adopted = (
      tx: Executor,
      resource: string,
      before: Record<string, unknown>,
      after: Record<string, unknown>,
    ) =>
      audit(tx, c, {
        resource,
        action: 'adopt-keyword',
        recordId: body.id,
        changes: { ...diff(before, after), keyword },
      });
    await transaction(db, async (tx) => {
      const now = clock.now();
      if (body.target === 'movie') {
        if (keyword.length > 32) throw invalidField('keyword', 'field.tooLong', { max: 32 });
        const [movie] = await tx.select({ id: movies.id }).from(movies).where(eq(movies.id, body.id));
        if (!movie) throw notFound();
        await tx.insert(movieTags).values({ name: keyword }).onConflictDoNothing();
        const [tag] = await tx
          .select({ id: movieTags.id })
          .from(movieTags)
          .where(eq(movieTags.name, keyword));
        await lockMovies(tx, [body.id]);
        const tagsOf = async () =>
          (
            await tx
              .select({ name: movieTags.name })
              .from(movieTagLinks)
              .innerJoin(movieTags, eq(movieTags.id, movieTagLinks.tagId))
              .where(eq(movieTagLinks.movieId, body.id))
              .orderBy(movieTags.id)
          ).map((t) => t.name);
        const before = await tagsOf();
        await tx.insert(movieTagLinks).values({ movieId: body.id, tagId: tag.id }).onConflictDoNothing();
        await touchMovies(tx, [body.id], now);
        await adopted(tx, 'movies', { tags: before }, { tags: await tagsOf() });
        return;
      }
      const table = body.target === 'novel' ? novels : actresses;
      const column = body.as === 'alias' ? 'aliases' : 'tags';
      const [row] = await tx
        .select({ id: table.id, values: table[column as 'tags'] })
        .from(table)
        .where(and(eq(table.id, body.id)));
      if (!row) throw notFound();
      const [after] = rowsOf<{ vals: string[] }>(
        await tx.execute(sql`update ${sql.raw(body.target === 'novel' ? 'novels' : 'actresses')}
        set ${sql.raw(column)} = case when ${keyword} = any(${sql.raw(column)}) then ${sql.raw(column)} else array_append(${sql.raw(column)}, ${keyword}::text) end,
          version = version + 1, updated_at = ${now}
        where id = ${body.id} returning ${sql.raw(column)} as vals`),
      );
      await adopted(
        tx,
        body.target === 'novel' ? 'novels' : 'actresses',
        { [column]: row.values },
        { [column]: after.vals },
      );
    });
    return ok(c, { target: body.target, id: body.id, as: body.as, keyword });
  });

  return app;
}
