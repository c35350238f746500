import ViewQuiltIcon from '@mui/icons-material/ViewQuilt';
import { Box, Chip, Typography } from '@mui/material';
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
import { Permission } from '../../auth/permission';
import { SwitchBulkButtons } from '../../components/BulkConfirmButton';
import { type CsvColumn, ExportCsvButton } from '../../components/ExportCsvButton';
import { FilterSelectInput } from '../../components/FilterSelectInput';
import { Datagrid, ListPagination } from '../../layout/listParts';
import { AD_RESOURCE, POSITION_MSG, positionEditPath, SECTION_MSG } from './names';
import { deviceChoices, typeChoices } from './shared';

const f = (name: string) => `${POSITION_MSG}.fields.${name}`;

const csvColumns: CsvColumn[] = [
  { label: f('id'), value: (r) => r.id },
  { label: f('name'), value: (r) => r.name },
  { label: f('key'), value: (r) => r.key },
  { label: f('size'), value: (r) => `${r.width}×${r.height}` },
  { label: f('type'), value: (r, t) => t(`${SECTION_MSG}.types.${r.type}`) },
  { label: f('device'), value: (r, t) => t(`${SECTION_MSG}.devices.${r.device}`) },
  { label: f('rotation'), value: (r, t) => t(`${SECTION_MSG}.rotations.${r.rotation}`) },
  { label: f('fallbackAdId'), value: (r) => r.fallbackAdId ?? '' },
  { label: f('enabled'), value: (r, t) => t(`${POSITION_MSG}.${r.enabled ? 'on' : 'off'}`) },
];

function Empty() {
  const translate = useTranslate();
  return (
    <Box sx={{ textAlign: 'center', py: 8, color: 'text.secondary', width: '100%' }} role="status">
      <ViewQuiltIcon sx={{ fontSize: 64 }} aria-hidden />
      <Typography variant="h6" component="p" color="text.primary">
        {translate(`${POSITION_MSG}.empty`)}
      </Typography>
      <Permission need="ad.edit">
        <CreateButton variant="contained" label={`${POSITION_MSG}.action.create`} />
      </Permission>
    </Box>
  );
}

function Label({ k, group }: { k: string; group: string }) {
  const translate = useTranslate();
  return <>{translate(`${SECTION_MSG}.${group}.${k}`)}</>;
}

function EnabledChip({ on }: { on: boolean }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={on ? 'success' : 'default'}
      label={translate(`${POSITION_MSG}.${on ? 'on' : 'off'}`)}
    />
  );
}

/** Positions (/ad/adplacelist): where the site shows ads, the key it asks for, the fallback material. */
export function PositionList() {
  const translate = useTranslate();
  return (
    <List
      filters={[
        <SearchInput key="q" source="q" alwaysOn placeholder={translate(`${POSITION_MSG}.filters.q`)} />,
        <FilterSelectInput key="type" source="type" choices={typeChoices} alwaysOn label={f('type')} />,
        <FilterSelectInput key="device" source="device" choices={deviceChoices} label={f('device')} />,
      ]}
      actions={
        <TopToolbar>
          <Permission need="ad.edit">
            <CreateButton label={`${POSITION_MSG}.action.create`} />
          </Permission>
          <ExportCsvButton columns={csvColumns} filename="ad-positions" done={`${POSITION_MSG}.exported`} />
        </TopToolbar>
      }
      sort={{ field: 'id', order: 'ASC' }}
      perPage={20}
      pagination={<ListPagination />}
      empty={<Empty />}
    >
      <Datagrid
        rowClick={(id) => positionEditPath(id)}
        bulkActionButtons={
          <Permission need="ad.edit">
            <SwitchBulkButtons msg={POSITION_MSG} done={`${POSITION_MSG}.batchDone`} />
          </Permission>
        }
      >
        <TextField source="id" label={f('id')} />
        <TextField source="name" label={f('name')} />
        <FunctionField source="key" label={f('key')} render={(r) => <code>{r.key}</code>} />
        <FunctionField
          source="width"
          label={f('size')}
          sortable={false}
          render={(r) => `${r.width}×${r.height}`}
        />
        <FunctionField
          source="type"
          label={f('type')}
          sortable={false}
          render={(r) => <Label k={r.type} group="types" />}
        />
        <FunctionField
          source="device"
          label={f('device')}
          sortable={false}
          render={(r) => <Label k={r.device} group="devices" />}
        />
        <FunctionField
          source="rotation"
          label={f('rotation')}
          sortable={false}
          render={(r) => <Label k={r.rotation} group="rotations" />}
        />
        <ReferenceField
          source="fallbackAdId"
          reference={AD_RESOURCE}
          link={false}
          label={f('fallbackAdId')}
          sortable={false}
          emptyText="—"
        >
          <TextField source="title" />
        </ReferenceField>
        <FunctionField
          source="enabled"
          label={f('enabled')}
          sortable={false}
          render={(r) => <EnabledChip on={r.enabled} />}
        />
      </Datagrid>
    </List>
  );
}
