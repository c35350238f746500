import { type Context, Hono } from 'hono';
import { DEFAULT_TIME_ZONE, isTimeZone } from '../../../common/period';
import type { AppEnv } from '../../core/context';
import { translate } from '../../core/i18n';
import { defineModule } from '../../core/module';
import { readSettings } from '../sys';
import {
  type ArtActorKind,
  artActorJson,
  artActorXml,
  type FormatContext,
  provideJson,
  provideXml,
} from './format';
import { parseProvideQuery } from './params';
import {
  MAX_PROVIDED_CHAPTER_BYTES,
  readColumns,
  readNovelColumns,
  readProvidedActresses,
  readProvidedNovels,
  readProvidedPage,
} from './read';

/**
 * MacCMS's provide API (DESIGN.md §12), served so that another MacCMS site can collect our online movies:
 * `GET /api.php/provide/vod/?ac=list|videolist|detail&t=&pg=&wd=&h=&ids=&at=xml&key=`, at MacCMS's own path (not
 * under `/app`: collectors are configured with a site's root and that path); our online novels as its articles
 * (`/api.php/provide/art/`) and our visible actresses as its performers (`/api.php/provide/actor/`), with the same
 * parameters, paging, totals, switch and key.
 *
 * It is the default tenant's, off until an admin opens it in the system settings (`provideOpen`), with an optional
 * key (`provideKey`, sent as `key`). While closed the path is not found (HTTP 404); a wrong key or a bad parameter
 * is MacCMS's refusal, `{code: 0, msg}` with HTTP 200 (collectors show the `msg`), in the request's language.
 * Errors are JSON even when `at=xml` was asked: a collector reading XML fails on either, and the JSON names why.
 */
export function provideApi() {
  const app = new Hono<AppEnv>();
  const serve = (kind: 'vod' | ArtActorKind) => async (c: Context<AppEnv>) => {
    const { db, config, clock } = c.get('deps');
    const locale = c.get('locale');
    const settings = (await readSettings(db, config.defaultTenant)) as Record<string, unknown>;
    const refuse = (msg: string, status: 200 | 404 = 200) =>
      c.json({ code: 0, msg }, status, { 'Cache-Control': 'no-store' });
    if (settings.provideOpen !== true) return refuse(translate(locale, 'provide.closed'), 404);
    const q = parseProvideQuery(c.req.query());
    if ('param' in q) {
      const { param, key, ...params } = q;
      return refuse(translate(locale, key, { param, ...params }));
    }
    const wanted = typeof settings.provideKey === 'string' ? settings.provideKey : '';
    if (wanted && !sameKey(q.key, wanted)) return refuse(translate(locale, 'provide.key'));
    const imgdomain = typeof settings.imgdomain === 'string' ? settings.imgdomain.trim() : '';
    const tz = settings.timeZone;
    const ctx: FormatContext = {
      // An empty imgdomain is this server's own image host: absolute, as the collecting site is elsewhere.
      imageHost: imgdomain || `${new URL(c.req.url).origin}/img`,
      timeZone: typeof tz === 'string' && isTimeZone(tz) ? tz : DEFAULT_TIME_ZONE,
    };
    const headers = { 'Cache-Control': 'no-store', 'Access-Control-Allow-Origin': '*' };
    const xml = (body: string) =>
      c.body(body, 200, { ...headers, 'Content-Type': 'text/xml; charset=utf-8' });
    if (kind !== 'vod') {
      const detailed = q.ac !== 'list';
      const [page, columns] = await Promise.all([
        kind === 'art'
          ? readProvidedNovels(db, q, clock.now(), detailed)
          : readProvidedActresses(db, q, clock.now()),
        kind === 'art' && !detailed ? readNovelColumns(db) : [],
      ]);
      if ('tooLarge' in page && page.tooLarge !== undefined) {
        const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
        return refuse(
          translate(locale, 'provide.pageTooLarge', {
            size: mb(page.tooLarge),
            max: mb(MAX_PROVIDED_CHAPTER_BYTES),
          }),
        );
      }
      if (q.xml) return xml(artActorXml(kind, page, q, columns, ctx));
      return c.json(artActorJson(kind, page, q, columns, ctx), 200, headers);
    }
    const [page, columns] = await Promise.all([
      readProvidedPage(db, q, clock.now()),
      q.ac === 'list' ? readColumns(db) : [],
    ]);
    if (q.xml) return xml(provideXml(page, q, columns, ctx));
    return c.json(provideJson(page, q, columns, ctx), 200, headers);
  };
  // MacCMS sites are configured with and without the trailing slash.
  for (const kind of ['vod', 'art', 'actor'] as const) {
    app.get(`/${kind}`, serve(kind));
    app.get(`/${kind}/`, serve(kind));
  }
  return app;
}

/** Compares the whole key whatever the first difference, so the time taken does not tell how much was right. */
function sameKey(given: string, wanted: string): boolean {
  let diff = given.length ^ wanted.length;
  for (let i = 0; i < wanted.length; i++) diff |= (given.charCodeAt(i) || 0) ^ wanted.charCodeAt(i);
  return diff === 0;
}

/** Mounted at MacCMS's own path beside /app: collecting sites are pointed at a site's root, not at /app. */
export default defineModule({
  name: 'provide',
  order: 45,
  mount: {},
  rootMount: { '/api.php/provide': () => provideApi() },
});
