import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
} from '@mui/material';
import { useId, useState } from 'react';
import {
  DeleteButton,
  SaveButton,
  Toolbar,
  useDataProvider,
  useNotify,
  useRecordContext,
  useRedirect,
  useRefresh,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import { useFormContext, useFormState } from 'react-hook-form';
import { actionsFrom, REVIEW_STATUSES, type ReviewAction } from '../../../common/review';
import type { ResourceDataProvider } from '../../api/dataProvider';
import { ApiFailure } from '../../api/http';
import { Permission } from '../../auth/permission';
import { M, type MovieStatus } from './shared';

type Action = ReviewAction;
/** The transitions the server allows from each status (common/review.ts). */
const ACTIONS = Object.fromEntries(REVIEW_STATUSES.map((s) => [s, actionsFrom(s)])) as Record<
  MovieStatus,
  Action[]
>;
const DONE: Record<Action, string> = {
  approve: 'approved',
  reject: 'rejected',
  offline: 'offline',
  online: 'online',
};

/**
 * Save, the transitions the item's status allows, and delete (admins). A transition first saves what the operator
 * changed in the form, then runs with the saved version, so nothing typed is lost and nothing stale overwrites.
 */
export function MovieToolbar({ onConflict }: { onConflict: () => void }) {
  const record = useRecordContext();
  const resource = useResourceContext()!;
  const dataProvider = useDataProvider<ResourceDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const redirect = useRedirect();
  const translate = useTranslate();
  const form = useFormContext();
  const { isDirty } = useFormState(); // subscribed here: read in a handler only, formState would stay stale
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState<Action | null>(null);
  const [reason, setReason] = useState('');
  const titleId = useId();
  if (!record) return null;

  const run = async (action: Action) => {
    if (!(await form.trigger())) return;
    setBusy(true);
    try {
      let version = record.version;
      if (isDirty) {
        const { data } = await dataProvider.update(resource, {
          id: record.id,
          data: form.getValues(),
          previousData: record,
        });
        version = data.version;
      }
      await dataProvider.action(
        resource,
        record.id,
        action,
        action === 'reject' ? { reason, version } : { version },
      );
      notify(`${M}.notifications.${DONE[action]}`, { type: 'success' });
      setAsking(null);
      if (action === 'approve' || action === 'reject') redirect('list', resource);
      else refresh();
    } catch (err) {
      if (err instanceof ApiFailure && err.code === 40900) onConflict();
    } finally {
      setBusy(false);
    }
  };

  const actions = ACTIONS[record.status as MovieStatus] ?? [];
  return (
    <Toolbar sx={{ gap: 1, flexWrap: 'wrap' }}>
      <SaveButton label={`${M}.action.save`} />
      {actions.map((action) => (
        <Button
          key={action}
          variant="outlined"
          color={action === 'reject' || action === 'offline' ? 'warning' : 'primary'}
          disabled={busy}
          onClick={() => setAsking(action)}
        >
          {translate(`${M}.action.${action}`)}
        </Button>
      ))}
      <span style={{ flex: 1 }} />
      <Permission roles={['admin']}>
        <DeleteButton mutationMode="pessimistic" />
      </Permission>
      <Dialog
        open={asking !== null}
        onClose={() => setAsking(null)}
        aria-labelledby={titleId}
        fullWidth
        maxWidth="xs"
      >
        <DialogTitle id={titleId}>{asking && translate(`${M}.action.${asking}`)}</DialogTitle>
        <DialogContent>
          {asking === 'reject' ? (
            <TextField
              autoFocus
              fullWidth
              required
              multiline
              minRows={2}
              margin="normal"
              label={translate(`${M}.action.reason`)}
              helperText={translate(`${M}.action.reasonHint`)}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              slotProps={{ htmlInput: { maxLength: 500 } }}
            />
          ) : (
            <DialogContentText>
              {translate(
                asking === 'approve'
                  ? `${M}.action.confirmOne`
                  : `${M}.action.confirm${asking === 'online' ? 'Online' : 'Offline'}`,
                { count: 1 },
              )}
            </DialogContentText>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setAsking(null)}>{translate('ra.action.cancel')}</Button>
          <Button
            variant="contained"
            disabled={busy || (asking === 'reject' && !reason.trim())}
            onClick={() => asking && run(asking)}
            autoFocus={asking !== 'reject'}
          >
            {translate('ra.action.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </Toolbar>
  );
}
