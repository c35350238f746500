import { Create, SimpleForm, useTranslate } from 'react-admin';
import { OPERATOR_MSG } from '../names';
import { OperatorInputs } from './OperatorInputs';

export function OperatorCreate() {
  const translate = useTranslate();
  return (
    <Create title={translate(`${OPERATOR_MSG}.page.create`)} redirect="list">
      <SimpleForm defaultValues={{ role: 'user' }}>
        <OperatorInputs create />
      </SimpleForm>
    </Create>
  );
}
