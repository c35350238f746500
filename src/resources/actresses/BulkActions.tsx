import DeleteIcon from '@mui/icons-material/Delete';
import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useId, useState } from 'react';
import {
  useDataProvider,
  useListContext,
  useNotify,
  useRefresh,
  useResourceContext,
  useTranslate,
  useUnselectAll,
} from 'react-admin';
import type { ResourceDataProvider } from '../../api/dataProvider';
import { ApiFailure } from '../../api/http';
import { Permission } from '../../auth/permission';
import { BulkConfirmButton } from '../../components/BulkConfirmButton';
import { ACTRESS_MSG } from './names';

/**
 * Deletes the selected actresses (admins). Asked first; when they have linked movies the server refuses with
 * how many (40900), and the dialog asks again naming that number before deleting with `force` (the links go in
 * the same transaction).
 */
function BulkDeleteButton() {
  const { selectedIds } = useListContext();
  const resource = useResourceContext()!;
  const dataProvider = useDataProvider<ResourceDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const unselectAll = useUnselectAll(resource);
  const translate = useTranslate();
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const [linked, setLinked] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setOpen(false);
    setLinked(null);
  };
  const run = async () => {
    setBusy(true);
    try {
      const { changed } = await dataProvider.batch(
        resource,
        'delete',
        selectedIds,
        linked ? { force: true } : {},
      );
      notify(`${ACTRESS_MSG}.notifications.batchDone`, { type: 'success', messageArgs: { count: changed } });
      close();
      unselectAll();
      refresh();
    } catch (err) {
      const movieCount =
        (err instanceof ApiFailure && err.code === 40900 && (err.data as any)?.movieCount) || 0;
      if (movieCount) setLinked(movieCount);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button size="small" color="error" startIcon={<DeleteIcon />} onClick={() => setOpen(true)}>
        {translate('ra.action.delete')}
      </Button>
      <Dialog open={open} onClose={close} aria-labelledby={titleId} fullWidth maxWidth="xs">
        <DialogTitle id={titleId}>{translate('ra.action.delete')}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {linked
              ? translate(`${ACTRESS_MSG}.action.confirmDeleteLinked`, { movies: linked })
              : translate(`${ACTRESS_MSG}.action.confirmDelete`, { count: selectedIds.length })}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{translate('ra.action.cancel')}</Button>
          <Button variant="contained" color="error" onClick={run} disabled={busy} autoFocus>
            {translate('ra.action.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** Show or hide on the site (every operator), delete (admins): confirmed, one transaction on the server. */
export const ActressBulkActions = () => (
  <>
    <BulkConfirmButton
      action="show"
      label={`${ACTRESS_MSG}.action.show`}
      confirm={`${ACTRESS_MSG}.action.confirmShow`}
      done={`${ACTRESS_MSG}.notifications.batchDone`}
      icon={<VisibilityIcon />}
    />
    <BulkConfirmButton
      action="hide"
      label={`${ACTRESS_MSG}.action.hide`}
      confirm={`${ACTRESS_MSG}.action.confirmHide`}
      done={`${ACTRESS_MSG}.notifications.batchDone`}
      icon={<VisibilityOffIcon />}
      color="warning"
    />
    <Permission need="actresses.settings">
      <BulkDeleteButton />
    </Permission>
  </>
);
