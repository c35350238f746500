import { agentsPermissions } from '../../../common/permissions/agents';
import { defineModule } from '../../core/module';
import { agentRoutes } from './routes';
import { seedAgents } from './seed';
import { agentStatRoutes } from './stat';

/**
 * Channel agents (SPEC.md §2 /agents): agents with their channel codes, bound domains, commission and
 * payout details; their stat over the statistics rollups (attribution in statistics/attribution.ts: a visitor's
 * first channel touch wins for the statistics setting `attributionDays`), settlements that freeze periods, and the
 * traffic-quality flags. See CONTRACT.md.
 */
export default defineModule({
  name: 'agents',
  permissions: [agentsPermissions],
  order: 170,
  // The stat first: `/admin/agents/stat` is not an agent id.
  mount: { '/admin/agents/stat': agentStatRoutes, '/admin/agents': agentRoutes },
  seed: (db, at) => seedAgents(db, { tenant: at.config.defaultTenant, now: at.now, by: at.reviewer }),
});
