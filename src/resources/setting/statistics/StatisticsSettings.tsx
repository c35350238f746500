import { Alert, Box, Card, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import {
  BooleanInput,
  Loading,
  maxLength,
  maxValue,
  minValue,
  NumberInput,
  required,
  SaveButton,
  SimpleForm,
  TextInput,
  Toolbar,
  useNotify,
  useTranslate,
} from 'react-admin';
import { ApiFailure, request } from '../../../api/http';
import { useSystemSettings } from '../../../api/system';
import { ConflictAlert } from '../../../components/ConflictAlert';
import { STATISTICS_MSG } from '../names';
import { FormSection, useCan } from '../shared';
import { StuckDays } from './StuckDays';

export const STAT_EVENTS = ['pageView', 'play', 'search', 'adImpression', 'adClick', 'tagClick'] as const;

export interface Statistics {
  version: number;
  events: Record<(typeof STAT_EVENTS)[number], boolean>;
  sampleRate: number;
  rawRetentionDays: number;
  attributionDays: number;
  snippets: { platform: number; code: string }[];
}

/** One snippet row per platform of the settings, in their order (empty where there is none). */
export function snippetRows(snippets: Statistics['snippets'], platforms: { key: number | string }[]) {
  const byKey = new Map(snippets.map((s) => [s.platform, s.code]));
  return platforms.map((p) => ({ platform: Number(p.key), code: byKey.get(Number(p.key)) ?? '' }));
}

/** What is saved: the non-empty rows, plus the snippets of platforms no longer in the settings (kept as they are). */
export function snippetsToSave(
  rows: { platform: number; code: string }[],
  before: Statistics['snippets'],
): Statistics['snippets'] {
  const shown = new Set(rows.map((r) => r.platform));
  return [
    ...rows.filter((r) => (r.code ?? '').trim() !== '').map((r) => ({ platform: r.platform, code: r.code })),
    ...before.filter((s) => !shown.has(s.platform)),
  ];
}

/** A third-party snippet as text: React escapes it, nothing in it runs or loads here. */
function SnippetText({ code }: { code: string }) {
  const translate = useTranslate();
  return (
    <Box
      component="pre"
      sx={{
        m: 0,
        p: 1,
        bgcolor: 'action.hover',
        borderRadius: 1,
        fontSize: 12,
        overflow: 'auto',
        maxHeight: 200,
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-all',
      }}
    >
      {code || translate(`${STATISTICS_MSG}.noSnippet`)}
    </Box>
  );
}

/**
 * Statistics settings (SPEC.md §2 /setting/statistics): which events the site's collector sends, the sampling
 * rate, how long raw events are kept before only the daily rollups remain, and third-party analytics snippets per
 * platform — stored as text, shown as text (escaped), never run in the admin. Admins save; a `user` reads.
 */
export function StatisticsSettings() {
  const translate = useTranslate();
  const notify = useNotify();
  const admin = useCan('statistics-settings.edit');
  const platforms = useSystemSettings()?.platforms ?? [];
  const [stats, setStats] = useState<Statistics | null>(null);
  const [conflict, setConflict] = useState(false);

  const reload = useCallback(async () => {
    try {
      setStats(await request<Statistics>('admin/setting/statistics'));
      setConflict(false);
    } catch {
      // shown by the HTTP client
    }
  }, []);
  useEffect(() => {
    reload();
  }, [reload]);

  if (!stats) return <Loading />;
  const names = new Map(platforms.map((p) => [Number(p.key), p.name]));
  const rows = snippetRows(stats.snippets, platforms);

  const onSubmit = async (values: Record<string, any>) => {
    try {
      const saved = await request<Statistics>('admin/setting/statistics', {
        method: 'PUT',
        json: {
          version: stats.version,
          events: values.events,
          sampleRate: values.sampleRate,
          rawRetentionDays: values.rawRetentionDays,
          attributionDays: values.attributionDays,
          snippets: snippetsToSave(values.snippets ?? [], stats.snippets),
        },
      });
      setStats(saved);
      notify(`${STATISTICS_MSG}.saved`, { type: 'success' });
    } catch (err) {
      if (err instanceof ApiFailure && err.code === 40900) setConflict(true);
      if (err instanceof ApiFailure && err.body) return err.body.errors;
    }
  };

  const disabled = !admin;
  return (
    <Card sx={{ mt: 1 }}>
      <ConflictAlert show={conflict} onReload={reload} />
      {admin && <StuckDays />}
      {!admin && (
        <Alert severity="info" sx={{ m: 2, mb: 0 }}>
          {translate(`${STATISTICS_MSG}.readOnly`)}
        </Alert>
      )}
      <SimpleForm
        key={stats.version}
        record={{ ...stats, snippets: rows }}
        onSubmit={onSubmit}
        toolbar={
          admin ? (
            <Toolbar>
              <SaveButton />
            </Toolbar>
          ) : (
            false
          )
        }
      >
        <FormSection title={`${STATISTICS_MSG}.sections.events`} hint={`${STATISTICS_MSG}.eventsHint`}>
          <Box
            sx={{ display: 'grid', gridTemplateColumns: { sm: '1fr 1fr', md: '1fr 1fr 1fr' }, width: '100%' }}
          >
            {STAT_EVENTS.map((e) => (
              <BooleanInput
                key={e}
                source={`events.${e}`}
                label={`${STATISTICS_MSG}.events.${e}`}
                disabled={disabled}
                helperText={false}
              />
            ))}
          </Box>
        </FormSection>
        <FormSection title={`${STATISTICS_MSG}.sections.volume`}>
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
            <NumberInput
              source="sampleRate"
              label={`${STATISTICS_MSG}.fields.sampleRate`}
              helperText={`${STATISTICS_MSG}.sampleRateHelp`}
              validate={[required(), minValue(1), maxValue(100)]}
              step={1}
              disabled={disabled}
            />
            <NumberInput
              source="rawRetentionDays"
              label={`${STATISTICS_MSG}.fields.rawRetentionDays`}
              helperText={`${STATISTICS_MSG}.retentionHelp`}
              validate={[required(), minValue(1), maxValue(3650)]}
              step={1}
              disabled={disabled}
            />
            <NumberInput
              source="attributionDays"
              label={`${STATISTICS_MSG}.fields.attributionDays`}
              helperText={`${STATISTICS_MSG}.attributionHelp`}
              validate={[required(), minValue(1), maxValue(365)]}
              step={1}
              disabled={disabled}
            />
          </Box>
        </FormSection>
        <FormSection title={`${STATISTICS_MSG}.sections.snippets`} hint={`${STATISTICS_MSG}.snippetsHint`}>
          {rows.map((row, i) => {
            const label = `${names.get(row.platform) ?? ''} (${row.platform})`;
            return admin ? (
              <TextInput
                key={row.platform}
                source={`snippets.${i}.code`}
                label={label}
                multiline
                minRows={3}
                maxRows={12}
                fullWidth
                validate={maxLength(20_000)}
                helperText={false}
                slotProps={{
                  htmlInput: { spellCheck: false, style: { fontFamily: 'monospace', fontSize: 12 } },
                }}
              />
            ) : (
              <Box key={row.platform} sx={{ mb: 2, width: '100%' }}>
                <Typography variant="body2" sx={{ fontWeight: 600, mb: 0.5 }}>
                  {label}
                </Typography>
                <SnippetText code={row.code} />
              </Box>
            );
          })}
        </FormSection>
      </SimpleForm>
    </Card>
  );
}
