import { discoverModules, type ServerModule } from '../core/module';

/**
 * Every server module, found rather than listed: each folder `server/modules/<name>/` whose `index.ts`
 * default-exports its declaration (and the one-file `health.ts`), in the declarations' `order`. app.ts mounts each
 * one's sub-apps under /app and the registries (platform usage, the session resolver, the site answer…) are read
 * from them. A new module is its folder; nothing here changes.
 */
export const modules: readonly ServerModule[] = discoverModules(
  import.meta.glob<{ default?: ServerModule }>(['./*/index.ts', './*.ts', '!./index.ts'], { eager: true }),
);
