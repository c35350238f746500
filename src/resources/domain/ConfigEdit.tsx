import {
  Alert,
  Autocomplete,
  Button,
  Card,
  CardContent,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { Loading, useNotify, useTranslate } from 'react-admin';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { request } from '../../api/http';
import { useAutocompleteTexts } from '../../components/autocompleteTexts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useChannels } from './ConfigList';
import { CONFIG_API, CONFIG_MSG, SECTION_MSG, STORE_API } from './names';

interface Candidate {
  id: number;
  unicode: string;
  status: string;
  version: number;
}
interface Change {
  id: number;
  unicode: string;
  field: string;
  from: string;
  to: string;
}

/** Standby domains of the store whose name starts with `q`: the candidates to take over. */
function useCandidates(q: string) {
  const [list, setList] = useState<Candidate[]>([]);
  useEffect(() => {
    let live = true;
    const t = setTimeout(() => {
      request<{ list: Candidate[] }>(STORE_API, {
        query: { status: 'standby', pageSize: 20, ...(q ? { q } : {}) },
      })
        .then((r) => live && setList(r.list))
        .catch(() => live && setList([]));
    }, 250);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [q]);
  return list;
}

/**
 * Channel domain replacement (`/domain/configEdit?channel=…`): choose the domain to replace and the standby that
 * takes over; the preview lists every binding that changes; applying is one transaction on the server.
 */
export function ConfigEdit() {
  const translate = useTranslate();
  const autocompleteTexts = useAutocompleteTexts();
  const notify = useNotify();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const channel = params.get('channel') ?? '';
  const data = useChannels('', channel || undefined);
  const [fromId, setFromId] = useState<number | ''>('');
  const [to, setTo] = useState<Candidate | null>(null);
  const [q, setQ] = useState('');
  const candidates = useCandidates(q);
  const [fromStatus, setFromStatus] = useState<'retired' | 'standby' | 'blocked'>('retired');
  const [reason, setReason] = useState('');
  const [changes, setChanges] = useState<Change[] | null>(null);
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);

  if (!channel) return <Alert severity="warning">{translate(`${CONFIG_MSG}.noChannel`)}</Alert>;
  if (!data) return <Loading />;
  const bound = data.list.find((c) => c.channel === channel)?.domains ?? [];
  const from = bound.find((d) => d.id === fromId);
  const body = (dryRun: boolean) => ({
    channel,
    fromId,
    toId: to?.id,
    fromVersion: from?.version,
    toVersion: to?.version,
    fromStatus,
    reason,
    dryRun,
  });
  const preview = async () => {
    setBusy(true);
    try {
      setChanges(
        (await request<{ changes: Change[] }>(`${CONFIG_API}/swap`, { method: 'POST', json: body(true) }))
          .changes,
      );
    } catch {
      // shown by the HTTP client
    } finally {
      setBusy(false);
    }
  };
  const apply = async () => {
    setConfirm(false);
    setBusy(true);
    try {
      await request(`${CONFIG_API}/swap`, { method: 'POST', json: body(false) });
      notify(`${CONFIG_MSG}.swapped`, { type: 'success' });
      navigate('/domain/config');
    } catch {
      setChanges(null);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card sx={{ mt: 1, maxWidth: 900 }}>
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h6" component="h2">
            {translate(`${CONFIG_MSG}.editTitle`, { channel })}
          </Typography>
          {bound.length === 0 && <Alert severity="info">{translate(`${CONFIG_MSG}.nothingBound`)}</Alert>}
          <TextField
            select
            size="small"
            label={translate(`${CONFIG_MSG}.from`)}
            value={fromId}
            onChange={(e) => {
              setFromId(Number(e.target.value));
              setChanges(null);
            }}
          >
            {bound.map((d) => (
              <MenuItem key={d.id} value={d.id}>
                {d.unicode} · {translate(`${SECTION_MSG}.status.${d.status}`)}
              </MenuItem>
            ))}
          </TextField>
          <Autocomplete
            {...autocompleteTexts}
            options={candidates}
            value={to}
            onChange={(_, v) => {
              setTo(v);
              setChanges(null);
            }}
            onInputChange={(_, v) => setQ(v)}
            filterOptions={(x) => x}
            getOptionLabel={(o) => o.unicode}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            noOptionsText={translate(`${CONFIG_MSG}.noCandidates`)}
            renderInput={(p) => <TextField {...p} size="small" label={translate(`${CONFIG_MSG}.to`)} />}
          />
          <TextField
            select
            size="small"
            label={translate(`${CONFIG_MSG}.fromStatus`)}
            value={fromStatus}
            onChange={(e) => {
              setFromStatus(e.target.value as 'retired');
              setChanges(null);
            }}
          >
            {(['retired', 'standby', 'blocked'] as const).map((s) => (
              <MenuItem key={s} value={s}>
                {translate(`${SECTION_MSG}.status.${s}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            size="small"
            label={translate(`${CONFIG_MSG}.reason`)}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 256 } }}
          />
          <Stack direction="row" spacing={2}>
            <Button variant="outlined" onClick={preview} disabled={busy || !fromId || !to}>
              {translate(`${CONFIG_MSG}.preview`)}
            </Button>
            <Button variant="contained" onClick={() => setConfirm(true)} disabled={busy || !changes}>
              {translate(`${CONFIG_MSG}.apply`)}
            </Button>
            <Button onClick={() => navigate('/domain/config')}>{translate('ra.action.cancel')}</Button>
          </Stack>
          {changes && (
            <Table size="small" aria-label={translate(`${CONFIG_MSG}.changes`)}>
              <TableHead>
                <TableRow>
                  <TableCell>{translate('resources.domain/store.fields.unicode')}</TableCell>
                  <TableCell>{translate(`${CONFIG_MSG}.field`)}</TableCell>
                  <TableCell>{translate(`${CONFIG_MSG}.before`)}</TableCell>
                  <TableCell>{translate(`${CONFIG_MSG}.after`)}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {changes.map((c) => (
                  <TableRow key={`${c.id}-${c.field}`}>
                    <TableCell>{c.unicode}</TableCell>
                    <TableCell>{translate(`resources.domain/store.fields.${c.field}`)}</TableCell>
                    <TableCell>
                      {c.field === 'status' && c.from
                        ? translate(`${SECTION_MSG}.status.${c.from}`)
                        : c.field === 'role'
                          ? translate(`${SECTION_MSG}.role.${c.from}`)
                          : c.from || '—'}
                    </TableCell>
                    <TableCell>
                      {c.field === 'status' && c.to
                        ? translate(`${SECTION_MSG}.status.${c.to}`)
                        : c.field === 'role'
                          ? translate(`${SECTION_MSG}.role.${c.to}`)
                          : c.to || '—'}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </Stack>
      </CardContent>
      <ConfirmDialog
        open={confirm}
        title={translate(`${CONFIG_MSG}.apply`)}
        question={translate(`${CONFIG_MSG}.confirm`, {
          from: from?.unicode ?? '',
          to: to?.unicode ?? '',
          channel,
        })}
        onClose={() => setConfirm(false)}
        onConfirm={apply}
      />
    </Card>
  );
}
