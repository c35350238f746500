import { Button } from '@mui/material';
import { useState } from 'react';
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
import type { ResourceDataProvider } from '../api/dataProvider';
import { ApiFailure } from '../api/http';
import { Permission } from '../auth/permission';
import { ConfirmDialog } from './ConfirmDialog';
import { isStaleVersion } from './ConflictAlert';
import { useReportConflict } from './EditPage';
import { ReasonField } from './ReasonField';
import type { ReviewDecl } from './review';

/**
 * The toolbar of a reviewed item's edit page: save, the actions its status allows (each asked first, a reason where
 * the workflow needs one), and delete (admins). An action first saves what the operator changed, then runs with the
 * saved version, so nothing typed is lost and nothing stale overwrites. A stale version offers the page's reload; a
 * refused action (the API says why, e.g. the item's status changed) only shows that message.
 */
export function ReviewToolbar({ review }: { review: ReviewDecl }) {
  const record = useRecordContext();
  const pageResource = useResourceContext();
  const resource = review.resource ?? pageResource ?? '';
  const dataProvider = useDataProvider<ResourceDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const redirect = useRedirect();
  const translate = useTranslate();
  const reportConflict = useReportConflict();
  const form = useFormContext();
  const { isDirty } = useFormState(); // subscribed here: read in a handler only, formState would stay stale
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  if (!record) return null;
  const m = review.messages;
  const needsReason = asking !== null && review.reasonRequired.includes(asking);

  const run = async (action: string) => {
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
      const needs = review.reasonRequired.includes(action);
      await dataProvider.action(resource, record.id, action, needs ? { reason, version } : { version });
      notify(`${m}.notifications.${action}`, { type: 'success' });
      setAsking(null);
      setReason('');
      if (review.backToList.includes(action)) redirect('list', resource);
      else refresh();
    } catch (err) {
      // The HTTP client has shown the API's message. A conflict ends the question (asking again would be refused
      // again); only a stale version has something to reload. Anything else keeps it open to try again.
      if (err instanceof ApiFailure && err.code === 40900) setAsking(null);
      if (isStaleVersion(err)) reportConflict();
    } finally {
      setBusy(false);
    }
  };

  const actions = review.transitions[record.status as string] ?? [];
  return (
    <Toolbar sx={{ gap: 1, flexWrap: 'wrap' }}>
      <SaveButton />
      {actions.map((action) => (
        <Button
          key={action}
          variant="outlined"
          color={review.warn.includes(action) ? 'warning' : 'primary'}
          disabled={busy}
          onClick={() => setAsking(action)}
        >
          {translate(`${m}.action.${action}`)}
        </Button>
      ))}
      <span style={{ flex: 1 }} />
      <Permission roles={['admin']}>
        <DeleteButton mutationMode="pessimistic" redirect="list" />
      </Permission>
      <ConfirmDialog
        open={asking !== null}
        title={asking && translate(`${m}.action.${asking}`)}
        question={
          asking && !needsReason
            ? translate(`${m}.action.confirmOne.${asking}`, { title: record.title ?? '' })
            : undefined
        }
        onClose={() => setAsking(null)}
        onConfirm={() => asking && run(asking)}
        disabled={busy || (needsReason && !reason.trim())}
        autoFocusConfirm={!needsReason}
      >
        {needsReason && <ReasonField prefix={`${m}.action`} value={reason} onChange={setReason} />}
      </ConfirmDialog>
    </Toolbar>
  );
}
