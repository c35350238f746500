import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useState } from 'react';
import {
  useDataProvider,
  useListContext,
  useNotify,
  useRefresh,
  useResourceContext,
  useTranslate,
  useUnselectAll,
} from 'react-admin';
import type { ResourceDataProvider } from '../../../api/dataProvider';

type Action = 'enable' | 'disable' | 'delete';
const confirmKey: Record<Action, string> = {
  enable: 'confirmEnable',
  disable: 'confirmDisable',
  delete: 'confirmDelete',
};

/** Batch enable, disable or delete: confirmed first, done in one transaction on the server (all or nothing). */
function BulkButton({ action }: { action: Action }) {
  const { selectedIds } = useListContext();
  const resource = useResourceContext()!;
  const dataProvider = useDataProvider<ResourceDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const unselectAll = useUnselectAll(resource);
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const label = translate(
    action === 'delete' ? 'ra.action.delete' : `resources.setting/operators.action.${action}`,
  );
  const run = async () => {
    setOpen(false);
    try {
      const { changed } = (await dataProvider.batch(resource, action, selectedIds)) as { changed: number };
      notify('resources.setting/operators.notifications.batchDone', {
        type: 'success',
        messageArgs: { count: changed },
      });
      unselectAll();
      refresh();
    } catch {
      // the HTTP client has shown the server's message; nothing changed
    }
  };
  return (
    <>
      <Button size="small" color={action === 'enable' ? 'primary' : 'error'} onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby={`bulk-${action}-title`}>
        <DialogTitle id={`bulk-${action}-title`}>{label}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {translate(`resources.setting/operators.action.${confirmKey[action]}`, {
              count: selectedIds.length,
            })}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{translate('ra.action.cancel')}</Button>
          <Button
            variant="contained"
            color={action === 'enable' ? 'primary' : 'error'}
            onClick={run}
            autoFocus
          >
            {translate('ra.action.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

export const OperatorBulkActions = () => (
  <>
    <BulkButton action="enable" />
    <BulkButton action="disable" />
    <BulkButton action="delete" />
  </>
);
