import BlockIcon from '@mui/icons-material/Block';
import UndoIcon from '@mui/icons-material/Undo';
import { Alert, Box, Button, Chip, Stack, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { request } from '../../api/http';
import { Permission } from '../../auth/permission';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CommentList } from './CommentList';
import { VIEW_MSG } from './names';

interface Member {
  id: number;
  account: string;
  status: 'active' | 'disabled' | 'banned';
  lastLoginAddress: string;
  signupAddress: string;
  version: number;
}

const USERS_MSG = 'resources.users/list';

/**
 * `/comment/view?user=…` (hidden): every comment of one member, with the ban (hide all they posted, blacklist their
 * last address) and its one-step undo, both asked first (admins).
 */
export function CommentView() {
  const [params] = useSearchParams();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const userId = Number(params.get('user'));
  const [member, setMember] = useState<Member | null>(null);
  const [ask, setAsk] = useState<'ban' | 'undo' | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(() => {
    if (userId > 0) request<Member>(`/admin/users/${userId}`).then(setMember, () => setMember(null));
  }, [userId]);
  useEffect(load, [load]);
  if (!(userId > 0)) return <Alert severity="info">{translate(`${VIEW_MSG}.noUser`)}</Alert>;
  const run = async () => {
    if (!member || !ask) return;
    setBusy(true);
    try {
      if (ask === 'ban') {
        const r = await request<{ hiddenComments: number; hiddenGuestbook: number }>(
          `/admin/users/${member.id}/ban`,
          { method: 'POST', json: { version: member.version } },
        );
        notify(`${VIEW_MSG}.banned`, {
          type: 'success',
          messageArgs: { account: member.account, comments: r.hiddenComments, guestbook: r.hiddenGuestbook },
        });
      } else {
        const r = await request<{ restored: number }>(`/admin/users/${member.id}/undo-ban`, {
          method: 'POST',
        });
        notify(`${VIEW_MSG}.undone`, { type: 'success', messageArgs: { count: r.restored } });
      }
      load();
      refresh();
    } catch {
      // the HTTP client has shown the server's message
    } finally {
      setBusy(false);
      setAsk(null);
    }
  };
  const account = member?.account ?? `#${userId}`;
  return (
    <Box>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', px: 2, pt: 2 }}>
        <Typography variant="h6" component="h2">
          {translate(`${VIEW_MSG}.title`, { account })}
        </Typography>
        {member && (
          <Chip
            size="small"
            color={
              member.status === 'banned' ? 'error' : member.status === 'disabled' ? 'default' : 'success'
            }
            label={translate(`${USERS_MSG}.status.${member.status}`)}
          />
        )}
        <Permission need="comment.settings">
          {member?.status === 'banned' ? (
            <Button startIcon={<UndoIcon />} onClick={() => setAsk('undo')} disabled={busy}>
              {translate(`${VIEW_MSG}.undo`)}
            </Button>
          ) : (
            <Button
              color="error"
              startIcon={<BlockIcon />}
              onClick={() => setAsk('ban')}
              disabled={busy || !member}
            >
              {translate(`${VIEW_MSG}.ban`)}
            </Button>
          )}
        </Permission>
      </Stack>
      <CommentList userId={userId} />
      <ConfirmDialog
        open={ask !== null}
        title={translate(`${VIEW_MSG}.${ask === 'undo' ? 'undo' : 'ban'}`)}
        question={translate(`${VIEW_MSG}.${ask === 'undo' ? 'undoQuestion' : 'banQuestion'}`, {
          account,
          address: member?.lastLoginAddress || member?.signupAddress || '-',
        })}
        onClose={() => setAsk(null)}
        onConfirm={run}
        color={ask === 'undo' ? 'primary' : 'error'}
        disabled={busy}
      />
    </Box>
  );
}
