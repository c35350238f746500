import {
  ArrayInput,
  maxLength,
  maxValue,
  minValue,
  NumberInput,
  required,
  SimpleFormIterator,
  TextInput,
  useSourceContext,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import { BASE_MSG } from '../names';

/** `saved`: the row came from the stored settings (its key is fixed: content refers to it). */
type Row = { key?: number | null; name?: string; saved?: boolean } | undefined;

/** Keys must be unique within the list (the API refuses duplicates too). */
export function uniqueKeys(rows: Row[] | undefined) {
  const keys = (rows ?? []).map((r) => r?.key).filter((k): k is number => typeof k === 'number');
  return new Set(keys).size === keys.length ? undefined : `${BASE_MSG}.platforms.duplicate`;
}

/** The key a new platform gets: one more than the largest so far (the operator may change it). */
export function nextKey(rows: Row[] | undefined) {
  const keys = (rows ?? []).map((r) => r?.key).filter((k): k is number => typeof k === 'number');
  return keys.length ? Math.min(9999, Math.max(...keys) + 1) : 1;
}

/** A platform's key: typed when the row is added, read-only once saved (content and the site refer to it). */
function KeyInput({
  source,
  disabled,
  defaultValue,
}: {
  /** Read by SimpleFormIterator (with defaultValue) to fill a new row. */
  source: string;
  disabled: boolean;
  defaultValue: number;
}) {
  const saved = useWatch({ name: useSourceContext().getSource('saved') }) === true;
  return (
    <NumberInput
      source={source}
      label={`${BASE_MSG}.platforms.key`}
      defaultValue={defaultValue}
      validate={[required(), minValue(0), maxValue(9999)]}
      step={1}
      disabled={disabled}
      readOnly={saved}
      sx={{ width: 120 }}
    />
  );
}

/**
 * The content platforms (SPEC.md §3: {key, name}): add, rename, reorder (up/down), remove. Removing one that
 * content still uses is asked about when saving (BaseSettings).
 */
export function PlatformsInput({ disabled }: { disabled: boolean }) {
  const rows = useWatch({ name: 'platforms' }) as Row[] | undefined;
  return (
    <ArrayInput source="platforms" label={false} validate={uniqueKeys}>
      <SimpleFormIterator
        inline
        disableAdd={disabled}
        disableRemove={disabled}
        disableReordering={disabled}
        disableClear
        // react-admin shows move and remove only on hover: keyboard and touch users never find them
        sx={{ '& .RaSimpleFormIterator-action': { visibility: 'visible' } }}
      >
        <KeyInput source="key" disabled={disabled} defaultValue={nextKey(rows)} />
        <TextInput
          source="name"
          label={`${BASE_MSG}.platforms.name`}
          validate={[required(), maxLength(32)]}
          disabled={disabled}
          sx={{ minWidth: 220 }}
        />
      </SimpleFormIterator>
    </ArrayInput>
  );
}
