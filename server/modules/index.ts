import type { ServerModule } from '../core/module';
import actresses from './actresses';
import ad from './ad';
import agents from './agents';
import collect from './collect';
import comment from './comment';
import domain from './domain';
import health from './health';
import images from './images';
import movie from './movie';
import notices from './notices';
import novel from './novel';
import operators from './operators';
import promotionApps from './promotion-apps';
import site from './site';
import statistics from './statistics';
import statisticsSettings from './statistics-settings';
import sys from './sys';
import users from './users';

/**
 * Every server module, the only list of them: app.ts mounts each one's sub-apps under /app and the registries
 * (platform usage, the session resolver…) are read from these declarations. A new module adds one line here (and
 * its tables to db/schema.ts).
 */
export const modules: readonly ServerModule[] = [
  health,
  operators,
  sys,
  movie,
  images,
  actresses,
  novel,
  notices,
  promotionApps,
  statisticsSettings,
  statistics,
  ad,
  site,
  users,
  comment,
  domain,
  agents,
  collect,
];
