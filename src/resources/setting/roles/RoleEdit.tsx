import { Alert } from '@mui/material';
import {
  Create,
  maxLength,
  regex,
  required,
  SimpleForm,
  TextInput,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { EditPage } from '../../../components/EditPage';
import { EditToolbar } from '../../../components/EditToolbar';
import { ROLE_MSG } from '../names';
import { PermissionGrid } from './PermissionGrid';

const nameRules = [required(), maxLength(32), regex(/^[\p{L}\p{N}_.-]+$/u, 'ra.validation.regex')];

function EditTitle() {
  const record = useRecordContext();
  const translate = useTranslate();
  return <>{translate(`${ROLE_MSG}.page.edit`, { name: record?.name ?? '' })}</>;
}

/** The form of a custom role; a built-in's shows what it holds, read-only (the API refuses to change one). */
function RoleInputs() {
  const record = useRecordContext();
  const translate = useTranslate();
  const builtin = !!record?.builtin;
  return (
    <>
      {builtin && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="builtin-role">
          {translate(`${ROLE_MSG}.builtinHint`)}
        </Alert>
      )}
      <TextInput source="name" validate={nameRules} disabled={builtin} autoComplete="off" />
      <PermissionGrid disabled={builtin} />
    </>
  );
}

/** Save and delete for a custom role; nothing for a built-in. */
function RoleToolbar() {
  const record = useRecordContext();
  return record?.builtin ? null : <EditToolbar />;
}

export function RoleCreate() {
  const translate = useTranslate();
  return (
    <Create title={translate(`${ROLE_MSG}.page.create`)} redirect="list">
      <SimpleForm defaultValues={{ permissions: [] }}>
        <RoleInputs />
      </SimpleForm>
    </Create>
  );
}

/** A stale version (someone else saved first) offers a reload; nothing is overwritten. */
export function RoleEdit() {
  return (
    <EditPage title={<EditTitle />} toolbar={<RoleToolbar />}>
      <RoleInputs />
    </EditPage>
  );
}
