/**
 * The audit log's writer (docs/audit.md). An entry is written by the change's own transaction, so a change
 * that rolls back leaves none. Three ways in, from the most precise:
 *
 * 1. `audit(tx, c, entry)` — a route says what it changed (crudResource, the batch route and updateSetting do it for
 *    every resource built on them; a module calls it, or `auditMany` / `auditBatch`, for its own routes). Such routes
 *    are declared with `auditedRoute`, which marks them `x-audit` in the OpenAPI document: every mutating admin route
 *    of the app is so marked or read-only (tests/api/audit-coverage.test.ts).
 * 2. Every other mutating `/app/admin/*` request (a route the coverage test has not seen yet) runs with a database
 *    whose `transaction` writes a route-level entry (the route, its path id, the request body with secrets redacted)
 *    in each transaction it commits, unless the route wrote its own entry in it.
 * 3. Nothing: a route that writes without a transaction gets no entry (the coverage test names them).
 *
 * Secrets never reach a row: fields whose name says secret (`isSecretField`), and any a caller lists, are written as
 * "[redacted]" at every depth (that the field changed stays visible, never its value).
 */
import { sql } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { routePath } from 'hono/route';
import { STANDS_FOR } from '../db/stand-in';
import type { Db, Executor, Tx } from '../db/types';
import type { AppContext, AppEnv } from './context';

export const REDACTED = '[redacted]';

/**
 * Field names that hold secrets: passwords (any spelling), password hashes, tokens, secrets and ciphers of them,
 * salts, reset codes and credentials (SECRET_WORDS); keys (`siteKey`, `provideKey`, `site_key`, `apiKey`; not `key`
 * alone, which names platforms and settings, nor `monkey`: the `Key` is matched by its case, KEY_SUFFIX).
 */
const SECRET_WORDS = /pass(word|wd)|secret|token|hash|salt|cipher|reset_?code|credential/i;
const KEY_SUFFIX = /[a-z0-9](Key|_key|_KEY)$|^(api|private|secret)_?(key|Key)$/;

/** Names the rule catches that are not secrets: the folded account, and when a secret changed. */
const NOT_SECRET = new Set(['accountKey', 'secretUpdatedAt', 'keyUpdatedAt', 'hasSecret']);

/** Whether the field `name` may hold a secret by its name or by the caller's list (`extra`). */
export const isSecretField = (name: string, extra?: readonly string[]) =>
  ((SECRET_WORDS.test(name) || KEY_SUFFIX.test(name)) && !NOT_SECRET.has(name)) ||
  (extra?.includes(name) ?? false);

/** Longest string kept in an entry: a chapter's text or a notice's HTML is cut (its length is said). */
const MAX_STRING = 2000;
const MAX_ARRAY = 200;

/** A value as the entry keeps it: JSON, instants as ISO strings, long strings and arrays cut, secrets redacted. */
export function auditValue(v: unknown, extra?: readonly string[], depth = 0): unknown {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (typeof v === 'string')
    return v.length > MAX_STRING ? `${v.slice(0, MAX_STRING)}… (+${v.length - MAX_STRING})` : v;
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Uint8Array) return `[${v.length} bytes]`;
  if (depth > 6) return '…';
  if (Array.isArray(v)) {
    const items = v.slice(0, MAX_ARRAY).map((x) => auditValue(x, extra, depth + 1));
    if (v.length > MAX_ARRAY) items.push(`… (+${v.length - MAX_ARRAY})`);
    return items;
  }
  if (typeof v === 'object') return redact(v as Record<string, unknown>, extra, depth + 1);
  return String(v);
}

/** An object's fields as entries keep them, secret fields (by name, at any depth) written as "[redacted]". */
export function redact(
  row: Record<string, unknown>,
  extra?: readonly string[],
  depth = 0,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row))
    out[k] = isSecretField(k, extra)
      ? v === null || v === undefined
        ? null
        : REDACTED
      : auditValue(v, extra, depth);
  return out;
}

/** Fields every versioned row changes on every write: not news in a diff. */
const BOOKKEEPING = new Set(['version', 'updatedAt', 'createdAt', 'updatedBy']);

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The fields that differ between `before` and `after` (bookkeeping left out), each side redacted: a secret that
 * changed shows as changed, with "[redacted]" on both sides.
 */
export function diff(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  extra?: readonly string[],
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (BOOKKEEPING.has(k)) continue;
    const x = auditValue(before[k], extra);
    const y = auditValue(after[k], extra);
    if (same(x, y)) continue;
    const secret = isSecretField(k, extra);
    b[k] = secret && x !== null ? REDACTED : x;
    a[k] = secret && y !== null ? REDACTED : y;
  }
  return { before: b, after: a };
}

/** A row's fields as a create or delete shows them (bookkeeping left out, secrets redacted). */
export function snapshot(row: Record<string, unknown>, extra?: readonly string[]) {
  const kept = Object.fromEntries(Object.entries(row).filter(([k]) => !BOOKKEEPING.has(k)));
  return redact(kept, extra);
}

export interface AuditEntry {
  /** Defaults to the module the route is mounted from. */
  section?: string;
  /** The resource within the section (a crudResource's tag). */
  resource?: string;
  action: string;
  recordId?: string | number | null;
  changes: Record<string, unknown>;
}

/** Transactions a route wrote its own entry in (the route-level entry is then not written). */
const explained = new WeakSet<object>();

/** The module whose mount point holds the request's path (set per request by `auditRequests`). */
const sectionOf = (c: AppContext) => c.get('auditSection') ?? 'app';

const routeOf = (c: AppContext) => `${c.req.method} ${routePath(c) || c.req.path}`.slice(0, 256);

/** Writes one entry in `tx`, naming the caller's operator, address and request. */
export async function audit(tx: Executor, c: AppContext, entry: AuditEntry) {
  explained.add(tx);
  c.set('auditWritten', true);
  const op = c.get('operator');
  const { clientAddress, clock } = c.get('deps');
  const record = entry.recordId === undefined || entry.recordId === null ? null : String(entry.recordId);
  await tx.execute(sql`
    insert into audit_log (at, operator_id, operator_account, address, request_id, section, resource, action,
                           record_id, route, changes)
    values (${clock.now()}, ${op?.id ?? null}, ${op?.account ?? ''}, ${clientAddress(c).slice(0, 64)},
            ${c.get('requestId') ?? ''}, ${(entry.section ?? sectionOf(c)).slice(0, 64)},
            ${(entry.resource ?? '').slice(0, 128)}, ${entry.action.slice(0, 64)}, ${record?.slice(0, 64) ?? null},
            ${routeOf(c)}, ${JSON.stringify(entry.changes)}::jsonb)`);
}

/**
 * An entry for a change to one record that reaches several others (links, a merge, a move, a reorder, an import):
 * the record asked about, the ids it touched (the first 1000, so the screen's record filter finds each of them), how
 * many, how many changed, and what else the route says (`extra`).
 */
export function auditMany(
  tx: Executor,
  c: AppContext,
  m: {
    resource?: string;
    action: string;
    recordId?: string | number | null;
    ids: readonly (number | string)[];
    changed?: number | null;
    extra?: Record<string, unknown>;
  },
) {
  return audit(tx, c, {
    resource: m.resource,
    action: m.action,
    recordId: m.recordId ?? null,
    changes: {
      ids: m.ids.slice(0, 1000),
      count: m.ids.length,
      changed: m.changed ?? null,
      ...(m.extra ? redact(m.extra) : {}),
    },
  });
}

/** A batch's entry: the action, the ids it ran on (the first 1000), how many and how many changed. */
export function auditBatch(
  tx: Executor,
  c: AppContext,
  b: {
    resource?: string;
    action: string;
    ids: readonly number[];
    changed?: number;
    extra?: Record<string, unknown>;
  },
) {
  return auditMany(tx, c, {
    ...b,
    action: `batch:${b.action}`,
    recordId: b.ids.length === 1 ? b.ids[0] : null,
  });
}

/** Marks a request whose route writes its own entries: the route-level entry is never written for it. */
const explicitAudit = createMiddleware<AppEnv>(async (c, next) => {
  c.set('auditExplicit', true);
  await next();
});

/**
 * A route config whose handler calls `audit` in its transaction: the route says so in the OpenAPI document
 * (`x-audit: true`, read by the coverage test) and no route-level entry is added for it.
 */
export function auditedRoute<
  R extends { middleware?: MiddlewareHandler<AppEnv> | MiddlewareHandler<AppEnv>[] },
>(route: R): R {
  return marked(route, true);
}

/** The route with its `x-audit` mark and the middleware that keeps the route-level entry off it. */
function marked<R extends { middleware?: MiddlewareHandler<AppEnv> | MiddlewareHandler<AppEnv>[] }>(
  route: R,
  mark: true | 'read',
): R {
  const mw =
    route.middleware === undefined
      ? []
      : Array.isArray(route.middleware)
        ? route.middleware
        : [route.middleware];
  return { ...route, 'x-audit': mark, middleware: [...mw, explicitAudit] };
}

/** Requests the log never records: signing in and out are sessions, not changes to the site. */
const NOT_AUDITED = new Set(['POST /app/admin/login', 'POST /app/admin/logout']);

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * `db` whose `transaction(run)` adds the route-level entry of `c`'s request to each transaction it commits, when
 * the route wrote none of its own in it.
 */
function auditingDb(db: Db, c: AppContext): Db {
  const transaction = async (run: (tx: Tx) => Promise<unknown>, config?: unknown) =>
    (db.transaction as any)(async (tx: Tx) => {
      const result = await run(tx);
      if (!c.get('auditExplicit') && !explained.has(tx) && c.get('operator'))
        await audit(tx, c, {
          action: 'route',
          recordId: c.req.param('id') ?? c.req.param('module') ?? null,
          changes: { body: await bodyOf(c) },
        });
      return result;
    }, config);
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'transaction') return transaction;
      // What is kept per database handle is the database's, not this request's (db/stand-in.ts keyOf).
      if (prop === STANDS_FOR) return target;
      const v = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/** The request's JSON body as the entry keeps it (the validated one when the route read it), secrets redacted. */
async function bodyOf(c: AppContext): Promise<unknown> {
  let body: unknown;
  try {
    body = (c.req.valid as (t: 'json') => unknown)('json');
  } catch {
    body = undefined;
  }
  if (body === undefined && (c.req.header('content-type') ?? '').includes('json'))
    body = await c.req.json().catch(() => undefined);
  if (body === undefined) return null;
  return auditValue(body);
}

/** The module each mount prefix belongs to, longest prefix first. */
export type Mounts = readonly (readonly [prefix: string, section: string])[];

/**
 * The app's middleware: names the request's section (the module mounted at the longest prefix of its path) and,
 * for a mutating request but the site's (`/app/site/*`), gives it the database of `auditingDb`.
 */
export function auditRequests(mounts: Mounts): MiddlewareHandler<AppEnv> {
  const sorted = [...mounts].sort((a, b) => b[0].length - a[0].length);
  return async (c, next) => {
    const path = c.req.path;
    const hit = sorted.find(([p]) => path === `/app${p}` || path.startsWith(`/app${p}/`));
    if (hit) c.set('auditSection', hit[1]);
    // The site's own writes (events, signups, comments) are no operator's action: never wrapped.
    const watched =
      MUTATING.has(c.req.method) &&
      !path.startsWith('/app/site/') &&
      !NOT_AUDITED.has(`${c.req.method} ${path}`);
    if (!watched) return next();
    const deps = c.get('deps');
    c.set('deps', { ...deps, db: auditingDb(deps.db, c) });
    await next();
    // A change that left no entry (its route writes outside a transaction and says nothing): said in the log, so
    // the route is found and fixed (docs/audit.md). Failed requests and read-only routes are no changes.
    if (!c.error && c.get('operator') && !c.get('auditWritten') && !c.get('auditExplicit'))
      deps.logger.warn(
        { method: c.req.method, path, requestId: c.get('requestId') },
        'audit: a request left no entry',
      );
  };
}

/** Rows older than `cutoff` removed the one way the database allows (zg_audit_purge); answers how many. */
export async function purgeAudit(db: Executor, cutoff: Date): Promise<number> {
  const r = (await db.execute(sql`select zg_audit_purge(${cutoff}) as n`)) as unknown as
    | { rows: { n: number }[] }
    | { n: number }[];
  const rows = Array.isArray(r) ? r : r.rows;
  return Number(rows[0]?.n ?? 0);
}

/**
 * A POST that changes nothing (a preview, a trial of rules, a test fetch): declared so (`x-audit: "read"`), and no
 * route-level entry is written for the transactions it reads in.
 */
export function readOnlyRoute<
  R extends { middleware?: MiddlewareHandler<AppEnv> | MiddlewareHandler<AppEnv>[] },
>(route: R): R {
  return marked(route, 'read');
}
