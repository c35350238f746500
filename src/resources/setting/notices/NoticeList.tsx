import { Chip } from '@mui/material';
import {
  CreateButton,
  ExportButton,
  FunctionField,
  List,
  NumberField,
  SearchInput,
  SelectInput,
  TextField,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { Permission } from '../../../auth/permission';
import { BulkConfirmButton } from '../../../components/BulkConfirmButton';
import { Datagrid, ListPagination, LocaleDateField } from '../../../layout/listParts';
import { PlatformChips, useIsAdmin, usePlatformChoices } from '../shared';
import { typeChoices } from './NoticeInputs';
import { N } from './NoticePreview';

export const NOTICE_STATES = ['scheduled', 'live', 'expired', 'disabled'] as const;
export type NoticeState = (typeof NOTICE_STATES)[number];
const stateChoices = NOTICE_STATES.map((s) => ({ id: s, name: `${N}.states.${s}` }));

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
      label={translate(`${N}.states.${state}`)}
    />
  );
}

const done = `${N}.notifications.batchDone`;
const BulkActions = () => (
  <>
    <BulkConfirmButton
      action="enable"
      label={`${N}.action.enable`}
      confirm={`${N}.action.confirmEnable`}
      done={done}
    />
    <BulkConfirmButton
      action="disable"
      label={`${N}.action.disable`}
      confirm={`${N}.action.confirmDisable`}
      done={done}
      color="warning"
    />
    <BulkConfirmButton
      action="delete"
      label="ra.action.delete"
      confirm={`${N}.action.confirmDelete`}
      done={done}
      color="error"
    />
  </>
);

const Actions = () => (
  <TopToolbar>
    <Permission roles={['admin']}>
      <CreateButton />
    </Permission>
    <ExportButton maxResults={10000} />
  </TopToolbar>
);

/**
 * Marquee and pop-up notices (SPEC.md §2 /setting/notices): filters by type, state (derived from the time and the
 * switch), platform and title; batch enable, disable and delete for admins, asked first.
 */
export function NoticeList() {
  const translate = useTranslate();
  const admin = useIsAdmin();
  const platforms = usePlatformChoices();
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate(`${N}.filters.q`)} />,
    <SelectInput key="type" source="type" choices={typeChoices} label={`${N}.filters.type`} alwaysOn />,
    <SelectInput key="state" source="state" choices={stateChoices} label={`${N}.filters.state`} alwaysOn />,
    <SelectInput
      key="platform"
      source="platform"
      choices={platforms}
      label={`${N}.filters.platform`}
      alwaysOn
    />,
  ];
  return (
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
          render={(r) => <Chip size="small" variant="outlined" label={translate(`${N}.types.${r.type}`)} />}
        />
        <TextField source="title" />
        <FunctionField
          source="platforms"
          sortable={false}
          render={(r) => <PlatformChips keys={r.platforms} />}
        />
        <LocaleDateField source="startAt" />
        <LocaleDateField source="endAt" emptyText={translate(`${N}.noEnd`)} />
        <FunctionField source="state" sortable={false} render={(r) => <StateChip state={r.state} />} />
        <NumberField source="sort" />
        <LocaleDateField source="updatedAt" />
      </Datagrid>
    </List>
  );
}
