import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { Code, type Envelope } from '../common/codes';
import type { AppDeps, AppEnv } from './core/context';
import { errorEnvelope } from './core/envelope';
import { ApiError } from './core/errors';
import { pickLocale, translate } from './core/i18n';
import { inputGuard } from './core/input-guard';
import { sqlStateOf } from './core/sql-state';
import { throwValidation } from './core/validate';
import { modules } from './modules';
import { IMAGE_UPLOAD_PATH, imageHost } from './modules/images';
import { NOVEL_IMPORT_PATH } from './modules/novel';

/**
 * The API: one Hono app, web-standard Request/Response only, so it runs in Node (`npm start`), in-process in
 * tests (`app.request`) and in the browser behind msw (demo mode). Everything platform-specific is in `deps`.
 */
export function createApp(deps: AppDeps) {
  const authenticate = modules.find((m) => m.authenticate)?.authenticate;
  if (!authenticate) throw new Error('no module provides authenticate (the operators module)');
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
    await next();
    c.header('X-Request-Id', requestId);
  });

  const appBodyLimit = bodyLimit({
    maxSize: deps.config.bodyLimitBytes,
    onError: () => {
      throw new ApiError(Code.INVALID, 'invalid.tooLarge', {
        limit: `${Math.round(deps.config.bodyLimitBytes / 1024)} KB`,
      });
    },
  });
  // Uploads apply their own limits and messages: the image upload (IMAGE_MAX_BYTES), the novel TXT import.
  const ownLimit = (path: string) => path === IMAGE_UPLOAD_PATH || NOVEL_IMPORT_PATH.test(path);
  app.use('/app/*', (c, next) => (ownLimit(c.req.path) ? next() : appBodyLimit(c, next)));

  app.use('/app/*', inputGuard);

  for (const m of modules)
    for (const [prefix, subApp] of Object.entries(m.mount)) app.route(`/app${prefix}`, subApp(modules));
  app.route('/img', imageHost());

  app.doc31('/app/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Zhanggui API',
      version: '1',
      description:
        'Every answer is HTTP 200 with the envelope {code, msg, data}; code 20000 is success. See the README for the codes.',
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
    if (err instanceof ApiError) return c.json(errorEnvelope(ctx, err), 200);
    if (err instanceof HTTPException && err.status < 500) {
      const key =
        err.status === 415 ? 'invalid.contentType' : err.status === 413 ? 'invalid.tooLarge' : 'invalid.json';
      return c.json(errorEnvelope(ctx, new ApiError(Code.INVALID, key, { limit: '' })), 200);
    }
    const requestId = c.get('requestId') ?? 'unknown';
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

function serializeError(err: unknown) {
  if (err instanceof Error) return { name: err.name, message: err.message, stack: err.stack };
  return { message: String(err) };
}
