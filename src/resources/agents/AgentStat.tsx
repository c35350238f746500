import FactCheckIcon from '@mui/icons-material/FactCheck';
import {
  Alert,
  Box,
  Button,
  Chip,
  FormControlLabel,
  Link,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { type RaRecord, useGetOne, useLocaleState, useNotify, useRefresh, useTranslate } from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { QUALITY_MIN_SIGNUPS, type QualityFlag } from '../../../common/agents';
import { addDays } from '../../../common/period';
import { ApiFailure, request } from '../../api/http';
import { useCan } from '../../auth/permission';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DayPicker } from '../../components/dates';
import { useOperatorName } from '../../components/OperatorName';
import { type ReportColumn, ReportList } from '../../components/ReportList';
import { useReportCalendar } from '../../components/ReportPeriod';
import { formatFigure, type ReportFigure } from '../../components/reportFigures';
import { StatsPage } from '../statistics/shared';
import {
  AGENT_RESOURCE,
  agentStatPath,
  DAILY_MSG,
  DAILY_RESOURCE,
  SECTION_MSG,
  STAT_MSG,
  STAT_RESOURCE,
  settlementsApi,
} from './names';

const fig = (source: string, extra: Omit<ReportFigure, 'source' | 'label'> = {}): ReportFigure => ({
  source,
  label: `${SECTION_MSG}.figures.${source}`,
  ...extra,
});

/** The figures of both stats; the all-agents chart draws the daily sums the API gives (the others are per agent). */
const figures = (daily: boolean): ReportFigure[] => [
  fig('visitors', { chart: daily }),
  fig('addresses', { chart: false }),
  fig('pageViews', { chart: false }),
  fig('signups'),
  fig('conversion', { format: 'percent', chart: false }),
  fig('payers'),
  fig('recharges', { chart: false }),
  fig('rechargeAmount', { format: 'money', chart: false }),
  fig('arpu', { format: 'money', chart: false }),
  fig('commission', { format: 'money', chart: daily }),
  fig('settled', { format: 'money', chart: false }),
  fig('unsettled', { format: 'money', chart: false }),
];

/** Shown at first: visitors, signups, new payers, recharge, commission, settled and not (the rest one click away). */
const DEFAULT_HIDDEN = ['addresses', 'pageViews', 'conversion', 'recharges', 'arpu'];

function QualityCell({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const q = record.quality as
    | {
        signups: number;
        sharedAddress: number;
        sharedDevice: number;
        matured: number;
        idle: number;
        retained: number;
        flags: QualityFlag[];
      }
    | undefined;
  if (!q) return null;
  if (!q.flags.length) {
    const few = q.signups < QUALITY_MIN_SIGNUPS && q.matured < QUALITY_MIN_SIGNUPS;
    return (
      <Typography variant="body2" color="text.secondary" component="span" sx={{ whiteSpace: 'nowrap' }}>
        {translate(`${SECTION_MSG}.quality.${few ? 'few' : 'ok'}`)}
      </Typography>
    );
  }
  const pct = (v: number) => formatFigure(v, 'percent', locale);
  const detail = (flag: QualityFlag) => {
    if (flag === 'sharedAddress') return { n: q.sharedAddress, of: q.signups };
    if (flag === 'sharedDevice') return { n: q.sharedDevice, of: q.signups };
    if (flag === 'idle') return { n: q.idle, of: q.matured };
    return {
      rate: pct(q.matured ? q.retained / q.matured : 0),
      median: pct(Number(record.siteRetention ?? 0)),
    };
  };
  return (
    <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
      {q.flags.map((flag) => {
        const text = translate(`${SECTION_MSG}.quality.detail.${flag}`, detail(flag));
        return (
          <Tooltip key={flag} title={text}>
            <Chip
              size="small"
              color="warning"
              variant="outlined"
              label={translate(`${SECTION_MSG}.quality.flags.${flag}`)}
              aria-label={text}
              data-flag={flag}
            />
          </Tooltip>
        );
      })}
    </Box>
  );
}

/** `/agents/stat`: every agent over the period, sortable, with totals, quality flags, CSV and the daily chart. */
function AllAgents() {
  const translate = useTranslate();
  const [q, setQ] = useState('');
  const [flagged, setFlagged] = useState(false);
  const columns: ReportColumn[] = [
    {
      source: 'name',
      label: `${STAT_MSG}.agent`,
      sortable: true,
      render: (r) => (
        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
          {r.name}
        </Box>
      ),
      text: (r) => r.name,
    },
    {
      source: 'channel',
      label: `${STAT_MSG}.channel`,
      sortable: true,
      render: (r) => (
        <Box component="code" sx={{ whiteSpace: 'nowrap' }}>
          {r.channel}
        </Box>
      ),
    },
    {
      source: 'quality',
      label: `${STAT_MSG}.quality`,
      render: (r) => <QualityCell record={r} />,
      text: (r, t) =>
        ((r.quality?.flags ?? []) as string[]).map((f) => t(`${SECTION_MSG}.quality.flags.${f}`)).join(' / '),
    },
  ];
  return (
    <StatsPage>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate(`${STAT_MSG}.hint`)}
      </Typography>
      <ReportList
        resource={STAT_RESOURCE}
        columns={columns}
        figures={figures(false)}
        filter={{ ...(q.trim() ? { q: q.trim() } : {}), ...(flagged ? { flagged: true } : {}) }}
        sort={{ field: 'commission', order: 'DESC' }}
        comparable={false}
        rowLink={(r) => agentStatPath(r.id)}
        filename="agents-stat"
        hideable="agents-stat"
        hiddenByDefault={DEFAULT_HIDDEN}
        toolbar={
          <>
            <TextField
              size="small"
              label={translate(`${STAT_MSG}.search`)}
              value={q}
              onChange={(e) => setQ(e.target.value)}
              sx={{ width: 200 }}
            />
            <FormControlLabel
              control={<Switch checked={flagged} onChange={(e) => setFlagged(e.target.checked)} />}
              label={translate(`${STAT_MSG}.flaggedOnly`)}
            />
          </>
        }
      />
    </StatsPage>
  );
}

interface Settlement {
  id: number;
  from: string;
  to: string;
  signups: number;
  payers: number;
  rechargeAmount: number;
  commission: number;
  note: string;
  settledBy: number | null;
  settledAt: string;
}

function SettleButton({ id, name, onDone }: { id: string; name: string; onDone: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const { meta } = useReportCalendar();
  // Only days that are over can be settled.
  const last = addDays(meta.today, -1);
  const settle = async () => {
    setBusy(true);
    setErrors({});
    try {
      const s = await request<Settlement>(settlementsApi(id), {
        method: 'POST',
        json: { from, to, ...(note.trim() ? { note: note.trim() } : {}) },
        quiet: true,
      });
      notify(`${DAILY_MSG}.settled`, {
        type: 'success',
        messageArgs: { commission: formatFigure(s.commission, 'money', locale) },
      });
      setOpen(false);
      onDone();
    } catch (err) {
      if (!(err instanceof ApiFailure)) throw err;
      setErrors(err.body?.errors ?? { _: err.message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button variant="outlined" startIcon={<FactCheckIcon />} onClick={() => setOpen(true)}>
        {translate(`${DAILY_MSG}.settle`)}
      </Button>
      <ConfirmDialog
        open={open}
        title={translate(`${DAILY_MSG}.settleTitle`, { name })}
        question={translate(`${DAILY_MSG}.settleHint`)}
        onClose={() => setOpen(false)}
        onConfirm={settle}
        disabled={busy || !from || !to}
      >
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, mt: 2 }}>
          {errors._ && <Alert severity="error">{errors._}</Alert>}
          <DayPicker
            label={translate(`${DAILY_MSG}.from`)}
            value={from ?? ''}
            max={last}
            onCommit={setFrom}
            invalidText={translate('report.period.invalid', { min: '—', max: last })}
          />
          <DayPicker
            label={translate(`${DAILY_MSG}.to`)}
            value={to ?? ''}
            min={from ?? undefined}
            max={last}
            onCommit={setTo}
            invalidText={translate('report.period.invalid', { min: from ?? '—', max: last })}
          />
          {(errors.to || errors.from) && (
            <Alert severity="error" role="alert">
              {errors.to ?? errors.from}
            </Alert>
          )}
          <TextField
            size="small"
            label={translate(`${DAILY_MSG}.note`)}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 256 } }}
          />
        </Box>
      </ConfirmDialog>
    </>
  );
}

function OperatorCell({ id }: { id: number | null }) {
  return <>{useOperatorName(id)}</>;
}

function Settlements({ id, version }: { id: string; version: number }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [rows, setRows] = useState<Settlement[] | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new version (a period just settled) reads them again
  useEffect(() => {
    request<Settlement[]>(settlementsApi(id), { quiet: true })
      .then(setRows)
      .catch(() => setRows([]));
  }, [id, version]);
  const money = (v: number) => formatFigure(v, 'money', locale);
  return (
    <Box sx={{ mt: 3 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {translate(`${DAILY_MSG}.settlements`)}
      </Typography>
      {rows && !rows.length ? (
        <Typography color="text.secondary">{translate(`${DAILY_MSG}.noSettlements`)}</Typography>
      ) : (
        <Table size="small" aria-label={translate(`${DAILY_MSG}.settlements`)}>
          <TableHead>
            <TableRow>
              <TableCell>{translate(`${DAILY_MSG}.period`)}</TableCell>
              <TableCell align="right">{translate(`${SECTION_MSG}.figures.signups`)}</TableCell>
              <TableCell align="right">{translate(`${SECTION_MSG}.figures.payers`)}</TableCell>
              <TableCell align="right">{translate(`${SECTION_MSG}.figures.rechargeAmount`)}</TableCell>
              <TableCell align="right">{translate(`${SECTION_MSG}.figures.commission`)}</TableCell>
              <TableCell>{translate(`${DAILY_MSG}.note`)}</TableCell>
              <TableCell>{translate(`${DAILY_MSG}.settledAt`)}</TableCell>
              <TableCell>{translate(`${DAILY_MSG}.by`)}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(rows ?? []).map((s) => (
              <TableRow key={s.id}>
                <TableCell>
                  {s.from} – {s.to}
                </TableCell>
                <TableCell align="right">{s.signups}</TableCell>
                <TableCell align="right">{s.payers}</TableCell>
                <TableCell align="right">{money(s.rechargeAmount)}</TableCell>
                <TableCell align="right">{money(s.commission)}</TableCell>
                <TableCell>{s.note}</TableCell>
                <TableCell>{new Date(s.settledAt).toLocaleString(locale)}</TableCell>
                <TableCell>
                  <OperatorCell id={s.settledBy} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}

/** A day's settlement: "settled", and what arrived later (never added to it). */
function SettledCell({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  if (!record.settlementId) return null;
  const late = record.late ?? {};
  const hasLate = !!(late.signups || late.payers || late.recharges);
  return (
    <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
      <Chip size="small" color="success" variant="outlined" label={translate(`${DAILY_MSG}.settledDay`)} />
      {hasLate && (
        <Typography variant="caption" color="warning.main" data-testid="late">
          {translate(`${DAILY_MSG}.late`, {
            signups: late.signups,
            payers: late.payers,
            amount: formatFigure(late.rechargeAmount, 'money', locale),
          })}
        </Typography>
      )}
    </Box>
  );
}

/** `/agents/stat/:agentId`: one agent day by day, its settlement per day, settling a period, its settlements. */
function OneAgent({ id }: { id: string }) {
  const translate = useTranslate();
  const refresh = useRefresh();
  const admin = useCan('agents.edit');
  const [version, setVersion] = useState(0);
  const { data } = useGetOne(AGENT_RESOURCE, { id });
  const name = data?.name ?? `#${id}`;
  const done = useCallback(() => {
    setVersion((v) => v + 1);
    refresh();
  }, [refresh]);
  return (
    <StatsPage>
      <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 2, flexWrap: 'wrap', mb: 1 }}>
        <Typography variant="h6" component="h2">
          {translate(`${DAILY_MSG}.head`, { name, channel: data?.channel ?? '' })}
        </Typography>
        <Link component={RouterLink} to={agentStatPath()}>
          {translate(`${DAILY_MSG}.back`)}
        </Link>
        <Box sx={{ flex: 1 }} />
        {admin && <SettleButton id={id} name={name} onDone={done} />}
      </Box>
      <ReportList
        key={version}
        resource={DAILY_RESOURCE}
        filter={{ agentId: id }}
        columns={[
          {
            source: 'key',
            label: `${DAILY_MSG}.date`,
            sortable: true,
            render: (r) => (
              <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                {r.key}
              </Box>
            ),
            text: (r) => r.key,
          },
          {
            source: 'settlementId',
            label: `${DAILY_MSG}.settledDay`,
            render: (r) => <SettledCell record={r} />,
            text: (r, t) => (r.settlementId ? t(`${DAILY_MSG}.settledDay`) : ''),
          },
        ]}
        figures={figures(true)}
        sort={{ field: 'key', order: 'DESC' }}
        comparable={false}
        filename={`agent-${data?.channel ?? id}`}
        hideable="agent-daily"
        hiddenByDefault={DEFAULT_HIDDEN}
      />
      <Settlements id={id} version={version} />
    </StatsPage>
  );
}

/** `/agents/stat/:agentId?` (SPEC.md §2): every agent, or one. */
export function AgentStat() {
  const { agentId } = useParams();
  return agentId ? <OneAgent key={agentId} id={agentId} /> : <AllAgents />;
}
