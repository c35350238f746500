import { Stack } from '@mui/material';
import { Edit, SimpleForm, useRecordContext, useTranslate } from 'react-admin';
import { ConflictAlert, useConflict } from '../../../components/ConflictAlert';
import { OPERATOR_MSG } from '../names';
import { OperatorInputs } from './OperatorInputs';
import { ResetPasswordButton } from './ResetPasswordButton';
import { StateButton } from './StateButton';

function EditTitle() {
  const record = useRecordContext();
  const translate = useTranslate();
  return <>{translate(`${OPERATOR_MSG}.page.edit`, { account: record?.account ?? '' })}</>;
}

/** Edit nickname, avatar and role. A stale version (someone else saved first) offers a reload; nothing is overwritten. */
export function OperatorEdit() {
  const { conflict, setConflict, onError } = useConflict();
  return (
    <Edit
      title={<EditTitle />}
      mutationMode="pessimistic"
      redirect="list"
      mutationOptions={{ onError }}
      actions={false}
    >
      <ConflictAlert show={conflict} onReload={() => setConflict(false)} />
      <SimpleForm>
        <OperatorInputs />
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <ResetPasswordButton />
          <StateButton />
        </Stack>
      </SimpleForm>
    </Edit>
  );
}
