import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
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
  useTranslate,
} from 'react-admin';
import { useFormContext, useFormState } from 'react-hook-form';
import { actionsFrom, REVIEW_STATUSES, type ReviewAction } from '../../../common/review';
import type { ResourceDataProvider } from '../../api/dataProvider';
import { ApiFailure } from '../../api/http';
import { Permission } from '../../auth/permission';
import { ReasonField } from '../../components/ReasonField';
import { NOVEL_RESOURCE, type NovelStatus, R } from './shared';

type Action = ReviewAction;
/** The transitions the server allows from each status (common/review.ts). */
export const ACTIONS = Object.fromEntries(REVIEW_STATUSES.map((s) => [s, actionsFrom(s)])) as Record<
  NovelStatus,
  Action[]
>;

/**
 * Save, the transitions the novel's status allows, and delete (admins). A transition first saves what the operator
 * changed, then runs with the saved version, so nothing typed is lost and nothing stale overwrites.
 */
export function NovelToolbar({ onConflict }: { onConflict: () => void }) {
  const record = useRecordContext();
  const dataProvider = useDataProvider<ResourceDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const redirect = useRedirect();
  const translate = useTranslate();
  const form = useFormContext();
  const { isDirty } = useFormState();
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
        const { data } = await dataProvider.update(NOVEL_RESOURCE, {
          id: record.id,
          data: form.getValues(),
          previousData: record,
        });
        version = data.version;
      }
      await dataProvider.action(
        NOVEL_RESOURCE,
        record.id,
        action,
        action === 'reject' ? { reason, version } : { version },
      );
      notify(`${R}.notifications.${action}`, { type: 'success' });
      setAsking(null);
      if (action === 'approve' || action === 'reject') redirect('list', NOVEL_RESOURCE);
      else refresh();
    } catch (err) {
      // A stale version (no details) offers a reload; a refused transition was explained by the toast.
      if (err instanceof ApiFailure && err.code === 40900 && !err.data) onConflict();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Toolbar sx={{ gap: 1, flexWrap: 'wrap' }}>
      <SaveButton />
      {(ACTIONS[record.status as NovelStatus] ?? []).map((action) => (
        <Button
          key={action}
          variant="outlined"
          color={action === 'reject' || action === 'offline' ? 'warning' : 'primary'}
          disabled={busy}
          onClick={() => setAsking(action)}
        >
          {translate(`${R}.action.${action}`)}
        </Button>
      ))}
      <span style={{ flex: 1 }} />
      <Permission roles={['admin']}>
        <DeleteButton mutationMode="pessimistic" redirect="list" />
      </Permission>
      <Dialog
        open={asking !== null}
        onClose={() => setAsking(null)}
        aria-labelledby={titleId}
        fullWidth
        maxWidth="xs"
      >
        <DialogTitle id={titleId}>{asking && translate(`${R}.action.${asking}`)}</DialogTitle>
        <DialogContent>
          {asking === 'reject' ? (
            <ReasonField prefix={`${R}.action`} value={reason} onChange={setReason} />
          ) : (
            <DialogContentText>
              {asking && translate(`${R}.action.confirmOne.${asking}`, { title: record.title })}
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
