import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  IconButton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { useCallback, useEffect, useState } from 'react';
import { Loading, useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { DOMAIN_STATUSES } from '../../../common/domain';
import { request } from '../../api/http';
import { Permission } from '../../auth/permission';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { visuallyHidden } from '../../components/ReportPeriod';
import { OVERVIEW_API, POOL_API, POOL_MSG, SECTION_MSG } from './names';
import { type Pool, StatusChip, usePools } from './shared';

interface RunwayRow {
  id: number | null;
  name: string | null;
  counts: Record<string, number>;
  retired30: number;
  retiredPerDay: number;
  daysLeft: number | null;
  expiring: number;
  certExpiring: number;
}
interface Runway {
  pools: RunwayRow[];
  warnDays: number;
  expiring: {
    id: number;
    unicode: string;
    poolId: number | null;
    status: any;
    expiresOn: string | null;
    certExpiresOn: string | null;
  }[];
}

/** The statuses' colours in the chart, as their chips: live green, reserve blue, lost red/amber, gone grey. */
const STATUS_COLORS = {
  active: '#2e7d32',
  standby: '#1976d2',
  blocked: '#d32f2f',
  expired: '#ed6c02',
  retired: '#9e9e9e',
};

/** Days left as a chip: red under a week, amber under a month, "no end" when nothing was retired. */
function DaysLeft({ days }: { days: number | null }) {
  const translate = useTranslate();
  if (days === null) return <>{translate(`${POOL_MSG}.noEnd`)}</>;
  const color = days < 7 ? 'error' : days < 30 ? 'warning' : 'success';
  return (
    <Chip size="small" variant="outlined" color={color} label={translate(`${POOL_MSG}.days`, { days })} />
  );
}

function PoolDialog({ pool, onClose }: { pool: Pool | 'new' | null; onClose: (changed: boolean) => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [name, setName] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<Record<string, string>>({});
  useEffect(() => {
    setName(pool && pool !== 'new' ? pool.name : '');
    setNote(pool && pool !== 'new' ? pool.note : '');
    setError({});
  }, [pool]);
  const save = async () => {
    try {
      if (pool === 'new') await request(POOL_API, { method: 'POST', json: { name, note } });
      else if (pool)
        await request(`${POOL_API}/${pool.id}`, {
          method: 'PUT',
          json: { name, note, version: pool.version },
        });
      notify(`${POOL_MSG}.saved`, { type: 'success' });
      onClose(true);
    } catch (err: any) {
      setError(err?.body?.errors ?? {});
    }
  };
  return (
    <ConfirmDialog
      open={pool !== null}
      title={translate(pool === 'new' ? `${POOL_MSG}.create` : `${POOL_MSG}.rename`)}
      onClose={() => onClose(false)}
      onConfirm={save}
      confirmLabel="ra.action.save"
      disabled={!name.trim()}
    >
      <TextField
        autoFocus
        fullWidth
        size="small"
        sx={{ mt: 1 }}
        label={translate(`${POOL_MSG}.fields.name`)}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={Boolean(error.name)}
        helperText={error.name}
        slotProps={{ htmlInput: { maxLength: 64 } }}
      />
      <TextField
        fullWidth
        size="small"
        sx={{ mt: 2 }}
        label={translate(`${POOL_MSG}.fields.note`)}
        value={note}
        onChange={(e) => setNote(e.target.value)}
        slotProps={{ htmlInput: { maxLength: 256 } }}
      />
    </ConfirmDialog>
  );
}

/**
 * Pools (`/domain/pool`): per pool its domains by status, the pace of retirement over 30 days and the days of
 * standby left at that pace, beside the domains whose registration or certificate expires soon. Admins add,
 * rename and delete (empty) pools.
 */
export function PoolList() {
  const translate = useTranslate();
  const notify = useNotify();
  const { pools, reload: reloadPools } = usePools();
  const [runway, setRunway] = useState<Runway | null>(null);
  const [editing, setEditing] = useState<Pool | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Pool | null>(null);
  const load = useCallback(() => {
    request<Runway>(`${OVERVIEW_API}/runway`)
      .then(setRunway)
      .catch(() => setRunway({ pools: [], warnDays: 30, expiring: [] }));
    reloadPools();
  }, [reloadPools]);
  useEffect(() => load(), [load]);

  if (!runway) return <Loading />;
  const byId = new Map((pools ?? []).map((p) => [p.id, p]));
  const names = (id: number | null) =>
    id === null ? translate(`${POOL_MSG}.noPool`) : (byId.get(id)?.name ?? '');
  const remove = async () => {
    if (!deleting) return;
    try {
      await request(`${POOL_API}/${deleting.id}`, { method: 'DELETE' });
      notify(`${POOL_MSG}.deleted`, { type: 'success' });
    } catch {
      // shown by the HTTP client (a pool with domains is refused)
    }
    setDeleting(null);
    load();
  };
  const rows = runway.pools;
  return (
    <Stack spacing={2} sx={{ mt: 1 }}>
      <Card>
        <CardContent>
          <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
            <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
              {translate(`${POOL_MSG}.hint`)}
            </Typography>
            <Permission need="domain.settings">
              <Button startIcon={<AddIcon />} onClick={() => setEditing('new')}>
                {translate(`${POOL_MSG}.create`)}
              </Button>
            </Permission>
          </Stack>
          {rows.length === 0 ? (
            <Typography role="status" color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
              {translate(`${POOL_MSG}.empty`)}
            </Typography>
          ) : (
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small" aria-label={translate(`${SECTION_MSG}.menu.pool`)}>
                <TableHead>
                  <TableRow>
                    <TableCell>{translate(`${POOL_MSG}.fields.name`)}</TableCell>
                    {DOMAIN_STATUSES.map((s) => (
                      <TableCell key={s} align="right">
                        {translate(`${SECTION_MSG}.status.${s}`)}
                      </TableCell>
                    ))}
                    <TableCell align="right">{translate(`${POOL_MSG}.fields.retired30`)}</TableCell>
                    <TableCell align="right">{translate(`${POOL_MSG}.fields.retiredPerDay`)}</TableCell>
                    <TableCell>{translate(`${POOL_MSG}.fields.daysLeft`)}</TableCell>
                    <TableCell align="right">
                      {translate(`${POOL_MSG}.fields.expiring`, { days: runway.warnDays })}
                    </TableCell>
                    <TableCell>
                      <Box component="span" sx={visuallyHidden}>
                        {translate('ra.action.edit')}
                      </Box>
                    </TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.map((r) => {
                    const pool = r.id === null ? undefined : byId.get(r.id);
                    return (
                      <TableRow key={r.id ?? 'none'}>
                        <TableCell>
                          <RouterLink
                            to={`/domain/store?filter=${encodeURIComponent(JSON.stringify({ poolId: r.id ?? 0 }))}`}
                          >
                            {r.name ?? names(null)}
                          </RouterLink>
                          {pool?.note ? (
                            <Typography variant="caption" component="div" color="text.secondary">
                              {pool.note}
                            </Typography>
                          ) : null}
                        </TableCell>
                        {DOMAIN_STATUSES.map((s) => (
                          <TableCell key={s} align="right">
                            {r.counts[s]}
                          </TableCell>
                        ))}
                        <TableCell align="right">{r.retired30}</TableCell>
                        <TableCell align="right">{r.retiredPerDay}</TableCell>
                        <TableCell>
                          <DaysLeft days={r.daysLeft} />
                        </TableCell>
                        <TableCell align="right">{r.expiring + r.certExpiring}</TableCell>
                        <TableCell>
                          {pool && (
                            <Permission need="domain.settings">
                              <Tooltip title={translate(`${POOL_MSG}.rename`)}>
                                <IconButton
                                  size="small"
                                  aria-label={`${translate(`${POOL_MSG}.rename`)} ${pool.name}`}
                                  onClick={() => setEditing(pool)}
                                >
                                  <EditIcon fontSize="small" />
                                </IconButton>
                              </Tooltip>
                              <Tooltip title={translate('ra.action.delete')}>
                                <IconButton
                                  size="small"
                                  aria-label={`${translate('ra.action.delete')} ${pool.name}`}
                                  onClick={() => setDeleting(pool)}
                                >
                                  <DeleteIcon fontSize="small" />
                                </IconButton>
                              </Tooltip>
                            </Permission>
                          )}
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            </Box>
          )}
          {rows.length > 0 && (
            <BarChart
              height={90 + 36 * rows.length}
              layout="horizontal"
              yAxis={[{ scaleType: 'band', data: rows.map((r) => r.name ?? names(null)), width: 90 }]}
              series={DOMAIN_STATUSES.map((s) => ({
                data: rows.map((r) => r.counts[s]),
                label: translate(`${SECTION_MSG}.status.${s}`),
                color: STATUS_COLORS[s],
                stack: 'all',
              }))}
            />
          )}
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
            {translate(`${POOL_MSG}.expiringTitle`, { days: runway.warnDays })}
          </Typography>
          {runway.expiring.length === 0 ? (
            <Alert severity="success">{translate(`${POOL_MSG}.noneExpiring`)}</Alert>
          ) : (
            <Table
              size="small"
              aria-label={translate(`${POOL_MSG}.expiringTitle`, { days: runway.warnDays })}
            >
              <TableHead>
                <TableRow>
                  <TableCell>{translate('resources.domain/store.fields.unicode')}</TableCell>
                  <TableCell>{translate(`${POOL_MSG}.fields.name`)}</TableCell>
                  <TableCell>{translate('resources.domain/store.fields.status')}</TableCell>
                  <TableCell>{translate('resources.domain/store.fields.expiresOn')}</TableCell>
                  <TableCell>{translate('resources.domain/store.fields.certExpiresOn')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {runway.expiring.map((d) => (
                  <TableRow key={d.id}>
                    <TableCell>
                      <RouterLink to={`/domain/store/edit/${d.id}`}>{d.unicode}</RouterLink>
                    </TableCell>
                    <TableCell>{names(d.poolId)}</TableCell>
                    <TableCell>
                      <StatusChip status={d.status} />
                    </TableCell>
                    <TableCell>{d.expiresOn ?? ''}</TableCell>
                    <TableCell>{d.certExpiresOn ?? ''}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
      <PoolDialog
        pool={editing}
        onClose={(changed) => {
          setEditing(null);
          if (changed) load();
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={translate('ra.action.delete')}
        question={translate(`${POOL_MSG}.confirmDelete`, { name: deleting?.name ?? '' })}
        color="error"
        onClose={() => setDeleting(null)}
        onConfirm={remove}
      />
    </Stack>
  );
}
