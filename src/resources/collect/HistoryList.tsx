import HistoryIcon from '@mui/icons-material/History';
import {
  Alert,
  Link as MuiLink,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { FunctionField, List, TextField, useRecordContext, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { request } from '../../api/http';
import { ListEmpty } from '../../components/ListEmpty';
import { Datagrid, ListPagination, LocaleDateField } from '../../layout/listParts';
import { actressEditPath } from '../actresses/names';
import { novelEditPath } from '../novel/names';
import { RUN_MSG, runApi, SECTION_MSG } from './names';
import { type Run, RunStatusChip, seconds } from './shared';

const f = (name: string) => `${RUN_MSG}.fields.${name}`;

interface LogEntry {
  remoteId: number | null;
  name: string;
  outcome: string;
  reason?: string;
  locked?: string[];
  problems?: string[];
  /** A 'local' source's cover: to be fetched (a dry run), or why it was not (server/modules/collect/covers.ts). */
  cover?: { note: string; detail?: string };
  /** What the item became or matched (added, updated, unchanged): a movie, a novel or an actress. */
  movieId?: number;
  novelId?: number;
  actressId?: number;
}

/** Where a collected movie is edited: the review queue's edit page (it holds every status). */
export const movieEditPath = (id: number) => `/movie/review/edit/${id}`;

/** The edit page of what an entry became: a movie's or a novel's in their review queue, an actress's profile. */
export function itemEditPath(entry: LogEntry): string | undefined {
  if (entry.movieId) return movieEditPath(entry.movieId);
  if (entry.novelId) return novelEditPath(entry.novelId);
  if (entry.actressId) return actressEditPath(entry.actressId);
  return undefined;
}

/** The item's name, linking to what it became when it became something. */
function ItemName({ entry }: { entry: LogEntry }) {
  const to = itemEditPath(entry);
  if (!to) return <>{entry.name}</>;
  return (
    // inside an expanded row: the click opens the item, it does not fold the row
    <MuiLink component={Link} to={to} onClick={(e) => e.stopPropagation()}>
      {entry.name}
    </MuiLink>
  );
}

/** A run's per-item log (read when its row opens): remote id, name, what happened and why, locked fields. */
function RunLog() {
  const record = useRecordContext<Run>();
  const translate = useTranslate();
  const [log, setLog] = useState<LogEntry[] | null>(null);
  const [error, setError] = useState('');
  const id = record?.id;
  useEffect(() => {
    if (!id) return;
    let live = true;
    request<Run>(runApi(id), { quiet: true })
      .then((r) => live && setLog((r.log ?? []) as unknown as LogEntry[]))
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [id]);
  if (error) return <Alert severity="error">{error}</Alert>;
  if (!log) return null;
  if (log.length === 0) return <Typography variant="body2">{translate(`${RUN_MSG}.noLog`)}</Typography>;
  return (
    <Table size="small" data-testid="run-log">
      <TableHead>
        <TableRow>
          <TableCell>{translate(f('remoteId'))}</TableCell>
          <TableCell>{translate(f('itemName'))}</TableCell>
          <TableCell>{translate(f('outcome'))}</TableCell>
          <TableCell>{translate(f('reason'))}</TableCell>
          <TableCell>{translate(f('locked'))}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {log.map((e, i) => (
          // entries have no id of their own; a run's log never reorders
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <TableRow key={i}>
            <TableCell>{e.remoteId ?? '—'}</TableCell>
            <TableCell>
              <ItemName entry={e} />
            </TableCell>
            <TableCell>{translate(`${SECTION_MSG}.outcome.${e.outcome}`)}</TableCell>
            <TableCell>
              {[
                e.reason ? translate(`${SECTION_MSG}.reason.${e.reason}`) : '',
                ...(e.problems ?? []),
                e.cover
                  ? translate(`${SECTION_MSG}.cover.${e.cover.note}`, { detail: e.cover.detail ?? '' })
                  : '',
              ]
                .filter(Boolean)
                .join('; ')}
            </TableCell>
            <TableCell>{(e.locked ?? []).join(', ')}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** `/collect/history`: the runs, newest first; a row opens its per-item log. */
export function HistoryList() {
  const translate = useTranslate();
  return (
    <List
      sort={{ field: 'id', order: 'DESC' }}
      pagination={<ListPagination />}
      empty={<ListEmpty icon={HistoryIcon} messages={RUN_MSG} />}
      exporter={false}
    >
      <Datagrid bulkActionButtons={false} expand={<RunLog />} rowClick="expand">
        <TextField source="id" label={f('id')} />
        <FunctionField
          label={f('sourceName')}
          render={(r: Run) => (
            // the kind on a line of its own under the name, so the column stays as narrow as the name
            <>
              {r.sourceName}
              {r.sourceKind && r.sourceKind !== 'vod' && (
                <Typography variant="caption" component="div" color="text.secondary">
                  {translate(`${SECTION_MSG}.sourceKind.${r.sourceKind}`)}
                </Typography>
              )}
            </>
          )}
        />
        <FunctionField
          label={f('kind')}
          render={(r: Run) =>
            `${translate(`${SECTION_MSG}.kind.${r.kind}`)}${r.dryRun ? ` · ${translate(`${SECTION_MSG}.dryRun`)}` : ''}`
          }
        />
        <TextField source="startedByName" label={f('startedByName')} sortable={false} />
        <LocaleDateField source="startedAt" label={f('startedAt')} />
        <FunctionField label={f('duration')} render={(r: Run) => seconds(r.durationMs)} />
        <FunctionField
          label={f('counts')}
          render={(r: Run) =>
            translate(`${SECTION_MSG}.counts`, {
              added: r.added,
              updated: r.updated,
              skipped: r.skipped,
              failed: r.failed,
            })
          }
        />
        <FunctionField label={f('status')} render={(r: Run) => <RunStatusChip status={r.status} />} />
        {/* a failure reason can be long: one line, cut, whole in its tooltip, so the list never scrolls sideways */}
        <FunctionField
          label={f('errorText')}
          render={(r: Run) => (
            <Typography variant="body2" noWrap title={r.errorText} sx={{ maxWidth: 220 }}>
              {r.errorText}
            </Typography>
          )}
        />
      </Datagrid>
    </List>
  );
}
