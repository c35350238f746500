import { Stack } from '@mui/material';
import { Toolbar, useRecordContext, useTranslate } from 'react-admin';
import { EditPage } from '../../../components/EditPage';
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
  return (
    <EditPage title={<EditTitle />} toolbar={<Toolbar />}>
      <OperatorInputs />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <ResetPasswordButton />
        <StateButton />
      </Stack>
    </EditPage>
  );
}
