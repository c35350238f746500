import DeleteIcon from '@mui/icons-material/Delete';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useId, useState } from 'react';
import {
  useDataProvider,
  useNotify,
  useRecordContext,
  useRedirect,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import { ApiFailure, request } from '../../api/http';
import { ACTRESS_API, ACTRESS_MSG } from './names';

/**
 * Deletes this actress (admins). The dialog reads her current number of linked movies first and names it; with
 * movies, the delete is sent with `force` and the server unlinks them in the same transaction. If movies were
 * linked meanwhile (the server refuses with the new number), the dialog asks again with that number.
 */
export function DeleteActressButton() {
  const record = useRecordContext();
  const resource = useResourceContext()!;
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const redirect = useRedirect();
  const translate = useTranslate();
  const titleId = useId();
  const [count, setCount] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  if (!record) return null;
  const open = async () => {
    setCount(record.movieCount ?? 0);
    try {
      const { data } = await dataProvider.getOne(resource, { id: record.id });
      setCount(data.movieCount ?? 0);
    } catch {
      // keep the count the page shows
    }
  };
  const run = async () => {
    setBusy(true);
    try {
      await request(`${ACTRESS_API}/${encodeURIComponent(String(record.id))}`, {
        method: 'DELETE',
        query: count ? { force: true } : undefined,
        quiet: true,
      });
      notify(`${ACTRESS_MSG}.notifications.deleted`, { type: 'success' });
      setCount(null);
      redirect('list', resource);
    } catch (err) {
      if (err instanceof ApiFailure && err.code === 40900 && (err.data as any)?.movieCount)
        setCount((err.data as any).movieCount);
      else if (err instanceof ApiFailure) notify(err.msg, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const name = record.name ?? '';
  return (
    <>
      <Button color="error" startIcon={<DeleteIcon />} onClick={open}>
        {translate(`${ACTRESS_MSG}.action.deleteOne`)}
      </Button>
      <Dialog
        open={count !== null}
        onClose={() => setCount(null)}
        aria-labelledby={titleId}
        fullWidth
        maxWidth="xs"
      >
        <DialogTitle id={titleId}>{translate(`${ACTRESS_MSG}.action.deleteOne`)}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {count
              ? translate(`${ACTRESS_MSG}.action.confirmDeleteOneLinked`, { name, count })
              : translate(`${ACTRESS_MSG}.action.confirmDeleteOne`, { name })}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setCount(null)}>{translate('ra.action.cancel')}</Button>
          <Button variant="contained" color="error" onClick={run} disabled={busy} autoFocus>
            {translate('ra.action.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
