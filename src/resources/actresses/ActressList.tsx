import PersonSearchIcon from '@mui/icons-material/PersonSearch';
import { Box, Chip, Stack, Typography } from '@mui/material';
import {
  CreateButton,
  FunctionField,
  List,
  NumberField,
  NumberInput,
  SearchInput,
  TextField,
  TextInput,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { type CsvColumn, ExportCsvButton } from '../../components/ExportCsvButton';
import { FilterSelectInput } from '../../components/FilterSelectInput';
import { Datagrid, DensityButton, ListPagination, LocaleDateField } from '../../layout/listParts';
import { ActressBulkActions } from './BulkActions';
import { ACTRESS_MSG } from './names';
import { ActressAvatar, RegionChip, regionChoices, VisibleChip, visibleChoices } from './shared';

const filters = (translate: (key: string) => string) => [
  <SearchInput key="q" source="q" alwaysOn placeholder={translate(`${ACTRESS_MSG}.filters.q`)} />,
  <FilterSelectInput
    key="region"
    source="region"
    choices={regionChoices}
    alwaysOn
    label={`${ACTRESS_MSG}.filters.region`}
  />,
  <FilterSelectInput
    key="visible"
    source="visible"
    choices={visibleChoices}
    alwaysOn
    label={`${ACTRESS_MSG}.filters.visible`}
  />,
  <NumberInput
    key="debutFrom"
    source="debutFrom"
    label={`${ACTRESS_MSG}.filters.debutFrom`}
    min={1900}
    max={2100}
  />,
  <NumberInput
    key="debutTo"
    source="debutTo"
    label={`${ACTRESS_MSG}.filters.debutTo`}
    min={1900}
    max={2100}
  />,
  <TextInput key="tag" source="tag" label={`${ACTRESS_MSG}.filters.tag`} />,
];

const f = (name: string) => `${ACTRESS_MSG}.fields.${name}`;
const csvColumns: CsvColumn[] = [
  { label: f('id'), value: (r) => r.id },
  { label: f('name'), value: (r) => r.name },
  { label: f('aliases'), value: (r) => (r.aliases ?? []).join(' / ') },
  { label: f('region'), value: (r, t) => (r.region ? t(`${ACTRESS_MSG}.region.${r.region}`) : '') },
  { label: f('birthday'), value: (r) => r.birthday ?? '' },
  { label: f('height'), value: (r) => r.height ?? '' },
  { label: f('debutYear'), value: (r) => r.debutYear ?? '' },
  { label: f('tags'), value: (r) => (r.tags ?? []).join(' / ') },
  { label: f('movieCount'), value: (r) => r.movieCount },
  { label: f('visible'), value: (r, t) => t(`${ACTRESS_MSG}.state.${r.visible ? 'visible' : 'hidden'}`) },
  { label: f('sortWeight'), value: (r) => r.sortWeight },
  { label: f('createdAt'), value: (r) => r.createdAt },
];

const Actions = () => (
  <TopToolbar>
    <CreateButton label={`${ACTRESS_MSG}.action.create`} />
    <DensityButton />
    <ExportCsvButton
      columns={csvColumns}
      filename="actresses"
      done={`${ACTRESS_MSG}.notifications.exported`}
    />
  </TopToolbar>
);

function Empty() {
  const translate = useTranslate();
  return (
    <Box sx={{ textAlign: 'center', py: 8, color: 'text.secondary', width: '100%' }} role="status">
      <PersonSearchIcon sx={{ fontSize: 64 }} aria-hidden />
      <Typography variant="h6" component="p" color="text.primary">
        {translate(`${ACTRESS_MSG}.empty`)}
      </Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {translate(`${ACTRESS_MSG}.emptyHint`)}
      </Typography>
      <CreateButton variant="contained" label={`${ACTRESS_MSG}.action.create`} />
    </Box>
  );
}

/** The profiles: search by name or alias, filters, sorts (works, newest, name, weight…), batches and CSV export. */
export function ActressList() {
  const translate = useTranslate();
  return (
    <List
      filters={filters(translate)}
      actions={<Actions />}
      sort={{ field: 'createdAt', order: 'DESC' }}
      perPage={20}
      pagination={<ListPagination />}
      empty={<Empty />}
    >
      <Datagrid rowClick={(id) => `/actress/edit/${id}`} bulkActionButtons={<ActressBulkActions />}>
        <TextField source="id" />
        <FunctionField
          source="avatar"
          sortable={false}
          render={(r) => <ActressAvatar name={r.name} avatar={r.avatar} />}
        />
        <FunctionField
          source="name"
          render={(r) => (
            <Stack>
              <Typography variant="body2" component="span" sx={{ fontWeight: 500 }}>
                {r.name}
              </Typography>
              {r.aliases?.length > 0 && (
                <Typography variant="caption" component="span" color="text.secondary">
                  {r.aliases.join(' / ')}
                </Typography>
              )}
            </Stack>
          )}
        />
        <FunctionField source="region" sortable={false} render={(r) => <RegionChip region={r.region} />} />
        <NumberField source="debutYear" options={{ useGrouping: false }} />
        <FunctionField
          source="tags"
          sortable={false}
          render={(r) => (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
              {(r.tags ?? []).map((tag: string) => (
                <Chip key={tag} size="small" label={tag} />
              ))}
            </Box>
          )}
        />
        <NumberField source="movieCount" />
        <FunctionField
          source="visible"
          sortable={false}
          render={(r) => <VisibleChip visible={r.visible} />}
        />
        <NumberField source="sortWeight" />
        <LocaleDateField source="createdAt" />
      </Datagrid>
    </List>
  );
}
