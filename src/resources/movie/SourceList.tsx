import { Alert } from '@mui/material';
import {
  BooleanField,
  BooleanInput,
  Create,
  CreateButton,
  List,
  maxLength,
  maxValue,
  minValue,
  NumberField,
  NumberInput,
  regex,
  required,
  SearchInput,
  SelectField,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { MAX_LINE_CODE, SOURCE_CODE_PATTERN } from '../../../common/episodes';
import { Permission, ReadOnlyBanner, useCan } from '../../auth/permission';
import { EditPage } from '../../components/EditPage';
import { ExportCsvButton, fieldColumns } from '../../components/ExportCsvButton';
import { FilterSelectInput } from '../../components/FilterSelectInput';
import { Datagrid, DensityButton, ListPagination, LocaleDateField } from '../../layout/listParts';
import { SOURCE_MSG } from './names';
import { yesNoChoices } from './shared';

const typeChoices = [
  { id: 'hls', name: `${SOURCE_MSG}.types.hls` },
  { id: 'mp4', name: `${SOURCE_MSG}.types.mp4` },
];

const csvColumns = fieldColumns(SOURCE_MSG, [
  'id',
  'name',
  'code',
  'baseUrl',
  'type',
  'priority',
  'enabled',
  'createdAt',
]);

const Actions = () => (
  <TopToolbar>
    <Permission need="movie.settings">
      <CreateButton />
    </Permission>
    <DensityButton />
    <ExportCsvButton columns={csvColumns} filename="sources" />
  </TopToolbar>
);

/** Video sources (CDN lines): a play entry's URL is its source's base URL plus its path, built at read time. */
export function SourceList() {
  const translate = useTranslate();
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate(`${SOURCE_MSG}.filters.q`)} />,
    <FilterSelectInput
      key="type"
      source="type"
      choices={typeChoices}
      label={`${SOURCE_MSG}.filters.type`}
      alwaysOn
    />,
    <FilterSelectInput
      key="enabled"
      source="enabled"
      choices={yesNoChoices}
      label={`${SOURCE_MSG}.filters.enabled`}
      alwaysOn
    />,
  ];
  const admin = useCan('movie.settings');
  return (
    <>
      <ReadOnlyBanner />
      <List
        filters={filters}
        actions={<Actions />}
        sort={{ field: 'priority', order: 'DESC' }}
        perPage={20}
        pagination={<ListPagination />}
      >
        <Datagrid rowClick={admin ? 'edit' : false} bulkActionButtons={false}>
          <TextField source="id" />
          <TextField source="name" />
          <TextField source="code" />
          <TextField source="baseUrl" sortable={false} />
          <SelectField source="type" choices={typeChoices} sortable={false} />
          <NumberField source="priority" />
          <BooleanField source="enabled" sortable={false} />
          <LocaleDateField source="createdAt" />
        </Datagrid>
      </List>
    </>
  );
}

// Empty is allowed: the episodes' paths are then whole addresses (sources made by collection and the MacCMS move).
const baseUrl = regex(/^(https?:\/\/[^\s/?#]+\S*|\/\S*)?$/i, `${SOURCE_MSG}.baseUrlFormat`);

function SourceInputs() {
  const translate = useTranslate();
  return (
    <>
      <Alert severity="info" sx={{ mb: 2 }}>
        {translate(`${SOURCE_MSG}.hint`)}
      </Alert>
      <TextInput source="name" validate={[required(), maxLength(64)]} />
      <TextInput
        source="code"
        validate={[
          required(),
          maxLength(MAX_LINE_CODE),
          regex(SOURCE_CODE_PATTERN, `${SOURCE_MSG}.codeFormat`),
        ]}
      />
      <TextInput
        source="baseUrl"
        validate={[maxLength(512), baseUrl]}
        // Sent as '' when emptied (react-admin's default would send null, which the API refuses).
        parse={(v: string) => v}
        helperText={`${SOURCE_MSG}.baseUrlEmpty`}
        fullWidth
      />
      <SelectInput source="type" choices={typeChoices} validate={required()} />
      <NumberInput source="priority" validate={[minValue(-10_000), maxValue(10_000)]} step={1} />
      <BooleanInput source="enabled" />
    </>
  );
}

export function SourceCreate() {
  const translate = useTranslate();
  return (
    <Create title={translate(`${SOURCE_MSG}.page.create`)} redirect="list">
      <SimpleForm defaultValues={{ type: 'hls', priority: 0, enabled: true }}>
        <SourceInputs />
      </SimpleForm>
    </Create>
  );
}

export function SourceEdit() {
  const translate = useTranslate();
  return (
    <EditPage title={translate(`${SOURCE_MSG}.page.editTitle`)}>
      <SourceInputs />
    </EditPage>
  );
}
