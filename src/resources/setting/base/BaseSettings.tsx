import { Alert, Box, Card, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  AutocompleteInput,
  BooleanInput,
  email,
  Loading,
  maxLength,
  ResourceContextProvider,
  regex,
  required,
  SaveButton,
  SimpleForm,
  TextInput,
  Toolbar,
  useNotify,
  useTranslate,
} from 'react-admin';
import { parseAllowEntry } from '../../../../common/hosts';
import { DEFAULT_TIME_ZONE } from '../../../../common/period';
import { ApiFailure, request } from '../../../api/http';
import {
  loadSystemSettings,
  type Platform,
  type SystemSettings,
  saveSystemSettings,
  useSystemSettings,
} from '../../../api/system';
import { ConflictAlert } from '../../../components/ConflictAlert';
import { ImageInput } from '../../../images/ImageInput';
import { BASE_MSG } from '../names';
import { FormSection, useCan } from '../shared';
import { PlatformsInput } from './PlatformsInput';
import { ProvideInputs } from './ProvideInputs';
import { type PlatformUsage, RemovePlatformsDialog } from './RemovePlatformsDialog';
import { SiteKeyPanel } from './SiteKeyPanel';

/** The fields this screen edits; every other stored field is shown and kept as it is (SPEC.md §3). */
export const EDITED = [
  'imgdomain',
  'platforms',
  'siteName',
  'logo',
  'contactEmail',
  'contactPhone',
  'contactTelegram',
  'contactQQ',
  'registrationOpen',
  'commentsOpen',
  'timeZone',
  'outboundAllow',
  'provideOpen',
  'provideKey',
] as const;
const NOT_SHOWN = new Set<string>([...EDITED, 'tenant', 'version', 'platformMap']);

const DEFAULTS = {
  siteName: '',
  logo: '',
  contactEmail: '',
  contactPhone: '',
  contactTelegram: '',
  contactQQ: '',
  registrationOpen: true,
  commentsOpen: true,
  timeZone: DEFAULT_TIME_ZONE,
  outboundAllow: [] as string[],
  provideOpen: false,
  provideKey: '',
};

/** The allow-list is edited one entry a line; what is saved is the trimmed, non-blank lines. */
const allowLines = (v: unknown) => (Array.isArray(v) ? v.join('\n') : typeof v === 'string' ? v : '');
export const allowEntries = (v: unknown) =>
  allowLines(v)
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
/** Names the first line that is neither a hostname nor an IP/CIDR (the API refuses it too). */
const allowList = (v: unknown) => {
  const bad = allowEntries(v).find((l) => parseAllowEntry(l) === null);
  return bad ? { message: `${BASE_MSG}.outboundAllowFormat`, args: { line: bad } } : undefined;
};

/** The IANA time zones this browser knows, the saved one among them (a choice the list lacks is still shown). */
function timeZoneChoices(saved: unknown) {
  const zones = new Set<string>(Intl.supportedValuesOf?.('timeZone') ?? []);
  zones.add(DEFAULT_TIME_ZONE);
  if (typeof saved === 'string' && saved) zones.add(saved);
  return [...zones].sort().map((id) => ({ id, name: id }));
}

const imgdomain = regex(/^(|\/\S*|https?:\/\/[^\s/]+\S*)$/i, `${BASE_MSG}.imgdomainFormat`);

/** Platform keys present before and gone now. */
export function removedKeys(before: Platform[], after: Platform[]): number[] {
  const kept = new Set(after.map((p) => Number(p.key)));
  return before.map((p) => Number(p.key)).filter((k) => !kept.has(k));
}

/** The stored fields no screen edits, shown read-only so an operator knows they are there (and kept). */
function OtherFields({ settings }: { settings: SystemSettings }) {
  const translate = useTranslate();
  const rows = Object.entries(settings).filter(([k]) => !NOT_SHOWN.has(k));
  if (!rows.length) return null;
  return (
    <FormSection title={`${BASE_MSG}.sections.other`} hint={`${BASE_MSG}.otherHint`}>
      <Table size="small" aria-label={translate(`${BASE_MSG}.sections.other`)}>
        <TableHead>
          <TableRow>
            <TableCell>{translate(`${BASE_MSG}.other.name`)}</TableCell>
            <TableCell>{translate(`${BASE_MSG}.other.value`)}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map(([k, v]) => (
            <TableRow key={k}>
              <TableCell sx={{ fontFamily: 'monospace' }}>{k}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                {JSON.stringify(v)?.slice(0, 300)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </FormSection>
  );
}

/**
 * Base settings of the tenant (SPEC.md §2 /setting/base): image host, platforms, site name and logo, contacts,
 * registration and comment switches, and every other stored field shown and kept. Admins save (a stale version
 * offers a reload; removing a platform that content uses asks first, saying how much uses it); a `user` reads.
 * After a save the system store (platform map) is refreshed, so every screen shows the new names at once.
 */
export function BaseSettings() {
  const translate = useTranslate();
  const notify = useNotify();
  const admin = useCan('sys.settings');
  const stored = useSystemSettings();
  const [loaded, setLoaded] = useState(false);
  const [conflict, setConflict] = useState(false);
  const [usage, setUsage] = useState<PlatformUsage[] | null>(null);
  const answer = useRef<(go: boolean) => void>(() => {});

  const reload = useCallback(async () => {
    await loadSystemSettings();
    setConflict(false);
    setLoaded(true);
  }, []);
  useEffect(() => {
    reload();
  }, [reload]);

  if (!loaded || !stored) return <Loading />;
  const settings = stored;
  const names = Object.fromEntries(settings.platforms.map((p) => [Number(p.key), p.name]));

  /** Resolves true when nothing removed is in use, or the operator confirms. */
  const confirmRemovals = async (platforms: Platform[]) => {
    const keys = removedKeys(settings.platforms, platforms);
    if (!keys.length) return true;
    const { usage: all } = await request<{ usage: PlatformUsage[] }>('admin/setting/platform-usage', {
      query: { keys: keys.join(',') },
    });
    const used = all.filter((u) => u.total > 0);
    if (!used.length) return true;
    return new Promise<boolean>((resolve) => {
      answer.current = (go) => {
        setUsage(null);
        resolve(go);
      };
      setUsage(used);
    });
  };

  const onSubmit = async (values: Record<string, unknown>) => {
    const patch: Record<string, unknown> = { version: settings.version ?? 0 };
    for (const k of EDITED) if (values[k] !== undefined) patch[k] = values[k];
    patch.outboundAllow = allowEntries(values.outboundAllow);
    patch.platforms = ((values.platforms as Platform[]) ?? []).map((p) => ({
      key: Number(p.key),
      name: String(p.name ?? '').trim(),
    }));
    try {
      if (!(await confirmRemovals(patch.platforms as Platform[]))) return;
      await saveSystemSettings(patch);
      notify(`${BASE_MSG}.saved`, { type: 'success' });
    } catch (err) {
      if (err instanceof ApiFailure && err.code === 40900) setConflict(true);
      if (err instanceof ApiFailure && err.body) return err.body.errors;
    }
  };

  const disabled = !admin;
  return (
    <ResourceContextProvider value="setting/base">
      <Box sx={{ mt: 1, display: 'grid', gap: 2 }}>
        <Card>
          <ConflictAlert show={conflict} onReload={reload} />
          {!admin && (
            <Alert severity="info" sx={{ m: 2, mb: 0 }}>
              {translate(`${BASE_MSG}.readOnly`)}
            </Alert>
          )}
          <SimpleForm
            key={settings.version ?? 0}
            record={{
              ...DEFAULTS,
              ...settings,
              platforms: settings.platforms.map((p) => ({ ...p, saved: true })),
            }}
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
            <FormSection title={`${BASE_MSG}.sections.site`}>
              <TextInput
                source="siteName"
                label={`${BASE_MSG}.fields.siteName`}
                validate={maxLength(64)}
                disabled={disabled}
                fullWidth
              />
              <ImageInput source="logo" label={`${BASE_MSG}.fields.logo`} disabled={disabled} />
              <TextInput
                source="imgdomain"
                label={`${BASE_MSG}.fields.imgdomain`}
                helperText={`${BASE_MSG}.imgdomainHint`}
                validate={[maxLength(512), imgdomain]}
                disabled={disabled}
                fullWidth
              />
              <AutocompleteInput
                source="timeZone"
                label={`${BASE_MSG}.fields.timeZone`}
                helperText={`${BASE_MSG}.timeZoneHint`}
                choices={timeZoneChoices(settings.timeZone)}
                validate={required()}
                disableClearable
                disabled={disabled}
                fullWidth
              />
            </FormSection>
            <FormSection title={`${BASE_MSG}.sections.platforms`} hint={`${BASE_MSG}.platformsHint`}>
              <PlatformsInput disabled={disabled} />
            </FormSection>
            <FormSection title={`${BASE_MSG}.sections.contact`}>
              <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { md: '1fr 1fr' }, width: '100%' }}>
                <TextInput
                  source="contactEmail"
                  label={`${BASE_MSG}.fields.contactEmail`}
                  validate={[maxLength(128), email()]}
                  disabled={disabled}
                />
                <TextInput
                  source="contactPhone"
                  label={`${BASE_MSG}.fields.contactPhone`}
                  validate={[maxLength(32), regex(/^[+\d\s()-]*$/, `${BASE_MSG}.phoneFormat`)]}
                  disabled={disabled}
                />
                <TextInput
                  source="contactTelegram"
                  label={`${BASE_MSG}.fields.contactTelegram`}
                  validate={maxLength(64)}
                  disabled={disabled}
                />
                <TextInput
                  source="contactQQ"
                  label={`${BASE_MSG}.fields.contactQQ`}
                  validate={[maxLength(20), regex(/^\d*$/, 'ra.validation.number')]}
                  disabled={disabled}
                />
              </Box>
            </FormSection>
            <FormSection title={`${BASE_MSG}.sections.switches`}>
              <BooleanInput
                source="registrationOpen"
                label={`${BASE_MSG}.fields.registrationOpen`}
                disabled={disabled}
              />
              <BooleanInput
                source="commentsOpen"
                label={`${BASE_MSG}.fields.commentsOpen`}
                disabled={disabled}
              />
            </FormSection>
            <FormSection title={`${BASE_MSG}.sections.security`} hint={`${BASE_MSG}.outboundAllowHint`}>
              <TextInput
                source="outboundAllow"
                label={`${BASE_MSG}.fields.outboundAllow`}
                format={allowLines}
                parse={(s: string) => s.split('\n')}
                validate={allowList}
                disabled={disabled}
                multiline
                minRows={3}
                fullWidth
              />
            </FormSection>
            <ProvideInputs disabled={disabled} admin={admin} />
            <OtherFields settings={settings} />
          </SimpleForm>
        </Card>
        {admin && (
          <Card>
            <SiteKeyPanel />
          </Card>
        )}
        <RemovePlatformsDialog
          usage={usage}
          names={names}
          onConfirm={() => answer.current(true)}
          onCancel={() => answer.current(false)}
        />
      </Box>
    </ResourceContextProvider>
  );
}
