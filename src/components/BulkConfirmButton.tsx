import DeleteIcon from '@mui/icons-material/Delete';
import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { Button } from '@mui/material';
import { type ReactNode, useState } from 'react';
import {
  useDataProvider,
  useListContext,
  useNotify,
  useRefresh,
  useResourceContext,
  useTranslate,
  useUnselectAll,
} from 'react-admin';
import type { ResourceDataProvider } from '../api/dataProvider';
import { ConfirmDialog } from './ConfirmDialog';

export interface BulkConfirmButtonProps {
  /** The batch action the API knows (`POST …/batch {action, ids, …body}`). */
  action: string;
  /** i18n key of the button and the dialog title. */
  label: string;
  /** i18n key of the question; gets `%{count}`. */
  confirm: string;
  /** i18n key of the success message; gets `%{count}` = how many the server changed. */
  done: string;
  color?: 'primary' | 'error' | 'warning' | 'inherit';
  icon?: ReactNode;
  /** More of the batch (a reason, a column…), asked for in the dialog: rendered there with its setter. */
  extra?: (body: Record<string, unknown>, set: (body: Record<string, unknown>) => void) => ReactNode;
  /** The confirm button stays disabled until this holds for the body (e.g. a reason is given). */
  ready?: (body: Record<string, unknown>) => boolean;
}

/**
 * A batch action on the selected rows: asks first (saying how many), then runs in one server transaction and says
 * how many changed. On a refusal the HTTP client has shown the server's message and nothing changed.
 */
export function BulkConfirmButton({
  action,
  label,
  confirm,
  done,
  color = 'primary',
  icon,
  extra,
  ready,
}: BulkConfirmButtonProps) {
  const { selectedIds } = useListContext();
  const resource = useResourceContext()!;
  const dataProvider = useDataProvider<ResourceDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const unselectAll = useUnselectAll(resource);
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [body, setBody] = useState<Record<string, unknown>>({});
  const [busy, setBusy] = useState(false);
  const close = () => {
    setOpen(false);
    setBody({});
  };
  const run = async () => {
    setBusy(true);
    try {
      const { changed } = await dataProvider.batch(resource, action, selectedIds, body);
      notify(done, { type: 'success', messageArgs: { count: changed } });
      close();
      unselectAll();
      refresh();
    } catch {
      // shown by the HTTP client; nothing changed (the batch is one transaction)
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button size="small" color={color} startIcon={icon} onClick={() => setOpen(true)}>
        {translate(label)}
      </Button>
      <ConfirmDialog
        open={open}
        title={translate(label)}
        question={translate(confirm, { count: selectedIds.length })}
        onClose={close}
        onConfirm={run}
        color={color}
        disabled={busy || (ready ? !ready(body) : false)}
        autoFocusConfirm={!extra}
      >
        {extra?.(body, setBody)}
      </ConfirmDialog>
    </>
  );
}

/**
 * The usual batch of a list with a switch: turn on, turn off (`off`: `disable` or `pause`), delete, each asked first.
 * Messages: `<msg>.action.enable|<off>|confirmEnable|confirm<Off>|confirmDelete`, and `done` after each.
 */
export function SwitchBulkButtons({
  msg,
  done,
  off = 'disable',
}: {
  msg: string;
  done: string;
  off?: 'disable' | 'pause';
}) {
  const Off = off === 'pause' ? 'Pause' : 'Disable';
  return (
    <>
      <BulkConfirmButton
        action="enable"
        label={`${msg}.action.enable`}
        confirm={`${msg}.action.confirmEnable`}
        done={done}
        icon={<PlayArrowIcon />}
      />
      <BulkConfirmButton
        action={off}
        label={`${msg}.action.${off}`}
        confirm={`${msg}.action.confirm${Off}`}
        done={done}
        icon={<PauseIcon />}
        color="warning"
      />
      <BulkConfirmButton
        action="delete"
        label="ra.action.delete"
        confirm={`${msg}.action.confirmDelete`}
        done={done}
        icon={<DeleteIcon />}
        color="error"
      />
    </>
  );
}
