import { Create, Edit, SimpleForm, useTranslate } from 'react-admin';
import { ConflictAlert, useConflict } from '../../../components/ConflictAlert';
import { EditToolbar } from '../../../components/EditToolbar';
import { NoticeInputs } from './NoticeInputs';
import { N } from './NoticePreview';

/** A new notice starts now, on every platform chosen by hand, enabled. */
export function NoticeCreate() {
  const translate = useTranslate();
  return (
    <Create title={translate(`${N}.page.create`)} redirect="list">
      <SimpleForm
        defaultValues={() => ({
          type: 'marquee',
          platforms: [],
          startAt: new Date().toISOString(),
          endAt: null,
          enabled: true,
          sort: 0,
        })}
      >
        <NoticeInputs />
      </SimpleForm>
    </Create>
  );
}

/** Edit a notice; a stale version (someone saved first) offers a reload, nothing is overwritten. */
export function NoticeEdit() {
  const translate = useTranslate();
  const { conflict, setConflict, onError } = useConflict();
  return (
    <Edit
      title={translate(`${N}.page.editTitle`)}
      mutationMode="pessimistic"
      redirect="list"
      mutationOptions={{ onError }}
      actions={false}
    >
      <ConflictAlert show={conflict} onReload={() => setConflict(false)} />
      <SimpleForm toolbar={<EditToolbar />}>
        <NoticeInputs />
      </SimpleForm>
    </Edit>
  );
}
