import actresses from './actresses';
import ad from './ad';
import agents from './agents';
import collect from './collect';
import columnTree from './column-tree';
import comment from './comment';
import core from './core';
import domain from './domain';
import fields from './fields';
import images from './images';
import movie from './movie';
import notices from './notices';
import novel from './novel';
import operators from './operators';
import promotionApps from './promotion-apps';
import provide from './provide';
import review from './review';
import site from './site';
import statistics from './statistics';
import users from './users';

/**
 * Messages the API puts in the envelope's `msg`, zh-CN: the core's and its kits' (review, column-tree), then one
 * file per server module, named like the module's folder. A module adds its file and one line here: this list is
 * what types the keys (`MessageKey`), so a message the code names that no file holds fails the type check. en-US
 * finds the files of the same names by itself (tests/ui/i18n-bundles.test.ts checks both have the same keys).
 */
const zh = {
  ...core,
  ...fields,
  ...review,
  ...columnTree,
  ...actresses,
  ...ad,
  ...comment,
  ...images,
  ...movie,
  ...notices,
  ...novel,
  ...operators,
  ...promotionApps,
  ...provide,
  ...site,
  ...statistics,
  ...collect,
  ...domain,
  ...users,
  ...agents,
};
export default zh;
