import { PasswordInput, required, SelectInput, TextInput } from 'react-admin';
import { ImageInput } from '../../../images/ImageInput';

export const roleChoices = [
  { id: 'admin', name: 'shell.user.roles.admin' },
  { id: 'user', name: 'shell.user.roles.user' },
];

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
      <SelectInput source="role" choices={roleChoices} validate={required()} />
    </>
  );
}
