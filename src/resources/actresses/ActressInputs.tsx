import { Box } from '@mui/material';
import {
  BooleanInput,
  maxLength,
  maxValue,
  minValue,
  NumberInput,
  required,
  SelectInput,
  TextArrayInput,
  TextInput,
} from 'react-admin';
import { MAX_ACTRESS_BIOGRAPHY } from '../../../common/actresses';
import { isDebutBeforeBirth, isFutureDay, isFutureYear } from '../../../common/dates';
import { DayInput } from '../../components/dates';
import { ImageInput } from '../../images/ImageInput';
import { ACTRESS_MSG } from './names';
import { regionChoices } from './shared';

/** The limits of the API (server/modules/actresses/model.ts), checked here first so the form says it at once. */
const notFuture = (value: string | null) =>
  isFutureDay(value, new Date()) ? `${ACTRESS_MSG}.validation.birthdayFuture` : undefined;
/** The debut year: not after this year, not before the birth (common/dates.ts, as the API checks it). */
const debutPossible = (value: number | null, values: { birthday?: string | null }) => {
  if (isFutureYear(value, new Date())) return `${ACTRESS_MSG}.validation.debutFuture`;
  if (isDebutBeforeBirth(value, values.birthday)) return `${ACTRESS_MSG}.validation.debutBeforeBirth`;
  return undefined;
};
const each = (max: number) => (values: string[] | null) =>
  values?.some((v) => v.trim().length > max)
    ? { message: 'ra.validation.maxLength', args: { max } }
    : undefined;
const atMost = (n: number) => (values: string[] | null) =>
  (values?.length ?? 0) > n ? { message: 'ra.validation.maxLength', args: { max: n } } : undefined;

const row = { display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, width: '100%' };

/**
 * Every field of a profile; shared by create and edit. Number inputs carry no native min/max: the browser's own
 * bubble (in the browser's language) would stop the save before the form says it in the interface's.
 */
export function ActressInputs() {
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 3,
        width: '100%',
        gridTemplateColumns: { xs: '1fr', lg: '360px minmax(0, 1fr)' },
      }}
    >
      <Box>
        <ImageInput source="avatar" />
      </Box>
      <Box sx={{ minWidth: 0 }}>
        <TextInput source="name" validate={[required(), maxLength(64)]} fullWidth />
        <TextArrayInput
          source="aliases"
          helperText={`${ACTRESS_MSG}.helper.aliases`}
          validate={[each(64), atMost(20)]}
          fullWidth
        />
        <Box sx={row}>
          <DayInput source="birthday" validate={notFuture} />
          <NumberInput source="height" step={1} validate={[minValue(100), maxValue(250)]} />
        </Box>
        <Box sx={row}>
          <SelectInput
            source="region"
            choices={regionChoices}
            format={(v: string | null) => v ?? ''}
            parse={(v: string) => v || null}
          />
          <NumberInput
            source="debutYear"
            step={1}
            validate={[minValue(1900), maxValue(2100), debutPossible]}
          />
        </Box>
        <TextArrayInput
          source="tags"
          helperText={`${ACTRESS_MSG}.helper.tags`}
          validate={[each(32), atMost(20)]}
          fullWidth
        />
        <Box sx={row}>
          <NumberInput
            source="sortWeight"
            step={1}
            helperText={`${ACTRESS_MSG}.helper.sortWeight`}
            validate={[minValue(-1_000_000), maxValue(1_000_000)]}
          />
          <BooleanInput source="visible" />
        </Box>
        <TextInput
          source="biography"
          multiline
          minRows={4}
          validate={maxLength(MAX_ACTRESS_BIOGRAPHY)}
          fullWidth
        />
      </Box>
    </Box>
  );
}
