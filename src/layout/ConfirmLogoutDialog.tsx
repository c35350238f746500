import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import { onConfirmLogout } from '../api/events';
import { relogin } from '../api/session';

/** SPEC.md §8: codes 50008/50012/50014 ask whether to log in again; several failures at once open one dialog. */
export function ConfirmLogoutDialog() {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  useEffect(() => onConfirmLogout(() => setOpen(true)), []);
  return (
    <Dialog
      open={open}
      onClose={() => setOpen(false)}
      aria-labelledby="confirm-logout-title"
      aria-describedby="confirm-logout-text"
    >
      <DialogTitle id="confirm-logout-title">{translate('http.confirmLogout.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id="confirm-logout-text">
          {translate('http.confirmLogout.content')}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => setOpen(false)}>{translate('http.confirmLogout.cancel')}</Button>
        <Button variant="contained" onClick={() => relogin()} autoFocus>
          {translate('http.confirmLogout.relogin')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
