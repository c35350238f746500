import { OpenAPIHono } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import { Code, type Envelope } from '../common/codes';
import { catalogOf } from '../common/permissions';
import { auditRequests } from './core/audit';
import { bodyGuard } from './core/body';
import type { AppDeps, AppEnv, BodyLimit } from './core/context';
import { isDatabaseUnavailable } from './core/db-errors';
import { errorEnvelope } from './core/envelope';
import { ApiError } from './core/errors';
import { pickLocale, translate } from './core/i18n';
import { inputGuard } from './core/input-guard';
import type { ServerModule } from './core/module';
import { sqlStateOf } from './core/sql-state';
import { throwValidation } from './core/validate';
import { modules as allModules } from './modules';

/**
 * The API: one Hono app, web-standard Request/Response only, so it runs in Node (`npm start`), in-process in
 * tests (`app.request`) and in the browser behind msw (demo mode). Everything platform-specific is in `deps`;
 * `modules` is the registry it mounts and reads (every module; a test adds one of its own beside them).
 */
export function createApp(deps: AppDeps, modules: readonly ServerModule[] = allModules) {
  const authenticate = modules.find((m) => m.authenticate)?.authenticate;
  if (!authenticate) throw new Error('no module provides authenticate (the operators module)');
  const permissions = catalogOf(modules.flatMap((m) => m.permissions ?? []));
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throwValidation(result.error, (result as { data?: unknown }).data);
    },
  });

  app.use('*', async (c, next) => {
    const requestId = crypto.randomUUID();
    c.set('deps', deps);
    c.set('requestId', requestId);
    c.set('locale', pickLocale(c.req.header('accept-language')));
    c.set('authenticate', authenticate);
    c.set('permissions', permissions);
    await next();
    c.header('X-Request-Id', requestId);
  });

  // Bodies are read only when a route reads them (after its guards), within BODY_LIMIT_KB unless the route
  // declares its own limit with `ownBodyLimit` (the image upload, the novel import).
  const appBodyLimit: BodyLimit = {
    maxBytes: deps.config.bodyLimitBytes,
    refuse: () =>
      new ApiError(Code.INVALID, 'invalid.tooLarge', {
        limit: `${Math.round(deps.config.bodyLimitBytes / 1024)} KB`,
      }),
  };
  app.use(
    '/app/*',
    bodyGuard(() => appBodyLimit),
  );

  app.use('/app/*', inputGuard);
  // The audit log's section per path, and the route-level entry of every mutating admin request (core/audit.ts).
  app.use(
    '/app/*',
    auditRequests(modules.flatMap((m) => Object.keys(m.mount).map((prefix) => [prefix, m.name] as const))),
  );
  // What an operator reads behind a token is nobody's to cache: no browser, proxy or shared cache keeps it.
  app.use('/app/admin/*', async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  });

  for (const m of modules)
    for (const [prefix, subApp] of Object.entries(m.mount)) app.route(`/app${prefix}`, subApp(modules));
  for (const m of modules)
    for (const [path, subApp] of Object.entries(m.rootMount ?? {})) app.route(path, subApp());

  app.doc31('/app/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Zhanggui API',
      version: '1',
      description:
        'Every answer is HTTP 200 with the envelope {code, msg, data}; code 20000 is success. The codes are listed in docs/api.md.',
    },
    servers: [{ url: '/' }],
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'AdminToken', {
    type: 'apiKey',
    in: 'header',
    name: 'Admin-Token',
  });

  // An explicit catch-all rather than notFound(): it still answers when this app is mounted in another one.
  app.all('/app/*', (c) => {
    throw new ApiError(Code.NOT_FOUND, 'notFound.route', { method: c.req.method, path: c.req.path });
  });

  app.onError((err, c) => {
    const ctx = c as any;
    // A refused body is the answer, whatever the reader made of the failed read (a validator's 400, a route's own).
    const refusal = c.get('bodyRefusal');
    if (refusal) return c.json(errorEnvelope(ctx, refusal), 200);
    if (err instanceof ApiError) return c.json(errorEnvelope(ctx, err), 200);
    if (err instanceof HTTPException && err.status < 500) {
      const key =
        err.status === 415 ? 'invalid.contentType' : err.status === 413 ? 'invalid.tooLarge' : 'invalid.json';
      return c.json(errorEnvelope(ctx, new ApiError(Code.INVALID, key, { limit: '' })), 200);
    }
    const requestId = c.get('requestId') ?? 'unknown';
    if (isDatabaseUnavailable(err)) {
      // A restart or an outage of the database: a known, documented answer, and the next request may succeed.
      deps.logger.warn(
        { err: serializeError(err), requestId, method: c.req.method, path: c.req.path },
        'database unavailable',
      );
      c.header('Retry-After', '5');
      const body: Envelope = {
        code: Code.UNAVAILABLE,
        msg: translate(c.get('locale') ?? 'zh-CN', 'unavailable'),
        data: null,
        requestId,
      };
      return c.json(body, 503);
    }
    const sqlState = inputRejectedByDatabase(err);
    if (sqlState) {
      // A value the edge let through but the column cannot hold: the caller's input, not a server fault.
      deps.logger.warn(
        { sqlState, requestId, method: c.req.method, path: c.req.path },
        'input refused by the database',
      );
      return c.json(errorEnvelope(ctx, new ApiError(Code.INVALID, 'invalid')), 200);
    }
    deps.logger.error(
      { err: serializeError(err), requestId, method: c.req.method, path: c.req.path },
      'unhandled error',
    );
    const body: Envelope = {
      code: Code.SERVER,
      msg: translate(c.get('locale') ?? 'zh-CN', 'server', { requestId }),
      data: null,
      requestId,
    };
    return c.json(body, 500);
  });

  return app;
}

export type App = ReturnType<typeof createApp>;

/**
 * SQLSTATEs that mean "this input does not fit the column": too long (22001), out of range (22003), a character
 * the encoding cannot hold (22021, 22P05). Either driver's error, possibly wrapped by Drizzle in `cause`.
 */
const INPUT_SQLSTATES = new Set(['22001', '22003', '22021', '22P05']);
function inputRejectedByDatabase(err: unknown): string | undefined {
  const state = sqlStateOf(err);
  return state && INPUT_SQLSTATES.has(state) ? state : undefined;
}

/**
 * What the log keeps of an error: never a query's parameters (they hold token hashes, password hashes, personal
 * data). Drizzle's "Failed query: … params: …" becomes the statement alone; the driver's cause keeps its message
 * and SQLSTATE.
 */
export function serializeError(err: unknown, depth = 0): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: String(err) };
  const e = err as Error & { query?: unknown; params?: unknown; code?: unknown };
  const out: Record<string, unknown> = { name: e.name, message: e.message, stack: e.stack };
  if (typeof e.query === 'string' && 'params' in e) {
    const redact = (s: string | undefined) =>
      s?.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, '\nparams: [redacted]');
    out.message = redact(e.message);
    out.stack = redact(e.stack);
    out.query = e.query;
  }
  if (typeof e.code === 'string') out.code = e.code;
  if (e.cause !== undefined && depth < 3) out.cause = serializeError(e.cause, depth + 1);
  return out;
}
