import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  Tooltip,
  Typography,
} from '@mui/material';
import { useEffect, useId, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { request } from '../../../api/http';
import { BASE_MSG } from '../names';
import { SiteSecretPanel } from './SiteSecretPanel';

interface SiteKey {
  key: string | null;
  updatedAt: string | null;
  secretUpdatedAt?: string | null;
}

/**
 * The tenant's site key for the public site API (admins only: the route refuses others), and beside it the site
 * server's secret. Regenerating asks first, because the content site stops getting answers until it is given the
 * new key.
 */
export function SiteKeyPanel() {
  const translate = useTranslate();
  const notify = useNotify();
  const titleId = useId();
  const [state, setState] = useState<SiteKey | null>(null);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    request<SiteKey>('admin/setting/site-key', { quiet: true })
      .then((k) => live && setState(k))
      .catch(() => live && setState({ key: null, updatedAt: null, secretUpdatedAt: null }));
    return () => {
      live = false;
    };
  }, []);

  const regenerate = async () => {
    setBusy(true);
    try {
      setState(await request<SiteKey>('admin/setting/site-key/regenerate', { method: 'POST', json: {} }));
      notify(`${BASE_MSG}.siteKey.regenerated`, { type: 'success' });
      setAsking(false);
    } catch {
      // shown by the HTTP client
    } finally {
      setBusy(false);
    }
  };

  const copy = async () => {
    if (!state?.key) return;
    try {
      await navigator.clipboard.writeText(state.key);
      notify(`${BASE_MSG}.siteKey.copied`, { type: 'info' });
    } catch {
      notify(`${BASE_MSG}.siteKey.copyFailed`, { type: 'warning' });
    }
  };

  return (
    <Box component="section" aria-labelledby={`${titleId}-h`} sx={{ p: 2 }}>
      <Typography id={`${titleId}-h`} component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
        {translate(`${BASE_MSG}.siteKey.title`)}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate(`${BASE_MSG}.siteKey.hint`)}
      </Typography>
      {state === null ? null : state.key ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Box
            component="code"
            data-testid="site-key"
            sx={{
              fontFamily: 'monospace',
              px: 1,
              py: 0.5,
              borderRadius: 1,
              bgcolor: 'action.hover',
              wordBreak: 'break-all',
            }}
          >
            {state.key}
          </Box>
          <Tooltip title={translate(`${BASE_MSG}.siteKey.copy`)}>
            <IconButton size="small" onClick={copy} aria-label={translate(`${BASE_MSG}.siteKey.copy`)}>
              <ContentCopyIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </Box>
      ) : (
        <Alert severity="info" sx={{ mb: 1 }}>
          {translate(`${BASE_MSG}.siteKey.none`)}
        </Alert>
      )}
      <Button sx={{ mt: 1 }} variant="outlined" onClick={() => setAsking(true)} disabled={state === null}>
        {translate(state?.key ? `${BASE_MSG}.siteKey.regenerate` : `${BASE_MSG}.siteKey.create`)}
      </Button>
      {state?.key ? (
        <SiteSecretPanel
          secretUpdatedAt={state.secretUpdatedAt ?? null}
          onMade={(at) => setState((s) => (s ? { ...s, secretUpdatedAt: at } : s))}
        />
      ) : null}
      <Dialog
        open={asking}
        onClose={() => setAsking(false)}
        aria-labelledby={titleId}
        maxWidth="xs"
        fullWidth
      >
        <DialogTitle id={titleId}>{translate(`${BASE_MSG}.siteKey.regenerate`)}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {translate(
              state?.key ? `${BASE_MSG}.siteKey.confirmRegenerate` : `${BASE_MSG}.siteKey.confirmCreate`,
            )}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setAsking(false)}>{translate('ra.action.cancel')}</Button>
          <Button variant="contained" color="warning" onClick={regenerate} disabled={busy} autoFocus>
            {translate('ra.action.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
