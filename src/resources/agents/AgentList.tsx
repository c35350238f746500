import HandshakeIcon from '@mui/icons-material/Handshake';
import InsightsIcon from '@mui/icons-material/Insights';
import { Box, Button, Chip, Typography } from '@mui/material';
import {
  CreateButton,
  FunctionField,
  List,
  ReferenceField,
  SearchInput,
  TextField,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { AGENT_MODELS } from '../../../common/agents';
import { Permission } from '../../auth/permission';
import { SwitchBulkButtons } from '../../components/BulkConfirmButton';
import { type CsvColumn, ExportCsvButton } from '../../components/ExportCsvButton';
import { FilterSelectInput } from '../../components/FilterSelectInput';
import { Datagrid, ListPagination } from '../../layout/listParts';
import { AGENT_MSG, AGENT_RESOURCE, agentEditPath, agentStatPath, SECTION_MSG } from './names';

const f = (name: string) => `${AGENT_MSG}.fields.${name}`;
export const modelChoices = AGENT_MODELS.map((m) => ({ id: m, name: `${SECTION_MSG}.models.${m}` }));
const enabledChoices = [
  { id: 'true', name: `${AGENT_MSG}.on` },
  { id: 'false', name: `${AGENT_MSG}.off` },
];

/** How an agent is paid, in words ("30% of recharges"). */
export function RateText({ model, rate }: { model: string; rate: number }) {
  const translate = useTranslate();
  return <>{translate(`${SECTION_MSG}.rateOf.${model}`, { rate })}</>;
}

const csvColumns: CsvColumn[] = [
  { label: f('id'), value: (r) => r.id },
  { label: f('name'), value: (r) => r.name },
  { label: f('channel'), value: (r) => r.channel },
  { label: f('model'), value: (r, t) => t(`${SECTION_MSG}.models.${r.model}`) },
  { label: f('rate'), value: (r) => r.rate },
  { label: f('parentId'), value: (r) => r.parentId ?? '' },
  { label: f('contact'), value: (r) => r.contact },
  { label: f('payee'), value: (r) => r.payee },
  { label: f('payoutMethod'), value: (r, t) => t(`${SECTION_MSG}.payout.${r.payoutMethod}`) },
  { label: f('payoutAccount'), value: (r) => r.payoutAccount },
  { label: f('enabled'), value: (r, t) => t(`${AGENT_MSG}.${r.enabled ? 'on' : 'off'}`) },
];

function Empty() {
  const translate = useTranslate();
  return (
    <Box sx={{ textAlign: 'center', py: 8, color: 'text.secondary', width: '100%' }} role="status">
      <HandshakeIcon sx={{ fontSize: 64 }} aria-hidden />
      <Typography variant="h6" component="p" color="text.primary">
        {translate(`${AGENT_MSG}.empty`)}
      </Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {translate(`${AGENT_MSG}.emptyHint`)}
      </Typography>
      <Permission need="agents.edit">
        <CreateButton variant="contained" label={`${AGENT_MSG}.action.create`} />
      </Permission>
    </Box>
  );
}

function EnabledChip({ on }: { on: boolean }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={on ? 'success' : 'default'}
      label={translate(`${AGENT_MSG}.${on ? 'on' : 'off'}`)}
    />
  );
}

function StatLink({ id }: { id: number }) {
  const translate = useTranslate();
  return (
    <Button
      size="small"
      component={RouterLink}
      to={agentStatPath(id)}
      startIcon={<InsightsIcon />}
      onClick={(e) => e.stopPropagation()}
    >
      {translate(`${AGENT_MSG}.action.stat`)}
    </Button>
  );
}

/** `/agents/list`: the agents, their codes and commission, the way to each one's stat. */
export function AgentList() {
  const translate = useTranslate();
  return (
    <List
      filters={[
        <SearchInput key="q" source="q" alwaysOn placeholder={translate(`${AGENT_MSG}.filters.q`)} />,
        <FilterSelectInput
          key="model"
          source="model"
          choices={modelChoices}
          alwaysOn
          label={`${AGENT_MSG}.filters.model`}
        />,
        <FilterSelectInput
          key="enabled"
          source="enabled"
          choices={enabledChoices}
          label={`${AGENT_MSG}.filters.enabled`}
        />,
      ]}
      actions={
        <TopToolbar>
          <Permission need="agents.edit">
            <CreateButton label={`${AGENT_MSG}.action.create`} />
          </Permission>
          <ExportCsvButton columns={csvColumns} filename="agents" done={`${AGENT_MSG}.exported`} />
        </TopToolbar>
      }
      sort={{ field: 'id', order: 'ASC' }}
      perPage={20}
      pagination={<ListPagination />}
      empty={<Empty />}
    >
      <Datagrid
        rowClick={(id) => agentEditPath(id)}
        bulkActionButtons={
          <Permission need="agents.edit">
            <SwitchBulkButtons msg={AGENT_MSG} done={`${AGENT_MSG}.batchDone`} />
          </Permission>
        }
      >
        <TextField source="id" label={f('id')} />
        <TextField source="name" label={f('name')} />
        <FunctionField source="channel" label={f('channel')} render={(r) => <code>{r.channel}</code>} />
        <FunctionField
          source="rate"
          label={f('rate')}
          render={(r) => <RateText model={r.model} rate={r.rate} />}
        />
        <ReferenceField
          source="parentId"
          reference={AGENT_RESOURCE}
          link={false}
          label={f('parentId')}
          sortable={false}
          emptyText="—"
        >
          <TextField source="name" />
        </ReferenceField>
        <TextField source="contact" label={f('contact')} sortable={false} />
        <FunctionField
          source="enabled"
          label={f('enabled')}
          sortable={false}
          render={(r) => <EnabledChip on={r.enabled} />}
        />
        <FunctionField label="" sortable={false} render={(r) => <StatLink id={r.id} />} />
      </Datagrid>
    </List>
  );
}
