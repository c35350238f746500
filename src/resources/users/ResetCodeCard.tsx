import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import KeyIcon from '@mui/icons-material/Key';
import {
  Box,
  Button,
  Card,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Tooltip,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import { request } from '../../api/http';
import { READ_ONLY_REASON, useReadOnly } from '../../auth/permission';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useOperatorName } from '../../components/OperatorName';
import { resetCodeApi, USER_MSG } from './names';

const r = `${USER_MSG}.detail.reset`;

interface CodeState {
  issuedAt: string;
  issuedBy: number | null;
  expiresAt: string;
  usedAt: string | null;
  state: 'unused' | 'used' | 'expired' | 'spent';
}

/** The latest code, never its text: when and by whom it was issued, and whether it was used (admins). */
function LatestCode({ code }: { code: CodeState }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const by = useOperatorName(code.issuedBy);
  const at = (iso: string | null) => (iso ? new Date(iso).toLocaleString(locale, { hourCycle: 'h23' }) : '');
  return (
    <Typography variant="body2" sx={{ mt: 1.5 }} data-testid="latest-code">
      {translate(`${r}.latest`, { at: at(code.issuedAt), by })}
      {' · '}
      {translate(`${r}.state.${code.state}`, {
        at: at(code.state === 'used' ? code.usedAt : code.expiresAt),
      })}
    </Typography>
  );
}

/**
 * A member's password, as staff may touch it: an admin issues a one-time code and passes it on; the member sets a new
 * password with it on the site. The code is shown in a dialog this once (the API keeps only its hash), and is gone
 * from the page when the dialog closes; below the action, admins see whether the latest code was used. Others see the
 * action disabled, saying why.
 */
export function ResetCodeCard({ userId, account }: { userId: number; account: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const readOnly = useReadOnly();
  const titleId = useId();
  const [ask, setAsk] = useState(false);
  const [busy, setBusy] = useState(false);
  const [issued, setIssued] = useState<{ code: string; expiresAt: string } | null>(null);
  const queryClient = useQueryClient();
  const latestKey = ['member-reset-code', userId];
  const { data: latest } = useQuery({
    queryKey: latestKey,
    enabled: !readOnly,
    queryFn: () => request<CodeState | null>(resetCodeApi(userId), { quiet: true }),
  });
  const issue = async () => {
    setBusy(true);
    try {
      setIssued(await request<{ code: string; expiresAt: string }>(resetCodeApi(userId), { method: 'POST' }));
      queryClient.invalidateQueries({ queryKey: latestKey });
    } catch {
      // the HTTP client has shown the server's message
    } finally {
      setBusy(false);
      setAsk(false);
    }
  };
  const copy = async () => {
    if (!issued) return;
    try {
      await navigator.clipboard.writeText(issued.code);
      notify(`${r}.copied`, { type: 'success' });
    } catch {
      // no clipboard (an insecure page): the code stays on screen to be copied by hand
    }
  };
  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="subtitle1" component="h2" gutterBottom>
          {translate(`${r}.title`)}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {translate(`${r}.hint`)}
        </Typography>
        <Tooltip title={readOnly ? translate(READ_ONLY_REASON) : ''}>
          <span>
            <Button
              variant="outlined"
              startIcon={<KeyIcon />}
              disabled={readOnly || busy}
              onClick={() => setAsk(true)}
            >
              {translate(`${r}.issue`)}
            </Button>
          </span>
        </Tooltip>
        {latest && <LatestCode code={latest} />}
      </CardContent>
      <ConfirmDialog
        open={ask}
        title={translate(`${r}.issue`)}
        question={translate(`${r}.question`, { account })}
        onClose={() => setAsk(false)}
        onConfirm={issue}
        disabled={busy}
      />
      <Dialog open={issued !== null} onClose={() => setIssued(null)} aria-labelledby={titleId}>
        <DialogTitle id={titleId}>{translate(`${r}.shownTitle`, { account })}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {issued &&
              translate(`${r}.shownOnce`, {
                at: new Date(issued.expiresAt).toLocaleString(locale, { hourCycle: 'h23' }),
              })}
          </DialogContentText>
          <Box
            data-testid="reset-code"
            sx={{
              mt: 2,
              py: 1.5,
              textAlign: 'center',
              fontFamily: 'monospace',
              fontSize: 28,
              letterSpacing: 2,
              bgcolor: 'action.hover',
              borderRadius: 1,
              userSelect: 'all',
            }}
          >
            {issued?.code}
          </Box>
        </DialogContent>
        <DialogActions>
          <Button startIcon={<ContentCopyIcon />} onClick={copy}>
            {translate(`${r}.copy`)}
          </Button>
          <Button variant="contained" onClick={() => setIssued(null)}>
            {translate(`${r}.done`)}
          </Button>
        </DialogActions>
      </Dialog>
    </Card>
  );
}
