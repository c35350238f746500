import FindReplaceIcon from '@mui/icons-material/FindReplace';
import UndoIcon from '@mui/icons-material/Undo';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  FormControlLabel,
  Radio,
  RadioGroup,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import {
  ListBase,
  useGetOne,
  useListContext,
  useLocaleState,
  useNotify,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { useLocation } from 'react-router-dom';
import { MAX_FIND, patternProblem } from '../../../common/ad';
import { ApiFailure, request } from '../../api/http';
import { READ_ONLY_REASON, ReadOnlyBanner, useCan, useReadOnly } from '../../auth/permission';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ListPagination } from '../../layout/listParts';
import {
  AD_MSG,
  ADVERTISER_RESOURCE,
  BATCH_MSG,
  CHANGES_API,
  CHANGES_RESOURCE,
  POSITION_RESOURCE,
  REPLACE_API,
  SECTION_MSG,
} from './names';

interface PreviewRow {
  id: number;
  title: string;
  before: string;
  after: string;
  version: number;
  valid: boolean;
}
interface Preview {
  count: number;
  invalid: number;
  rows: PreviewRow[];
}

/** The list's filter as the API's query-string values (empty ones left out). */
const asQuery = (filter: Record<string, unknown> = {}) =>
  Object.fromEntries(
    Object.entries(filter)
      .filter(([, v]) => v !== undefined && v !== null && v !== '')
      .map(([k, v]) => [k, String(v)]),
  );

/** A list filter's name as the list labels it. */
const filterLabel = (k: string) =>
  ['q', 'url', 'expiringDays'].includes(k)
    ? `${AD_MSG}.filters.${k}`
    : `${AD_MSG}.fields.${k === 'platform' ? 'platforms' : k}`;
const WORDS: Record<string, string> = { state: 'states', type: 'types', pricing: 'pricing' };
/** A filter's value in words where it is a word of the section (state, type, pricing); else as typed. */
const filterValue = (k: string, v: string, translate: (key: string) => string) =>
  WORDS[k] ? translate(`${SECTION_MSG}.${WORDS[k]}.${v}`) : v;

/** The list filters that name a record by id, and the resource whose record names it. */
const NAMED: Record<string, string> = { advertiserId: ADVERTISER_RESOURCE, positionId: POSITION_RESOURCE };

/** A filter's record by its name: the one saved with a change set, else read now (the id while it loads). */
function NamedValue({ filterKey, id, name }: { filterKey: string; id: string; name?: string }) {
  const { data } = useGetOne(NAMED[filterKey], { id }, { enabled: name === undefined });
  return <>{name ?? data?.name ?? id}</>;
}

/** The chips of a scope: the selected ads, or each filter of the list (its advertiser and position by name). */
function ScopeChips({
  ids,
  filter,
  names = {},
}: {
  ids?: number[];
  filter: Record<string, string | number>;
  names?: Record<string, string | undefined>;
}) {
  const translate = useTranslate();
  const entries = Object.entries(filter);
  if (ids)
    return (
      <Chip size="small" color="primary" label={translate(`${BATCH_MSG}.selected`, { count: ids.length })} />
    );
  if (!entries.length) return <Chip size="small" label={translate(`${BATCH_MSG}.every`)} />;
  return (
    <>
      {entries.map(([k, v]) => (
        <Chip
          key={k}
          size="small"
          label={
            <>
              {translate(filterLabel(k))}:{' '}
              {NAMED[k] ? (
                <NamedValue filterKey={k} id={String(v)} name={names[k]} />
              ) : (
                filterValue(k, String(v), translate)
              )}
            </>
          }
        />
      ))}
    </>
  );
}

/** Which ads: the selected ones, or every one matching the list's filter. */
function Scope({ ids, filter }: { ids?: number[]; filter: Record<string, string> }) {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', mb: 2 }}>
      <Typography variant="body2">{translate(`${BATCH_MSG}.scope`)}</Typography>
      <ScopeChips ids={ids} filter={filter} />
    </Box>
  );
}

type SavedScope =
  | { ids: number[] }
  | { filter: Record<string, string | number>; names: Record<string, string | undefined> }
  | null;

/** A change set's scope as saved (older sets have none). */
function SavedScopeChips({ scope }: { scope: SavedScope }) {
  if (!scope) return <>—</>;
  return 'ids' in scope ? (
    <ScopeChips ids={scope.ids} filter={{}} />
  ) : (
    <ScopeChips filter={scope.filter} names={scope.names} />
  );
}

function PreviewTable({ preview }: { preview: Preview }) {
  const translate = useTranslate();
  return (
    <TableContainer sx={{ maxHeight: 420 }}>
      <Table size="small" stickyHeader aria-label={translate(`${BATCH_MSG}.previewTitle`)}>
        <TableHead>
          <TableRow>
            <TableCell>ID</TableCell>
            <TableCell>{translate(`${BATCH_MSG}.title`)}</TableCell>
            <TableCell>{translate(`${BATCH_MSG}.before`)}</TableCell>
            <TableCell>{translate(`${BATCH_MSG}.after`)}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {preview.rows.map((r) => (
            <TableRow key={r.id} data-testid="preview-row">
              <TableCell>{r.id}</TableCell>
              <TableCell>{r.title}</TableCell>
              <TableCell sx={{ wordBreak: 'break-all' }}>{r.before}</TableCell>
              <TableCell sx={{ wordBreak: 'break-all', color: r.valid ? 'success.main' : 'error.main' }}>
                {r.after}
                {!r.valid && (
                  <Chip size="small" color="error" sx={{ ml: 1 }} label={translate(`${BATCH_MSG}.notUrl`)} />
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** The change sets, newest first; each rolls back in one click (confirmed), refused naming edited rows. */
function History() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const refresh = useRefresh();
  const admin = useCan('ad.edit');
  const { data = [], isPending, total } = useListContext();
  const [rolling, setRolling] = useState<number | null>(null);
  const rollback = async () => {
    const id = rolling;
    setRolling(null);
    try {
      await request(`${CHANGES_API}/${id}/rollback`, { method: 'POST', json: {} });
      notify(`${BATCH_MSG}.rolledBack`, { type: 'success' });
    } catch {
      // the HTTP client has shown the refusal, naming the rows
    }
    refresh();
  };
  return (
    <Card sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {translate(`${BATCH_MSG}.history`)}
        </Typography>
        {!isPending && !total ? (
          <Typography role="status" color="text.secondary">
            {translate(`${BATCH_MSG}.noHistory`)}
          </Typography>
        ) : (
          <Table size="small" aria-busy={isPending}>
            <TableHead>
              <TableRow>
                <TableCell>{translate(`${BATCH_MSG}.when`)}</TableCell>
                <TableCell>{translate(`${BATCH_MSG}.who`)}</TableCell>
                <TableCell>{translate(`${BATCH_MSG}.what`)}</TableCell>
                <TableCell>{translate(`${BATCH_MSG}.scopeColumn`)}</TableCell>
                <TableCell align="right">{translate(`${BATCH_MSG}.count`)}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((r) => (
                <TableRow key={r.id} data-testid="change-set">
                  <TableCell>{new Date(r.createdAt).toLocaleString(locale)}</TableCell>
                  <TableCell>{r.operatorName}</TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>
                    <Chip
                      size="small"
                      variant="outlined"
                      label={translate(`${BATCH_MSG}.modes.${r.mode}`)}
                      sx={{ mr: 1 }}
                    />
                    <code>{r.find}</code> → <code>{r.replace}</code>
                  </TableCell>
                  <TableCell>
                    <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
                      <SavedScopeChips scope={r.scope ?? null} />
                    </Box>
                  </TableCell>
                  <TableCell align="right">{r.count}</TableCell>
                  <TableCell align="right">
                    {r.rolledBackAt ? (
                      <Chip
                        size="small"
                        label={translate(`${BATCH_MSG}.rolledBackBy`, {
                          who: r.rolledBackBy,
                          when: new Date(r.rolledBackAt).toLocaleString(locale),
                        })}
                      />
                    ) : (
                      admin && (
                        <Button
                          size="small"
                          startIcon={<UndoIcon />}
                          onClick={() => setRolling(r.id as number)}
                        >
                          {translate(`${BATCH_MSG}.rollback`)}
                        </Button>
                      )
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        {!!total && <ListPagination />}
      </CardContent>
      <ConfirmDialog
        open={rolling !== null}
        title={translate(`${BATCH_MSG}.rollback`)}
        question={translate(`${BATCH_MSG}.confirmRollback`)}
        color="warning"
        onClose={() => setRolling(null)}
        onConfirm={rollback}
      />
    </Card>
  );
}

/**
 * `/ad/editBatch` (SPEC.md §2): find and replace in landing URLs, as plain text or a pattern, over the selected ads
 * or every ad matching the list's filter. The preview shows every row before and after and the count; applying is
 * one transaction saved as a change set, listed below with its one-click rollback.
 */
export function EditBatch() {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const state = (useLocation().state ?? {}) as { ids?: number[]; filter?: Record<string, unknown> };
  const ids = state.ids?.length ? state.ids.map(Number) : undefined;
  const filter = asQuery(state.filter);
  const [mode, setMode] = useState<'text' | 'pattern'>('text');
  const [find, setFind] = useState('');
  const [replace, setReplace] = useState('');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  // the preview and the replacement are admin-only on the API (the route's editRoles): others read the history
  const readOnly = useReadOnly();
  const problem = mode === 'pattern' && find ? patternProblem(find) : null;
  const body = { mode, find, replace, ...(ids ? { ids } : { filter }) };

  const runPreview = async () => {
    setBusy(true);
    try {
      setPreview(await request<Preview>(`${REPLACE_API}/preview`, { method: 'POST', json: body }));
    } catch {
      setPreview(null);
    } finally {
      setBusy(false);
    }
  };
  const apply = async () => {
    setConfirming(false);
    if (!preview) return;
    setBusy(true);
    try {
      const versions = Object.fromEntries(preview.rows.map((r) => [String(r.id), r.version]));
      await request(REPLACE_API, { method: 'POST', json: { ...body, versions } });
      notify(`${BATCH_MSG}.applied`, { type: 'success', messageArgs: { count: preview.count } });
      setPreview(null);
      refresh();
    } catch (err) {
      if (err instanceof ApiFailure && err.code === 40900) setPreview(null);
    } finally {
      setBusy(false);
    }
  };
  const edited = () => setPreview(null);

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, width: '100%' }}>
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
            {translate(`${BATCH_MSG}.heading`)}
          </Typography>
          {readOnly && <ReadOnlyBanner />}
          <Scope ids={ids} filter={filter} />
          <RadioGroup
            row
            value={mode}
            onChange={(e) => {
              setMode(e.target.value as 'text' | 'pattern');
              edited();
            }}
            aria-label={translate(`${BATCH_MSG}.mode`)}
          >
            <FormControlLabel value="text" control={<Radio />} label={translate(`${BATCH_MSG}.modes.text`)} />
            <FormControlLabel
              value="pattern"
              control={<Radio />}
              label={translate(`${BATCH_MSG}.modes.pattern`)}
            />
          </RadioGroup>
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', my: 1 }}>
            <TextField
              label={translate(`${BATCH_MSG}.find`)}
              value={find}
              onChange={(e) => {
                setFind(e.target.value);
                edited();
              }}
              error={!!problem}
              helperText={
                problem
                  ? translate(`${BATCH_MSG}.pattern.${problem}`)
                  : translate(`${BATCH_MSG}.help.${mode}`)
              }
              slotProps={{ htmlInput: { maxLength: MAX_FIND, spellCheck: false } }}
              sx={{ minWidth: 320, flex: 1 }}
            />
            <TextField
              label={translate(`${BATCH_MSG}.replace`)}
              value={replace}
              onChange={(e) => {
                setReplace(e.target.value);
                edited();
              }}
              slotProps={{ htmlInput: { maxLength: 1024, spellCheck: false } }}
              sx={{ minWidth: 320, flex: 1 }}
            />
          </Box>
          <Tooltip title={readOnly ? translate(READ_ONLY_REASON) : ''} describeChild>
            {/* a disabled button gets no hover: the tooltip sits on its box */}
            <Box sx={{ display: 'flex', gap: 1, width: 'fit-content' }} data-testid="batch-actions">
              <Button
                variant="outlined"
                onClick={runPreview}
                disabled={readOnly || !find || !!problem || busy}
              >
                {translate(`${BATCH_MSG}.preview`)}
              </Button>
              <Button
                variant="contained"
                startIcon={<FindReplaceIcon />}
                onClick={() => setConfirming(true)}
                disabled={readOnly || !preview || preview.count === 0 || preview.invalid > 0 || busy}
              >
                {translate(`${BATCH_MSG}.apply`)}
              </Button>
            </Box>
          </Tooltip>
          {preview && (
            <Box sx={{ mt: 2 }}>
              <Alert severity={preview.invalid ? 'error' : preview.count ? 'info' : 'warning'} sx={{ mb: 1 }}>
                {preview.invalid
                  ? translate(`${BATCH_MSG}.invalid`, { count: preview.count, invalid: preview.invalid })
                  : translate(`${BATCH_MSG}.willChange`, { count: preview.count })}
              </Alert>
              {preview.count > 0 && <PreviewTable preview={preview} />}
            </Box>
          )}
        </CardContent>
      </Card>
      <ListBase resource={CHANGES_RESOURCE} perPage={10} disableSyncWithLocation>
        <History />
      </ListBase>
      <ConfirmDialog
        open={confirming}
        title={translate(`${BATCH_MSG}.apply`)}
        question={translate(`${BATCH_MSG}.confirmApply`, { count: preview?.count ?? 0 })}
        onClose={() => setConfirming(false)}
        onConfirm={apply}
      />
    </Box>
  );
}
