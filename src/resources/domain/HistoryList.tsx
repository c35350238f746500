import { Typography } from '@mui/material';
import {
  FunctionField,
  List,
  SearchInput,
  SelectInput,
  TextField,
  TextInput,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { HISTORY_ACTIONS } from '../../../common/domain';
import { DayInput } from '../../components/dates';
import { type CsvColumn, ExportCsvButton } from '../../components/ExportCsvButton';
import { Datagrid, ListPagination, LocaleDateField } from '../../layout/listParts';
import { HISTORY_MSG } from './names';

const f = (name: string) => `${HISTORY_MSG}.fields.${name}`;
const actionChoices = HISTORY_ACTIONS.map((id) => ({ id, name: `${HISTORY_MSG}.action.${id}` }));

const actorOf = (r: any, t: (k: string) => string) =>
  r.actorId === null ? t(`${HISTORY_MSG}.checker`) : r.actor;

const csvColumns: CsvColumn[] = [
  { label: f('at'), value: (r) => r.at },
  { label: f('hostname'), value: (r) => r.unicode },
  { label: f('action'), value: (r, t) => t(`${HISTORY_MSG}.action.${r.action}`) },
  { label: f('from'), value: (r) => r.from },
  { label: f('to'), value: (r) => r.to },
  { label: f('channel'), value: (r) => r.channel ?? '' },
  { label: f('actor'), value: (r, t) => actorOf(r, t) },
  { label: f('reason'), value: (r) => r.reason },
];

const filters = (translate: (k: string) => string) => [
  <SearchInput key="q" source="q" alwaysOn placeholder={translate(`${HISTORY_MSG}.filters.q`)} />,
  <SelectInput key="action" source="action" choices={actionChoices} alwaysOn label={f('action')} />,
  <SelectInput
    key="by"
    source="by"
    alwaysOn
    label={`${HISTORY_MSG}.filters.by`}
    choices={[
      { id: 'operator', name: `${HISTORY_MSG}.filters.operator` },
      { id: 'checker', name: `${HISTORY_MSG}.checker` },
    ]}
  />,
  <TextInput key="channel" source="channel" label={f('channel')} />,
  <TextInput key="actor" source="actor" label={f('actor')} />,
  <DayInput key="from" source="from" label={`${HISTORY_MSG}.filters.from`} />,
  <DayInput key="to" source="to" label={`${HISTORY_MSG}.filters.to`} />,
];

/** The history (`/domain/history`): every change of a domain, by whom or by the health checker; filters, CSV. */
export function HistoryList() {
  const translate = useTranslate();
  return (
    <List
      filters={filters(translate)}
      actions={
        <TopToolbar>
          <ExportCsvButton columns={csvColumns} filename="domain-history" done={`${HISTORY_MSG}.exported`} />
        </TopToolbar>
      }
      sort={{ field: 'at', order: 'DESC' }}
      perPage={20}
      pagination={<ListPagination />}
      empty={
        <Typography role="status" color="text.secondary" sx={{ p: 6, textAlign: 'center', width: '100%' }}>
          {translate(`${HISTORY_MSG}.empty`)}
        </Typography>
      }
    >
      <Datagrid bulkActionButtons={false}>
        <LocaleDateField source="at" label={f('at')} />
        <FunctionField source="hostname" label={f('hostname')} render={(r) => r.unicode} />
        <FunctionField
          source="action"
          sortable={false}
          label={f('action')}
          render={(r) => translate(`${HISTORY_MSG}.action.${r.action}`)}
        />
        <TextField source="from" sortable={false} label={f('from')} />
        <TextField source="to" sortable={false} label={f('to')} />
        <FunctionField
          source="channel"
          sortable={false}
          label={f('channel')}
          render={(r) => r.channel ?? ''}
        />
        <FunctionField
          source="actor"
          sortable={false}
          label={f('actor')}
          render={(r) => actorOf(r, translate)}
        />
        <TextField source="reason" sortable={false} label={f('reason')} />
      </Datagrid>
    </List>
  );
}
