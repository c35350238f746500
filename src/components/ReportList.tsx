import InsightsIcon from '@mui/icons-material/Insights';
import ViewColumnIcon from '@mui/icons-material/ViewColumn';
import {
  Box,
  Button,
  Checkbox,
  LinearProgress,
  Link,
  Menu,
  MenuItem,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableFooter,
  TableHead,
  TableRow,
  TableSortLabel,
  Tooltip,
  Typography,
} from '@mui/material';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import {
  ListBase,
  type RaRecord,
  type SortPayload,
  useListContext,
  useLocaleState,
  useTranslate,
} from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { isFuture, type Period, presentKey } from '../../common/period';
import type { ReportMeta as ReportAnswerMeta } from '../api/dataProvider';
import { useUser } from '../api/session';
import { ListPagination, LocalTablePagination, stickyFirstColumnSx } from '../layout/listParts';
import { type CsvColumn, ExportCsvButton } from './ExportCsvButton';
import { PeriodBar, useReportCalendar, useReportPeriod, visuallyHidden } from './ReportPeriod';
import { compareFigure, formatChange, formatFigure, type ReportFigure, TREND_ARROW } from './reportFigures';

/** MUI X Charts only loads with the first report that draws a chart. */
const ReportChart = lazy(() => import('./ReportChart'));

/** A column that is not a figure: the row's key or label, a date, a flag. */
export interface ReportColumn {
  source: string;
  /** i18n key of the header. */
  label: string;
  render?: (record: RaRecord) => ReactNode;
  /** The CSV cell, the same text as the screen (defaults to the record's value). */
  text?: (record: RaRecord, translate: (key: string) => string) => unknown;
  sortable?: boolean;
}

export interface ReportListProps {
  /** The react-admin resource of the report (its API path is declared with the section). */
  resource: string;
  /** The row's own columns; the first one is the key and reads "Total" in the totals row. */
  columns: ReportColumn[];
  figures: ReportFigure[];
  /** Fixed query parameters of this report (`zeroOnly`, `domain`, `dimension`, `type`). */
  filter?: Record<string, unknown>;
  sort: SortPayload;
  /** The report can compare with the previous period (rows carry `previous`). */
  comparable?: boolean;
  /** Draw the series above the table (the figures not marked `chart: false`). */
  chart?: boolean;
  /** The first column links there (a detail screen). */
  rowLink?: (record: RaRecord) => string;
  /** A last column of actions on the row. */
  actions?: { label: string; render: (record: RaRecord) => ReactNode };
  /** The CSV file's name. */
  filename: string;
  /**
   * false: the API answers every row at once (a domain's hours): the table pages them itself, `localPageSizes[0]`
   * rows a page at first.
   */
  paged?: boolean;
  /** With `paged: false`: the page sizes offered (one day of hours, three, a week…). */
  localPageSizes?: number[];
  /** More controls beside the export button. */
  toolbar?: ReactNode;
  /** i18n keys of the empty state. */
  empty?: { title: string; hint?: string };
  /** Where the tenant's reporting calendar comes from. */
  metaPath?: string;
  /** The figures can be hidden by the operator, remembered per operator under this name. */
  hideable?: string;
  /** With `hideable`: the figures hidden until the operator chooses (a wide report fits the screen at first). */
  hiddenByDefault?: string[];
}

const hiddenKey = (name: string, uid: unknown) => `zg.report.hidden.${uid ?? ''}.${name}`;

/** The figures an operator hid on a report (browser storage, one entry per operator and report). */
export function useHiddenFigures(name: string | undefined, uid: unknown, byDefault: string[] = []) {
  const [hidden, setHidden] = useState<string[]>(() => {
    if (!name) return [];
    try {
      const stored = localStorage.getItem(hiddenKey(name, uid));
      const v = stored === null ? byDefault : JSON.parse(stored);
      return Array.isArray(v) ? v.map(String) : [];
    } catch {
      return [];
    }
  });
  const toggle = (source: string) => {
    const next = hidden.includes(source) ? hidden.filter((s) => s !== source) : [...hidden, source];
    setHidden(next);
    if (name) localStorage.setItem(hiddenKey(name, uid), JSON.stringify(next));
  };
  return { hidden, toggle };
}

/** Which figures show: a menu of checkboxes (at least one stays). */
function ColumnsButton({
  figures,
  hidden,
  toggle,
}: {
  figures: ReportFigure[];
  hidden: string[];
  toggle: (source: string) => void;
}) {
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const shown = figures.filter((f) => !hidden.includes(f.source)).length;
  return (
    <>
      <Button
        size="small"
        startIcon={<ViewColumnIcon />}
        onClick={(e) => setAnchor(e.currentTarget)}
        aria-haspopup="menu"
      >
        {translate('report.columns')}
      </Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {figures.map((f) => {
          const on = !hidden.includes(f.source);
          return (
            <MenuItem
              key={f.source}
              role="menuitemcheckbox"
              aria-checked={on}
              disabled={on && shown === 1}
              onClick={() => toggle(f.source)}
            >
              <Checkbox size="small" checked={on} tabIndex={-1} disableRipple sx={{ p: 0, mr: 1 }} />
              {translate(f.label)}
            </MenuItem>
          );
        })}
      </Menu>
    </>
  );
}

/**
 * A report over a report resource: the period (presets, a custom range in the tenant's time zone,
 * comparison with the previous period), a chart of the series, a table sorted by any figure with the change of
 * each figure and a totals row, CSV of exactly the rows and columns shown, empty and loading states. Stats, ads
 * and agents reports are declarations of it.
 */
export function ReportList(props: ReportListProps) {
  const user = useUser();
  const { hidden, toggle } = useHiddenFigures(props.hideable, user?.uid, props.hiddenByDefault);
  const shownFigures = props.hideable
    ? props.figures.filter((f) => !hidden.includes(f.source))
    : props.figures;
  const toolbar = props.hideable ? (
    <>
      {props.toolbar}
      <ColumnsButton figures={props.figures} hidden={hidden} toggle={toggle} />
    </>
  ) : (
    props.toolbar
  );
  const { meta, isPending } = useReportCalendar(props.metaPath);
  const state = useReportPeriod(meta.today);
  const comparable = props.comparable ?? props.figures.length > 0;
  const compare = comparable && state.compare;
  const filter = {
    ...props.filter,
    from: state.period.from,
    to: state.period.to,
    ...(comparable ? { compare } : {}),
  };
  return (
    <Box sx={{ width: '100%' }}>
      <PeriodBar state={state} meta={meta} comparable={comparable} />
      {isPending ? (
        <LoadingState />
      ) : (
        <ListBase
          resource={props.resource}
          filter={filter}
          sort={props.sort}
          perPage={20}
          disableSyncWithLocation
        >
          <ReportView
            {...props}
            figures={shownFigures}
            toolbar={toolbar}
            compare={compare}
            period={state.period}
            timeZone={meta.timeZone}
          />
        </ListBase>
      )}
    </Box>
  );
}

function LoadingState() {
  const translate = useTranslate();
  return <LinearProgress aria-label={translate('report.loading')} sx={{ my: 2 }} />;
}

function EmptyState({ empty }: { empty?: ReportListProps['empty'] }) {
  const translate = useTranslate();
  return (
    <Box role="status" sx={{ textAlign: 'center', py: 6, color: 'text.secondary' }}>
      <InsightsIcon sx={{ fontSize: 56 }} aria-hidden />
      <Typography variant="h6" component="p" color="text.primary">
        {translate(empty?.title ?? 'report.empty')}
      </Typography>
      <Typography variant="body2">{translate(empty?.hint ?? 'report.emptyHint')}</Typography>
    </Box>
  );
}

/** A figure and, when comparing, its change: an arrow and signed numbers, coloured, and said in words. */
function FigureValue({
  value,
  previous,
  figure,
  compare,
}: {
  value: unknown;
  previous: unknown;
  figure: ReportFigure;
  compare: boolean;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const main = formatFigure(value, figure.format, locale);
  if (!compare) return <>{main}</>;
  const { shown, said, good } = describeChange(value, previous, figure, locale, translate);
  return (
    <>
      {main}
      <Typography
        variant="caption"
        component="span"
        data-testid="delta"
        sx={{
          display: 'block',
          whiteSpace: 'nowrap',
          color: good === null ? 'text.secondary' : good ? 'success.main' : 'error.main',
        }}
      >
        <span aria-hidden>{shown}</span>
        <Box component="span" sx={visuallyHidden}>
          {said}
        </Box>
      </Typography>
    </>
  );
}

/** The change of a figure as shown (`▲ +3 (+12.5%)`) and as said (`up 3 (+12.5%) from 24`). */
export function describeChange(
  value: unknown,
  previous: unknown,
  figure: ReportFigure,
  locale: string,
  translate: (key: string, args?: Record<string, unknown>) => string,
) {
  const cmp = compareFigure(value, previous, figure.lowerIsBetter);
  const change = formatChange(cmp, figure.format, locale, (v) =>
    translate('report.delta.points', { value: v }),
  );
  const shown = `${TREND_ARROW[cmp.trend]} ${change.diff}${change.pct ? ` (${change.pct})` : ''}`;
  const key = cmp.trend === 'flat' ? 'flat' : cmp.ratio === null ? 'new' : cmp.trend;
  const said = translate(`report.delta.${key}`, {
    diff: change.diff.replace(/^[+−]/, ''),
    pct: change.pct ?? '',
    previous: formatFigure(cmp.previous, figure.format, locale),
  });
  return { shown, said, good: cmp.good };
}

interface ViewProps extends ReportListProps {
  compare: boolean;
  period: Period;
  timeZone: string;
}

/**
 * A report answered whole (`paged: false`), paged on the screen: the page and its size, back to the first page
 * when the rows change order or period.
 */
function useLocalPages(sizes: number[], reset: unknown[]) {
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(sizes[0]);
  const key = JSON.stringify(reset);
  const [seen, setSeen] = useState(key);
  if (seen !== key) {
    setSeen(key);
    setPage(0);
  }
  return { page, size, setPage, setSize };
}

const LOCAL_PAGE_SIZES = [24, 72, 168];

const TOTAL_ID = '__total';

function ReportView(props: ViewProps) {
  const { columns, figures, compare, period } = props;
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { data, total, isPending, meta, sort, setSort } = useListContext();
  const local = useLocalPages(props.localPageSizes ?? LOCAL_PAGE_SIZES, [sort, period, compare]);
  // A report answered whole is a period's hours: those not yet come have nothing to show (the chart leaves them out
  // too), and would head the table when it lists the latest first.
  const present = presentKey(new Date(), props.timeZone);
  const localRows =
    props.paged === false ? (data ?? []).filter((r) => !isFuture(String(r.key), present)) : undefined;
  const pageRows = localRows ? localRows.slice(local.page * local.size, (local.page + 1) * local.size) : data;
  const report = meta as Partial<ReportAnswerMeta> | undefined;
  const totals = report?.totals;
  const series = report?.series ?? [];
  const chartFigures = figures.filter((f) => f.chart !== false);
  const showChart = (props.chart ?? chartFigures.length > 0) && series.length > 0 && (total ?? 0) > 0;
  const hasRows = !isPending && (total ?? 0) > 0;
  const totalRecord: RaRecord | undefined =
    totals && figures.length > 0
      ? { id: TOTAL_ID, ...totals, ...(report?.previousTotals ? { previous: report.previousTotals } : {}) }
      : undefined;

  // The CSV: the same columns and the same text as the table, the totals row last.
  const csvColumns: CsvColumn[] = [
    ...columns.map((c, i) => ({
      label: c.label,
      value: (r: RaRecord, t: (key: string) => string) =>
        r.id === TOTAL_ID ? (i === 0 ? t('report.total') : '') : c.text ? c.text(r, t) : r[c.source],
    })),
    ...figures.flatMap((f): CsvColumn[] => {
      const main = { label: f.label, value: (r: RaRecord) => formatFigure(r[f.source], f.format, locale) };
      if (!compare) return [main];
      const name = { name: translate(f.label) };
      return [
        main,
        {
          label: 'report.csv.previous',
          labelArgs: name,
          value: (r) => formatFigure(r.previous?.[f.source] ?? 0, f.format, locale),
        },
        {
          label: 'report.csv.change',
          labelArgs: name,
          value: (r) => describeChange(r[f.source], r.previous?.[f.source], f, locale, translate).shown,
        },
      ];
    }),
  ];

  const sortBy = (field: string) =>
    setSort({ field, order: sort.field === field && sort.order === 'DESC' ? 'ASC' : 'DESC' });
  const header = (
    source: string,
    label: string,
    sortable: boolean,
    align: 'left' | 'right',
    help?: string,
  ) => {
    const active = sort.field === source;
    const text = help ? (
      <Tooltip title={translate(help)} describeChild>
        <Box
          component="span"
          sx={{ textDecoration: 'underline dotted', textUnderlineOffset: 3, cursor: 'help' }}
        >
          {translate(label)}
        </Box>
      </Tooltip>
    ) : (
      translate(label)
    );
    return (
      <TableCell
        key={source}
        align={align}
        sortDirection={active ? (sort.order.toLowerCase() as 'asc' | 'desc') : false}
        sx={{ whiteSpace: 'nowrap', fontWeight: 600 }}
      >
        {sortable ? (
          <TableSortLabel
            active={active}
            direction={active ? (sort.order.toLowerCase() as 'asc' | 'desc') : 'desc'}
            onClick={() => sortBy(source)}
          >
            {text}
          </TableSortLabel>
        ) : (
          text
        )}
      </TableCell>
    );
  };
  const width = columns.length + figures.length + (props.actions ? 1 : 0);

  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 1 }}>
        {props.toolbar}
        <Box sx={{ flex: 1 }} />
        <ExportCsvButton
          columns={csvColumns}
          filename={`${props.filename}-${period.from}-${period.to}`}
          done="report.csv.done"
          footer={totalRecord ? [totalRecord] : []}
        />
      </Box>
      {showChart && (
        <Suspense fallback={<Skeleton variant="rectangular" height={260} />}>
          <ReportChart
            series={series}
            figures={chartFigures}
            timeZone={props.timeZone}
            label={translate('report.chart', {
              figures: chartFigures.map((f) => translate(f.label)).join(locale === 'zh-CN' ? '、' : ', '),
              from: series[0]?.date,
              to: series[series.length - 1]?.date,
            })}
          />
        </Suspense>
      )}
      <TableContainer
        sx={(theme) => ({
          // the report lies on the page, not on a card
          ...stickyFirstColumnSx(theme, 'default'),
          // a long key (a title, a domain, a URL) wraps rather than widening the table
          '& tr > :first-child': { maxWidth: 320, overflowWrap: 'anywhere' },
        })}
      >
        <Table size="small" aria-busy={isPending}>
          <TableHead>
            <TableRow>
              {columns.map((c) => header(c.source, c.label, !!c.sortable, 'left'))}
              {figures.map((f) => header(f.source, f.label, f.sortable !== false, 'right', f.help))}
              {props.actions && (
                <TableCell align="right" sx={{ fontWeight: 600 }}>
                  {translate(props.actions.label)}
                </TableCell>
              )}
            </TableRow>
          </TableHead>
          <TableBody>
            {isPending ? (
              <TableRow>
                <TableCell colSpan={width}>
                  <LoadingState />
                </TableCell>
              </TableRow>
            ) : !hasRows ? (
              <TableRow>
                <TableCell colSpan={width}>
                  <EmptyState empty={props.empty} />
                </TableCell>
              </TableRow>
            ) : (
              (pageRows ?? []).map((r) => (
                <TableRow key={r.id} hover>
                  {columns.map((c, i) => {
                    const content = c.render ? c.render(r) : String(r[c.source] ?? '');
                    return (
                      <TableCell
                        key={c.source}
                        component={i === 0 ? 'th' : 'td'}
                        scope={i === 0 ? 'row' : undefined}
                      >
                        {i === 0 && props.rowLink ? (
                          <Link component={RouterLink} to={props.rowLink(r)}>
                            {content}
                          </Link>
                        ) : (
                          content
                        )}
                      </TableCell>
                    );
                  })}
                  {figures.map((f) => (
                    <TableCell key={f.source} align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                      <FigureValue
                        value={r[f.source]}
                        previous={r.previous?.[f.source]}
                        figure={f}
                        compare={compare}
                      />
                    </TableCell>
                  ))}
                  {props.actions && <TableCell align="right">{props.actions.render(r)}</TableCell>}
                </TableRow>
              ))
            )}
          </TableBody>
          {hasRows && totalRecord && (
            <TableFooter>
              <TableRow data-testid="totals">
                {columns.map((c, i) => (
                  <TableCell
                    key={c.source}
                    component={i === 0 ? 'th' : 'td'}
                    scope={i === 0 ? 'row' : undefined}
                    sx={{ fontWeight: 600, color: 'text.primary', fontSize: '0.875rem' }}
                  >
                    {i === 0 ? translate('report.total') : ''}
                  </TableCell>
                ))}
                {figures.map((f) => (
                  <TableCell
                    key={f.source}
                    align="right"
                    sx={{
                      fontWeight: 600,
                      color: 'text.primary',
                      fontSize: '0.875rem',
                      fontVariantNumeric: 'tabular-nums',
                    }}
                  >
                    <FigureValue
                      value={totalRecord[f.source]}
                      previous={totalRecord.previous?.[f.source]}
                      figure={f}
                      compare={compare}
                    />
                  </TableCell>
                ))}
                {props.actions && <TableCell />}
              </TableRow>
            </TableFooter>
          )}
        </Table>
      </TableContainer>
      {hasRows && props.paged !== false && <ListPagination />}
      {hasRows && props.paged === false && (
        <LocalTablePagination
          count={localRows?.length ?? 0}
          page={local.page}
          rowsPerPage={local.size}
          rowsPerPageOptions={props.localPageSizes ?? LOCAL_PAGE_SIZES}
          onPageChange={(_, p) => local.setPage(p)}
          onRowsPerPageChange={(e) => {
            local.setSize(Number(e.target.value));
            local.setPage(0);
          }}
        />
      )}
    </Box>
  );
}
