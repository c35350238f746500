import { Box, FormControlLabel, Switch, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useStore, useTranslate } from 'react-admin';
import {
  DEFAULT_TIME_ZONE,
  isDay,
  PERIOD_PRESETS,
  type Period,
  type PeriodPreset,
  presetPeriod,
  previousPeriod,
  todayIn,
} from '../../common/period';
import { DayPicker } from './dates';
import type { PlainDayPickerProps } from './dates/shared';
import { type ReportMeta, reportMetaQuery } from './reportCalendar';

/** The tenant's reporting calendar; until it loads (or when it cannot) today in the default time zone. */
export function useReportCalendar(path?: string): { meta: ReportMeta; isPending: boolean } {
  const query = useQuery(reportMetaQuery(path));
  const fallback = {
    timeZone: DEFAULT_TIME_ZONE,
    today: todayIn(new Date(), DEFAULT_TIME_ZONE),
    earliest: null,
  };
  return { meta: query.data ?? fallback, isPending: query.isPending };
}

/** The chosen period: a preset (kept as its name, so "last 7 days" moves with the days) or a custom range. */
type Stored = { preset: PeriodPreset } | { from: string; to: string };

export interface ReportPeriodState {
  period: Period;
  preset: PeriodPreset | null;
  compare: boolean;
  setPreset: (preset: PeriodPreset) => void;
  setRange: (period: Period) => void;
  setCompare: (compare: boolean) => void;
}

/** One period for every report (kept in react-admin's store): choose it once, every report shows it. */
export function useReportPeriod(today: string): ReportPeriodState {
  const [stored, setStored] = useStore<Stored>('report.period', { preset: 'last7' });
  const [compare, setCompare] = useStore<boolean>('report.compare', true);
  const preset = 'preset' in stored && PERIOD_PRESETS.includes(stored.preset) ? stored.preset : null;
  const period =
    preset !== null
      ? presetPeriod(preset, today)
      : 'from' in stored && isDay(stored.from) && isDay(stored.to) && stored.from <= stored.to
        ? { from: stored.from, to: stored.to }
        : presetPeriod('last7', today);
  return {
    period,
    preset,
    compare,
    setPreset: (p) => setStored({ preset: p }),
    setRange: (p) => setStored({ from: p.from, to: p.to }),
    setCompare,
  };
}

/** A date box that commits only a real date within the bounds (typing 2026-1 does not reload the report). */
function DateBox(props: Omit<PlainDayPickerProps, 'invalidText'>) {
  const translate = useTranslate();
  const invalidText = translate('report.period.invalid', { min: props.min ?? '—', max: props.max });
  return <DayPicker {...props} invalidText={invalidText} />;
}

/** Presets, a custom range and the comparison switch, in the tenant's time zone. */
export function PeriodBar({
  state,
  meta,
  comparable = true,
}: {
  state: ReportPeriodState;
  meta: ReportMeta;
  /** The report can compare with the previous period. */
  comparable?: boolean;
}) {
  const translate = useTranslate();
  const id = useId();
  const { period, preset, compare } = state;
  // The two boxes edit one period. A day typed in one box while the other shows an entry it refused (or that would
  // put the start after the end) is held, not read with the other box's old day: the report keeps the last period both
  // boxes agreed on, says so, and reads the held day with the other box's once that one is put right.
  const [held, setHeld] = useState<Partial<Period>>({});
  const [refused, setRefused] = useState<{ from: boolean; to: boolean }>({ from: false, to: false });
  const [orderError, setOrderError] = useState<'from' | 'to' | undefined>();
  const previous = previousPeriod(period);
  const commit = (which: 'from' | 'to', day: string) => {
    const next = { from: held.from ?? period.from, to: held.to ?? period.to, [which]: day };
    if (refused[which === 'from' ? 'to' : 'from'] || next.from > next.to) {
      setHeld({ ...held, [which]: day });
      setOrderError(next.from > next.to ? which : undefined);
      return;
    }
    setHeld({});
    setOrderError(undefined);
    state.setRange(next);
  };
  const isHeld = held.from !== undefined || held.to !== undefined;
  return (
    <Box
      component="section"
      aria-labelledby={`${id}-label`}
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 2, py: 1 }}
    >
      <Typography id={`${id}-label`} component="h2" sx={visuallyHidden}>
        {translate('report.period.label')}
      </Typography>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={preset ?? 'custom'}
        aria-label={translate('report.period.presets')}
        onChange={(_, value: PeriodPreset | 'custom' | null) => {
          if (value && value !== 'custom') {
            setOrderError(undefined);
            setHeld({});
            state.setPreset(value);
          }
        }}
      >
        {PERIOD_PRESETS.map((p) => (
          <ToggleButton key={p} value={p} sx={toggleSx}>
            {translate(`report.period.${p}`)}
          </ToggleButton>
        ))}
        <ToggleButton value="custom" disabled={preset !== null} sx={toggleSx}>
          {translate('report.period.custom')}
        </ToggleButton>
      </ToggleButtonGroup>
      <Box sx={{ display: 'flex', gap: 1 }}>
        <DateBox
          label={translate('report.period.from')}
          value={period.from}
          min={meta.earliest ?? undefined}
          max={meta.today}
          onCommit={(from) => commit('from', from)}
          onRefused={(r) => setRefused((was) => (was.from === r ? was : { ...was, from: r }))}
          error={orderError === 'from' ? translate('report.period.order') : undefined}
        />
        <DateBox
          label={translate('report.period.to')}
          value={period.to}
          min={meta.earliest ?? undefined}
          max={meta.today}
          onCommit={(to) => commit('to', to)}
          onRefused={(r) => setRefused((was) => (was.to === r ? was : { ...was, to: r }))}
          error={orderError === 'to' ? translate('report.period.order') : undefined}
        />
      </Box>
      {isHeld && (
        <Typography variant="caption" color="error" role="status" sx={{ alignSelf: 'center' }}>
          {translate('report.period.kept', period)}
        </Typography>
      )}
      {comparable && (
        <Box sx={{ display: 'flex', flexDirection: 'column' }}>
          <FormControlLabel
            control={<Switch checked={compare} onChange={(e) => state.setCompare(e.target.checked)} />}
            label={translate('report.period.compare')}
          />
          {compare && (
            <Typography variant="caption" color="text.secondary" data-testid="previous-period">
              {translate('report.period.previous', previous)}
            </Typography>
          )}
        </Box>
      )}
      <Typography variant="caption" color="text.secondary" sx={{ alignSelf: 'center' }}>
        {translate('report.period.timeZone', { timeZone: meta.timeZone })}
      </Typography>
    </Box>
  );
}

/** MUI's toggle text (action.active) is under 4.5:1 on white: the theme's secondary text instead. */
const toggleSx = {
  px: 1.5,
  textTransform: 'none',
  color: 'text.secondary',
  '&.Mui-selected, &.Mui-selected:hover': { color: 'text.primary', fontWeight: 600 },
} as const;

/** Read by screen readers, not shown. Sizes in px: in `sx` a bare 1 means 100 %, which made these as wide as the page. */
export const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
