import { Card } from '@mui/material';
import { Create, SaveButton, SimpleForm, Toolbar, useRecordContext, useTranslate } from 'react-admin';
import { useParams } from 'react-router-dom';
import { Permission } from '../../auth/permission';
import { EditPage } from '../../components/EditPage';
import { ActressInputs } from './ActressInputs';
import { ActressMovies } from './ActressMovies';
import { DeleteActressButton } from './DeleteActressButton';
import { ACTRESS_MSG } from './names';

function EditTitle() {
  const record = useRecordContext();
  const translate = useTranslate();
  return <>{translate(`${ACTRESS_MSG}.page.edit`, { name: record?.name ?? '' })}</>;
}

function EditToolbar() {
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton />
      <Permission need="actresses.settings">
        <DeleteActressButton />
      </Permission>
    </Toolbar>
  );
}

function CreateProfile() {
  const translate = useTranslate();
  return (
    <Create
      title={translate(`${ACTRESS_MSG}.page.create`)}
      redirect={(_resource, id) => `/actress/edit/${id}`}
      actions={false}
    >
      <SimpleForm defaultValues={{ aliases: [], tags: [], visible: true, sortWeight: 0 }}>
        <ActressInputs />
      </SimpleForm>
    </Create>
  );
}

/** Every field of her profile, then her movies. A stale version (someone saved first) offers a reload. */
function EditProfile({ id }: { id: string }) {
  return (
    <EditPage
      id={id}
      title={<EditTitle />}
      component="div"
      toolbar={<EditToolbar />}
      after={
        <Card sx={{ mt: 2 }}>
          <ActressMovies />
        </Card>
      }
    >
      <ActressInputs />
    </EditPage>
  );
}

/** `/actress/edit/:id?` (SPEC.md §2): her profile with an id, a new one without. */
export function ActressEdit() {
  const { id } = useParams();
  return id ? <EditProfile key={id} id={id} /> : <CreateProfile />;
}
