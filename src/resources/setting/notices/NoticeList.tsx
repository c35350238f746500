import { Chip } from '@mui/material';
import {
  CreateButton,
  FunctionField,
  List,
  NumberField,
  SearchInput,
  TextField,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { Permission, ReadOnlyBanner } from '../../../auth/permission';
import { BulkConfirmButton } from '../../../components/BulkConfirmButton';
import { ExportCsvButton, fieldColumns } from '../../../components/ExportCsvButton';
import { FilterSelectInput } from '../../../components/FilterSelectInput';
import { Datagrid, DensityButton, ListPagination, LocaleDateField } from '../../../layout/listParts';
import { NOTICE_MSG } from '../names';
import { PlatformChips, useCan, usePlatformChoices } from '../shared';
import { typeChoices } from './NoticeInputs';

export const NOTICE_STATES = ['scheduled', 'live', 'expired', 'disabled'] as const;
export type NoticeState = (typeof NOTICE_STATES)[number];
const stateChoices = NOTICE_STATES.map((s) => ({ id: s, name: `${NOTICE_MSG}.states.${s}` }));

const STATE_COLOR: Record<NoticeState, 'info' | 'success' | 'default'> = {
  scheduled: 'info',
  live: 'success',
  expired: 'default',
  disabled: 'default',
};

export function StateChip({ state }: { state?: NoticeState }) {
  const translate = useTranslate();
  if (!state) return null;
  return (
    <Chip
      size="small"
      color={STATE_COLOR[state]}
      variant={state === 'live' || state === 'scheduled' ? 'filled' : 'outlined'}
      label={translate(`${NOTICE_MSG}.states.${state}`)}
    />
  );
}

const done = `${NOTICE_MSG}.notifications.batchDone`;
const BulkActions = () => (
  <>
    <BulkConfirmButton
      action="enable"
      label={`${NOTICE_MSG}.action.enable`}
      confirm={`${NOTICE_MSG}.action.confirmEnable`}
      done={done}
    />
    <BulkConfirmButton
      action="disable"
      label={`${NOTICE_MSG}.action.disable`}
      confirm={`${NOTICE_MSG}.action.confirmDisable`}
      done={done}
      color="warning"
    />
    <BulkConfirmButton
      action="delete"
      label="ra.action.delete"
      confirm={`${NOTICE_MSG}.action.confirmDelete`}
      done={done}
      color="error"
    />
  </>
);

const csvColumns = fieldColumns(NOTICE_MSG, [
  'id',
  'type',
  'title',
  'startAt',
  'endAt',
  'state',
  'sort',
  'updatedAt',
]);

const Actions = () => (
  <TopToolbar>
    <Permission need="notices.edit">
      <CreateButton />
    </Permission>
    <DensityButton />
    <ExportCsvButton columns={csvColumns} filename="notices" />
  </TopToolbar>
);

/**
 * Marquee and pop-up notices (SPEC.md §2 /setting/notices): filters by type, state (derived from the time and the
 * switch), platform and title; batch enable, disable and delete for admins, asked first.
 */
export function NoticeList() {
  const translate = useTranslate();
  const admin = useCan('notices.edit');
  const platforms = usePlatformChoices();
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate(`${NOTICE_MSG}.filters.q`)} />,
    <FilterSelectInput
      key="type"
      source="type"
      choices={typeChoices}
      label={`${NOTICE_MSG}.filters.type`}
      alwaysOn
    />,
    <FilterSelectInput
      key="state"
      source="state"
      choices={stateChoices}
      label={`${NOTICE_MSG}.filters.state`}
      alwaysOn
    />,
    <FilterSelectInput
      key="platform"
      source="platform"
      choices={platforms}
      label={`${NOTICE_MSG}.filters.platform`}
      alwaysOn
    />,
  ];
  return (
    <>
      <ReadOnlyBanner />
      <List
        filters={filters}
        actions={<Actions />}
        sort={{ field: 'startAt', order: 'DESC' }}
        perPage={20}
        pagination={<ListPagination />}
        empty={false}
      >
        <Datagrid rowClick={admin ? 'edit' : false} bulkActionButtons={admin ? <BulkActions /> : false}>
          <TextField source="id" />
          <FunctionField
            source="type"
            sortable={false}
            render={(r) => (
              <Chip size="small" variant="outlined" label={translate(`${NOTICE_MSG}.types.${r.type}`)} />
            )}
          />
          <TextField source="title" />
          <FunctionField
            source="platforms"
            sortable={false}
            render={(r) => <PlatformChips keys={r.platforms} />}
          />
          <LocaleDateField source="startAt" />
          <LocaleDateField source="endAt" emptyText={translate(`${NOTICE_MSG}.noEnd`)} />
          <FunctionField source="state" sortable={false} render={(r) => <StateChip state={r.state} />} />
          <NumberField source="sort" />
          <LocaleDateField source="updatedAt" />
        </Datagrid>
      </List>
    </>
  );
}
