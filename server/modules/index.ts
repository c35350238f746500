import actresses from './actresses';
import health from './health';
import images from './images';
import movies from './movies';
import notices from './notices';
import novels from './novels';
import operators from './operators';
import promotion from './promotion';
import site from './site';
import statistics from './statistics';
import statisticsSettings from './statistics-settings';
import system from './system';

/** Every module's sub-app, mounted under /app. A new module adds one line here (and its tables to db/schema.ts). */
export const modules = [
  health,
  operators,
  system,
  movies,
  images,
  actresses,
  novels,
  notices,
  promotion,
  statisticsSettings,
  statistics,
  site,
];
