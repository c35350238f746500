import AddLinkIcon from '@mui/icons-material/AddLink';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useId, useState } from 'react';
import { type RaRecord, useNotify, useRefresh, useTranslate } from 'react-admin';
import type { ListAnswer } from '../../api/dataProvider';
import { request } from '../../api/http';
import { useCan } from '../../auth/permission';
import { useAutocompleteTexts } from '../../components/autocompleteTexts';
import { ReportList } from '../../components/ReportList';
import { ADOPT_API, KEYWORDS_RESOURCE, SECTION_MSG } from './names';
import { figure, ReportTabs, StatsPage } from './shared';

/** A keyword's flag: every search found nothing, or some did. */
function ZeroFlag({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  const zero = Number(record.zeroResults) || 0;
  if (zero <= 0) return null;
  return zero >= Number(record.searches) ? (
    <Chip
      size="small"
      color="warning"
      label={translate(`${SECTION_MSG}.keywords.zero`)}
      title={translate(`${SECTION_MSG}.keywords.zeroTitle`)}
      sx={{ ml: 1 }}
    />
  ) : (
    <Chip
      size="small"
      variant="outlined"
      label={translate(`${SECTION_MSG}.keywords.someZero`, { count: zero })}
      sx={{ ml: 1 }}
    />
  );
}

type Target = 'movie' | 'novel' | 'actress';
/** Where the records of each target are searched (`q`: title or name), and what names them. */
const TARGETS: Record<Target, { api: string; name: (r: RaRecord) => string }> = {
  movie: { api: 'admin/movie/movies', name: (r) => r.title },
  novel: { api: 'admin/novel/novels', name: (r) => r.title },
  actress: { api: 'admin/actresses', name: (r) => r.name },
};

/** The demand-gap action: the keyword becomes a tag of a movie or novel, or an alias of an actress. */
export function AdoptDialog({ keyword, onClose }: { keyword: string; onClose: () => void }) {
  const translate = useTranslate();
  const autocompleteTexts = useAutocompleteTexts();
  const notify = useNotify();
  const refresh = useRefresh();
  const id = useId();
  const [target, setTarget] = useState<Target>('movie');
  const [input, setInput] = useState('');
  const [options, setOptions] = useState<RaRecord[]>([]);
  const [chosen, setChosen] = useState<RaRecord | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const abort = new AbortController();
    const q = input.trim();
    request<ListAnswer>(TARGETS[target].api, {
      query: { page: 1, pageSize: 10, ...(q ? { q } : {}) },
      signal: abort.signal,
    })
      .then((data) => setOptions(data?.list ?? []))
      .catch(() => {});
    return () => abort.abort();
  }, [target, input]);

  const adopt = async () => {
    if (!chosen) return;
    setBusy(true);
    try {
      await request(ADOPT_API, {
        method: 'POST',
        json: { keyword, target, id: chosen.id, as: target === 'actress' ? 'alias' : 'tag' },
      });
      notify(`${SECTION_MSG}.adopt.done`, {
        type: 'success',
        messageArgs: { keyword, name: TARGETS[target].name(chosen) },
      });
      refresh();
      onClose();
    } catch {
      // the HTTP client has shown the server's message; the dialog stays open
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={`${id}-title`} fullWidth maxWidth="sm">
      <DialogTitle id={`${id}-title`}>{translate(`${SECTION_MSG}.adopt.title`, { keyword })}</DialogTitle>
      <DialogContent>
        <FormControl sx={{ mb: 2 }}>
          <FormLabel id={`${id}-target`}>{translate(`${SECTION_MSG}.adopt.target`)}</FormLabel>
          <RadioGroup
            row
            aria-labelledby={`${id}-target`}
            value={target}
            onChange={(e) => {
              setTarget(e.target.value as Target);
              setChosen(null);
              setInput('');
            }}
          >
            {(Object.keys(TARGETS) as Target[]).map((t) => (
              <FormControlLabel
                key={t}
                value={t}
                control={<Radio />}
                label={translate(`${SECTION_MSG}.adopt.${t}`)}
              />
            ))}
          </RadioGroup>
        </FormControl>
        <Autocomplete
          {...autocompleteTexts}
          options={options}
          value={chosen}
          onChange={(_, v) => setChosen(v)}
          inputValue={input}
          onInputChange={(_, v, reason) => {
            if (reason !== 'reset') setInput(v);
          }}
          filterOptions={(x) => x}
          getOptionLabel={(r) => TARGETS[target].name(r) ?? ''}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          noOptionsText={translate(`${SECTION_MSG}.adopt.noOptions`)}
          renderInput={(params) => (
            <TextField
              {...params}
              label={translate(`${SECTION_MSG}.adopt.record`)}
              placeholder={translate(`${SECTION_MSG}.adopt.search`)}
            />
          )}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button variant="contained" onClick={adopt} disabled={!chosen || busy}>
          {translate(`${SECTION_MSG}.adopt.confirm`)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function AdoptButton({ keyword }: { keyword: string }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="small"
        startIcon={<AddLinkIcon aria-hidden />}
        onClick={() => setOpen(true)}
        aria-label={translate(`${SECTION_MSG}.adopt.actionFor`, { keyword })}
      >
        {translate(`${SECTION_MSG}.adopt.action`)}
      </Button>
      {open && <AdoptDialog keyword={keyword} onClose={() => setOpen(false)} />}
    </>
  );
}

const keywordColumn = {
  source: 'key',
  label: `${SECTION_MSG}.fields.keyword`,
  render: (r: RaRecord) => (
    <>
      {r.key}
      <ZeroFlag record={r} />
    </>
  ),
};

/**
 * Hot keywords (/stats/hotkeyword): searches, unique searchers, average results and zero-result searches per
 * keyword, zero-result ones flagged; the demand gap lists the keywords whose searches all found nothing, each
 * with the action that adds it to a movie, novel or actress.
 */
export function HotKeywords() {
  const translate = useTranslate();
  const [tab, setTab] = useState<'keywords' | 'gap'>('keywords');
  const admin = useCan('statistics.settings');
  return (
    <StatsPage>
      <ReportTabs
        value={tab}
        onChange={setTab}
        label={`${SECTION_MSG}.menu.hotkeyword`}
        tabs={[
          { value: 'keywords', label: `${SECTION_MSG}.tabs.keywords` },
          { value: 'gap', label: `${SECTION_MSG}.tabs.gap` },
        ]}
      >
        {tab === 'keywords' ? (
          <ReportList
            key="keywords"
            resource={KEYWORDS_RESOURCE}
            columns={[keywordColumn]}
            figures={[
              figure('searches'),
              figure('searchers'),
              figure('avgResults', { format: 'decimal', chart: false }),
              figure('zeroResults', { lowerIsBetter: true }),
            ]}
            sort={{ field: 'searches', order: 'DESC' }}
            filename="hot-keywords"
          />
        ) : (
          <Box>
            <Alert severity="info" sx={{ my: 1 }}>
              <Typography variant="body2">{translate(`${SECTION_MSG}.keywords.gapHint`)}</Typography>
            </Alert>
            <ReportList
              key="gap"
              resource={KEYWORDS_RESOURCE}
              filter={{ zeroOnly: true }}
              columns={[{ source: 'key', label: `${SECTION_MSG}.fields.keyword` }]}
              figures={[figure('searches'), figure('searchers')]}
              sort={{ field: 'searches', order: 'DESC' }}
              // adopting edits content: admins only (the API says 40300 to others)
              actions={
                admin
                  ? {
                      label: `${SECTION_MSG}.fields.actions`,
                      render: (r) => <AdoptButton keyword={String(r.key)} />,
                    }
                  : undefined
              }
              filename="demand-gap"
              empty={{ title: `${SECTION_MSG}.keywords.gapEmpty` }}
            />
          </Box>
        )}
      </ReportTabs>
    </StatsPage>
  );
}
