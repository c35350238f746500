import ListAltIcon from '@mui/icons-material/ListAlt';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import { Box, Button, Typography } from '@mui/material';
import {
  CreateButton,
  FunctionField,
  List,
  NumberField,
  SearchInput,
  TextField,
  TextInput,
  TopToolbar,
  useLocaleState,
  useTranslate,
} from 'react-admin';
import { Link } from 'react-router-dom';
import { DayInput } from '../../components/dates';
import { type CsvColumn, ExportCsvButton } from '../../components/ExportCsvButton';
import { FilterSelectInput } from '../../components/FilterSelectInput';
import { SecureImage } from '../../images/SecureImage';
import { Datagrid, DensityButton, ListPagination, LocaleDateField } from '../../layout/listParts';
import { NovelBulkActions } from './BulkActions';
import { chaptersPath, NOVEL_MSG, NOVEL_QUEUE } from './names';
import { ColumnInput, formatWords, SerialField, StatusField, serialChoices, statusChoices } from './shared';

const f = `${NOVEL_MSG}.filters`;

const filters = (translate: (key: string) => string) => [
  <SearchInput key="q" source="q" alwaysOn placeholder={translate(`${f}.q`)} />,
  <FilterSelectInput key="status" source="status" choices={statusChoices} alwaysOn label={`${f}.status`} />,
  <ColumnInput key="columnId" source="columnId" label={`${f}.columnId`} alwaysOn />,
  <FilterSelectInput
    key="serialStatus"
    source="serialStatus"
    choices={serialChoices}
    label={`${f}.serialStatus`}
  />,
  <TextInput key="tag" source="tag" label={`${f}.tag`} />,
  <DayInput key="createdFrom" source="createdFrom" label={`${f}.createdFrom`} />,
  <DayInput key="createdTo" source="createdTo" label={`${f}.createdTo`} />,
];

const field = (name: string) => `${NOVEL_MSG}.fields.${name}`;
const csvColumns: CsvColumn[] = [
  { label: field('id'), value: (r) => r.id },
  { label: field('title'), value: (r) => r.title },
  { label: field('author'), value: (r) => r.author },
  { label: field('columnName'), value: (r) => r.columnName ?? '' },
  { label: field('tags'), value: (r) => (r.tags ?? []).join(' / ') },
  { label: field('status'), value: (r, t) => t(`resources.novel.status.${r.status}`) },
  { label: field('rejectReason'), value: (r) => r.rejectReason },
  { label: field('serialStatus'), value: (r, t) => t(`resources.novel.serial.${r.serialStatus}`) },
  { label: field('chapterCount'), value: (r) => r.chapterCount },
  { label: field('wordCount'), value: (r) => r.wordCount },
  { label: field('freeChapters'), value: (r) => r.freeChapters },
  { label: field('views'), value: (r) => r.views },
  { label: field('createdAt'), value: (r) => r.createdAt },
  { label: field('publishedAt'), value: (r) => r.publishedAt ?? '' },
];

const Actions = () => (
  <TopToolbar>
    <CreateButton label={`${NOVEL_MSG}.action.create`} />
    <DensityButton />
    <ExportCsvButton columns={csvColumns} filename="novels" done={`${NOVEL_MSG}.notifications.exported`} />
  </TopToolbar>
);

function Empty() {
  const translate = useTranslate();
  return (
    <Box sx={{ textAlign: 'center', py: 8, color: 'text.secondary', width: '100%' }} role="status">
      <MenuBookIcon sx={{ fontSize: 64 }} aria-hidden />
      <Typography variant="h6" component="p" color="text.primary">
        {translate(`${NOVEL_MSG}.empty`)}
      </Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {translate(`${NOVEL_MSG}.emptyHint`)}
      </Typography>
      <CreateButton variant="contained" label={`${NOVEL_MSG}.action.create`} />
    </Box>
  );
}

/** The chapter count, a link to the novel's chapters (the row itself opens the novel). */
function ChaptersLink({ id, title, count }: { id: number; title: string; count: number }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <Button
      size="small"
      component={Link}
      to={chaptersPath(id)}
      endIcon={<ListAltIcon />}
      onClick={(e) => e.stopPropagation()}
      aria-label={translate(`${NOVEL_MSG}.action.chaptersOf`, { title, count })}
      sx={{ minWidth: 0 }}
    >
      {count.toLocaleString(locale)}
    </Button>
  );
}

/**
 * `/novel/review`: every novel, whatever its review status (filter by it), with title/author search, column, serial
 * status, tag and date filters, sorts, batch approve/reject/offline/online/delete and CSV export.
 */
export function NovelList() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <List
      filters={filters(translate)}
      actions={<Actions />}
      sort={NOVEL_QUEUE.sort}
      perPage={20}
      pagination={<ListPagination />}
      empty={<Empty />}
    >
      <Datagrid
        rowClick="edit"
        bulkActionButtons={<NovelBulkActions />}
        sx={{
          '& .column-status, & .column-serialStatus, & .column-chapterCount, & .column-wordCount, & .column-views, & .column-columnName, & .column-createdAt':
            { whiteSpace: 'nowrap' },
          '& td.column-author': { minWidth: 80 },
          '& td.column-title': { minWidth: 140 },
        }}
      >
        <TextField source="id" />
        <FunctionField
          source="cover"
          sortable={false}
          render={(r) => <SecureImage src={r.cover} alt={r.title} width={36} height={48} />}
        />
        <TextField source="title" />
        <TextField source="author" />
        <TextField source="columnName" sortable={false} />
        <StatusField source="status" sortable={false} />
        <SerialField source="serialStatus" sortable={false} />
        <FunctionField
          source="chapterCount"
          render={(r) => <ChaptersLink id={r.id} title={r.title} count={r.chapterCount ?? 0} />}
        />
        <FunctionField source="wordCount" render={(r) => formatWords(r.wordCount ?? 0, locale)} />
        <NumberField source="views" />
        <LocaleDateField source="createdAt" />
      </Datagrid>
    </List>
  );
}
