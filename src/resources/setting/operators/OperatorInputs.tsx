import { PasswordInput, required, SelectInput, TextInput, useGetList, useTranslate } from 'react-admin';
import { ImageInput } from '../../../images/ImageInput';
import { ROLE_RESOURCE } from '../names';

/**
 * The roles an operator may be given: the built-ins in the operator's language, the custom roles by
 * their names, as /setting/roles lists them.
 */
export function useRoleChoices() {
  const translate = useTranslate();
  const { data } = useGetList(ROLE_RESOURCE, {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'id', order: 'ASC' },
  });
  const names = data?.map((r) => String(r.name)) ?? ['admin', 'user'];
  return names.map((name) => ({ id: name, name: translate(`shell.user.roles.${name}`, { _: name }) }));
}

const strong = (value: string) =>
  value && !(value.length >= 8 && /[A-Za-z]/.test(value) && /\d/.test(value))
    ? 'shell.password.weak'
    : undefined;
const account = (value: string) =>
  value && !/^[A-Za-z0-9_.-]{3,32}$/.test(value) ? 'ra.validation.regex' : undefined;

/** The inputs shared by create and edit; account and password only when creating. */
export function OperatorInputs({ create = false }: { create?: boolean }) {
  return (
    <>
      {create && <TextInput source="account" validate={[required(), account]} autoComplete="off" />}
      {create && (
        <PasswordInput source="password" validate={[required(), strong]} autoComplete="new-password" />
      )}
      <TextInput source="nickname" />
      <ImageInput source="avatar" />
      <SelectInput source="role" choices={useRoleChoices()} validate={required()} translateChoice={false} />
    </>
  );
}
