import { Chip } from '@mui/material';
import { CreateButton, FunctionField, List, TextField, TopToolbar, useTranslate } from 'react-admin';
import { Datagrid, DensityButton, ListPagination, LocaleDateField } from '../../../layout/listParts';
import { ROLE_MSG } from '../names';

const Actions = () => (
  <TopToolbar>
    <CreateButton />
    <DensityButton />
  </TopToolbar>
);

/**
 * Roles (/setting/roles): the built-ins `admin` and `user` with what they hold, and the custom roles.
 * A custom role's row opens its form; a built-in's opens it read-only (the API refuses to change one).
 */
export function RoleList() {
  const translate = useTranslate();
  return (
    <List
      actions={<Actions />}
      pagination={<ListPagination />}
      sort={{ field: 'id', order: 'ASC' }}
      perPage={20}
      disableSyncWithLocation={false}
    >
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="id" />
        <FunctionField source="name" render={(r) => translate(`shell.user.roles.${r.name}`, { _: r.name })} />
        <FunctionField
          source="builtin"
          sortable={false}
          render={(r) => (
            <Chip
              size="small"
              variant="outlined"
              label={translate(`${ROLE_MSG}.kind.${r.builtin ? 'builtin' : 'custom'}`)}
            />
          )}
        />
        <FunctionField
          source="permissions"
          sortable={false}
          render={(r) => translate(`${ROLE_MSG}.count`, { count: r.permissions?.length ?? 0 })}
        />
        <LocaleDateField source="updatedAt" showTime />
      </Datagrid>
    </List>
  );
}
