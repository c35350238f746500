import SaveIcon from '@mui/icons-material/Save';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  MenuItem,
  TextField as MuiTextField,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { Title, useNotify, useTranslate } from 'react-admin';
import { ApiFailure, request } from '../../api/http';
import { useCan } from '../../auth/permission';
import { columnTree, treeOrder, useAllColumns } from '../../components/columnTreeData';
import { COLUMN_RESOURCE } from '../movie/names';
import { COLUMN_RESOURCE as NOVEL_COLUMN_RESOURCE } from '../novel/names';
import { BIND_MSG, bindingsApi, SECTION_MSG } from './names';
import { sourceLabel, useSources } from './shared';

interface Binding {
  remoteTypeId: number;
  remoteTypeName: string;
  columnId: number | null;
  columnName: string | null;
  skipped: boolean;
  bound: boolean;
}

/** A row's choice in the picker: a column id, "skip", or "" (not bound yet). */
const choiceOf = (b: Binding) => (b.skipped ? 'skip' : b.columnId === null ? '' : String(b.columnId));

/**
 * `/collect/bind`: each remote type of a source bound to one of our columns (movie columns for a video site, novel
 * columns for an article site) or to "skip". A performer site has nothing to bind: actresses have no columns.
 */
export function Bind() {
  const translate = useTranslate();
  const notify = useNotify();
  const isAdmin = useCan('collect.settings');
  const sources = useSources();
  const { data: movieColumns } = useAllColumns(COLUMN_RESOURCE);
  const { data: novelColumns } = useAllColumns(NOVEL_COLUMN_RESOURCE);
  const [sourceId, setSourceId] = useState<number | ''>('');
  const kind = sources.find((s) => s.id === sourceId)?.kind ?? 'vod';
  const columns = kind === 'art' ? novelColumns : movieColumns;
  const [rows, setRows] = useState<Binding[] | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (sourceId === '') return;
    let live = true;
    setRows(null);
    setError('');
    request<{ list: Binding[] }>(bindingsApi(sourceId), { quiet: true })
      .then((r) => live && setRows(r.list))
      .catch((e: Error) => live && setError(e instanceof ApiFailure ? e.msg : e.message));
    return () => {
      live = false;
    };
  }, [sourceId]);

  const choose = (typeId: number, choice: string) =>
    setRows((list) =>
      (list ?? []).map((b) =>
        b.remoteTypeId !== typeId
          ? b
          : {
              ...b,
              skipped: choice === 'skip',
              columnId: choice === 'skip' || choice === '' ? null : Number(choice),
              bound: choice !== '',
            },
      ),
    );
  const save = async () => {
    if (sourceId === '' || !rows) return;
    setBusy(true);
    setError('');
    try {
      const r = await request<{ list: Binding[] }>(bindingsApi(sourceId), {
        method: 'PUT',
        quiet: true,
        json: {
          bindings: rows
            .filter((b) => b.bound)
            .map((b) => ({
              remoteTypeId: b.remoteTypeId,
              remoteTypeName: b.remoteTypeName,
              columnId: b.columnId,
              skipped: b.skipped,
            })),
        },
      });
      setRows(r.list);
      notify(`${BIND_MSG}.saved`, { type: 'success' });
    } catch (e) {
      setError(e instanceof ApiFailure ? e.msg : String(e));
    } finally {
      setBusy(false);
    }
  };
  const options = treeOrder(columnTree(columns ?? []));
  const unbound = (rows ?? []).filter((b) => !b.bound);

  return (
    <Box sx={{ mt: 1, maxWidth: 900 }}>
      <Title title={translate(`${SECTION_MSG}.menu.bind`)} />
      <Card>
        <CardContent>
          <Stack spacing={2}>
            <MuiTextField
              select
              size="small"
              label={translate(`${BIND_MSG}.source`)}
              value={sourceId}
              onChange={(e) => setSourceId(Number(e.target.value))}
              sx={{ maxWidth: 360 }}
            >
              {sources.map((s) => (
                <MenuItem key={s.id} value={s.id}>
                  {sourceLabel(s.name, s.kind, translate)}
                </MenuItem>
              ))}
            </MuiTextField>
            {error && <Alert severity="error">{error}</Alert>}
            {sourceId !== '' && kind === 'actor' && (
              <Alert severity="info">{translate(`${BIND_MSG}.actorNoTypes`)}</Alert>
            )}
            {kind !== 'actor' && rows && rows.length === 0 && (
              <Alert severity="info">{translate(`${BIND_MSG}.noTypes`)}</Alert>
            )}
            {unbound.length > 0 && (
              <Alert severity="warning" data-testid="unbound">
                {translate(`${BIND_MSG}.unbound`, { count: unbound.length })}
                <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5, mt: 1 }}>
                  {unbound.map((b) => (
                    <Chip key={b.remoteTypeId} size="small" label={`${b.remoteTypeId} ${b.remoteTypeName}`} />
                  ))}
                </Stack>
              </Alert>
            )}
            {rows && rows.length > 0 && (
              <Table size="small">
                <TableHead>
                  <TableRow>
                    <TableCell>{translate(`${BIND_MSG}.remoteType`)}</TableCell>
                    <TableCell>{translate(`${BIND_MSG}.column`)}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.map((b) => (
                    <TableRow key={b.remoteTypeId}>
                      <TableCell id={`bind-${b.remoteTypeId}-type`}>
                        {b.remoteTypeId} {b.remoteTypeName}
                      </TableCell>
                      <TableCell>
                        {/* each picker named by its label and its row's remote type: they were all "Our column" */}
                        <MuiTextField
                          select
                          size="small"
                          fullWidth
                          disabled={!isAdmin}
                          id={`bind-${b.remoteTypeId}`}
                          slotProps={{
                            select: {
                              SelectDisplayProps: {
                                'aria-labelledby': `bind-${b.remoteTypeId}-label bind-${b.remoteTypeId}-type`,
                              },
                            },
                          }}
                          label={translate(`${BIND_MSG}.column`)}
                          value={choiceOf(b)}
                          onChange={(e) => choose(b.remoteTypeId, e.target.value)}
                        >
                          <MenuItem value="">{translate(`${BIND_MSG}.notBound`)}</MenuItem>
                          <MenuItem value="skip">{translate(`${BIND_MSG}.skip`)}</MenuItem>
                          {options.map((c) => (
                            <MenuItem key={c.id} value={String(c.id)}>
                              {c.path.join(' / ')}
                            </MenuItem>
                          ))}
                        </MuiTextField>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
            {isAdmin && rows && rows.length > 0 && (
              <Box>
                <Button variant="contained" startIcon={<SaveIcon />} onClick={save} disabled={busy}>
                  {translate('ra.action.save')}
                </Button>
              </Box>
            )}
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
