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
import { useId, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { request } from '../../../api/http';
import { BASE_MSG } from '../names';

const MSG = `${BASE_MSG}.siteSecret`;

/**
 * The site server's secret (DESIGN.md decision 11): what moves money, registers members or speaks for a member is
 * signed with it by the site's server. The API answers it once, when made; this panel shows it until the admin
 * closes it and then never again (only when it was made).
 */
export function SiteSecretPanel({
  secretUpdatedAt,
  onMade,
}: {
  secretUpdatedAt: string | null;
  onMade: (at: string) => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const titleId = useId();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<string | null>(null);

  const make = async () => {
    setBusy(true);
    try {
      const made = await request<{ secret: string; secretUpdatedAt: string }>(
        'admin/setting/site-key/secret',
        {
          method: 'POST',
          json: {},
        },
      );
      setShown(made.secret);
      onMade(made.secretUpdatedAt);
      setAsking(false);
    } catch {
      // shown by the HTTP client
    } finally {
      setBusy(false);
    }
  };

  const copy = async () => {
    if (!shown) return;
    try {
      await navigator.clipboard.writeText(shown);
      notify(`${MSG}.copied`, { type: 'info' });
    } catch {
      notify(`${BASE_MSG}.siteKey.copyFailed`, { type: 'warning' });
    }
  };

  return (
    <Box component="section" aria-labelledby={`${titleId}-h`} sx={{ mt: 2 }}>
      <Typography id={`${titleId}-h`} component="h3" variant="subtitle2" sx={{ fontWeight: 600 }}>
        {translate(`${MSG}.title`)}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate(`${MSG}.hint`)}
      </Typography>
      {shown ? (
        <Alert severity="warning" sx={{ mb: 1 }} onClose={() => setShown(null)}>
          <Box sx={{ mb: 0.5 }}>{translate(`${MSG}.once`)}</Box>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <Box
              component="code"
              data-testid="site-secret"
              sx={{
                fontFamily: 'monospace',
                wordBreak: 'break-all',
                px: 1,
                bgcolor: 'action.hover',
                borderRadius: 1,
              }}
            >
              {shown}
            </Box>
            <Tooltip title={translate(`${MSG}.copy`)}>
              <IconButton size="small" onClick={copy} aria-label={translate(`${MSG}.copy`)}>
                <ContentCopyIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          </Box>
        </Alert>
      ) : (
        <Typography variant="body2" data-testid="site-secret-state" sx={{ mb: 1 }}>
          {secretUpdatedAt
            ? translate(`${MSG}.madeAt`, { at: new Date(secretUpdatedAt).toLocaleString() })
            : translate(`${MSG}.none`)}
        </Typography>
      )}
      <Button variant="outlined" onClick={() => setAsking(true)}>
        {translate(secretUpdatedAt ? `${MSG}.rotate` : `${MSG}.create`)}
      </Button>
      <Dialog
        open={asking}
        onClose={() => setAsking(false)}
        aria-labelledby={titleId}
        maxWidth="xs"
        fullWidth
      >
        <DialogTitle id={titleId}>
          {translate(secretUpdatedAt ? `${MSG}.rotate` : `${MSG}.create`)}
        </DialogTitle>
        <DialogContent>
          <DialogContentText>
            {translate(secretUpdatedAt ? `${MSG}.confirmRotate` : `${MSG}.confirmCreate`)}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setAsking(false)}>{translate('ra.action.cancel')}</Button>
          <Button variant="contained" color="warning" onClick={make} disabled={busy} autoFocus>
            {translate('ra.action.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
