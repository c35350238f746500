import { Box } from '@mui/material';
import {
  AutocompleteArrayInput,
  type AutocompleteArrayInputProps,
  AutocompleteInput,
  type AutocompleteInputProps,
  ReferenceArrayInput,
  ReferenceInput,
  useRecordContext,
} from 'react-admin';
import { useSystemSettings } from '../../api/system';
import { ColumnTreeInput } from '../../components/ColumnTreeInput';
import { ReviewStatusChip, ReviewStatusField } from '../../components/ReviewStatus';
import { MOVIE_REVIEW, type MovieStatus, type MovieView, SECTION_MSG, STATUSES } from './names';

export const statusChoices = (view: MovieView) =>
  STATUSES[view].map((s) => ({ id: s, name: `${SECTION_MSG}.status.${s}` }));

export const yesNoChoices = [
  { id: 'true', name: `${SECTION_MSG}.filters.yes` },
  { id: 'false', name: `${SECTION_MSG}.filters.no` },
];

/** The platforms of the system settings (SPEC.md §3) as choices. */
export function usePlatformChoices() {
  const settings = useSystemSettings();
  return (settings?.platforms ?? []).map((p) => ({ id: Number(p.key), name: p.name }));
}

export const StatusChip = ({ status }: { status?: MovieStatus }) => (
  <ReviewStatusChip review={MOVIE_REVIEW} status={status} />
);
export const StatusField = (_: { label?: string; source?: string; sortable?: boolean }) => (
  <ReviewStatusField review={MOVIE_REVIEW} />
);

/** The names of a movie's platforms, from the system store's platform map. */
export function PlatformsField(_: { label?: string; source?: string; sortable?: boolean }) {
  const record = useRecordContext();
  const settings = useSystemSettings();
  const keys: number[] = record?.platforms ?? [];
  const names = keys.map((k) => settings?.platformMap[String(k)] ?? `#${k}`).join('、');
  // one line, cut with an ellipsis when long (the whole list in the tooltip)
  return (
    <Box
      component="span"
      title={names}
      sx={{ display: 'block', maxWidth: 100, overflow: 'hidden', textOverflow: 'ellipsis' }}
    >
      {names}
    </Box>
  );
}

/** Server-side search for the pickers (the API's `q`); the API allows page sizes 10/20/50/100. */
const byName = (q: string) => (q ? { q } : {});

/** One movie column: the column tree, indented and searchable (src/components/ColumnTreeInput). */
export function ColumnInput(props: Omit<AutocompleteInputProps, 'source'> & { source?: string }) {
  return <ColumnTreeInput columns="movie/category" {...props} />;
}

export function TagsInput(props: Omit<AutocompleteArrayInputProps, 'source'> & { source?: string }) {
  return (
    <ReferenceArrayInput
      source={props.source ?? 'tagIds'}
      reference="movie/tags"
      perPage={50}
      sort={{ field: 'name', order: 'ASC' }}
    >
      <AutocompleteArrayInput optionText="name" filterToQuery={byName} {...props} />
    </ReferenceArrayInput>
  );
}

/** One tag (filters: the API filters by a single `tagId`). */
export function TagInput(props: Omit<AutocompleteInputProps, 'source'> & { source?: string }) {
  return (
    <ReferenceInput
      source={props.source ?? 'tagId'}
      reference="movie/tags"
      perPage={50}
      sort={{ field: 'name', order: 'ASC' }}
    >
      <AutocompleteInput optionText="name" filterToQuery={byName} {...props} />
    </ReferenceInput>
  );
}
