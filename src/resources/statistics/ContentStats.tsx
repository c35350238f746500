import { Alert } from '@mui/material';
import { useState } from 'react';
import { type RaRecord, useLocaleState, useTranslate } from 'react-admin';
import { ReportList } from '../../components/ReportList';
import { MOVIES_RESOURCE, SECTION_MSG, TAGS_RESOURCE, UNSEEN_RESOURCE } from './names';
import { figure, ReportTabs, StatsPage } from './shared';

const help = (source: string) => `${SECTION_MSG}.figureHelp.${source}`;
const figures = [
  figure('views', { help: help('views') }),
  figure('plays', { help: help('plays') }),
  figure('viewers', { help: help('viewers') }),
  figure('playRate', { format: 'percent', chart: false, help: help('playRate') }),
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
  const name = {
    source: 'label',
    label: `${SECTION_MSG}.fields.${kind}`,
    text: (r: RaRecord) => r.label ?? r.key,
  };
  const plural = kind === 'movie' ? 'Movies' : 'Tags';
  return (
    <StatsPage>
      <ReportTabs
        value={tab}
        onChange={setTab}
        label={`${SECTION_MSG}.menu.${kind}s`}
        tabs={[
          { value: 'report', label: `${SECTION_MSG}.tabs.report` },
          { value: 'unseen', label: `${SECTION_MSG}.tabs.unseen${plural}` },
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
              {translate(`${SECTION_MSG}.unseen.${kind}Hint`)}
            </Alert>
            <ReportList
              key="unseen"
              resource={UNSEEN_RESOURCE}
              filter={{ type: kind }}
              // A tag is never put online: only movies have the time they went online.
              columns={[
                { ...name, render: (r) => r.label ?? r.key },
                ...(kind === 'movie'
                  ? [
                      {
                        source: 'publishedAt',
                        label: `${SECTION_MSG}.fields.publishedAt`,
                        render: (r: RaRecord) => dateTime(r.publishedAt),
                        text: (r: RaRecord) => dateTime(r.publishedAt),
                      },
                    ]
                  : []),
              ]}
              figures={[]}
              comparable={false}
              chart={false}
              // The API lists them newest online first; `key` is its only sort (no figures here).
              sort={{ field: 'key', order: 'DESC' }}
              filename={`${kind}-unseen`}
              empty={{
                title: `${SECTION_MSG}.unseen.${kind}Empty`,
                hint: `${SECTION_MSG}.unseen.${kind}Hint`,
              }}
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
