import { Box, Typography } from '@mui/material';
import {
  AutocompleteArrayInput,
  type AutocompleteArrayInputProps,
  ReferenceArrayInput,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { ACTRESS_MSG, ACTRESS_RESOURCE } from './names';
import { ActressAvatar } from './shared';

/** The typed text becomes the API's `q` (name or alias, index-served); blank asks for the most prolific ones. */
const toQuery = (q: string) => (q.trim() ? { q: q.trim() } : {});
/** The chip and the input show her name. */
const nameOf = (record: { name?: string } | undefined) => record?.name ?? '';

/** One suggestion: avatar, name, aliases and how many works she has. */
function ActressOption() {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, minWidth: 0 }}>
      <ActressAvatar name={record.name} avatar={record.avatar} size={28} />
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" component="span" sx={{ display: 'block' }}>
          {record.name}
        </Typography>
        <Typography
          variant="caption"
          component="span"
          color="text.secondary"
          sx={{ display: 'block' }}
          noWrap
        >
          {[
            ...(record.aliases ?? []),
            translate(`${ACTRESS_MSG}.picker.works`, { count: record.movieCount ?? 0 }),
          ].join(' · ')}
        </Typography>
      </Box>
    </Box>
  );
}

export type ActressPickerProps = Omit<AutocompleteArrayInputProps, 'source'> & { source?: string };

/**
 * The actresses of a movie (`actressIds`) on the movie edit page: an autocomplete that searches the whole table on
 * the server as you type (name or alias, Chinese or Latin; ten suggestions, most works first), and the chosen ones
 * as chips with their names (read with one getMany, `?ids=…`). Nothing is preloaded beyond one page.
 */
export function ActressPicker({ source = 'actressIds', ...props }: ActressPickerProps) {
  return (
    <ReferenceArrayInput
      source={source}
      reference={ACTRESS_RESOURCE}
      perPage={10}
      sort={{ field: 'movieCount', order: 'DESC' }}
    >
      <AutocompleteArrayInput
        label={`${ACTRESS_MSG}.picker.label`}
        helperText={`${ACTRESS_MSG}.picker.hint`}
        optionText={<ActressOption />}
        inputText={nameOf}
        filterToQuery={toQuery}
        fullWidth
        {...props}
      />
    </ReferenceArrayInput>
  );
}
