import {
  Box,
  Button,
  Card,
  CardContent,
  Grid,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { PieChart } from '@mui/x-charts/PieChart';
import { useCallback, useEffect, useState } from 'react';
import { Loading, useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { MAX_WEIGHT } from '../../../common/domain';
import { request } from '../../api/http';
import { CAROUSEL_MSG, OVERVIEW_API, SECTION_MSG, STORE_API } from './names';

interface Slice {
  id: number;
  hostname: string;
  unicode: string;
  role: string;
  weight: number;
  share: number;
  version: number;
}
interface PoolSplit {
  id: number;
  name: string;
  totalWeight: number;
  /** Its live domains; the heaviest are in `domains`, the shares are over all. */
  count: number;
  domains: Slice[];
}

/** A weight typed in place, saved on Enter or with its button (the domain's version guards a concurrent edit). */
function WeightInput({ d, onSaved }: { d: Slice; onSaved: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [value, setValue] = useState(String(d.weight));
  useEffect(() => setValue(String(d.weight)), [d.weight]);
  const n = Number(value);
  const valid = Number.isInteger(n) && n >= 0 && n <= MAX_WEIGHT;
  const save = async () => {
    if (!valid || n === d.weight) return;
    try {
      await request(`${STORE_API}/${d.id}`, { method: 'PUT', json: { weight: n, version: d.version } });
      notify(`${CAROUSEL_MSG}.saved`, { type: 'success' });
    } catch {
      // shown by the HTTP client (a stale version is 40900)
    }
    onSaved();
  };
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
      <TextField
        size="small"
        type="number"
        value={value}
        error={!valid}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && save()}
        slotProps={{
          htmlInput: {
            min: 0,
            max: MAX_WEIGHT,
            'aria-label': translate(`${CAROUSEL_MSG}.weightOf`, { name: d.unicode }),
            style: { width: 64 },
          },
        }}
      />
      {valid && n !== d.weight && (
        <Button size="small" onClick={save}>
          {translate('ra.action.save')}
        </Button>
      )}
    </Box>
  );
}

/**
 * The carousel (`/domain/carousel`): each pool's live domains and the share of the pool's visitors each gets, as
 * the site's resolve endpoint splits them (weight ÷ total weight); weights are edited in place.
 */
export function Carousel() {
  const translate = useTranslate();
  const [pools, setPools] = useState<PoolSplit[] | null>(null);
  const load = useCallback(() => {
    request<{ pools: PoolSplit[] }>(`${OVERVIEW_API}/carousel`)
      .then((r) => setPools(r.pools))
      .catch(() => setPools([]));
  }, []);
  useEffect(() => load(), [load]);
  if (!pools) return <Loading />;
  if (!pools.length)
    return (
      <Card sx={{ mt: 1 }}>
        <CardContent>
          <Typography role="status" color="text.secondary" sx={{ textAlign: 'center', py: 6 }}>
            {translate(`${CAROUSEL_MSG}.empty`)}
          </Typography>
        </CardContent>
      </Card>
    );
  return (
    <Grid container spacing={2} sx={{ mt: 1 }}>
      {pools.map((p) => (
        <Grid key={p.id} size={{ xs: 12, lg: 6 }}>
          <Card>
            <CardContent>
              <Typography variant="h6" component="h2">
                {p.name}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {translate(`${CAROUSEL_MSG}.summary`, { count: p.count, total: p.totalWeight })}
              </Typography>
              {p.count === 0 ? (
                <Typography role="status" color="warning.main" sx={{ py: 3 }}>
                  {translate(`${CAROUSEL_MSG}.noLive`)}
                </Typography>
              ) : (
                <PoolSplitView p={p} onSaved={load} />
              )}
            </CardContent>
          </Card>
        </Grid>
      ))}
    </Grid>
  );
}

/** The pie's slices: the 12 heaviest, and the rest of the pool's weight as one (so the pie shows the real split). */
function slices(p: PoolSplit, others: string) {
  const top = p.domains.slice(0, 12).map((d) => ({ id: d.id, value: d.weight, label: d.unicode }));
  const rest = p.totalWeight - top.reduce((s, d) => s + d.value, 0);
  return rest > 0 ? [...top, { id: 0, value: rest, label: others }] : top;
}

/** One pool's pie and table of its heaviest live domains, with a link to all of them when more are live. */
function PoolSplitView({ p, onSaved }: { p: PoolSplit; onSaved: () => void }) {
  const translate = useTranslate();
  const all = `/domain/store?filter=${encodeURIComponent(JSON.stringify({ poolId: p.id, status: 'active' }))}`;
  return (
    <>
      <PieChart
        height={200}
        series={[
          {
            data: slices(p, translate(`${CAROUSEL_MSG}.others`)),
            innerRadius: 40,
            valueFormatter: (v) => `${Math.round((v.value / (p.totalWeight || 1)) * 1000) / 10}%`,
          },
        ]}
      />
      <Table size="small" aria-label={p.name}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('resources.domain/store.fields.unicode')}</TableCell>
            <TableCell>{translate('resources.domain/store.fields.role')}</TableCell>
            <TableCell>{translate('resources.domain/store.fields.weight')}</TableCell>
            <TableCell align="right">{translate(`${CAROUSEL_MSG}.share`)}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {p.domains.map((d) => (
            <TableRow key={d.id}>
              <TableCell>
                <RouterLink to={`/domain/store/edit/${d.id}`}>{d.unicode}</RouterLink>
              </TableCell>
              <TableCell>{translate(`${SECTION_MSG}.role.${d.role}`)}</TableCell>
              <TableCell>
                <WeightInput d={d} onSaved={onSaved} />
              </TableCell>
              <TableCell align="right">{d.share}%</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {p.count > p.domains.length && (
        <Typography variant="body2" sx={{ mt: 1 }}>
          <RouterLink to={all}>
            {translate(`${CAROUSEL_MSG}.more`, { shown: p.domains.length, count: p.count })}
          </RouterLink>
        </Typography>
      )}
    </>
  );
}
