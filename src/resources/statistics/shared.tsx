import { Box, Link, Tab, Tabs, Typography } from '@mui/material';
import { type ReactNode, useId } from 'react';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import type { ReportFigure } from '../../components/reportFigures';
import { SECTION_MSG } from './names';

/** A figure of the section: its header is `resources.stats.fields.<source>`. */
export const figure = (source: string, extra: Omit<ReportFigure, 'source' | 'label'> = {}): ReportFigure => ({
  source,
  label: `${SECTION_MSG}.fields.${source}`,
  ...extra,
});

/** The figures of the domain reports (per domain, per hour). */
export const domainFigures: ReportFigure[] = [
  figure('pageViews'),
  figure('visitors'),
  figure('addresses'),
  figure('newVisitors'),
  figure('bounceRate', { format: 'percent', lowerIsBetter: true, chart: false }),
];

/** Tabs over the screen's reports, each panel labelled by its tab. */
export function ReportTabs<T extends string>({
  value,
  onChange,
  tabs,
  label,
  children,
}: {
  value: T;
  onChange: (value: T) => void;
  tabs: { value: T; label: string }[];
  label: string;
  children: ReactNode;
}) {
  const translate = useTranslate();
  const id = useId();
  return (
    <>
      <Tabs
        value={value}
        onChange={(_, v: T) => onChange(v)}
        aria-label={translate(label)}
        sx={{ borderBottom: 1, borderColor: 'divider' }}
      >
        {tabs.map((t) => (
          <Tab
            key={t.value}
            value={t.value}
            label={translate(t.label)}
            id={`${id}-tab-${t.value}`}
            aria-controls={`${id}-panel`}
            sx={{ textTransform: 'none' }}
          />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${value}`} sx={{ pt: 1 }}>
        {children}
      </Box>
    </>
  );
}

/** A screen of the section: its contents on the page's paper. */
export function StatsPage({ children }: { children: ReactNode }) {
  return <Box sx={{ p: { xs: 1, sm: 2 }, width: '100%', minWidth: 0 }}>{children}</Box>;
}

/** The head of a detail page: which domain, and the way back to the list. */
export function DomainHead({ domain, back }: { domain: string; back: string }) {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 2, flexWrap: 'wrap', mb: 1 }}>
      <Typography variant="h6" component="h2">
        {translate(`${SECTION_MSG}.domains.detailOf`, { domain })}
      </Typography>
      <Link component={RouterLink} to={back}>
        {translate(`${SECTION_MSG}.domains.back`)}
      </Link>
    </Box>
  );
}

/** A detail page opened without `?domain=`. */
export function NoDomain({ back }: { back: string }) {
  const translate = useTranslate();
  return (
    <Box role="status" sx={{ py: 4 }}>
      <Typography>{translate(`${SECTION_MSG}.domains.missing`)}</Typography>
      <Link component={RouterLink} to={back}>
        {translate(`${SECTION_MSG}.domains.back`)}
      </Link>
    </Box>
  );
}
