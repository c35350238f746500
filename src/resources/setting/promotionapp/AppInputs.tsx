import { Avatar, Box } from '@mui/material';
import {
  BooleanInput,
  CheckboxGroupInput,
  Create,
  maxLength,
  maxValue,
  minLength,
  minValue,
  NumberInput,
  RadioButtonGroupInput,
  regex,
  required,
  SimpleForm,
  TextInput,
  useTranslate,
} from 'react-admin';
import { EditPage } from '../../../components/EditPage';
import { ImageInput } from '../../../images/ImageInput';
import { SecureImage } from '../../../images/SecureImage';
import { APP_MSG } from '../names';
import { FormSection, usePlatformChoices } from '../shared';

export const osChoices = [
  { id: 'android', name: `${APP_MSG}.os.android` },
  { id: 'ios', name: `${APP_MSG}.os.ios` },
  { id: 'desktop', name: `${APP_MSG}.os.desktop` },
];

const httpUrl = regex(/^https?:\/\/[^\s/?#\\]+\S*$/i, `${APP_MSG}.urlFormat`);

/** The app's icon (an encrypted upload), or its first letter while it has none. */
export function AppIcon({ icon, name, size = 32 }: { icon?: string; name?: string; size?: number }) {
  if (!icon) {
    return (
      <Avatar variant="rounded" sx={{ width: size, height: size, fontSize: size / 2 }} aria-hidden>
        {(name ?? '?').slice(0, 1)}
      </Avatar>
    );
  }
  return <SecureImage src={icon} alt="" width={size} height={size} />;
}

export function AppInputs() {
  const platforms = usePlatformChoices();
  return (
    <>
      <FormSection title={`${APP_MSG}.sections.app`}>
        <TextInput source="name" validate={[required(), maxLength(64)]} fullWidth />
        <ImageInput source="icon" />
        <TextInput
          source="url"
          validate={[required(), maxLength(1024), httpUrl]}
          helperText={`${APP_MSG}.urlHelp`}
          fullWidth
        />
        <RadioButtonGroupInput source="os" choices={osChoices} validate={required()} />
      </FormSection>
      <FormSection title={`${APP_MSG}.sections.shown`}>
        <CheckboxGroupInput source="platforms" choices={platforms} validate={[required(), minLength(1)]} />
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
          <NumberInput
            source="sort"
            helperText={`${APP_MSG}.sortHelp`}
            validate={[minValue(0), maxValue(100_000)]}
            step={1}
          />
          <BooleanInput source="enabled" />
        </Box>
      </FormSection>
    </>
  );
}

export function AppCreate() {
  const translate = useTranslate();
  return (
    <Create title={translate(`${APP_MSG}.page.create`)} redirect="list">
      <SimpleForm defaultValues={{ os: 'android', platforms: [], enabled: true, icon: '' }}>
        <AppInputs />
      </SimpleForm>
    </Create>
  );
}

export function AppEdit() {
  const translate = useTranslate();
  return (
    <EditPage title={translate(`${APP_MSG}.page.editTitle`)}>
      <AppInputs />
    </EditPage>
  );
}
