import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { ApiFailure, request } from '../api/http';

const strong = (p: string) => p.length >= 8 && /[A-Za-z]/.test(p) && /\d/.test(p);

/** Change my own password (the old one is required); the server ends my other sessions. */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [values, setValues] = useState({ old: '', next: '', confirm: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof values) => (e: { target: { value: string } }) =>
    setValues({ ...values, [key]: e.target.value });
  const close = () => {
    setValues({ old: '', next: '', confirm: '' });
    setErrors({});
    onClose();
  };
  const submit = async () => {
    const found: Record<string, string> = {};
    if (!values.old) found.old = translate('ra.validation.required');
    if (!strong(values.next)) found.next = translate('shell.password.weak');
    if (values.confirm !== values.next) found.confirm = translate('shell.password.mismatch');
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await request('admin/password', {
        method: 'POST',
        json: { oldPassword: values.old, newPassword: values.next },
        quiet: true,
      });
      notify('shell.password.saved', { type: 'success' });
      close();
    } catch (err) {
      const fields = err instanceof ApiFailure ? err.body?.errors : undefined;
      if (fields?.oldPassword) setErrors({ old: fields.oldPassword });
      else if (fields?.newPassword) setErrors({ next: fields.newPassword });
      else notify(err instanceof ApiFailure ? err.msg : 'http.error', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={close} aria-labelledby="change-password-title" fullWidth maxWidth="xs">
      <DialogTitle id="change-password-title">{translate('shell.password.title')}</DialogTitle>
      <DialogContent>
        {(['old', 'next', 'confirm'] as const).map((key) => (
          <TextField
            key={key}
            name={key === 'old' ? 'oldPassword' : key === 'next' ? 'newPassword' : 'confirmPassword'}
            type="password"
            label={translate(`shell.password.${key === 'next' ? 'new' : key}`)}
            value={values[key]}
            onChange={set(key)}
            error={!!errors[key]}
            helperText={errors[key] ?? (key === 'next' ? translate('shell.password.weak') : ' ')}
            autoComplete={key === 'old' ? 'current-password' : 'new-password'}
          />
        ))}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{translate('shell.password.cancel')}</Button>
        <Button variant="contained" onClick={submit} disabled={busy}>
          {translate('shell.password.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
