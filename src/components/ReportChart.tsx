import { Box } from '@mui/material';
import { LineChart } from '@mui/x-charts/LineChart';
import { useLocaleState, useTranslate } from 'react-admin';
import { isFuture, presentKey } from '../../common/period';
import { formatFigure, type ReportFigure } from './reportFigures';

/**
 * How each line is drawn, in the figures' order, so that lines with the same values stay apart: the second is wide
 * and the later ones are dashed and dotted on top of it (unique visitors and addresses are often equal: the
 * addresses' line hid the visitors' one).
 */
const LINE_STYLES = [
  {},
  { strokeWidth: 5 },
  { strokeDasharray: '6 4' },
  { strokeDasharray: '1 4', strokeLinecap: 'round', strokeWidth: 3 },
];

/** One figure's line: its values up to the present, then gaps (null) for the points not yet come. */
export const lineData = (
  series: ({ date: string } & Record<string, unknown>)[],
  source: string,
  present: string,
) => series.map((p) => (isFuture(p.date, present) ? null : Number(p[source] ?? 0)));

/** Each figure's line style, by the figures' order (`LINE_STYLES`), keyed by the line's selector. */
export const lineStyles = (figures: ReportFigure[]) =>
  Object.fromEntries(
    figures.map((f, i) => [
      `& .MuiLineChart-line[data-series="${f.source}"]`,
      LINE_STYLES[i % LINE_STYLES.length],
    ]),
  );

/**
 * The chart above a report's table: one line per figure over the period's days (or hours); days and hours not yet
 * come are not drawn (a report's series has a zero for them). Loaded lazily by ReportList (MUI X Charts is large):
 * the admin's first chunks do not carry it.
 */
export default function ReportChart({
  series,
  figures,
  label,
  timeZone,
}: {
  series: ({ date: string } & Record<string, unknown>)[];
  figures: ReportFigure[];
  /** What the chart shows, for screen readers (the table below carries the same figures). */
  label: string;
  /** The tenant's reporting time zone: where "now" is. */
  timeZone: string;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const present = presentKey(new Date(), timeZone);
  return (
    <Box
      component="figure"
      aria-label={label}
      sx={{
        m: 0,
        height: 260,
        ...lineStyles(figures),
      }}
      data-testid="report-chart"
    >
      <LineChart
        height={260}
        skipAnimation
        xAxis={[
          {
            scaleType: 'point',
            data: series.map((p) => p.date),
            // days as MM-DD, hours as MM-DD HH:00
            valueFormatter: (d: string) => d.slice(5),
          },
        ]}
        yAxis={[{ valueFormatter: (v: number) => formatFigure(v, 'count', locale) }]}
        series={figures.map((f) => ({
          id: f.source,
          label: translate(f.label),
          data: lineData(series, f.source, present),
          valueFormatter: (v: number | null) => formatFigure(v, f.format, locale),
          showMark: series.length <= 31,
          curve: 'linear' as const,
        }))}
        grid={{ horizontal: true }}
      />
    </Box>
  );
}
