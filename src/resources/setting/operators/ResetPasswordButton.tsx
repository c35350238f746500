import KeyIcon from '@mui/icons-material/Key';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useNotify, useRecordContext, useResourceContext, useTranslate } from 'react-admin';
import type { ResourceDataProvider } from '../../../api/dataProvider';
import { OPERATOR_MSG } from '../names';

/** Sets an operator's password; their sessions then end (50012). */
export function ResetPasswordButton() {
  const record = useRecordContext();
  const resource = useResourceContext()!;
  const dataProvider = useDataProvider<ResourceDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  if (!record) return null;
  const submit = async () => {
    setBusy(true);
    try {
      await dataProvider.action(resource, record.id, 'reset-password', { password });
      notify(`${OPERATOR_MSG}.notifications.passwordReset`, { type: 'success' });
      setOpen(false);
      setPassword('');
    } catch {
      // the HTTP client has shown the server's message
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button startIcon={<KeyIcon />} onClick={() => setOpen(true)} sx={{ mt: 1 }}>
        {translate(`${OPERATOR_MSG}.action.resetPassword`)}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="reset-password-title">
        <DialogTitle id="reset-password-title">
          {translate(`${OPERATOR_MSG}.action.resetPassword`)} · {record.account}
        </DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            type="password"
            label={translate(`${OPERATOR_MSG}.action.newPassword`)}
            helperText={translate('shell.password.weak')}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="new-password"
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{translate('ra.action.cancel')}</Button>
          <Button variant="contained" disabled={busy || !password} onClick={submit}>
            {translate('ra.action.save')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
