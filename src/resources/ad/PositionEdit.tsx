import { Box } from '@mui/material';
import {
  BooleanInput,
  Create,
  maxLength,
  maxValue,
  minValue,
  NumberInput,
  RadioButtonGroupInput,
  ReferenceInput,
  regex,
  required,
  SelectInput,
  SimpleForm,
  TextInput,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { useParams } from 'react-router-dom';
import { EditPage } from '../../components/EditPage';
import { FormSection } from '../setting/shared';
import { AD_RESOURCE, POSITION_MSG, positionEditPath } from './names';
import { deviceChoices, rotationChoices, typeChoices } from './shared';

const f = (name: string) => `${POSITION_MSG}.fields.${name}`;

/** The fallback is one of the position's own materials: only those are offered. */
function FallbackInput() {
  const record = useRecordContext();
  if (!record?.id) return null;
  return (
    <ReferenceInput
      source="fallbackAdId"
      reference={AD_RESOURCE}
      filter={{ positionId: record.id }}
      perPage={100}
    >
      <SelectInput
        label={f('fallbackAdId')}
        optionText="title"
        emptyText={`${POSITION_MSG}.noFallback`}
        helperText={`${POSITION_MSG}.help.fallback`}
      />
    </ReferenceInput>
  );
}

function Inputs() {
  return (
    <FormSection title={`${POSITION_MSG}.sections.main`}>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <TextInput source="name" label={f('name')} validate={[required(), maxLength(64)]} />
        <TextInput
          source="key"
          label={f('key')}
          validate={[required(), maxLength(64), regex(/^[a-z0-9][a-z0-9_-]*$/, `${POSITION_MSG}.help.key`)]}
          helperText={`${POSITION_MSG}.help.key`}
        />
      </Box>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <NumberInput
          source="width"
          label={f('width')}
          min={0}
          max={10000}
          validate={[minValue(0), maxValue(10000)]}
        />
        <NumberInput
          source="height"
          label={f('height')}
          min={0}
          max={10000}
          validate={[minValue(0), maxValue(10000)]}
        />
        <SelectInput source="type" label={f('type')} choices={typeChoices} validate={required()} />
        <SelectInput source="device" label={f('device')} choices={deviceChoices} validate={required()} />
      </Box>
      <RadioButtonGroupInput
        source="rotation"
        label={f('rotation')}
        choices={rotationChoices}
        validate={required()}
      />
      <FallbackInput />
      <BooleanInput source="enabled" label={f('enabled')} />
    </FormSection>
  );
}

function EditTitle() {
  const record = useRecordContext();
  const translate = useTranslate();
  return <>{translate(`${POSITION_MSG}.page.edit`, { name: record?.name ?? '' })}</>;
}

/** `/ad/adplaceedit/:id?` (SPEC.md §2): a position with an id, a new one without. */
export function PositionEdit() {
  const { id } = useParams();
  const translate = useTranslate();
  return id ? (
    <EditPage key={id} id={id} title={<EditTitle />}>
      <Inputs />
    </EditPage>
  ) : (
    <Create
      title={translate(`${POSITION_MSG}.page.create`)}
      redirect={(_r, newId) => positionEditPath(newId)}
      actions={false}
    >
      <SimpleForm
        defaultValues={{
          width: 0,
          height: 0,
          type: 'image',
          device: 'all',
          rotation: 'weighted',
          enabled: true,
        }}
      >
        <Inputs />
      </SimpleForm>
    </Create>
  );
}
