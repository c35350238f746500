import { Typography } from '@mui/material';
import {
  FunctionField,
  List,
  SearchInput,
  TextField,
  TextInput,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { HISTORY_ACTIONS } from '../../../common/domain';
import { DayInput } from '../../components/dates';
import { type CsvColumn, ExportCsvButton } from '../../components/ExportCsvButton';
import { FilterSelectInput } from '../../components/FilterSelectInput';
import { Datagrid, ListPagination, LocaleDateField } from '../../layout/listParts';
import { HISTORY_MSG } from './names';
import { type Pool, poolChoices, usePools } from './shared';

/** The history grows without end: an export takes the filtered list up to this many rows (filter by day first). */
const HISTORY_EXPORT_MAX = 100_000;

const f = (name: string) => `${HISTORY_MSG}.fields.${name}`;
const actionChoices = HISTORY_ACTIONS.map((id) => ({ id, name: `${HISTORY_MSG}.action.${id}` }));

const actorOf = (r: any, t: (k: string) => string) =>
  r.actorId === null ? t(`${HISTORY_MSG}.checker`) : r.actor;

/** A move's from and to are pool ids: shown as the pools' names (an id no pool has any more stays as it is). */
const shownValue = (r: any, v: string, pools: Map<number, string>) =>
  r.action === 'move' ? (v === '' ? '—' : (pools.get(Number(v)) ?? v)) : v;

const csvColumns = (pools: Map<number, string>): CsvColumn[] => [
  { label: f('at'), value: (r) => r.at },
  { label: f('hostname'), value: (r) => r.unicode },
  { label: f('action'), value: (r, t) => t(`${HISTORY_MSG}.action.${r.action}`) },
  { label: f('from'), value: (r) => shownValue(r, r.from, pools) },
  { label: f('to'), value: (r) => shownValue(r, r.to, pools) },
  { label: f('channel'), value: (r) => r.channel ?? '' },
  { label: f('actor'), value: (r, t) => actorOf(r, t) },
  { label: f('reason'), value: (r) => r.reason },
];

const filters = (translate: (k: string) => string, pools: Pool[] | null) => [
  <SearchInput key="q" source="q" alwaysOn placeholder={translate(`${HISTORY_MSG}.filters.q`)} />,
  <FilterSelectInput key="action" source="action" choices={actionChoices} alwaysOn label={f('action')} />,
  <FilterSelectInput
    key="by"
    source="by"
    alwaysOn
    label={`${HISTORY_MSG}.filters.by`}
    choices={[
      { id: 'operator', name: `${HISTORY_MSG}.filters.operator` },
      { id: 'checker', name: `${HISTORY_MSG}.checker` },
    ]}
  />,
  <FilterSelectInput key="poolId" source="poolId" choices={poolChoices(pools)} label={f('poolId')} />,
  <TextInput key="channel" source="channel" label={f('channel')} />,
  <TextInput key="actor" source="actor" label={f('actor')} />,
  <DayInput key="from" source="from" label={`${HISTORY_MSG}.filters.from`} />,
  <DayInput key="to" source="to" label={`${HISTORY_MSG}.filters.to`} />,
];

/** The history (`/domain/history`): every change of a domain, by whom or by the health checker; filters, CSV. */
export function HistoryList() {
  const translate = useTranslate();
  const { pools } = usePools();
  const names = new Map((pools ?? []).map((p) => [p.id, p.name]));
  return (
    <List
      filters={filters(translate, pools)}
      actions={
        <TopToolbar>
          <ExportCsvButton
            columns={csvColumns(names)}
            filename="domain-history"
            done={`${HISTORY_MSG}.exported`}
            max={HISTORY_EXPORT_MAX}
          />
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
        <FunctionField
          source="from"
          sortable={false}
          label={f('from')}
          render={(r) => shownValue(r, r.from, names)}
        />
        <FunctionField
          source="to"
          sortable={false}
          label={f('to')}
          render={(r) => shownValue(r, r.to, names)}
        />
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
