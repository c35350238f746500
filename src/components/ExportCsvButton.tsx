import DownloadIcon from '@mui/icons-material/GetApp';
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
import { walkPages } from '../api/pages';

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

/** The rows as CSV with a header line, UTF-8 with a BOM (so spreadsheet programs read Chinese right). */
export function toCsv(
  rows: RaRecord[],
  columns: CsvColumn[],
  translate: (key: string, args?: Record<string, unknown>) => string,
) {
  const lines = [columns.map((c) => csvCell(translate(c.label, c.labelArgs)))];
  for (const r of rows) lines.push(columns.map((c) => csvCell(c.value(r, translate))));
  return `\uFEFF${lines.map((l) => l.join(',')).join('\r\n')}`;
}

/**
 * Exports the whole filtered and sorted list (up to `max` rows) as CSV. react-admin's ExportButton asks for one
 * page of `maxResults` rows, which the API refuses (page sizes are 10/20/50/100); this walks the pages instead.
 */
export function ExportCsvButton({
  columns,
  filename,
  max = 10_000,
  done,
  footer = [],
}: {
  columns: CsvColumn[];
  filename: string;
  max?: number;
  /** Rows after the list's (a report's totals row). */
  footer?: RaRecord[];
  /** i18n key of the success message; gets `%{count}`. */
  done: string;
}) {
  const { filter, filterValues, sort, resource, total } = useListContext();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const translate = useTranslate();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const { rows: kept } = await walkPages(
        (page, perPage) =>
          dataProvider.getList(resource, {
            sort,
            filter: filter ? { ...filterValues, ...filter } : filterValues,
            pagination: { page, perPage },
          }),
        { limit: max },
      );
      downloadCSV(toCsv([...kept, ...footer], columns, translate), filename);
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
