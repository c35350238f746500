import { Link } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { ReportList } from '../../components/ReportList';
import {
  DOMAIN_HOURS_RESOURCE,
  DOMAINS_RESOURCE,
  domainDetailPath,
  SECTION_MSG,
  visitDetailPath,
} from './names';
import { DomainHead, domainFigures, NoDomain, StatsPage } from './shared';

/** Per-domain page views, unique visitors, addresses, new visitors and bounce rate; a row opens its hours. */
export function DomainStats() {
  const translate = useTranslate();
  return (
    <StatsPage>
      <ReportList
        resource={DOMAINS_RESOURCE}
        columns={[{ source: 'key', label: `${SECTION_MSG}.fields.domain` }]}
        rowLink={(r) => domainDetailPath(String(r.key))}
        figures={domainFigures}
        sort={{ field: 'pageViews', order: 'DESC' }}
        actions={{
          label: `${SECTION_MSG}.fields.actions`,
          render: (r) => (
            <Link
              component={RouterLink}
              to={visitDetailPath(String(r.key))}
              aria-label={translate(`${SECTION_MSG}.domains.openFor`, { domain: r.key })}
            >
              {translate(`${SECTION_MSG}.domains.open`)}
            </Link>
          ),
        }}
        filename="domains"
      />
    </StatsPage>
  );
}

/** /stats/domains/detail?domain=…: one domain hour by hour. */
export function DomainHours() {
  const [params] = useSearchParams();
  const domain = params.get('domain') ?? '';
  return (
    <StatsPage>
      {domain ? (
        <>
          <DomainHead domain={domain} back="/stats/domains" />
          <ReportList
            resource={DOMAIN_HOURS_RESOURCE}
            filter={{ domain }}
            columns={[{ source: 'key', label: `${SECTION_MSG}.fields.hour`, sortable: true }]}
            figures={domainFigures}
            paged={false}
            // the latest hours first (what an operator checks after a change or an outage); any figure sorts the
            // hours (the busiest first)
            sort={{ field: 'key', order: 'DESC' }}
            filename={`domain-hours-${domain}`}
          />
        </>
      ) : (
        <NoDomain back="/stats/domains" />
      )}
    </StatsPage>
  );
}
