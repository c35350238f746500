import { Box } from '@mui/material';
import {
  maxLength,
  maxValue,
  minValue,
  NumberInput,
  RadioButtonGroupInput,
  required,
  TextArrayInput,
  TextInput,
} from 'react-admin';
import { ImageInput } from '../../images/ImageInput';
import { NOVEL_MSG } from './names';
import { ColumnInput, serialChoices } from './shared';

/** The API's limits (server/modules/novel/model.ts), checked here first so the form says it at once. */
const each = (max: number) => (values: string[] | null) =>
  values?.some((v) => v.trim().length > max)
    ? { message: 'ra.validation.maxLength', args: { max } }
    : undefined;
const atMost = (n: number) => (values: string[] | null) =>
  (values?.length ?? 0) > n ? { message: 'ra.validation.maxLength', args: { max: n } } : undefined;

const row = { display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, width: '100%' };

/** Every field of a novel; shared by create and edit. */
export function NovelInputs() {
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 3,
        width: '100%',
        gridTemplateColumns: { xs: '1fr', lg: '300px minmax(0, 1fr)' },
      }}
    >
      <Box>
        <ImageInput source="cover" />
      </Box>
      <Box sx={{ minWidth: 0 }}>
        <TextInput source="title" validate={[required(), maxLength(200)]} fullWidth />
        <Box sx={row}>
          <TextInput source="author" validate={maxLength(64)} />
          <ColumnInput source="columnId" label={`${NOVEL_MSG}.fields.columnId`} />
        </Box>
        <TextArrayInput
          source="tags"
          helperText={`${NOVEL_MSG}.helper.tags`}
          validate={[each(32), atMost(20)]}
          fullWidth
        />
        <Box sx={row}>
          <RadioButtonGroupInput source="serialStatus" choices={serialChoices} />
          <NumberInput
            source="freeChapters"
            step={1}
            helperText={`${NOVEL_MSG}.helper.freeChapters`}
            validate={[minValue(0), maxValue(100_000)]}
          />
        </Box>
        <TextInput source="description" multiline minRows={4} validate={maxLength(5000)} fullWidth />
      </Box>
    </Box>
  );
}
