import InboxIcon from '@mui/icons-material/Inbox';
import { Box, Typography } from '@mui/material';
import {
  BooleanField,
  ChipField,
  ExportButton,
  FunctionField,
  List,
  NumberField,
  ReferenceArrayField,
  SingleFieldList,
  TextField,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { SecureImage } from '../../images/SecureImage';
import { Datagrid, ListPagination, LocaleDateField } from '../../layout/listParts';
import { bulkActionsOf } from './BulkActions';
import { useMovieFilters } from './MovieFilters';
import { MOVIE_MSG, type MovieView } from './names';
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
    </Box>
  );
}

const Actions = () => (
  <TopToolbar>
    <ExportButton maxResults={10000} />
  </TopToolbar>
);

/** 5400 → "1:30:00", 95 → "1:35". */
export const clock = (seconds: number) => {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
};

/**
 * A movie list: the review queue (pending and rejected) or the online content (online and offline). Both are the
 * movies API with `view` fixed; filters, sorts and batch actions follow the view.
 */
export function MovieList({ view }: { view: MovieView }) {
  const translate = useTranslate();
  const filters = useMovieFilters(view, translate);
  return (
    <List
      filter={{ view }}
      filters={filters}
      actions={<Actions />}
      sort={
        view === 'review' ? { field: 'createdAt', order: 'DESC' } : { field: 'publishedAt', order: 'DESC' }
      }
      perPage={20}
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
          '& td.column-title': { minWidth: 140 },
        }}
      >
        <TextField source="id" />
        <FunctionField
          source="cover"
          sortable={false}
          render={(r) => <SecureImage src={r.cover} alt={r.title} width={64} height={36} />}
        />
        <TextField source="title" />
        <TextField source="columnName" sortable={false} />
        <ReferenceArrayField source="tagIds" reference="movie/tags" sortable={false}>
          <SingleFieldList linkType={false}>
            <ChipField source="name" size="small" />
          </SingleFieldList>
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
