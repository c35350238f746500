import { TextField } from '@mui/material';
import { type KeyboardEvent, useEffect, useState } from 'react';
import {
  useNotify,
  useRecordContext,
  useRefresh,
  useResourceContext,
  useTranslate,
  useUpdate,
} from 'react-admin';
import { ApiFailure } from '../../api/http';
import { SECTION_MSG } from './names';

/**
 * The sort weight, edited in the row: saved on Enter or when leaving the field, with the row's version (a stale one
 * is refused and the list reloads, so nothing is overwritten). Escape restores the saved value.
 */
export function SortWeightInput(_: { label?: string; source?: string; sortable?: boolean }) {
  const record = useRecordContext();
  const resource = useResourceContext()!;
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [update, { isPending }] = useUpdate();
  const saved = String(record?.sortWeight ?? 0);
  const [value, setValue] = useState(saved);
  useEffect(() => setValue(saved), [saved]);
  if (!record) return null;
  const save = () => {
    const n = Number(value);
    if (value === saved) return;
    if (!Number.isInteger(n) || Math.abs(n) > 1_000_000) {
      notify('ra.validation.number', { type: 'error' });
      setValue(saved);
      return;
    }
    update(
      resource,
      { id: record.id, data: { sortWeight: n, version: record.version }, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => notify(`${SECTION_MSG}.notifications.sortSaved`, { type: 'success' }),
        onError: (err) => {
          setValue(saved);
          if (err instanceof ApiFailure && err.code === 40900) refresh();
        },
      },
    );
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
    if (e.key === 'Escape') setValue(saved);
  };
  return (
    <TextField
      size="small"
      variant="outlined"
      hiddenLabel
      type="number"
      value={value}
      disabled={isPending}
      onClick={(e) => e.stopPropagation()}
      onChange={(e) => setValue(e.target.value)}
      onBlur={save}
      onKeyDown={onKeyDown}
      sx={{ width: 88, '& input': { py: 0.75 } }}
      slotProps={{
        htmlInput: {
          'aria-label': translate(`${SECTION_MSG}.editSortWeight`, { title: record.title }),
          step: 1,
        },
      }}
    />
  );
}
