import { Box } from '@mui/material';
import { LineChart } from '@mui/x-charts/LineChart';
import { useLocaleState, useTranslate } from 'react-admin';
import { formatFigure, type ReportFigure } from './reportFigures';

/**
 * The chart above a report's table: one line per figure over the period's days (or hours). Loaded lazily by
 * ReportList (MUI X Charts is large): the admin's first chunks do not carry it.
 */
export default function ReportChart({
  series,
  figures,
  label,
}: {
  series: ({ date: string } & Record<string, unknown>)[];
  figures: ReportFigure[];
  /** What the chart shows, for screen readers (the table below carries the same figures). */
  label: string;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <Box component="figure" aria-label={label} sx={{ m: 0, height: 260 }} data-testid="report-chart">
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
          data: series.map((p) => Number(p[f.source] ?? 0)),
          valueFormatter: (v: number | null) => formatFigure(v, f.format, locale),
          showMark: series.length <= 31,
          curve: 'linear' as const,
        }))}
        grid={{ horizontal: true }}
      />
    </Box>
  );
}
