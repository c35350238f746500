/**
 * Names of the channel agents section (SPEC.md §2 /agents), without React: the section declaration (index.ts, in the
 * initial bundle) reads them too.
 */

/** Messages shared by the section's screens (menu labels, models, figures, quality). */
export const SECTION_MSG = 'resources.agents';

/** The agents (`/agents/list`; API /app/admin/agents). */
export const AGENT_RESOURCE = 'agents/list';
export const AGENT_API = 'admin/agents';
export const AGENT_MSG = `resources.${AGENT_RESOURCE}`;
/** Every agent over a period (`/agents/stat`). */
export const STAT_RESOURCE = 'agents/stat';
export const STAT_API = 'admin/agents/stat';
export const STAT_MSG = `resources.${STAT_RESOURCE}`;
/** One agent day by day (`/agents/stat/:agentId`). */
export const DAILY_RESOURCE = 'agents/stat/daily';
export const DAILY_API = 'admin/agents/stat/daily';
export const DAILY_MSG = `resources.${DAILY_RESOURCE}`;

export const agentEditPath = (id?: number | string) => (id ? `/agents/edit/${id}` : '/agents/edit');
export const agentStatPath = (id?: number | string) => (id ? `/agents/stat/${id}` : '/agents/stat');
/** An agent's settlements (`GET`, and `POST` to settle a period). */
export const settlementsApi = (id: number | string) => `${STAT_API}/${id}/settlements`;
/** The domains bound to an agent's channel (`GET`, and `PUT {ids}` to bind exactly those). */
export const domainsApi = (id: number | string) => `${AGENT_API}/${id}/domains`;
