import { Chip } from '@mui/material';
import {
  CreateButton,
  FunctionField,
  List,
  SearchInput,
  TextField,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { DEFAULT_AVATAR } from '../../../api/session';
import { Permission } from '../../../auth/permission';
import { ExportCsvButton, fieldColumns } from '../../../components/ExportCsvButton';
import { FilterSelectInput } from '../../../components/FilterSelectInput';
import { AvatarImage } from '../../../images/AvatarImage';
import { Datagrid, DensityButton, ListPagination, LocaleDateField } from '../../../layout/listParts';
import { OPERATOR_MSG } from '../names';
import { OperatorBulkActions } from './BulkActions';
import { useRoleChoices } from './OperatorInputs';
import { StateButton } from './StateButton';

const stateChoices = [
  { id: 'false', name: `${OPERATOR_MSG}.state.enabled` },
  { id: 'true', name: `${OPERATOR_MSG}.state.disabled` },
];

const filters = (translate: (key: string) => string, roleChoices: { id: string; name: string }[]) => [
  <SearchInput key="q" source="q" alwaysOn placeholder={translate(`${OPERATOR_MSG}.filters.q`)} />,
  <FilterSelectInput
    key="role"
    source="role"
    choices={roleChoices}
    alwaysOn
    label={`${OPERATOR_MSG}.filters.role`}
  />,
  <FilterSelectInput
    key="disabled"
    source="disabled"
    choices={stateChoices}
    alwaysOn
    label={`${OPERATOR_MSG}.filters.state`}
  />,
];

const csvColumns = fieldColumns(OPERATOR_MSG, [
  'id',
  'account',
  'nickname',
  'role',
  'disabled',
  'lastLoginAt',
  'createdAt',
]);

const Actions = () => (
  <TopToolbar>
    <Permission need="operators.settings">
      <CreateButton />
    </Permission>
    <DensityButton />
    <ExportCsvButton columns={csvColumns} filename="operators" />
  </TopToolbar>
);

/** Operator accounts (admin only): who may log in to this back-office. */
export function OperatorList() {
  const translate = useTranslate();
  const roleChoices = useRoleChoices();
  return (
    <List
      filters={filters(translate, roleChoices)}
      actions={<Actions />}
      sort={{ field: 'id', order: 'ASC' }}
      perPage={20}
      pagination={<ListPagination />}
    >
      <Datagrid
        rowClick={(id) => `/setting/operators/edit/${id}`}
        bulkActionButtons={<OperatorBulkActions />}
      >
        <TextField source="id" />
        <FunctionField
          source="avatar"
          sortable={false}
          label={`${OPERATOR_MSG}.fields.avatar`}
          render={(r) => (
            <AvatarImage
              src={r.avatar}
              alt={r.nickname || r.account}
              size={28}
              fallbackSrc={DEFAULT_AVATAR}
            />
          )}
        />
        <TextField source="account" />
        <TextField source="nickname" sortable={false} />
        <FunctionField
          source="role"
          sortable={false}
          render={(r) => (
            <Chip
              size="small"
              variant="outlined"
              label={translate(`shell.user.roles.${r.role}`, { _: r.role })}
            />
          )}
        />
        <FunctionField
          source="disabled"
          sortable={false}
          render={(r) => (
            <Chip
              size="small"
              color={r.disabled ? 'default' : 'success'}
              variant={r.disabled ? 'outlined' : 'filled'}
              label={translate(`${OPERATOR_MSG}.state.${r.disabled ? 'disabled' : 'enabled'}`)}
            />
          )}
        />
        <LocaleDateField source="lastLoginAt" />
        <LocaleDateField source="createdAt" />
        <Permission need="operators.settings">
          <StateButton />
        </Permission>
      </Datagrid>
    </List>
  );
}
