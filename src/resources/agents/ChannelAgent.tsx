import { Link } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useListContext, useRecordContext, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { AGENT_RESOURCE, agentStatPath, SECTION_MSG } from './names';

interface AgentOfChannel {
  id: number;
  name: string;
  channel: string;
}

/**
 * The agents of the channel codes on a list's page, one request per page (every row asks with the same codes, so
 * the query is shared): code → agent.
 */
function useAgentsOf(codes: string[]) {
  const dataProvider = useDataProvider();
  const query = useQuery({
    queryKey: ['agents-of-channels', codes],
    enabled: codes.length > 0,
    staleTime: 60_000,
    queryFn: ({ signal }) =>
      dataProvider
        .getList(AGENT_RESOURCE, {
          filter: { channels: codes.join(',') },
          pagination: { page: 1, perPage: 100 },
          sort: { field: 'id', order: 'ASC' },
          signal,
        })
        .then((r) => r.data as unknown as AgentOfChannel[]),
  });
  return new Map((query.data ?? []).map((a) => [a.channel, a]));
}

/**
 * A record's channel code in a list (members): the name of the agent who owns it, linked to its stat (the code in
 * its tooltip, the list stays narrow); a code no agent has stays as it is.
 */
export function ChannelAgentField({
  source = 'channel',
}: {
  source?: string;
  label?: string;
  sortable?: boolean;
}) {
  const record = useRecordContext();
  const { data } = useListContext();
  const translate = useTranslate();
  const codes = [...new Set((data ?? []).map((r) => r[source]).filter((c): c is string => !!c))].sort();
  const agents = useAgentsOf(codes);
  const code: string | undefined = record?.[source] || undefined;
  if (!code) return null;
  const agent = agents.get(code);
  if (!agent) return <span>{code}</span>;
  return (
    <Link
      component={RouterLink}
      to={agentStatPath(agent.id)}
      onClick={(e) => e.stopPropagation()}
      title={translate(`${SECTION_MSG}.channelOf`, { name: agent.name, code })}
    >
      {agent.name}
    </Link>
  );
}

/**
 * One channel code outside a list (a member's page): the agent who owns it, linked to its stat, with the code beside
 * it; a code no agent has stays as it is.
 */
export function ChannelAgentLink({ code }: { code: string }) {
  const agents = useAgentsOf(code ? [code] : []);
  if (!code) return null;
  const agent = agents.get(code);
  if (!agent) return <span>{code}</span>;
  return (
    <span>
      <Link component={RouterLink} to={agentStatPath(agent.id)}>
        {agent.name}
      </Link>{' '}
      ({code})
    </span>
  );
}
