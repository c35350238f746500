import { Create, SimpleForm, useTranslate } from 'react-admin';
import { OperatorInputs } from './OperatorInputs';

export function OperatorCreate() {
  const translate = useTranslate();
  return (
    <Create title={translate('resources.setting/operators.page.create')} redirect="list">
      <SimpleForm defaultValues={{ role: 'user' }}>
        <OperatorInputs create />
      </SimpleForm>
    </Create>
  );
}
