/**
 * Figures of a report: how each is written and how it compares with the previous period. Pure
 * functions, shared by the report table, its CSV and its tests, so the CSV reads exactly as the screen.
 */

/**
 * `count`: an integer with grouping; `decimal`: one decimal; `money`: two decimals (commissions, recharges);
 * `percent`: a 0..1 ratio shown as a percentage.
 */
export type FigureFormat = 'count' | 'decimal' | 'money' | 'percent';

export interface ReportFigure {
  /** The figure's name in the API's rows, totals and series (`searches`, `playRate`). */
  source: string;
  /** i18n key of its column header. */
  label: string;
  format?: FigureFormat;
  /** A lower value is the better one (bounce rate): a fall is shown as good. */
  lowerIsBetter?: boolean;
  /** Left out of the chart (averages and rates drawn with counts would flatten them). */
  chart?: boolean;
  /** The API cannot sort by it. */
  sortable?: boolean;
  /** i18n key of what the figure counts, shown on its header (two counts of people read alike otherwise). */
  help?: string;
}

/** How a figure reads in `locale`. */
export function formatFigure(value: unknown, format: FigureFormat = 'count', locale = 'zh-CN'): string {
  if (value === null || value === undefined || value === '' || Number.isNaN(Number(value))) return '—';
  const n = Number(value);
  if (format === 'percent')
    return new Intl.NumberFormat(locale, {
      style: 'percent',
      minimumFractionDigits: 1,
      maximumFractionDigits: 1,
    }).format(n);
  if (format === 'decimal')
    return new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(n);
  if (format === 'money')
    return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(n);
}

export type Trend = 'up' | 'down' | 'flat';

export interface Comparison {
  current: number;
  previous: number;
  /** current − previous. */
  diff: number;
  /** diff ÷ previous; null when the previous period had none (a rise from zero has no percentage). */
  ratio: number | null;
  trend: Trend;
  /** Whether the change is for the better (a rise, or a fall of a lower-is-better figure); null when flat. */
  good: boolean | null;
}

/** The comparison of a figure with the previous period (rates compare in percentage points). */
export function compareFigure(current: unknown, previous: unknown, lowerIsBetter = false): Comparison {
  const c = Number(current) || 0;
  const p = Number(previous) || 0;
  // Rounded to avoid 0.30000000000000004-style differences of rates.
  const diff = Math.round((c - p) * 1e9) / 1e9;
  const trend: Trend = diff > 0 ? 'up' : diff < 0 ? 'down' : 'flat';
  return {
    current: c,
    previous: p,
    diff,
    ratio: p === 0 ? null : diff / p,
    trend,
    good: trend === 'flat' ? null : (trend === 'up') !== lowerIsBetter,
  };
}

const sign = (n: number, text: string) => (n > 0 ? `+${text}` : n < 0 ? `−${text.replace(/^-/, '')}` : text);

/** The change as shown: `+12 (+8.3%)`, `−0.4 (−2.0%)`; a rate's change in points, `+2.5 pts (+10.0%)`. */
export function formatChange(
  cmp: Comparison,
  format: FigureFormat = 'count',
  locale = 'zh-CN',
  points: (value: string) => string = (v) => v,
): { diff: string; pct: string | null } {
  const abs = Math.abs(cmp.diff);
  const diff =
    format === 'percent'
      ? points(
          new Intl.NumberFormat(locale, { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(
            abs * 100,
          ),
        )
      : formatFigure(abs, format, locale);
  const pct =
    cmp.ratio === null || cmp.trend === 'flat'
      ? null
      : sign(
          cmp.ratio,
          new Intl.NumberFormat(locale, {
            style: 'percent',
            minimumFractionDigits: 1,
            maximumFractionDigits: 1,
          }).format(Math.abs(cmp.ratio)),
        );
  return { diff: sign(cmp.diff, diff), pct };
}

/** The arrow beside a change: the direction is never told by colour alone. */
export const TREND_ARROW: Record<Trend, string> = { up: '▲', down: '▼', flat: '→' };
