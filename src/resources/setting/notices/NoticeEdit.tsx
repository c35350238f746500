import { Create, Edit, SimpleForm, useTranslate } from 'react-admin';
import { ConflictAlert, useConflict } from '../../../components/ConflictAlert';
import { EditToolbar } from '../../../components/EditToolbar';
import { NOTICE_MSG } from '../names';
import { NoticeInputs } from './NoticeInputs';

/** A new notice starts now, on every platform chosen by hand, enabled. */
export function NoticeCreate() {
  const translate = useTranslate();
  return (
    <Create title={translate(`${NOTICE_MSG}.page.create`)} redirect="list">
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
      title={translate(`${NOTICE_MSG}.page.editTitle`)}
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
