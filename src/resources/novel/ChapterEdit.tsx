import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Alert, Box, Button, Card } from '@mui/material';
import {
  Create,
  DeleteButton,
  SaveButton,
  SimpleForm,
  Toolbar,
  useGetOne,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { EditPage } from '../../components/EditPage';
import { ChapterInputs } from './ChapterInputs';
import { CHAPTER_MSG, CHAPTER_RESOURCE, chaptersPath, NOVEL_RESOURCE } from './names';

function BackToChapters({ novelId, title }: { novelId: number | string; title?: string }) {
  const translate = useTranslate();
  return (
    <Box sx={{ mb: 1 }}>
      <Button component={Link} to={chaptersPath(novelId)} startIcon={<ArrowBackIcon />}>
        {translate(`${CHAPTER_MSG}.action.back`, { title: title ?? '' })}
      </Button>
    </Box>
  );
}

/** The novel is missing (deleted, or a link without one): say so, and offer the way back to the novel list. */
function NoNovel() {
  const translate = useTranslate();
  return (
    <Alert
      severity="warning"
      sx={{ m: 2 }}
      action={
        <Button component={Link} to={`/${NOVEL_RESOURCE}`} startIcon={<ArrowBackIcon />} color="inherit">
          {translate(`${CHAPTER_MSG}.action.toNovels`)}
        </Button>
      }
    >
      {translate(`${CHAPTER_MSG}.noNovel`)}
    </Alert>
  );
}

function EditTitle() {
  const record = useRecordContext();
  const translate = useTranslate();
  return (
    <>{translate(`${CHAPTER_MSG}.page.edit`, { number: record?.number ?? '', title: record?.title ?? '' })}</>
  );
}

function BackFromRecord() {
  const record = useRecordContext();
  return record ? <BackToChapters novelId={record.novelId} title={record.novelTitle} /> : null;
}

function ChapterToolbar() {
  const record = useRecordContext();
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton />
      {record && <DeleteButton mutationMode="pessimistic" redirect={chaptersPath(record.novelId)} />}
    </Toolbar>
  );
}

function EditChapter({ id }: { id: string }) {
  return (
    <EditPage
      id={id}
      resource={CHAPTER_RESOURCE}
      title={<EditTitle />}
      redirect={(_resource, _id, data) => chaptersPath(data?.novelId)}
      actions={<BackFromRecord />}
      component="div"
      toolbar={<ChapterToolbar />}
    >
      <ChapterInputs />
    </EditPage>
  );
}

function CreateChapter({ novelId }: { novelId: number }) {
  const translate = useTranslate();
  const { data: novel, error } = useGetOne(NOVEL_RESOURCE, { id: novelId });
  if (error) return <NoNovel />;
  return (
    <>
      <BackToChapters novelId={novelId} title={novel?.title} />
      <Create
        resource={CHAPTER_RESOURCE}
        title={translate(`${CHAPTER_MSG}.page.create`, { title: novel?.title ?? '' })}
        redirect={() => chaptersPath(novelId)}
        transform={(data) => ({ ...data, novelId })}
        component="div"
      >
        <Card>
          <SimpleForm defaultValues={{ title: '', content: '' }}>
            <ChapterInputs />
          </SimpleForm>
        </Card>
      </Create>
    </>
  );
}

/**
 * `/novel/chapters/edit/:id?` (SPEC.md §2): a chapter with an id; without one a new chapter of the novel named by
 * `?novelId=`, added after its last chapter.
 */
export function ChapterEdit() {
  const { id } = useParams();
  const [search] = useSearchParams();
  if (id) return <EditChapter key={id} id={id} />;
  const novelId = Number(search.get('novelId'));
  if (!Number.isInteger(novelId) || novelId <= 0) return <NoNovel />;
  return <CreateChapter novelId={novelId} />;
}
