import { Alert, AlertTitle, Button, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { useLocale, useNotify, useTranslate } from 'react-admin';
import { request } from '../../../api/http';
import { STATISTICS_MSG } from '../names';

export interface StuckDay {
  day: string;
  error: string;
  failedAt: string;
  attempts: number;
}

/**
 * The statistics days whose rollup fails in a way retrying on its own will not fix (issue #48): the rollup goes on
 * with the other days and tries these only now and then. Shown to admins with the error as the server raised it;
 * "Retry now" runs the rollup at once (after the cause was fixed). Nothing is shown while no day is stuck.
 */
export function StuckDays() {
  const translate = useTranslate();
  const notify = useNotify();
  const locale = useLocale();
  const [list, setList] = useState<StuckDay[]>([]);
  const [busy, setBusy] = useState(false);

  const reload = useCallback(async () => {
    try {
      setList((await request<{ list: StuckDay[] }>('admin/stats/stuck')).list);
    } catch {
      // shown by the HTTP client
    }
  }, []);
  useEffect(() => {
    reload();
  }, [reload]);

  const retry = async () => {
    setBusy(true);
    try {
      await request('admin/stats/rollup', { method: 'POST' });
      notify(`${STATISTICS_MSG}.stuck.recovered`, { type: 'success' });
    } catch {
      // still stuck: the HTTP client shows the server's message
    } finally {
      setBusy(false);
      reload();
    }
  };

  if (!list.length) return null;
  const when = (iso: string) => new Date(iso).toLocaleString(locale);
  return (
    <Alert
      severity="error"
      sx={{ m: 2, mb: 0, '& .MuiAlert-message': { width: '100%', overflow: 'auto' } }}
      action={
        <Button color="inherit" size="small" onClick={retry} disabled={busy} sx={{ whiteSpace: 'nowrap' }}>
          {translate(`${STATISTICS_MSG}.stuck.retry`)}
        </Button>
      }
    >
      <AlertTitle>{translate(`${STATISTICS_MSG}.stuck.title`, { smart_count: list.length })}</AlertTitle>
      {translate(`${STATISTICS_MSG}.stuck.hint`)}
      <Table size="small" sx={{ mt: 1 }}>
        <TableHead>
          <TableRow>
            <TableCell>{translate(`${STATISTICS_MSG}.stuck.day`)}</TableCell>
            <TableCell>{translate(`${STATISTICS_MSG}.stuck.error`)}</TableCell>
            <TableCell>{translate(`${STATISTICS_MSG}.stuck.failedAt`)}</TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              {translate(`${STATISTICS_MSG}.stuck.attempts`)}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {list.map((d) => (
            <TableRow key={d.day}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{d.day}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-word' }}>
                {d.error}
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(d.failedAt)}</TableCell>
              <TableCell align="right">{d.attempts}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Alert>
  );
}
