import { collectPermissions } from '../../../common/permissions/collect';
import { defineModule } from '../../core/module';
import { runRoutes, sourceRoutes } from './routes';

const collectRoutes = () => {
  const app = sourceRoutes();
  app.route('/', runRoutes());
  return app;
};

/**
 * Collection (采集, issue #49): resource sites speaking MacCMS's provide API, their types bound to our columns, runs
 * (by hours, pages, keyword or ids; dry or real) into the review queue, and a schedule the Node server runs
 * (server/node/collect-timer.ts) with a claim in the database. A source's kind says which of MacCMS's lists it reads:
 * videos into movies (`provide/vod`), articles into novels with their chapters (`provide/art`), performers into
 * actresses (`provide/actor`): targets.ts.
 */
export default defineModule({
  name: 'collect',
  permissions: [collectPermissions],
  order: 180,
  mount: {
    '/admin/collect': collectRoutes,
  },
});

export { type RunImages, runImages } from './covers';
export { claimDueSource, executeRun, reapInterrupted, runScheduled } from './run';
