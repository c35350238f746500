import CancelIcon from '@mui/icons-material/Cancel';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  FormControlLabel,
  LinearProgress,
  MenuItem,
  TextField as MuiTextField,
  Stack,
  Switch,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { Title, useTranslate } from 'react-admin';
import { ApiFailure, request } from '../../api/http';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { cancelApi, RUN_API, RUN_KINDS, runApi, SECTION_MSG, TASK_MSG } from './names';
import { type Run, RunStatusChip, sourceLabel, useSources } from './shared';

const f = (name: string) => `${TASK_MSG}.fields.${name}`;
type Kind = (typeof RUN_KINDS)[number];

/** The request body of a run of this kind, from the screen's one value field. */
function startBody(sourceId: number, kind: Kind, value: string, dryRun: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { sourceId, kind, dryRun };
  const v = value.trim();
  if (kind === 'hours' && v) body.hours = Number(v);
  if (kind === 'pages') {
    const [from, to] = v.split('-').map((p) => p.trim());
    if (from) body.pageFrom = Number(from);
    if (to) body.pageTo = Number(to);
  }
  if (kind === 'keyword' && v) body.keyword = v;
  if (kind === 'ids' && v)
    body.ids = v
      .split(/[\s,，]+/)
      .filter(Boolean)
      .map(Number);
  return body;
}

/** Follows a run every second until it ends. */
function useRunPolling(initial: Run | null): [Run | null, (r: Run) => void] {
  const [run, setRun] = useState<Run | null>(initial);
  const runId = run?.id;
  const running = run?.status === 'running';
  useEffect(() => {
    if (!runId || !running) return;
    const timer = setInterval(() => {
      request<Run>(runApi(runId), { quiet: true })
        .then(setRun)
        .catch(() => undefined);
    }, 1000);
    return () => clearInterval(timer);
  }, [runId, running]);
  return [run, setRun];
}

function Progress({ run, onCancel }: { run: Run; onCancel: () => void }) {
  const translate = useTranslate();
  const [confirm, setConfirm] = useState(false);
  const percent = run.pageCount > 0 ? Math.min(100, (run.pagesDone / run.pageCount) * 100) : 0;
  const pages = translate(`${TASK_MSG}.pages`, { done: run.pagesDone, count: run.pageCount });
  return (
    <Card sx={{ mt: 2 }} data-testid="run-progress">
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
          <Typography variant="subtitle1">
            {translate(`${TASK_MSG}.run`, { id: run.id, source: run.sourceName })}
          </Typography>
          <RunStatusChip status={run.status} />
          {run.dryRun && <Typography variant="caption">{translate(`${SECTION_MSG}.dryRun`)}</Typography>}
        </Stack>
        {/* only while it runs: a hidden bar is still a progressbar to assistive technology (and it needs a name) */}
        {run.status === 'running' && (
          <LinearProgress
            variant={run.pageCount > 0 ? 'determinate' : 'indeterminate'}
            value={percent}
            aria-label={pages}
          />
        )}
        <Typography sx={{ mt: 1 }}>{pages}</Typography>
        <Typography>
          {translate(`${SECTION_MSG}.counts`, {
            added: run.added,
            updated: run.updated,
            skipped: run.skipped,
            failed: run.failed,
          })}
        </Typography>
        {run.errorText && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {run.errorText}
          </Alert>
        )}
        {run.status === 'running' && (
          <Button
            sx={{ mt: 1 }}
            color="warning"
            startIcon={<CancelIcon />}
            disabled={run.cancelRequested}
            onClick={() => setConfirm(true)}
          >
            {translate(`${TASK_MSG}.cancel`)}
          </Button>
        )}
        <ConfirmDialog
          open={confirm}
          title={translate(`${TASK_MSG}.cancel`)}
          question={translate(`${TASK_MSG}.confirmCancel`)}
          onClose={() => setConfirm(false)}
          onConfirm={() => {
            setConfirm(false);
            onCancel();
          }}
          color="warning"
        />
      </CardContent>
    </Card>
  );
}

/** `/collect/task`: start a run (by hours, a page range, a keyword or ids; dry or real) and watch it live. */
export function Task() {
  const translate = useTranslate();
  const sources = useSources();
  const [sourceId, setSourceId] = useState<number | ''>('');
  const [kind, setKind] = useState<Kind>('hours');
  const [value, setValue] = useState('24');
  const [dryRun, setDryRun] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [run, setRun] = useRunPolling(null);

  // A run of the chosen source still going (started before, here or by someone else) is followed again: leaving
  // the screen lost sight of it, and Start only answered that the source was busy.
  useEffect(() => {
    if (sourceId === '') return;
    let live = true;
    request<{ list: Run[] }>(RUN_API, {
      query: { sourceId, status: 'running', page: 1, pageSize: 10 },
      quiet: true,
    })
      .then((r) => {
        if (live && r.list[0]) setRun(r.list[0]);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [sourceId, setRun]);

  const start = async () => {
    if (sourceId === '') {
      setFieldErrors({ sourceId: translate('ra.validation.required') });
      return;
    }
    setBusy(true);
    setError('');
    setFieldErrors({});
    try {
      setRun(
        await request<Run>(RUN_API, {
          method: 'POST',
          json: startBody(sourceId, kind, value, dryRun),
          quiet: true,
        }),
      );
    } catch (e) {
      if (e instanceof ApiFailure) {
        setError(e.msg);
        setFieldErrors(e.body?.errors ?? {});
      } else setError(String(e));
    } finally {
      setBusy(false);
    }
  };
  const cancel = async () => {
    if (!run) return;
    try {
      setRun(await request<Run>(cancelApi(run.id), { method: 'POST', quiet: true }));
    } catch (e) {
      setError(e instanceof ApiFailure ? e.msg : String(e));
    }
  };
  const valueError =
    fieldErrors.hours ?? fieldErrors.pageFrom ?? fieldErrors.pageTo ?? fieldErrors.keyword ?? fieldErrors.ids;

  return (
    <Box sx={{ mt: 1, maxWidth: 720 }}>
      <Title title={translate(`${SECTION_MSG}.menu.task`)} />
      <Card>
        <CardContent>
          <Stack spacing={2}>
            <MuiTextField
              select
              size="small"
              label={translate(f('sourceId'))}
              value={sourceId}
              onChange={(e) => setSourceId(Number(e.target.value))}
              error={!!fieldErrors.sourceId}
              helperText={fieldErrors.sourceId}
            >
              {sources.map((s) => (
                <MenuItem key={s.id} value={s.id}>
                  {sourceLabel(s.name, s.kind, translate)}
                </MenuItem>
              ))}
            </MuiTextField>
            <MuiTextField
              select
              size="small"
              label={translate(f('kind'))}
              value={kind}
              onChange={(e) => {
                setKind(e.target.value as Kind);
                setValue(e.target.value === 'hours' ? '24' : '');
              }}
            >
              {RUN_KINDS.map((k) => (
                <MenuItem key={k} value={k}>
                  {translate(`${SECTION_MSG}.kind.${k}`)}
                </MenuItem>
              ))}
            </MuiTextField>
            <MuiTextField
              size="small"
              label={translate(`${TASK_MSG}.value.${kind}`)}
              value={value}
              onChange={(e) => setValue(e.target.value)}
              slotProps={{ htmlInput: { maxLength: 2000 } }}
              error={!!valueError}
              helperText={valueError ?? translate(`${TASK_MSG}.hint.${kind}`)}
            />
            <FormControlLabel
              control={<Switch checked={dryRun} onChange={(e) => setDryRun(e.target.checked)} />}
              label={translate(`${TASK_MSG}.fields.dryRun`)}
            />
            <Box>
              <Button
                variant="contained"
                startIcon={<PlayArrowIcon />}
                onClick={start}
                disabled={busy || run?.status === 'running'}
              >
                {translate(`${TASK_MSG}.start`)}
              </Button>
            </Box>
            {error && <Alert severity="error">{error}</Alert>}
          </Stack>
        </CardContent>
      </Card>
      {run && <Progress run={run} onCancel={cancel} />}
    </Box>
  );
}
