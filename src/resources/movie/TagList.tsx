import MergeIcon from '@mui/icons-material/MergeType';
import { Button } from '@mui/material';
import { type MouseEvent, useState } from 'react';
import {
  AutocompleteInput,
  BooleanField,
  BooleanInput,
  Create,
  CreateButton,
  Form,
  List,
  maxLength,
  NumberField,
  ReferenceInput,
  required,
  SearchInput,
  SimpleForm,
  TextField,
  TextInput,
  TopToolbar,
  useDataProvider,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import type { ResourceDataProvider } from '../../api/dataProvider';
import { Permission, ReadOnlyBanner, useCan } from '../../auth/permission';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EditPage } from '../../components/EditPage';
import { ExportCsvButton, fieldColumns } from '../../components/ExportCsvButton';
import { FilterSelectInput } from '../../components/FilterSelectInput';
import { Datagrid, DensityButton, ListPagination, LocaleDateField } from '../../layout/listParts';
import { TAG_MSG, TAG_RESOURCE } from './names';
import { yesNoChoices } from './shared';

/** Merges this tag into another: every item gets the survivor, then this one is deleted (one transaction). */
function MergeButton() {
  const record = useRecordContext();
  const dataProvider = useDataProvider<ResourceDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [into, setInto] = useState<number | null>(null);
  if (!record) return null;
  const stop = (e: MouseEvent) => e.stopPropagation();
  const run = async () => {
    try {
      const data = await dataProvider.action<{ moved: number }>(TAG_RESOURCE, into as number, 'merge', {
        ids: [record.id],
      });
      notify(`${TAG_MSG}.notifications.merged`, {
        type: 'success',
        messageArgs: { count: data?.moved ?? 0 },
      });
      setOpen(false);
      refresh();
    } catch {
      // shown by the HTTP client
    }
  };
  return (
    <>
      <Button
        size="small"
        startIcon={<MergeIcon />}
        onClick={(e) => {
          stop(e);
          setOpen(true);
        }}
      >
        {translate(`${TAG_MSG}.action.merge`)}
      </Button>
      {/* Events in the dialog bubble through React to the row, whose click opens the edit page: stopped there. */}
      <ConfirmDialog
        open={open}
        title={translate(`${TAG_MSG}.action.mergeTitle`, { name: record.name })}
        question={translate(`${TAG_MSG}.action.mergeHint`, { name: record.name })}
        onClose={() => setOpen(false)}
        onConfirm={run}
        disabled={!into || into === record.id}
        autoFocusConfirm={false}
        stopClicks
      >
        <Form onSubmit={() => undefined}>
          <ReferenceInput source="intoId" reference={TAG_RESOURCE} perPage={50} filter={{}}>
            <AutocompleteInput
              optionText="name"
              label={`${TAG_MSG}.action.mergeInto`}
              filterToQuery={(q: string) => (q ? { q } : {})}
              onChange={(v) => setInto(v ?? null)}
            />
          </ReferenceInput>
        </Form>
      </ConfirmDialog>
    </>
  );
}

const csvColumns = fieldColumns(TAG_MSG, ['id', 'name', 'group', 'hot', 'itemCount', 'createdAt']);

const Actions = () => (
  <TopToolbar>
    <Permission need="movie.settings">
      <CreateButton />
    </Permission>
    <DensityButton />
    <ExportCsvButton columns={csvColumns} filename="tags" />
  </TopToolbar>
);

/** Movie tags: name, group, hot flag and how many items carry each; merge, delete (admins). */
export function TagList() {
  const translate = useTranslate();
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate(`${TAG_MSG}.filters.q`)} />,
    <TextInput key="group" source="group" label={`${TAG_MSG}.filters.group`} alwaysOn />,
    <FilterSelectInput
      key="hot"
      source="hot"
      choices={yesNoChoices}
      label={`${TAG_MSG}.filters.hot`}
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
        sort={{ field: 'itemCount', order: 'DESC' }}
        perPage={20}
        pagination={<ListPagination />}
      >
        <Datagrid rowClick={admin ? 'edit' : false} bulkActionButtons={false}>
          <TextField source="id" />
          <TextField source="name" />
          <TextField source="group" />
          <BooleanField source="hot" sortable={false} />
          <NumberField source="itemCount" />
          <LocaleDateField source="createdAt" />
          <Permission need="movie.settings">
            <MergeButton />
          </Permission>
        </Datagrid>
      </List>
    </>
  );
}

const TagInputs = () => (
  <>
    <TextInput source="name" validate={[required(), maxLength(32)]} />
    <TextInput source="group" validate={maxLength(32)} />
    <BooleanInput source="hot" />
  </>
);

export function TagCreate() {
  const translate = useTranslate();
  return (
    <Create title={translate(`${TAG_MSG}.page.create`)} redirect="list">
      <SimpleForm defaultValues={{ hot: false, group: '' }}>
        <TagInputs />
      </SimpleForm>
    </Create>
  );
}

export function TagEdit() {
  const translate = useTranslate();
  return (
    <EditPage title={translate(`${TAG_MSG}.page.editTitle`)}>
      <TagInputs />
    </EditPage>
  );
}
