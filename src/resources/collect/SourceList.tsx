import PublicIcon from '@mui/icons-material/Public';
import { Typography } from '@mui/material';
import {
  BooleanField,
  CreateButton,
  FunctionField,
  List,
  NumberField,
  TextField,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { Permission } from '../../auth/permission';
import { ListEmpty } from '../../components/ListEmpty';
import { Datagrid, ListPagination, LocaleDateField } from '../../layout/listParts';
import { SECTION_MSG, SOURCE_MSG } from './names';

const f = (name: string) => `${SOURCE_MSG}.fields.${name}`;

function Actions() {
  return (
    <TopToolbar>
      <Permission roles={['admin']}>
        <CreateButton />
      </Permission>
    </TopToolbar>
  );
}

/** `/collect/source`: the resource sites, each opening its edit page (read-only for the `user` role). */
export function SourceList() {
  const translate = useTranslate();
  return (
    <List
      actions={<Actions />}
      pagination={<ListPagination />}
      empty={<ListEmpty icon={PublicIcon} messages={SOURCE_MSG} />}
    >
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <NumberField source="id" label={f('id')} />
        <TextField source="name" label={f('name')} />
        <TextField source="url" label={f('url')} />
        <FunctionField
          label={f('format')}
          render={(r: { format: string }) => translate(`${SECTION_MSG}.format.${r.format}`)}
        />
        <BooleanField source="trusted" label={f('trusted')} />
        <NumberField source="scheduleMinutes" label={f('scheduleMinutes')} />
        <BooleanField source="enabled" label={f('enabled')} />
        <LocaleDateField source="lastRunAt" label={f('lastRunAt')} />
        {/* in the reader's language (the API's lastErrorText); long ones cut to one line, whole in the tooltip */}
        <FunctionField
          label={f('lastError')}
          render={(r: { lastErrorText?: string }) => (
            <Typography variant="body2" noWrap title={r.lastErrorText} sx={{ maxWidth: 220 }}>
              {r.lastErrorText}
            </Typography>
          )}
        />
      </Datagrid>
    </List>
  );
}
