import UploadFileIcon from '@mui/icons-material/UploadFile';
import {
  Alert,
  Box,
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
import { type ChangeEvent, useMemo, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { DOMAIN_ROLES, MAX_IMPORT_LINES, MAX_WEIGHT, parsePaste } from '../../../common/domain';
import { ApiFailure, request } from '../../api/http';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { IMPORT_MSG, SECTION_MSG, STORE_API } from './names';
import { usePools } from './shared';

interface Problem {
  line: number;
  input: string;
  error: string;
  message?: string;
  firstLine?: number;
}
interface Report {
  lines: number;
  valid: number;
  invalid: number;
  duplicates: number;
  exists: number;
  saved: number;
  problems: Problem[];
}

/** The lines the paste box reports before anything is sent (the same rules as the API, common/domain.ts). */
export function localProblems(text: string): { hosts: number; problems: Problem[] } {
  const { lines, hosts } = parsePaste(text);
  return {
    hosts: hosts.length,
    problems: lines
      .filter((l) => l.error)
      .map((l) => ({ line: l.line, input: l.input, error: l.error!, firstLine: l.firstLine })),
  };
}

const SHOWN = 200;

/** Import (`/domain/storeAdd`): paste or upload thousands of hostnames; every bad line is named before saving. */
export function StoreAdd() {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const { pools } = usePools();
  const [text, setText] = useState('');
  const [poolId, setPoolId] = useState<string>('');
  const [role, setRole] = useState<string>('landing');
  const [status, setStatus] = useState<'standby' | 'active'>('standby');
  const [weight, setWeight] = useState('1');
  const [channel, setChannel] = useState('');
  const [report, setReport] = useState<Report | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const local = useMemo(() => localProblems(text), [text]);
  const tooMany = local.hosts + local.problems.length > MAX_IMPORT_LINES;

  const message = (p: Problem) =>
    p.message ??
    (p.error === 'duplicate'
      ? translate(`${IMPORT_MSG}.duplicate`, { line: p.firstLine })
      : translate(`${SECTION_MSG}.host.${p.error}`));

  const body = (extra: Record<string, unknown>) => ({
    text,
    poolId: poolId ? Number(poolId) : null,
    role,
    status,
    weight: Number(weight),
    channel: channel.trim() || null,
    ...extra,
  });

  const check = async () => {
    setBusy(true);
    try {
      setReport(
        await request<Report>(`${STORE_API}/import`, { method: 'POST', json: body({ dryRun: true }) }),
      );
    } catch {
      // shown by the HTTP client
    } finally {
      setBusy(false);
    }
  };

  const save = async (skipBad: boolean) => {
    setBusy(true);
    setConfirm(false);
    try {
      const r = await request<Report>(`${STORE_API}/import`, { method: 'POST', json: body({ skipBad }) });
      notify(`${IMPORT_MSG}.saved`, { type: 'success', messageArgs: { count: r.saved } });
      navigate('/domain/store');
    } catch (err) {
      if (err instanceof ApiFailure && (err.data as Report | null)?.problems) setReport(err.data as Report);
    } finally {
      setBusy(false);
    }
  };

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (file) setText(await file.text());
    setReport(null);
  };

  const problems = report?.problems ?? local.problems;
  return (
    <Card sx={{ mt: 1 }}>
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            {translate(`${IMPORT_MSG}.hint`, { max: MAX_IMPORT_LINES.toLocaleString() })}
          </Typography>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
            <TextField
              select
              size="small"
              label={translate(`${IMPORT_MSG}.pool`)}
              value={poolId}
              onChange={(e) => setPoolId(e.target.value)}
              sx={{ minWidth: 180 }}
            >
              <MenuItem value="">{translate(`${IMPORT_MSG}.noPool`)}</MenuItem>
              {(pools ?? []).map((p) => (
                <MenuItem key={p.id} value={String(p.id)}>
                  {p.name}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              size="small"
              label={translate(`${IMPORT_MSG}.role`)}
              value={role}
              onChange={(e) => setRole(e.target.value)}
              sx={{ minWidth: 140 }}
            >
              {DOMAIN_ROLES.map((r) => (
                <MenuItem key={r} value={r}>
                  {translate(`${SECTION_MSG}.role.${r}`)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              size="small"
              label={translate(`${IMPORT_MSG}.status`)}
              value={status}
              onChange={(e) => setStatus(e.target.value as 'standby')}
              sx={{ minWidth: 140 }}
            >
              {(['standby', 'active'] as const).map((s) => (
                <MenuItem key={s} value={s}>
                  {translate(`${SECTION_MSG}.status.${s}`)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              size="small"
              type="number"
              label={translate(`${IMPORT_MSG}.weight`)}
              value={weight}
              onChange={(e) => setWeight(e.target.value)}
              slotProps={{ htmlInput: { min: 0, max: MAX_WEIGHT } }}
              sx={{ width: 120, flexShrink: 0 }}
            />
            <TextField
              size="small"
              label={translate(`${IMPORT_MSG}.channel`)}
              value={channel}
              onChange={(e) => setChannel(e.target.value)}
              slotProps={{ htmlInput: { maxLength: 64 } }}
            />
          </Stack>
          <TextField
            multiline
            minRows={10}
            maxRows={20}
            fullWidth
            label={translate(`${IMPORT_MSG}.paste`)}
            placeholder={'example.com\nwww.例子.cn\nhttps://promo.example.net/'}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setReport(null);
            }}
            slotProps={{ htmlInput: { 'data-testid': 'domain-paste', spellCheck: false } }}
          />
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Button component="label" startIcon={<UploadFileIcon />} size="small">
              {translate(`${IMPORT_MSG}.upload`)}
              <input type="file" accept=".txt,.csv,text/plain" hidden onChange={onFile} />
            </Button>
            <Typography variant="body2" role="status" data-testid="domain-paste-summary">
              {report
                ? translate(`${IMPORT_MSG}.serverSummary`, {
                    valid: report.valid,
                    invalid: report.invalid,
                    duplicates: report.duplicates,
                    exists: report.exists,
                  })
                : translate(`${IMPORT_MSG}.localSummary`, {
                    valid: local.hosts,
                    problems: local.problems.length,
                  })}
            </Typography>
            <Box sx={{ flex: 1 }} />
            <Button variant="outlined" onClick={check} disabled={busy || !local.hosts || tooMany}>
              {translate(`${IMPORT_MSG}.check`)}
            </Button>
            <Button
              variant="contained"
              disabled={busy || !report || !report.valid}
              onClick={() => (report?.problems.length ? setConfirm(true) : save(false))}
            >
              {translate(`${IMPORT_MSG}.import`, { count: report?.valid ?? 0 })}
            </Button>
          </Stack>
          {tooMany && (
            <Alert severity="error">{translate(`${IMPORT_MSG}.tooMany`, { max: MAX_IMPORT_LINES })}</Alert>
          )}
          {problems.length > 0 && (
            <Box>
              <Typography variant="subtitle2" component="h2" sx={{ mb: 1 }}>
                {translate(`${IMPORT_MSG}.problems`, { count: problems.length })}
              </Typography>
              <Table
                size="small"
                aria-label={translate(`${IMPORT_MSG}.problems`, { count: problems.length })}
              >
                <TableHead>
                  <TableRow>
                    <TableCell>{translate(`${IMPORT_MSG}.line`)}</TableCell>
                    <TableCell>{translate(`${IMPORT_MSG}.input`)}</TableCell>
                    <TableCell>{translate(`${IMPORT_MSG}.reason`)}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {problems.slice(0, SHOWN).map((p) => (
                    <TableRow key={`${p.line}-${p.error}`}>
                      <TableCell>{p.line}</TableCell>
                      <TableCell sx={{ wordBreak: 'break-all' }}>{p.input}</TableCell>
                      <TableCell>{message(p)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
              {problems.length > SHOWN && (
                <Typography variant="caption">
                  {translate(`${IMPORT_MSG}.more`, { count: problems.length - SHOWN })}
                </Typography>
              )}
            </Box>
          )}
        </Stack>
      </CardContent>
      <ConfirmDialog
        open={confirm}
        title={translate(`${IMPORT_MSG}.skipTitle`)}
        question={translate(`${IMPORT_MSG}.skipConfirm`, {
          valid: report?.valid ?? 0,
          problems: report?.problems.length ?? 0,
        })}
        onConfirm={() => save(true)}
        onClose={() => setConfirm(false)}
      />
    </Card>
  );
}
