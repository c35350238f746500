import BlockIcon from '@mui/icons-material/Block';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import { Button } from '@mui/material';
import type { MouseEvent } from 'react';
import {
  useDataProvider,
  useNotify,
  useRecordContext,
  useRefresh,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import type { ResourceDataProvider } from '../../../api/dataProvider';
import { useUser } from '../../../api/session';
import { OPERATOR_MSG } from '../names';

/** Enable or disable one operator: only the action that applies to its state is shown, never for yourself. */
export function StateButton() {
  const record = useRecordContext();
  const resource = useResourceContext()!;
  const user = useUser();
  const dataProvider = useDataProvider<ResourceDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  if (!record || String(record.id) === String(user?.uid)) return null;
  const action = record.disabled ? 'enable' : 'disable';
  const run = async (e: MouseEvent) => {
    e.stopPropagation();
    try {
      await dataProvider.action(resource, record.id, action);
      notify(`${OPERATOR_MSG}.notifications.${action}d`, { type: 'success' });
      refresh();
    } catch {
      // the HTTP client has shown the server's message
    }
  };
  return (
    <Button
      size="small"
      color={record.disabled ? 'primary' : 'error'}
      startIcon={record.disabled ? <CheckCircleIcon /> : <BlockIcon />}
      onClick={run}
    >
      {translate(`${OPERATOR_MSG}.action.${action}`)}
    </Button>
  );
}
