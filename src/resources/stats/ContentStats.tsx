import { Alert } from '@mui/material';
import { useState } from 'react';
import { type RaRecord, useLocaleState, useTranslate } from 'react-admin';
import { ReportList } from '../../components/ReportList';
import { M, MOVIES_RESOURCE, TAGS_RESOURCE, UNSEEN_RESOURCE } from './names';
import { figure, ReportTabs, StatsPage } from './shared';

const figures = [
  figure('views'),
  figure('plays'),
  figure('viewers'),
  figure('playRate', { format: 'percent', chart: false }),
];

/** A date and time in the UI's locale, the same text on the screen and in the CSV. */
function useDateTime() {
  const [locale] = useLocaleState();
  return (value: unknown) =>
    value ? new Date(String(value)).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' }) : '—';
}

/** Views, plays, unique viewers and play rate of movies or tags; online ones nobody saw in the period. */
function ContentStats({ kind }: { kind: 'movie' | 'tag' }) {
  const translate = useTranslate();
  const dateTime = useDateTime();
  const [tab, setTab] = useState<'report' | 'unseen'>('report');
  const name = { source: 'label', label: `${M}.fields.${kind}`, text: (r: RaRecord) => r.label ?? r.key };
  const plural = kind === 'movie' ? 'Movies' : 'Tags';
  return (
    <StatsPage>
      <ReportTabs
        value={tab}
        onChange={setTab}
        label={`${M}.menu.${kind}s`}
        tabs={[
          { value: 'report', label: `${M}.tabs.report` },
          { value: 'unseen', label: `${M}.tabs.unseen${plural}` },
        ]}
      >
        {tab === 'report' ? (
          <ReportList
            key="report"
            resource={kind === 'movie' ? MOVIES_RESOURCE : TAGS_RESOURCE}
            columns={[{ ...name, render: (r) => r.label ?? r.key }]}
            figures={figures}
            sort={{ field: 'views', order: 'DESC' }}
            filename={`${kind}-stats`}
          />
        ) : (
          <>
            <Alert severity="info" sx={{ my: 1 }}>
              {translate(`${M}.unseen.${kind}Hint`)}
            </Alert>
            <ReportList
              key="unseen"
              resource={UNSEEN_RESOURCE}
              filter={{ type: kind }}
              columns={[
                { ...name, render: (r) => r.label ?? r.key },
                {
                  source: 'publishedAt',
                  label: `${M}.fields.publishedAt`,
                  render: (r) => dateTime(r.publishedAt),
                  text: (r) => dateTime(r.publishedAt),
                },
              ]}
              figures={[]}
              comparable={false}
              chart={false}
              sort={{ field: 'publishedAt', order: 'DESC' }}
              filename={`${kind}-unseen`}
              empty={{ title: `${M}.unseen.empty`, hint: `${M}.unseen.${kind}Hint` }}
            />
          </>
        )}
      </ReportTabs>
    </StatsPage>
  );
}

/** /stats/movies */
export const MovieStats = () => <ContentStats kind="movie" />;
/** /stats/tags */
export const TagStats = () => <ContentStats kind="tag" />;
