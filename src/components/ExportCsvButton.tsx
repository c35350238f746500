import DownloadIcon from '@mui/icons-material/GetApp';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  Button,
  downloadCSV,
  type RaRecord,
  useDataProvider,
  useListContext,
  useNotify,
  useTranslate,
} from 'react-admin';
import { DEFAULT_TIME_ZONE, formatInstant, utcOffsetLabel } from '../../common/period';
import { walkPages } from '../api/pages';
import { reportMetaQuery } from './reportCalendar';

export interface CsvColumn {
  /** i18n key of the header. */
  label: string;
  /** Arguments of the header's message. */
  labelArgs?: Record<string, unknown>;
  value: (record: RaRecord, translate: (key: string) => string) => unknown;
}

/** One CSV cell: quoted when needed; a leading = + - @ is defused so a spreadsheet never runs it as a formula. */
export function csvCell(value: unknown): string {
  let s = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** An instant as the API sends it (ISO 8601 with a time and a zone), not a bare day. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const instantOf = (v: unknown): Date | null => {
  const d = v instanceof Date ? v : typeof v === 'string' && INSTANT.test(v) ? new Date(v) : null;
  return d && !Number.isNaN(d.getTime()) ? d : null;
};

/**
 * The rows as CSV with a header line, UTF-8 with a BOM (so spreadsheet programs read Chinese right). Instants are
 * written on the operator's wall clock (`timeZone`, the tenant's) as `YYYY-MM-DD HH:mm:ss`, and the header of such
 * a column names the zone, so nobody has to convert `…T17:32:04.674Z` in their head.
 */
export function toCsv(
  rows: RaRecord[],
  columns: CsvColumn[],
  translate: (key: string, args?: Record<string, unknown>) => string,
  timeZone = DEFAULT_TIME_ZONE,
) {
  const values = rows.map((r) => columns.map((c) => c.value(r, translate)));
  const timed = columns.map((_, i) => values.some((row) => instantOf(row[i]) !== null));
  const zone = `${timeZone} ${utcOffsetLabel(new Date(), timeZone)}`;
  const header = columns.map((c, i) => {
    const label = translate(c.label, c.labelArgs);
    return csvCell(timed[i] ? translate('shell.list.timeHeader', { label, zone }) : label);
  });
  const lines = [header];
  for (const row of values)
    lines.push(
      row.map((v) => {
        const t = instantOf(v);
        if (t) return csvCell(formatInstant(t, timeZone));
        return csvCell(typeof v === 'boolean' ? translate(`ra.boolean.${v}`) : v);
      }),
    );
  return `\uFEFF${lines.map((l) => l.join(',')).join('\r\n')}`;
}

/** Columns headed `<messages>.fields.<name>` (a resource's messages, `resources.<resource>`) showing the value. */
export const fieldColumns = (messages: string, names: string[]): CsvColumn[] =>
  names.map((name) => ({ label: `${messages}.fields.${name}`, value: (r) => r[name] }));

/**
 * Exports the whole filtered and sorted list (up to `max` rows) as CSV. react-admin's ExportButton asks for one
 * page of `maxResults` rows, which the API refuses (page sizes are 10/20/50/100); this walks the pages instead.
 */
export function ExportCsvButton({
  columns,
  filename,
  max = 10_000,
  done = 'shell.list.exported',
  footer = [],
}: {
  columns: CsvColumn[];
  filename: string;
  max?: number;
  /** Rows after the list's (a report's totals row). */
  footer?: RaRecord[];
  /** i18n key of the success message; gets `%{count}`. */
  done?: string;
}) {
  const { filter, filterValues, sort, resource, total } = useListContext();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      // the tenant's time zone (Settings → Statistics); the default zone when it cannot be read
      const timeZone = await queryClient
        .fetchQuery(reportMetaQuery())
        .then((m) => m.timeZone)
        .catch(() => DEFAULT_TIME_ZONE);
      const { rows: kept } = await walkPages(
        (page, perPage) =>
          dataProvider.getList(resource, {
            sort,
            filter: filter ? { ...filterValues, ...filter } : filterValues,
            pagination: { page, perPage },
          }),
        { limit: max },
      );
      downloadCSV(toCsv([...kept, ...footer], columns, translate, timeZone), filename);
      notify(done, { type: 'success', messageArgs: { count: kept.length } });
    } catch {
      // the HTTP client has shown the server's message
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button label="ra.action.export" onClick={run} disabled={busy || total === 0}>
      <DownloadIcon />
    </Button>
  );
}
