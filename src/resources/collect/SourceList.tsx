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
      <Permission need="collect.settings">
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
        <FunctionField
          label={f('kind')}
          render={(r: { kind: string }) => translate(`${SECTION_MSG}.sourceKind.${r.kind}`)}
        />
        {/* an address has no spaces to wrap at: one line, cut, whole in its tooltip, so the list fits the window */}
        <FunctionField
          label={f('url')}
          render={(r: { url: string }) => (
            <Typography variant="body2" noWrap title={r.url} sx={{ maxWidth: 360 }}>
              {r.url}
            </Typography>
          )}
        />
        <FunctionField
          label={f('format')}
          render={(r: { format: string }) => translate(`${SECTION_MSG}.format.${r.format}`)}
        />
        {/* the API sorts sources by id, name and creation only: these headers offer no sort it would refuse */}
        <BooleanField source="trusted" label={f('trusted')} sortable={false} />
        <NumberField source="scheduleMinutes" label={f('scheduleMinutes')} sortable={false} />
        <BooleanField source="enabled" label={f('enabled')} sortable={false} />
        <LocaleDateField source="lastRunAt" label={f('lastRunAt')} sortable={false} />
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
