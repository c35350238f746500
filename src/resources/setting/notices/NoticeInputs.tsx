import { Box } from '@mui/material';
import {
  BooleanInput,
  CheckboxGroupInput,
  maxLength,
  maxValue,
  minLength,
  minValue,
  NumberInput,
  RadioButtonGroupInput,
  required,
  TextInput,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import { NOTICE_MSG } from '../names';
import { FormSection, InstantInput, usePlatformChoices } from '../shared';
import { NoticePreview } from './NoticePreview';

export const typeChoices = [
  { id: 'marquee', name: `${NOTICE_MSG}.types.marquee` },
  { id: 'popup', name: `${NOTICE_MSG}.types.popup` },
];

/** The end, when there is one, is after the start (the API checks it too). */
export const endAfterStart = (end: unknown, values: Record<string, unknown>) =>
  end && values.startAt && new Date(end as string) <= new Date(values.startAt as string)
    ? `${NOTICE_MSG}.endBeforeStart`
    : undefined;

function ContentInput() {
  const type = useWatch({ name: 'type' });
  const popup = type === 'popup';
  return (
    <TextInput
      source="content"
      multiline
      minRows={popup ? 5 : 2}
      fullWidth
      validate={[required(), maxLength(popup ? 10_000 : 500)]}
      helperText={popup ? `${NOTICE_MSG}.contentHelp.popup` : `${NOTICE_MSG}.contentHelp.marquee`}
      slotProps={{ htmlInput: { spellCheck: false } }}
    />
  );
}

/** Every field of a notice, with a live preview of how it shows on the site. */
export function NoticeInputs() {
  const platforms = usePlatformChoices();
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 3,
        gridTemplateColumns: { lg: 'minmax(0, 3fr) minmax(0, 2fr)' },
        width: '100%',
      }}
    >
      <Box>
        <FormSection title={`${NOTICE_MSG}.sections.what`}>
          <RadioButtonGroupInput source="type" choices={typeChoices} validate={required()} />
          <TextInput source="title" validate={[required(), maxLength(100)]} fullWidth />
          <ContentInput />
        </FormSection>
        <FormSection title={`${NOTICE_MSG}.sections.where`}>
          <CheckboxGroupInput source="platforms" choices={platforms} validate={[required(), minLength(1)]} />
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
            <InstantInput source="startAt" validate={required()} />
            <InstantInput source="endAt" helperText={`${NOTICE_MSG}.endHelp`} validate={endAfterStart} />
          </Box>
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
            <NumberInput source="sort" validate={[minValue(-100_000), maxValue(100_000)]} step={1} />
            <BooleanInput source="enabled" />
          </Box>
        </FormSection>
      </Box>
      <NoticePreview />
    </Box>
  );
}
