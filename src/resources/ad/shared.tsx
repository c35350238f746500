import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { AD_DEVICES, AD_PRICING, AD_ROTATIONS, AD_STATES, AD_TYPES, type AdState } from '../../../common/ad';
import type { ReportFigure } from '../../components/reportFigures';
import { SECTION_MSG } from './names';

const choices = (values: readonly string[], group: string) =>
  values.map((id) => ({ id, name: `${SECTION_MSG}.${group}.${id}` }));
export const typeChoices = choices(AD_TYPES, 'types');
export const pricingChoices = choices(AD_PRICING, 'pricing');
export const deviceChoices = choices(AD_DEVICES, 'devices');
export const rotationChoices = choices(AD_ROTATIONS, 'rotations');
export const stateChoices = choices(AD_STATES, 'states');

const STATE_COLOR: Record<AdState, 'success' | 'info' | 'default' | 'warning'> = {
  live: 'success',
  scheduled: 'info',
  expired: 'default',
  paused: 'warning',
};

/** The derived state of a material, as a chip (its word, never its colour alone). */
export function AdStateChip({ state }: { state: AdState }) {
  const translate = useTranslate();
  return <Chip size="small" color={STATE_COLOR[state]} label={translate(`${SECTION_MSG}.states.${state}`)} />;
}

/** A figure of the ads reports: its header is `resources.ad.figures.<source>`. */
export const figure = (source: string, extra: Omit<ReportFigure, 'source' | 'label'> = {}): ReportFigure => ({
  source,
  label: `${SECTION_MSG}.figures.${source}`,
  ...extra,
});

/** The figures every ads report shows (idle inventory only where there are positions). */
export const adFigures = (idle = false): ReportFigure[] => [
  figure('requests'),
  figure('impressions'),
  figure('clicks'),
  figure('ctr', { format: 'percent', chart: false }),
  figure('clickers'),
  figure('revenue', { format: 'decimal' }),
  figure('ecpm', { format: 'decimal', chart: false }),
  figure('cpc', { format: 'decimal', chart: false }),
  ...(idle ? [figure('idle', { format: 'decimal', chart: false, lowerIsBetter: true })] : []),
];
