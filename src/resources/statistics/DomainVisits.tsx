import { Alert } from '@mui/material';
import { useState } from 'react';
import { type RaRecord, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { ReportList } from '../../components/ReportList';
import { DOMAIN_PICK_RESOURCE, SECTION_MSG, VISITS_RESOURCE, visitDetailPath } from './names';
import { DomainHead, figure, NoDomain, ReportTabs, StatsPage } from './shared';

/** /stats/domainsvisit: the domains of the period; choosing one opens its visits. */
export function DomainVisits() {
  const translate = useTranslate();
  return (
    <StatsPage>
      <Alert severity="info" sx={{ mb: 1 }}>
        {translate(`${SECTION_MSG}.domains.pickHint`)}
      </Alert>
      <ReportList
        resource={DOMAIN_PICK_RESOURCE}
        columns={[{ source: 'key', label: `${SECTION_MSG}.fields.domain` }]}
        rowLink={(r) => visitDetailPath(String(r.key))}
        figures={[figure('pageViews'), figure('visitors')]}
        sort={{ field: 'pageViews', order: 'DESC' }}
        filename="domain-visits"
      />
    </StatsPage>
  );
}

const DIMENSIONS = ['path', 'referrer', 'device', 'region', 'channel'] as const;
/** The device classes the ingestion stores (CONTRACT.md), and its word for a device or region not known. */
const DEVICE_CLASSES = ['mobile', 'tablet', 'desktop', 'other'] as const;
const UNKNOWN_KEY = 'unknown';
type Dimension = (typeof DIMENSIONS)[number];

/** /stats/domainsvisit/detail?domain=…: its paths, referrers, devices, regions and channels, each a share. */
export function DomainVisitDetail() {
  const translate = useTranslate();
  const [params] = useSearchParams();
  const domain = params.get('domain') ?? '';
  const [tab, setTab] = useState<Dimension>('path');
  if (!domain)
    return (
      <StatsPage>
        <NoDomain back="/stats/domainsvisit" />
      </StatsPage>
    );
  // An empty referrer is a direct visit, an empty channel none; a device class is named in the operator's language,
  // and what was not known (no address database entry, no user agent) says so.
  const keyText = (r: RaRecord) => {
    const key = r.key === null || r.key === undefined ? '' : String(r.key);
    if (key === '')
      return translate(
        `${SECTION_MSG}.fields.${tab === 'referrer' ? 'direct' : tab === 'channel' ? 'noChannel' : 'unknown'}`,
      );
    if (key === UNKNOWN_KEY && (tab === 'device' || tab === 'region'))
      return translate(`${SECTION_MSG}.fields.unknown`);
    if (tab === 'device' && (DEVICE_CLASSES as readonly string[]).includes(key))
      return translate(`${SECTION_MSG}.devices.${key}`);
    return key;
  };
  return (
    <StatsPage>
      <DomainHead domain={domain} back="/stats/domainsvisit" />
      <ReportTabs
        value={tab}
        onChange={setTab}
        label={`${SECTION_MSG}.menu.domainVisitDetail`}
        tabs={DIMENSIONS.map((d) => ({ value: d, label: `${SECTION_MSG}.fields.${d}` }))}
      >
        <ReportList
          key={tab}
          resource={VISITS_RESOURCE}
          filter={{ domain, dimension: tab }}
          columns={[{ source: 'key', label: `${SECTION_MSG}.fields.${tab}`, render: keyText, text: keyText }]}
          figures={[
            figure('pageViews'),
            figure('visitors'),
            figure('share', { format: 'percent', chart: false }),
          ]}
          sort={{ field: 'pageViews', order: 'DESC' }}
          filename={`visits-${domain}-${tab}`}
        />
      </ReportTabs>
    </StatsPage>
  );
}
