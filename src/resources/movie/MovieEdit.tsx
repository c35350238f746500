import { Alert, Box, Card, CardContent, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Create, SimpleForm, useLocaleState, useNotify, useRecordContext, useTranslate } from 'react-admin';
import { EditPage } from '../../components/EditPage';
import { useOperatorName } from '../../components/OperatorName';
import { ReviewToolbar } from '../../components/ReviewToolbar';
import { ImageInput } from '../../images/ImageInput';
import { ActressPicker } from '../actresses/ActressPicker';
import { MovieInputs } from './MovieInputs';
import { editPathOf, MOVIE_MSG, MOVIE_QUEUE, MOVIE_REVIEW, type MovieView, SECTION_MSG } from './names';
import { StatusChip } from './shared';
import { VideoPreview } from './VideoPreview';

function EditTitle({ view }: { view: MovieView }) {
  const record = useRecordContext();
  const translate = useTranslate();
  return <>{translate(`${MOVIE_MSG[view]}.page.edit`, { title: record?.title ?? '' })}</>;
}

/** Status, who reviewed it and when, and why it was rejected. */
function ReviewInfo() {
  const record = useRecordContext();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const reviewer = useOperatorName(record?.reviewedBy);
  if (!record) return null;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, alignItems: 'flex-start' }}>
      <StatusChip status={record.status} />
      {record.reviewedAt && (
        <Typography variant="body2" color="text.secondary">
          {translate(`${SECTION_MSG}.reviewInfo`, {
            by: reviewer,
            at: new Date(record.reviewedAt).toLocaleString(locale),
          })}
        </Typography>
      )}
      {record.status === 'rejected' && record.rejectReason && (
        <Alert severity="warning">
          {translate(`${SECTION_MSG}.rejectedBecause`, { reason: record.rejectReason })}
        </Alert>
      )}
    </Box>
  );
}

/**
 * The edit page of one movie, in the review queue or the online list: every field, the cover, an in-page preview
 * of its video, and the transitions its status allows. A stale version is refused (40900) and offers a reload.
 */
export function MovieEdit({ view }: { view: MovieView }) {
  const notify = useNotify();
  return (
    <EditPage
      title={<EditTitle view={view} />}
      redirect={false}
      onSaved={() => notify(`${SECTION_MSG}.notifications.saved`, { type: 'success' })}
      toolbar={<ReviewToolbar review={MOVIE_REVIEW} queue={MOVIE_QUEUE[view]} />}
    >
      <MovieLayout side={<ReviewSide />} />
    </EditPage>
  );
}

/** The form of one movie, edit and create alike: every field on the left, `side` (review, preview) on the right. */
function MovieLayout({ side }: { side: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 3,
        width: '100%',
        gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 3fr) minmax(320px, 2fr)' },
      }}
    >
      <Box sx={{ minWidth: 0 }}>
        <MovieInputs cover={<ImageInput source="cover" />} actresses={<ActressPicker />} />
      </Box>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>{side}</Box>
    </Box>
  );
}

function ReviewSide() {
  const translate = useTranslate();
  return (
    <>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="subtitle1" component="h2" gutterBottom>
            {translate(`${SECTION_MSG}.section.review`)}
          </Typography>
          <ReviewInfo />
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <VideoPreview />
        </CardContent>
      </Card>
    </>
  );
}

/** What a new movie starts with (the API's defaults): it enters the review queue as pending. */
const NEW_MOVIE = {
  title: '',
  description: '',
  cover: '',
  columnId: null,
  tagIds: [],
  actressIds: [],
  plays: [],
  platforms: [],
  duration: 0,
  releaseDate: null,
  free: true,
  sortWeight: 0,
  recommended: false,
};

/**
 * `/movie/review/create` (MacCMS's 添加视频): the edit page's form and rules; the new movie lands in the review
 * queue, and its review page opens.
 */
export function ReviewCreate() {
  const translate = useTranslate();
  return (
    <Create
      title={translate(`${MOVIE_MSG.review}.page.create`)}
      redirect={(_resource, id) => editPathOf('pending', id ?? '')}
      actions={false}
    >
      <SimpleForm defaultValues={NEW_MOVIE}>
        <MovieLayout
          side={
            <Alert severity="info" variant="outlined">
              {translate(`${MOVIE_MSG.review}.createdHint`)}
            </Alert>
          }
        />
      </SimpleForm>
    </Create>
  );
}

export const ReviewEdit = () => <MovieEdit view="review" />;
export const OnlineEdit = () => <MovieEdit view="online" />;
