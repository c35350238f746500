import {
  ArrayInput,
  maxLength,
  maxValue,
  minValue,
  NumberInput,
  required,
  SimpleFormIterator,
  TextInput,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import { BASE_MSG } from '../names';

type Row = { key?: number | null; name?: string } | undefined;

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
      >
        <NumberInput
          source="key"
          label={`${BASE_MSG}.platforms.key`}
          defaultValue={nextKey(rows)}
          validate={[required(), minValue(0), maxValue(9999)]}
          step={1}
          disabled={disabled}
          sx={{ width: 120 }}
        />
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
