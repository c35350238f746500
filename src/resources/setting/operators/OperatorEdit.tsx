import { Alert, Button, Stack } from '@mui/material';
import { useState } from 'react';
import { Edit, SimpleForm, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { ApiFailure } from '../../../api/http';
import { OperatorInputs } from './OperatorInputs';
import { ResetPasswordButton } from './ResetPasswordButton';
import { StateButton } from './StateButton';

function EditTitle() {
  const record = useRecordContext();
  const translate = useTranslate();
  return <>{translate('resources.setting/operators.page.edit', { account: record?.account ?? '' })}</>;
}

/** Edit nickname, avatar and role. A stale version (someone else saved first) offers a reload; nothing is overwritten. */
export function OperatorEdit() {
  const translate = useTranslate();
  const refresh = useRefresh();
  const [conflict, setConflict] = useState(false);
  return (
    <Edit
      title={<EditTitle />}
      mutationMode="pessimistic"
      redirect="list"
      mutationOptions={{
        onError: (err) => setConflict(err instanceof ApiFailure && err.code === 40900),
      }}
      actions={false}
    >
      {conflict && (
        <Alert
          severity="warning"
          action={
            <Button
              color="inherit"
              onClick={() => {
                setConflict(false);
                refresh();
              }}
            >
              {translate('shell.reload')}
            </Button>
          }
        >
          {translate('shell.conflict')}
        </Alert>
      )}
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
