import { Alert, Button } from '@mui/material';
import { useState } from 'react';
import { useRefresh, useTranslate } from 'react-admin';
import { ApiFailure } from '../api/http';

/**
 * Optimistic locking on an edit page: a save answered 40900 (someone else saved first) shows a warning with a
 * reload button; nothing was overwritten. `onError` goes into the Edit's mutationOptions.
 */
/**
 * A stale version: 40900 without details. The API's other 40900s (a refused review transition, a duplicate, an item
 * still in use) carry `data` saying what was refused, and their message is the whole answer: reloading changes
 * nothing.
 */
export const isStaleVersion = (err: unknown) =>
  err instanceof ApiFailure && err.code === 40900 && (err.data === null || err.data === undefined);

export function useConflict() {
  const [conflict, setConflict] = useState(false);
  const onError = (err: unknown) => setConflict(err instanceof ApiFailure && err.code === 40900);
  return { conflict, setConflict, onError };
}

export function ConflictAlert({ show, onReload }: { show: boolean; onReload: () => void }) {
  const translate = useTranslate();
  const refresh = useRefresh();
  if (!show) return null;
  return (
    <Alert
      severity="warning"
      sx={{ m: 2, mb: 0 }}
      action={
        <Button
          color="inherit"
          onClick={() => {
            onReload();
            refresh();
          }}
        >
          {translate('shell.reload')}
        </Button>
      }
    >
      {translate('shell.conflict')}
    </Alert>
  );
}
