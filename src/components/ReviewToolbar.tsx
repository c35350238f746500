import KeyboardIcon from '@mui/icons-material/Keyboard';
import SkipNextIcon from '@mui/icons-material/SkipNext';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Table,
  TableBody,
  TableCell,
  TableRow,
  Tooltip,
} from '@mui/material';
import { useEffect, useId, useRef, useState } from 'react';
import {
  DeleteButton,
  type Identifier,
  SaveButton,
  Toolbar,
  useDataProvider,
  useNotify,
  useRecordContext,
  useRedirect,
  useRefresh,
  useResourceContext,
  useStore,
  useTranslate,
} from 'react-admin';
import { useFormContext, useFormState } from 'react-hook-form';
import type { ResourceDataProvider } from '../api/dataProvider';
import { ApiFailure } from '../api/http';
import { DeletePermission } from '../auth/permission';
import { ConfirmDialog } from './ConfirmDialog';
import { isStaleVersion } from './ConflictAlert';
import { useReportConflict } from './EditPage';
import { ReasonField } from './ReasonField';
import type { ReviewDecl } from './review';
import { isTyping, nextInQueue, REVIEW_KEYS, type ReviewQueue, type StoredListParams } from './reviewQueue';

const QUEUE_MSG = 'shell.review';

/** A key as the help and the tooltips show it. */
const keyName = (key: string) => key.toUpperCase();

function KeyHelp({ open, onClose, rows }: { open: boolean; onClose: () => void; rows: [string, string][] }) {
  const translate = useTranslate();
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>{translate(`${QUEUE_MSG}.keysTitle`)}</DialogTitle>
      <DialogContent>
        <Table size="small">
          <TableBody>
            {rows.map(([key, what]) => (
              <TableRow key={key}>
                <TableCell sx={{ width: 64 }}>
                  <Box component="kbd" sx={kbd}>
                    {key}
                  </Box>
                </TableCell>
                <TableCell>{what}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus>
          {translate('ra.action.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

const kbd = {
  fontFamily: 'monospace',
  border: 1,
  borderColor: 'divider',
  borderRadius: 1,
  px: 0.75,
  py: 0.25,
  bgcolor: 'action.hover',
};

/**
 * The toolbar of a reviewed item's edit page, kept in view at the bottom of the screen: save, the actions its
 * status allows (each asked first, a reason where the workflow needs one), delete (admins), and for working through
 * a queue the decisions that leave the list "and next" (approve, reject: then the next item of the list as the
 * operator filtered and sorted it), a skip to the next item, and keys for all of them (A, R, J; ? shows them).
 * An action first saves what the operator changed, then runs with the saved version, so nothing typed is lost and
 * nothing stale overwrites. A stale version offers the page's reload; a refused action (the API says why, e.g. the
 * item's status changed) only shows that message. `queue` is the list the page is opened from (its fixed filter
 * and default sort); without it there is no "next".
 */
export function ReviewToolbar({ review, queue }: { review: ReviewDecl; queue?: ReviewQueue }) {
  const record = useRecordContext();
  const pageResource = useResourceContext();
  const resource = review.resource ?? pageResource ?? '';
  const listResource = pageResource ?? resource;
  const dataProvider = useDataProvider<ResourceDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const redirect = useRedirect();
  const translate = useTranslate();
  const reportConflict = useReportConflict();
  const form = useFormContext();
  const { isDirty } = useFormState(); // subscribed here: read in a handler only, formState would stay stale
  const [stored] = useStore<StoredListParams | undefined>(`${listResource}.listParams`);
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState<{ action: string; next: boolean } | null>(null);
  const [reason, setReason] = useState('');
  const [help, setHelp] = useState(false);
  const keys = useRef<(e: KeyboardEvent) => void>(() => undefined);
  useEffect(() => {
    const listener = (e: KeyboardEvent) => keys.current(e);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);
  if (!record) {
    keys.current = () => undefined;
    return null;
  }
  const m = review.messages;
  const action = asking?.action ?? null;
  const needsReason = action !== null && review.reasonRequired.includes(action);
  const actions = review.transitions[record.status as string] ?? [];
  const nextActions = queue ? actions.filter((a) => review.backToList.includes(a)) : [];
  const label = (a: string) => translate(`${m}.action.${a}`);
  const andNext = (a: string) => translate(`${QUEUE_MSG}.andNext`, { action: label(a) });
  const keyOf = (a: string) => (REVIEW_KEYS as Record<string, string>)[a];

  const next = () => (queue ? nextInQueue(dataProvider, listResource, queue, stored, record.id) : undefined);
  const open = (id: Identifier | undefined) => {
    if (id !== undefined) redirect('edit', listResource, id);
    else {
      notify(`${QUEUE_MSG}.queueDone`, { type: 'info' });
      redirect('list', listResource);
    }
  };

  const run = async (a: string, thenNext: boolean) => {
    if (!(await form.trigger())) return;
    setBusy(true);
    try {
      // Asked first, while this item is still in the list: its neighbour is then the one after it.
      const nextId = thenNext ? await next() : undefined;
      let version = record.version;
      if (isDirty) {
        const { data } = await dataProvider.update(resource, {
          id: record.id,
          data: form.getValues(),
          previousData: record,
        });
        version = data.version;
      }
      const needs = review.reasonRequired.includes(a);
      await dataProvider.action(resource, record.id, a, needs ? { reason, version } : { version });
      notify(`${m}.notifications.${a}`, { type: 'success' });
      setAsking(null);
      setReason('');
      if (thenNext) open(nextId);
      else if (review.backToList.includes(a)) redirect('list', listResource);
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

  const skip = async () => {
    setBusy(true);
    try {
      open(await next());
    } finally {
      setBusy(false);
    }
  };

  keys.current = (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || busy || asking || help || isTyping(e.target)) return;
    const key = e.key.toLowerCase();
    if (e.key === REVIEW_KEYS.help) setHelp(true);
    else if (queue && key === REVIEW_KEYS.next) skip();
    else {
      const a = nextActions.find((x) => keyOf(x) === key);
      if (!a) return;
      setAsking({ action: a, next: true });
    }
    e.preventDefault();
  };

  const helpRows: [string, string][] = [
    ...nextActions.map((a): [string, string] => [keyName(keyOf(a)), andNext(a)]),
    ...(queue ? [[keyName(REVIEW_KEYS.next), translate(`${QUEUE_MSG}.skip`)] as [string, string]] : []),
    ['?', translate(`${QUEUE_MSG}.keysTitle`)],
  ];

  return (
    <Toolbar
      sx={{
        gap: 1,
        flexWrap: 'wrap',
        position: 'sticky',
        bottom: 0,
        zIndex: 2,
        bgcolor: 'background.paper',
        borderTop: 1,
        borderColor: 'divider',
      }}
    >
      <SaveButton />
      {actions.map((a) => (
        <Button
          key={a}
          variant="outlined"
          color={review.warn.includes(a) ? 'warning' : 'primary'}
          disabled={busy}
          onClick={() => setAsking({ action: a, next: false })}
        >
          {label(a)}
        </Button>
      ))}
      {nextActions.map((a) => (
        <Tooltip key={a} describeChild title={translate(`${QUEUE_MSG}.key`, { key: keyName(keyOf(a)) })}>
          <Button
            variant="contained"
            color={review.warn.includes(a) ? 'warning' : 'primary'}
            disabled={busy}
            onClick={() => setAsking({ action: a, next: true })}
            aria-keyshortcuts={keyName(keyOf(a))}
          >
            {andNext(a)}
          </Button>
        </Tooltip>
      ))}
      {queue && (
        <Tooltip describeChild title={translate(`${QUEUE_MSG}.key`, { key: keyName(REVIEW_KEYS.next) })}>
          <Button
            disabled={busy}
            onClick={skip}
            startIcon={<SkipNextIcon />}
            aria-keyshortcuts={keyName(REVIEW_KEYS.next)}
          >
            {translate(`${QUEUE_MSG}.skip`)}
          </Button>
        </Tooltip>
      )}
      <Tooltip title={translate(`${QUEUE_MSG}.keysHint`)}>
        <IconButton
          onClick={() => setHelp(true)}
          aria-label={translate(`${QUEUE_MSG}.keysTitle`)}
          aria-keyshortcuts="?"
        >
          <KeyboardIcon />
        </IconButton>
      </Tooltip>
      <span style={{ flex: 1 }} />
      <DeletePermission>
        <DeleteButton mutationMode="pessimistic" redirect="list" />
      </DeletePermission>
      <KeyHelp open={help} onClose={() => setHelp(false)} rows={helpRows} />
      <ConfirmDialog
        open={asking !== null}
        title={action && (asking?.next ? andNext(action) : label(action))}
        question={
          action && !needsReason
            ? translate(`${m}.action.confirmOne.${action}`, { title: record.title ?? '' })
            : undefined
        }
        onClose={() => setAsking(null)}
        onConfirm={() => asking && run(asking.action, asking.next)}
        disabled={busy || (needsReason && !reason.trim())}
        autoFocusConfirm={!needsReason}
      >
        {needsReason && (
          <ReasonField
            prefix={`${m}.action`}
            value={reason}
            onChange={setReason}
            onSubmit={() => asking && !busy && reason.trim() && run(asking.action, asking.next)}
          />
        )}
      </ConfirmDialog>
    </Toolbar>
  );
}
