import type zh from '../zh-CN/agents';

/** API messages of the agents module, en-US. */
const en: Record<keyof typeof zh, string> = {
  'agent.rateCents': 'At most two decimals',
  'agent.channelFixed': 'The channel code cannot change once created (past statistics belong to it)',
  'agent.shareOver': 'A revenue share cannot exceed {max}%',
  'agent.parentSelf': 'An agent cannot be its own parent',
  'agent.parentCycle': 'The parent agent cannot be one of its own sub-agents',
  'agent.settledCannotDelete': 'Agents {ids} have settlements and cannot be deleted; disable them instead',
  'agent.hasChildren': 'Agents {ids} still have sub-agents; move those first',
  'agent.domainsMissing': 'Domains {ids} do not exist',
  'agent.domainsTaken': 'These domains are bound to another channel: {hosts}',
  'agent.settleOpenDay': 'Only days that are over can be settled (today is {today})',
  'agent.settleOverlap': 'Overlaps the settled period {from} to {to}',
  'agent.settlePending':
    'The statistics of these days are still being rolled up: {days}; try again in a minute',
  'agent.settleNoStatistics':
    'No statistics were rolled up for any day of this period; the first day with statistics is {first}',
  'agent.settleNoStatisticsYet': 'No statistics have been rolled up yet; there is nothing to settle',
};
export default en;
