import { Create, SimpleForm, useTranslate } from 'react-admin';
import { EditPage } from '../../../components/EditPage';
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
  return (
    <EditPage title={translate(`${NOTICE_MSG}.page.editTitle`)}>
      <NoticeInputs />
    </EditPage>
  );
}
