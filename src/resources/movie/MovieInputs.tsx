import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import {
  BooleanInput,
  CheckboxGroupInput,
  maxLength,
  maxValue,
  minValue,
  NumberInput,
  required,
  TextInput,
  useTranslate,
} from 'react-admin';
import { isFutureDay } from '../../../common/dates';
import { MAX_MOVIE_DESCRIPTION } from '../../../common/movie';
import { DayInput } from '../../components/dates';
import { EpisodeLinesInput } from './EpisodeLinesInput';
import { SECTION_MSG } from './names';
import { ColumnInput, TagsInput, usePlatformChoices } from './shared';

function Section({ title, children }: { title: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mb: 2, width: '100%', minWidth: 0 }}>
      <Typography component="legend" variant="subtitle1" sx={{ mb: 1, fontWeight: 600 }}>
        {translate(`${SECTION_MSG}.section.${title}`)}
      </Typography>
      {children}
    </Box>
  );
}

const int = (min: number, max: number) => [minValue(min), maxValue(max)];
/** Not after today (common/dates.ts, as the API checks it). */
const released = (value: string | null) =>
  isFutureDay(value, new Date()) ? `${SECTION_MSG}.releaseFuture` : undefined;

/** The API's bound (common/movie.ts): a description the MacCMS move wrote can be saved again as it is. */
export const validateDescription = maxLength(MAX_MOVIE_DESCRIPTION);

/** Every editable field of a movie (the API checks them again: columns, tags, sources and platforms must exist). */
export function MovieInputs({ cover, actresses }: { cover: ReactNode; actresses?: ReactNode }) {
  const platforms = usePlatformChoices();
  return (
    <>
      <Section title="basic">
        <TextInput source="title" validate={[required(), maxLength(200)]} fullWidth />
        <TextInput source="description" multiline minRows={3} validate={validateDescription} fullWidth />
        <ColumnInput source="columnId" fullWidth />
        <TagsInput source="tagIds" fullWidth />
        {actresses}
      </Section>
      <Section title="media">
        {cover}
        <EpisodeLinesInput />
      </Section>
      <Section title="publish">
        <CheckboxGroupInput source="platforms" choices={platforms} />
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
          <NumberInput
            source="duration"
            label={`${SECTION_MSG}.durationSeconds`}
            validate={int(0, 864_000)}
            step={1}
          />
          <DayInput source="releaseDate" validate={released} />
          <NumberInput source="sortWeight" validate={int(-1_000_000, 1_000_000)} step={1} />
        </Box>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
          <BooleanInput source="free" />
          <BooleanInput source="recommended" />
        </Box>
      </Section>
    </>
  );
}
