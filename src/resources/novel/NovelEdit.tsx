import ListAltIcon from '@mui/icons-material/ListAlt';
import { Alert, Box, Button, Card, CardContent, Typography } from '@mui/material';
import { Create, SimpleForm, useLocaleState, useNotify, useRecordContext, useTranslate } from 'react-admin';
import { Link, useParams } from 'react-router-dom';
import { EditPage } from '../../components/EditPage';
import { useOperatorName } from '../../components/OperatorName';
import { ReviewToolbar } from '../../components/ReviewToolbar';
import { NovelInputs } from './NovelInputs';
import { chaptersPath, NOVEL_MSG, NOVEL_QUEUE, NOVEL_REVIEW, novelEditPath } from './names';
import { StatusChip, useChapterSummary } from './shared';

function EditTitle() {
  const record = useRecordContext();
  const translate = useTranslate();
  return <>{translate(`${NOVEL_MSG}.page.edit`, { title: record?.title ?? '' })}</>;
}

/** Status, who reviewed it and when, why it was rejected. */
function ReviewCard() {
  const record = useRecordContext();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const reviewer = useOperatorName(record?.reviewedBy);
  if (!record) return null;
  return (
    <Card variant="outlined">
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1, alignItems: 'flex-start' }}>
        <Typography variant="subtitle1" component="h2">
          {translate(`${NOVEL_MSG}.section.review`)}
        </Typography>
        <StatusChip status={record.status} />
        {record.reviewedAt && (
          <Typography variant="body2" color="text.secondary">
            {translate(`${NOVEL_MSG}.reviewInfo`, {
              by: reviewer,
              at: new Date(record.reviewedAt).toLocaleString(locale),
            })}
          </Typography>
        )}
        {record.status === 'rejected' && record.rejectReason && (
          <Alert severity="warning">
            {translate(`${NOVEL_MSG}.rejectedBecause`, { reason: record.rejectReason })}
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}

/** Its chapters and words, and the way to the chapters page. */
function ChaptersCard() {
  const record = useRecordContext();
  const translate = useTranslate();
  const summary = useChapterSummary();
  if (!record) return null;
  return (
    <Card variant="outlined">
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1, alignItems: 'flex-start' }}>
        <Typography variant="subtitle1" component="h2">
          {translate(`${NOVEL_MSG}.section.chapters`)}
        </Typography>
        <Typography variant="body2">{summary(record as never)}</Typography>
        <Button variant="contained" component={Link} to={chaptersPath(record.id)} startIcon={<ListAltIcon />}>
          {translate(`${NOVEL_MSG}.action.manageChapters`)}
        </Button>
      </CardContent>
    </Card>
  );
}

function EditNovel({ id }: { id: string }) {
  const notify = useNotify();
  return (
    <EditPage
      id={id}
      title={<EditTitle />}
      redirect={false}
      onSaved={() => notify(`${NOVEL_MSG}.notifications.saved`, { type: 'success' })}
      toolbar={<ReviewToolbar review={NOVEL_REVIEW} queue={NOVEL_QUEUE} />}
    >
      <Box
        sx={{
          display: 'grid',
          gap: 3,
          width: '100%',
          gridTemplateColumns: { xs: '1fr', xl: 'minmax(0, 3fr) minmax(280px, 1fr)' },
        }}
      >
        <Box sx={{ minWidth: 0 }}>
          <NovelInputs />
        </Box>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
          <ReviewCard />
          <ChaptersCard />
        </Box>
      </Box>
    </EditPage>
  );
}

function CreateNovel() {
  const translate = useTranslate();
  return (
    <Create
      title={translate(`${NOVEL_MSG}.page.create`)}
      redirect={(_resource, id) => novelEditPath(id)}
      actions={false}
    >
      <SimpleForm defaultValues={{ tags: [], serialStatus: 'ongoing', freeChapters: 0, columnId: null }}>
        <NovelInputs />
      </SimpleForm>
    </Create>
  );
}

/** `/novel/review/edit/:id?` (SPEC.md §2): the novel with an id, a new one without (then on to its chapters). */
export function NovelEdit() {
  const { id } = useParams();
  return id ? <EditNovel key={id} id={id} /> : <CreateNovel />;
}
