import { Box, Link, Typography } from '@mui/material';
import { useState } from 'react';
import { type RaRecord, useGetOne, useTranslate } from 'react-admin';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { type ReportColumn, ReportList } from '../../components/ReportList';
import { ReportTabs, StatsPage } from '../statistics/shared';
import {
  AD_RESOURCE,
  ADVERTISER_DAILY_RESOURCE,
  ADVERTISER_RESOURCE,
  advertiserReportPath,
  DAILY_RESOURCE,
  MATERIAL_DAILY_RESOURCE,
  materialReportPath,
  POSITION_DAILY_RESOURCE,
  POSITION_RESOURCE,
  positionReportPath,
  REPORT_ADVERTISERS_RESOURCE,
  REPORT_MATERIALS_RESOURCE,
  REPORT_POSITIONS_RESOURCE,
  SECTION_MSG,
} from './names';
import { adFigures } from './shared';

const R = `${SECTION_MSG}.reports`;

/** A row's name, or its id when the record is gone (advertiser 0: materials without one). */
const labelColumn = (label: string, none: string): ReportColumn => ({
  source: 'label',
  label,
  render: (r) => (r.label ?? (r.key === '0' ? <NoneText k={none} /> : `#${r.key}`)) as any,
  text: (r, t) => r.label ?? (r.key === '0' ? t(none) : `#${r.key}`),
  sortable: true,
});
function NoneText({ k }: { k: string }) {
  const translate = useTranslate();
  return <>{translate(k)}</>;
}
const dateColumn: ReportColumn = { source: 'key', label: `${R}.date`, sortable: true };

/** `/ad/report`: the overview per position, per advertiser and per material, each row leading to its daily report. */
export function AdReport() {
  const [tab, setTab] = useState<'positions' | 'advertisers' | 'materials'>('positions');
  return (
    <StatsPage>
      <ReportTabs
        value={tab}
        onChange={setTab}
        label={`${SECTION_MSG}.menu.report`}
        tabs={[
          { value: 'positions', label: `${R}.byPosition` },
          { value: 'advertisers', label: `${R}.byAdvertiser` },
          { value: 'materials', label: `${R}.byMaterial` },
        ]}
      >
        {tab === 'positions' ? (
          <ReportList
            key="positions"
            resource={REPORT_POSITIONS_RESOURCE}
            columns={[labelColumn(`${R}.position`, `${R}.none`)]}
            figures={adFigures(true)}
            sort={{ field: 'revenue', order: 'DESC' }}
            rowLink={(r: RaRecord) => positionReportPath(r.key)}
            filename="ad-positions"
            hideable="ad-positions"
          />
        ) : tab === 'advertisers' ? (
          <ReportList
            key="advertisers"
            resource={REPORT_ADVERTISERS_RESOURCE}
            columns={[labelColumn(`${R}.advertiser`, `${R}.house`)]}
            figures={adFigures()}
            sort={{ field: 'revenue', order: 'DESC' }}
            rowLink={(r: RaRecord) => advertiserReportPath(r.key)}
            filename="ad-advertisers"
            hideable="ad-advertisers"
          />
        ) : (
          <ReportList
            key="materials"
            resource={REPORT_MATERIALS_RESOURCE}
            columns={[labelColumn(`${R}.material`, `${R}.none`)]}
            figures={adFigures()}
            sort={{ field: 'revenue', order: 'DESC' }}
            rowLink={(r: RaRecord) => materialReportPath(r.key)}
            filename="ad-materials"
            hideable="ad-materials"
          />
        )}
      </ReportTabs>
    </StatsPage>
  );
}

/** `/ad/daily`: revenue and traffic per day; comparing shows each day against the day before. */
export function AdDaily() {
  const translate = useTranslate();
  return (
    <StatsPage>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate(`${R}.dailyHint`)}
      </Typography>
      <ReportList
        resource={DAILY_RESOURCE}
        columns={[dateColumn]}
        figures={adFigures()}
        sort={{ field: 'key', order: 'DESC' }}
        filename="ad-daily"
        hideable="ad-daily"
      />
    </StatsPage>
  );
}

/** The head of a detail report: whose figures, and the way back. */
function DetailHead({
  resource,
  id,
  field,
  head,
}: {
  resource: string;
  id: string;
  field: string;
  head: string;
}) {
  const translate = useTranslate();
  const { data } = useGetOne(resource, { id }, { enabled: !!id && id !== '0' });
  const name = id === '0' ? translate(`${R}.house`) : (data?.[field] ?? `#${id}`);
  return (
    <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 2, flexWrap: 'wrap', mb: 1 }}>
      <Typography variant="h6" component="h2">
        {translate(head, { name })}
      </Typography>
      <Link component={RouterLink} to="/ad/report">
        {translate(`${R}.back`)}
      </Link>
    </Box>
  );
}

function DailyOf({
  resource,
  param,
  record,
  field,
  head,
  idle,
  name,
}: {
  resource: string;
  param: string;
  record: string;
  field: string;
  head: string;
  idle?: boolean;
  name: string;
}) {
  const id = useSearchParams()[0].get('id') ?? '';
  return (
    <StatsPage>
      <DetailHead resource={record} id={id} field={field} head={head} />
      <ReportList
        resource={resource}
        filter={{ [param]: id }}
        columns={[dateColumn]}
        figures={adFigures(idle)}
        sort={{ field: 'key', order: 'DESC' }}
        filename={`${name}-${id}`}
        hideable={name}
      />
    </StatsPage>
  );
}

/** `/ad/advertiser?id=`: one advertiser per day. */
export const AdvertiserDaily = () => (
  <DailyOf
    resource={ADVERTISER_DAILY_RESOURCE}
    param="advertiserId"
    record={ADVERTISER_RESOURCE}
    field="name"
    head={`${R}.advertiserHead`}
    name="ad-advertiser"
  />
);

/** `/ad/positon?id=` (SPEC's spelling): one position per day, with its idle inventory. */
export const PositionDaily = () => (
  <DailyOf
    resource={POSITION_DAILY_RESOURCE}
    param="positionId"
    record={POSITION_RESOURCE}
    field="name"
    head={`${R}.positionHead`}
    idle
    name="ad-position"
  />
);

/** `/ad/view?id=`: one material per day. */
export const MaterialDaily = () => (
  <DailyOf
    resource={MATERIAL_DAILY_RESOURCE}
    param="adId"
    record={AD_RESOURCE}
    field="title"
    head={`${R}.materialHead`}
    name="ad-material"
  />
);
