import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  FormControlLabel,
  Grid,
  Stack,
  Switch,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { useEffect, useState } from 'react';
import { Loading, useNotify, useTranslate } from 'react-admin';
import { FILTER_MODULES, type FilterModule, type FilterRules } from '../../../common/comment';
import { request } from '../../api/http';
import { useCan } from '../../auth/permission';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FILTER_API, FILTER_MSG, SECTION_MSG } from './names';

type Stored = FilterRules & { module: FilterModule; version: number };
type Trial = {
  checked: number;
  block: number;
  hold: number;
  mask: number;
  pass: number;
  examples: { id: number; outcome: string; text: string; content: string; to: string }[];
};
const LISTS = ['maskWords', 'blockWords', 'holdWords', 'blacklist'] as const;
const SWITCHES = ['enabled', 'reviewFirst', 'loginRequired'] as const;
const INTERVALS = ['userInterval', 'addressInterval'] as const;

const lines = (s: string) =>
  s
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** One module's form: switches, intervals, word lists and the blacklist (one entry a line), trial and apply. */
function ModuleForm({ stored, onSaved }: { stored: Stored; onSaved: (f: Stored) => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const admin = useCan('comment.settings');
  const [form, setForm] = useState(stored);
  const [text, setText] = useState(() => Object.fromEntries(LISTS.map((k) => [k, stored[k].join('\n')])));
  const [trial, setTrial] = useState<Trial | null>(null);
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const rules = (): FilterRules => ({
    enabled: form.enabled,
    reviewFirst: form.reviewFirst,
    loginRequired: form.loginRequired,
    userInterval: form.userInterval,
    addressInterval: form.addressInterval,
    maskWords: lines(text.maskWords),
    blockWords: lines(text.blockWords),
    holdWords: lines(text.holdWords),
    blacklist: lines(text.blacklist),
  });
  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    try {
      await fn();
    } catch {
      // the HTTP client has shown the server's message
    } finally {
      setBusy(false);
    }
  };
  const save = () =>
    run(async () => {
      const saved = await request<Stored>(`${FILTER_API}/${stored.module}`, {
        method: 'PUT',
        json: { ...rules(), version: stored.version },
      });
      notify(`${FILTER_MSG}.saved`, { type: 'success' });
      onSaved(saved);
    });
  const tryIt = () =>
    run(async () =>
      setTrial(
        await request<Trial>(`${FILTER_API}/${stored.module}/trial`, { method: 'POST', json: rules() }),
      ),
    );
  const apply = () =>
    run(async () => {
      setConfirm(false);
      const r = await request<{ changed: number }>(`${FILTER_API}/${stored.module}/apply`, {
        method: 'POST',
        json: { version: stored.version },
      });
      notify(`${FILTER_MSG}.applied`, { type: 'success', messageArgs: { changed: r.changed } });
      setTrial(null);
    });
  const label = (k: string) => translate(`${FILTER_MSG}.fields.${k}`);
  const outcomes = ['block', 'hold', 'mask', 'pass'] as const;
  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary">
        {translate(`${FILTER_MSG}.hint`)}
      </Typography>
      {!admin && <Alert severity="info">{translate(`${FILTER_MSG}.adminOnly`)}</Alert>}
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 2 }}>
        {SWITCHES.map((k) => (
          <FormControlLabel
            key={k}
            control={
              <Switch
                checked={form[k]}
                onChange={(e) => setForm({ ...form, [k]: e.target.checked })}
                disabled={!admin}
              />
            }
            label={label(k)}
          />
        ))}
      </Stack>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 2 }}>
        {INTERVALS.map((k) => (
          <TextField
            key={k}
            type="number"
            size="small"
            label={label(k)}
            value={form[k]}
            onChange={(e) => setForm({ ...form, [k]: Math.max(0, Number(e.target.value) || 0) })}
            disabled={!admin}
            sx={{ width: 300 }}
            slotProps={{ htmlInput: { min: 0, max: 86400 } }}
          />
        ))}
      </Stack>
      <Grid container spacing={2}>
        {LISTS.map((k) => (
          <Grid key={k} size={{ xs: 12, md: 6 }}>
            <TextField
              label={label(k)}
              value={text[k]}
              onChange={(e) => setText({ ...text, [k]: e.target.value })}
              multiline
              minRows={4}
              maxRows={10}
              fullWidth
              disabled={!admin}
              helperText={translate(`${FILTER_MSG}.count`, { count: lines(text[k]).length })}
            />
          </Grid>
        ))}
      </Grid>
      <Stack direction="row" spacing={1}>
        {admin && (
          <Button variant="contained" onClick={save} disabled={busy}>
            {translate(`${FILTER_MSG}.save`)}
          </Button>
        )}
        <Button variant="outlined" onClick={tryIt} disabled={busy}>
          {translate(`${FILTER_MSG}.trial`)}
        </Button>
        {admin && (
          <Button
            color="warning"
            variant="outlined"
            onClick={() => setConfirm(true)}
            disabled={busy || !stored.version}
          >
            {translate(`${FILTER_MSG}.apply`)}
          </Button>
        )}
      </Stack>
      {trial && (
        <Card variant="outlined">
          <CardContent>
            <Typography variant="subtitle1" component="h3">
              {translate(`${FILTER_MSG}.trialTitle`, { count: trial.checked })}
            </Typography>
            <BarChart
              height={200}
              layout="horizontal"
              yAxis={[
                {
                  scaleType: 'band',
                  data: outcomes.map((o) => translate(`${FILTER_MSG}.outcomes.${o}`)),
                  width: 120,
                },
              ]}
              series={[{ data: outcomes.map((o) => trial[o]) }]}
            />
            {trial.examples.length > 0 && (
              <Table size="small" aria-label={translate(`${FILTER_MSG}.example`)}>
                <TableHead>
                  <TableRow>
                    <TableCell>ID</TableCell>
                    <TableCell>{translate(`${FILTER_MSG}.before`)}</TableCell>
                    <TableCell>{translate(`${FILTER_MSG}.after`)}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {trial.examples.slice(0, 30).map((e) => (
                    <TableRow key={`${e.outcome}-${e.id}`}>
                      <TableCell>{e.id}</TableCell>
                      <TableCell>{e.text}</TableCell>
                      <TableCell>
                        {translate(`${FILTER_MSG}.outcomes.${e.outcome}`)}
                        {e.outcome === 'mask'
                          ? `：${e.content}`
                          : ` → ${translate(`${SECTION_MSG}.status.${e.to}`)}`}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </CardContent>
        </Card>
      )}
      <ConfirmDialog
        open={confirm}
        title={translate(`${FILTER_MSG}.apply`)}
        question={translate(`${FILTER_MSG}.applyQuestion`, {
          block: trial?.block ?? '?',
          hold: trial?.hold ?? '?',
          mask: trial?.mask ?? '?',
        })}
        onClose={() => setConfirm(false)}
        onConfirm={apply}
        color="warning"
        disabled={busy}
      />
    </Stack>
  );
}

/** `/comment/setting`: the comment and the guestbook filter, one tab each. */
export function FilterSettings() {
  const translate = useTranslate();
  const [filters, setFilters] = useState<Stored[] | null>(null);
  const [tab, setTab] = useState<FilterModule>('comment');
  useEffect(() => {
    request<{ list: Stored[] }>(FILTER_API).then(
      (r) => setFilters(r.list),
      () => setFilters([]),
    );
  }, []);
  if (!filters) return <Loading />;
  const current = filters.find((f) => f.module === tab);
  return (
    <Box sx={{ p: 2 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {translate(`${FILTER_MSG}.title`)}
      </Typography>
      <Tabs value={tab} onChange={(_, v) => setTab(v)} sx={{ mb: 2 }}>
        {FILTER_MODULES.map((m) => (
          <Tab key={m} value={m} label={translate(`${FILTER_MSG}.modules.${m}`)} />
        ))}
      </Tabs>
      {current && (
        <ModuleForm
          key={`${current.module}-${current.version}`}
          stored={current}
          onSaved={(saved) => setFilters(filters.map((f) => (f.module === saved.module ? saved : f)))}
        />
      )}
    </Box>
  );
}
