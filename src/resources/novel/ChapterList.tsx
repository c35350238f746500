import AddIcon from '@mui/icons-material/Add';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import EditIcon from '@mui/icons-material/Edit';
import ListAltIcon from '@mui/icons-material/ListAlt';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Alert, Box, Button, Chip, IconButton, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import {
  FunctionField,
  List,
  NumberField,
  SearchInput,
  TextField,
  TopToolbar,
  useDataProvider,
  useGetOne,
  useNotify,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { Link, useParams } from 'react-router-dom';
import type { ResourceDataProvider } from '../../api/dataProvider';
import { BulkConfirmButton } from '../../components/BulkConfirmButton';
import { Datagrid, ListPagination, LocaleDateField } from '../../layout/listParts';
import { ImportDialog } from './ImportDialog';
import {
  CHAPTER_MSG,
  CHAPTER_RESOURCE,
  chapterCreatePath,
  chapterEditPath,
  NOVEL_RESOURCE,
  novelEditPath,
} from './names';
import { StatusChip, useChapterSummary } from './shared';

/** Move a chapter one place up or down (the server swaps it with its neighbour). */
function MoveButtons({
  record,
  last,
}: {
  record: { id: number; number: number; title: string };
  last: number;
}) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ResourceDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  const move = async (direction: 'up' | 'down') => {
    setBusy(true);
    try {
      await dataProvider.action(CHAPTER_RESOURCE, record.id, 'move', { direction });
      notify(`${CHAPTER_MSG}.notifications.moved`, { type: 'success' });
      refresh();
    } catch {
      // the HTTP client has shown the server's message (e.g. someone moved it meanwhile)
    } finally {
      setBusy(false);
    }
  };
  const button = (direction: 'up' | 'down', disabled: boolean) => {
    const label = translate(`${CHAPTER_MSG}.action.${direction}`, { title: record.title });
    return (
      <Tooltip title={label}>
        <span>
          <IconButton
            size="small"
            aria-label={label}
            disabled={busy || disabled}
            onClick={(e) => {
              e.stopPropagation();
              move(direction);
            }}
          >
            {direction === 'up' ? (
              <ArrowUpwardIcon fontSize="small" />
            ) : (
              <ArrowDownwardIcon fontSize="small" />
            )}
          </IconButton>
        </span>
      </Tooltip>
    );
  };
  return (
    <Box sx={{ display: 'flex', whiteSpace: 'nowrap' }}>
      {button('up', record.number <= 1)}
      {button('down', record.number >= last)}
      <Tooltip title={translate(`${CHAPTER_MSG}.action.edit`, { title: record.title })}>
        <IconButton
          size="small"
          component={Link}
          to={chapterEditPath(record.id)}
          aria-label={translate(`${CHAPTER_MSG}.action.edit`, { title: record.title })}
          onClick={(e: React.MouseEvent) => e.stopPropagation()}
        >
          <EditIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </Box>
  );
}

function FreeChip({ free }: { free: boolean }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={free ? 'success' : 'default'}
      variant={free ? 'filled' : 'outlined'}
      label={translate(`${CHAPTER_MSG}.${free ? 'free' : 'paid'}`)}
    />
  );
}

function Empty({ novelId, onImport }: { novelId: number; onImport: () => void }) {
  const translate = useTranslate();
  return (
    <Box sx={{ textAlign: 'center', py: 8, color: 'text.secondary', width: '100%' }} role="status">
      <ListAltIcon sx={{ fontSize: 64 }} aria-hidden />
      <Typography variant="h6" component="p" color="text.primary">
        {translate(`${CHAPTER_MSG}.empty`)}
      </Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {translate(`${CHAPTER_MSG}.emptyHint`)}
      </Typography>
      <Actions novelId={novelId} onImport={onImport} />
    </Box>
  );
}

/** Add a chapter, import a file. The import dialog lives in ChapterList: the list and its empty state swap these. */
function Actions({ novelId, onImport }: { novelId: number; onImport: () => void }) {
  const translate = useTranslate();
  return (
    <TopToolbar sx={{ justifyContent: 'center' }}>
      <Button size="small" component={Link} to={chapterCreatePath(novelId)} startIcon={<AddIcon />}>
        {translate(`${CHAPTER_MSG}.action.create`)}
      </Button>
      <Button size="small" onClick={onImport} startIcon={<UploadFileIcon />}>
        {translate(`${CHAPTER_MSG}.action.import`)}
      </Button>
    </TopToolbar>
  );
}

/** The novel the chapters belong to: title, status, counts, and the way back to it. */
function NovelHeader({ novel }: { novel: Record<string, any> }) {
  const translate = useTranslate();
  const summary = useChapterSummary();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', mt: 2, mb: 1 }}>
      <Typography variant="h6" component="h2">
        {translate(`${CHAPTER_MSG}.heading`, { title: novel.title })}
      </Typography>
      <StatusChip status={novel.status} />
      <Typography variant="body2" color="text.secondary">
        {summary(novel as never)}
      </Typography>
      <Button size="small" component={Link} to={novelEditPath(novel.id)}>
        {translate(`${CHAPTER_MSG}.action.toNovel`)}
      </Button>
    </Box>
  );
}

const BulkActions = () => (
  <BulkConfirmButton
    action="delete"
    label="ra.action.delete"
    confirm={`${CHAPTER_MSG}.action.confirmDelete`}
    done={`${CHAPTER_MSG}.notifications.deleted`}
    color="error"
  />
);

/**
 * `/novel/chapters/:id` (SPEC.md §2): the chapters of novel `id` in order, with words, free or paid (the novel's
 * first N are free), move up/down, batch delete (asked first; the rest are renumbered), add and import.
 */
export function ChapterList() {
  const { id = '' } = useParams();
  const novelId = Number(id);
  const translate = useTranslate();
  const { data: novel, error } = useGetOne(NOVEL_RESOURCE, { id: novelId }, { enabled: novelId > 0 });
  const [importing, setImporting] = useState(false);
  if (!(novelId > 0) || error)
    return (
      <Alert severity="warning" sx={{ m: 2 }}>
        {translate(`${CHAPTER_MSG}.noNovel`)}
      </Alert>
    );
  return (
    <>
      {novel && <NovelHeader novel={novel} />}
      <List
        resource={CHAPTER_RESOURCE}
        storeKey={`${CHAPTER_RESOURCE}.${novelId}`}
        filter={{ novelId }}
        filters={[
          <SearchInput key="q" source="q" alwaysOn placeholder={translate(`${CHAPTER_MSG}.filters.q`)} />,
        ]}
        sort={{ field: 'number', order: 'ASC' }}
        perPage={50}
        title={translate(`${CHAPTER_MSG}.page.list`, { title: novel?.title ?? '' })}
        actions={<Actions novelId={novelId} onImport={() => setImporting(true)} />}
        pagination={<ListPagination />}
        empty={<Empty novelId={novelId} onImport={() => setImporting(true)} />}
      >
        <Datagrid
          rowClick={(rowId) => chapterEditPath(rowId)}
          bulkActionButtons={<BulkActions />}
          sx={{ '& .column-number, & .column-wordCount, & .column-free': { whiteSpace: 'nowrap' } }}
        >
          <NumberField source="number" />
          <TextField source="title" />
          <NumberField source="wordCount" />
          <FunctionField source="free" sortable={false} render={(r) => <FreeChip free={r.free} />} />
          <LocaleDateField source="updatedAt" />
          <FunctionField
            label={`${CHAPTER_MSG}.fields.actions`}
            render={(r) => <MoveButtons record={r} last={novel?.chapterCount ?? Number.POSITIVE_INFINITY} />}
          />
        </Datagrid>
      </List>
      {importing && <ImportDialog novelId={novelId} onClose={() => setImporting(false)} />}
    </>
  );
}
