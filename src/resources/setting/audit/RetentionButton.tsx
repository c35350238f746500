import ScheduleIcon from '@mui/icons-material/Schedule';
import {
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Button as MuiButton,
  TextField,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, useNotify, useTranslate } from 'react-admin';
import { request } from '../../../api/http';
import { AUDIT_API, AUDIT_MSG } from '../names';

interface Retention {
  retentionDays: number;
  version: number;
}

/** The bounds the API holds (server/modules/audit/routes.ts). */
const MIN_DAYS = 7;
const MAX_DAYS = 3650;

/**
 * How many days the log keeps entries: shown on the toolbar, changed in a dialog (the Node server removes older
 * entries on its own, within the hour).
 */
export function RetentionButton() {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const key = [AUDIT_API, 'settings'];
  const settings = useQuery({ queryKey: key, queryFn: () => request<Retention>(`${AUDIT_API}/settings`) });
  const [open, setOpen] = useState(false);
  const [days, setDays] = useState('');
  const [busy, setBusy] = useState(false);
  const value = Number(days);
  const invalid = !/^\d+$/.test(days) || value < MIN_DAYS || value > MAX_DAYS;
  const t = (k: string, args?: Record<string, unknown>) => translate(`${AUDIT_MSG}.retention.${k}`, args);

  const save = async () => {
    if (!settings.data || invalid) return;
    setBusy(true);
    try {
      const saved = await request<Retention>(`${AUDIT_API}/settings`, {
        method: 'PUT',
        json: { retentionDays: value, version: settings.data.version },
      });
      queryClient.setQueryData(key, saved);
      notify(`${AUDIT_MSG}.retention.saved`, { type: 'success', messageArgs: { days: saved.retentionDays } });
      setOpen(false);
    } catch {
      // the HTTP client has shown the server's message (a stale version: reload and try again)
      queryClient.invalidateQueries({ queryKey: key });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        label={settings.data ? t('button', { days: settings.data.retentionDays }) : t('title')}
        onClick={() => {
          setDays(String(settings.data?.retentionDays ?? ''));
          setOpen(true);
        }}
        disabled={!settings.data}
      >
        <ScheduleIcon />
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="audit-retention-title">
        <DialogTitle id="audit-retention-title">{t('title')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('hint', { min: MIN_DAYS, max: MAX_DAYS })}</DialogContentText>
          <TextField
            autoFocus
            fullWidth
            type="number"
            label={t('days')}
            value={days}
            onChange={(e) => setDays(e.target.value)}
            error={days !== '' && invalid}
            helperText={days !== '' && invalid ? t('range', { min: MIN_DAYS, max: MAX_DAYS }) : ' '}
            slotProps={{ htmlInput: { min: MIN_DAYS, max: MAX_DAYS } }}
          />
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setOpen(false)}>{translate('ra.action.cancel')}</MuiButton>
          <MuiButton onClick={save} disabled={busy || invalid} variant="contained">
            {translate('ra.action.save')}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}
