import InboxIcon from '@mui/icons-material/Inbox';
import { Box, Typography } from '@mui/material';
import {
  BooleanField,
  CreateButton,
  FunctionField,
  List,
  NumberField,
  ReferenceArrayField,
  TextField,
  TopToolbar,
  useListContext,
  useTranslate,
} from 'react-admin';
import { useSystemSettings } from '../../api/system';
import { type CsvColumn, ExportCsvButton, fieldColumns } from '../../components/ExportCsvButton';
import { SecureImage } from '../../images/SecureImage';
import {
  Datagrid,
  DensityButton,
  ListPagination,
  LocaleDateField,
  OneLineChips,
  useDensity,
} from '../../layout/listParts';
import { bulkActionsOf } from './BulkActions';
import { useMovieFilters } from './MovieFilters';
import { MOVIE_MSG, MOVIE_PAGE_SIZE, MOVIE_QUEUE, type MovieView, SECTION_MSG } from './names';
import { SortWeightInput } from './SortWeightInput';
import { PlatformsField, StatusField } from './shared';

function Empty({ view }: { view: MovieView }) {
  const translate = useTranslate();
  const r = MOVIE_MSG[view];
  return (
    <Box sx={{ textAlign: 'center', py: 8, color: 'text.secondary', width: '100%' }} role="status">
      <InboxIcon sx={{ fontSize: 64 }} aria-hidden />
      <Typography variant="h6" component="p" color="text.primary">
        {translate(`${r}.empty`)}
      </Typography>
      <Typography variant="body2">{translate(`${r}.emptyHint`)}</Typography>
      {view === 'review' && (
        <Box sx={{ mt: 2 }}>
          <CreateButton variant="contained" label={`${MOVIE_MSG.review}.page.create`} />
        </Box>
      )}
    </Box>
  );
}

/** The export: what the list shows, statuses and platforms by name, times on the tenant's clock. */
function useCsvColumns(view: MovieView): CsvColumn[] {
  const platformMap = useSystemSettings()?.platformMap ?? {};
  const f = fieldColumns(MOVIE_MSG[view], [
    'id',
    'title',
    'columnName',
    'views',
    'recommended',
    'rejectReason',
    'publishedAt',
    'createdAt',
  ]);
  const field = (name: string) => `${MOVIE_MSG[view]}.fields.${name}`;
  return [
    ...f.slice(0, 3),
    {
      label: field('platforms'),
      value: (r) => (r.platforms ?? []).map((k: number) => platformMap[String(k)] ?? `#${k}`).join('、'),
    },
    { label: field('duration'), value: (r) => clock(r.duration ?? 0) },
    { label: field('status'), value: (r, t) => t(`${SECTION_MSG}.status.${r.status}`) },
    ...f.slice(3),
  ];
}

function Actions({ view }: { view: MovieView }) {
  const columns = useCsvColumns(view);
  return (
    <TopToolbar>
      {view === 'review' && <CreateButton label={`${MOVIE_MSG.review}.page.create`} />}
      <DensityButton />
      <ExportCsvButton columns={columns} filename={`movies-${view}`} />
    </TopToolbar>
  );
}

/** 5400 → "1:30:00", 95 → "1:35". */
export const clock = (seconds: number) => {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
};

/** The movie's tags (the ReferenceArrayField's records) as chips on one line. */
function TagChips() {
  const { data } = useListContext();
  return <OneLineChips names={(data ?? []).map((t) => t.name)} />;
}

/**
 * A movie list: the review queue (pending and rejected) or the online content (online and offline). Both are the
 * movies API with `view` fixed; filters, sorts and batch actions follow the view.
 */
export function MovieList({ view }: { view: MovieView }) {
  const translate = useTranslate();
  const filters = useMovieFilters(view, translate);
  const compact = useDensity()[0] === 'compact';
  return (
    <List
      filter={MOVIE_QUEUE[view].filter}
      filters={filters}
      actions={<Actions view={view} />}
      sort={MOVIE_QUEUE[view].sort}
      perPage={MOVIE_PAGE_SIZE}
      pagination={<ListPagination />}
      empty={<Empty view={view} />}
    >
      <Datagrid
        rowClick="edit"
        bulkActionButtons={bulkActionsOf(view)}
        sx={{
          '& .column-columnName, & .column-status, & .column-duration, & .column-views': {
            whiteSpace: 'nowrap',
          },
          '& td.column-title': { minWidth: compact ? 120 : 140 },
          // compact: the title takes the room the other columns leave, cut with an ellipsis (never a scroll)
          ...(compact && {
            '& td.column-title': { minWidth: 120, width: '100%', maxWidth: 0 },
            '& td.column-columnName': { maxWidth: 96, overflow: 'hidden', textOverflow: 'ellipsis' },
          }),
          ...(compact && { '& td.column-sortWeight input': { py: 0.25 } }),
        }}
      >
        <TextField source="id" />
        <FunctionField
          source="cover"
          sortable={false}
          render={(r) => (
            <SecureImage src={r.cover} alt={r.title} width={compact ? 48 : 64} height={compact ? 27 : 36} />
          )}
        />
        <FunctionField
          source="title"
          render={(r) => (
            <Box
              component="span"
              title={r.title}
              sx={
                compact
                  ? {
                      display: 'block',
                      overflow: 'hidden',
                      textOverflow: 'ellipsis',
                    }
                  : undefined
              }
            >
              {r.title}
            </Box>
          )}
        />
        <TextField source="columnName" sortable={false} />
        <ReferenceArrayField source="tagIds" reference="movie/tags" sortable={false}>
          <TagChips />
        </ReferenceArrayField>
        <PlatformsField source="platforms" sortable={false} />
        <FunctionField source="duration" render={(r) => clock(r.duration ?? 0)} />
        <StatusField source="status" sortable={false} />
        {view === 'review' && <TextField source="rejectReason" sortable={false} />}
        {view === 'online' && <BooleanField source="recommended" sortable={false} />}
        {view === 'online' && <NumberField source="views" />}
        {view === 'online' && <SortWeightInput source="sortWeight" />}
        {view === 'online' && <LocaleDateField source="publishedAt" />}
        {view === 'review' && <LocaleDateField source="createdAt" />}
      </Datagrid>
    </List>
  );
}

export const ReviewList = () => <MovieList view="review" />;
export const OnlineList = () => <MovieList view="online" />;
