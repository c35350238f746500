import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DownloadIcon from '@mui/icons-material/Download';
import LinkIcon from '@mui/icons-material/Link';
import {
  Autocomplete,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  TextField as MuiTextField,
  Skeleton,
  Typography,
} from '@mui/material';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import {
  BooleanInput,
  Create,
  maxLength,
  maxValue,
  minValue,
  NumberInput,
  RadioButtonGroupInput,
  ReferenceInput,
  regex,
  required,
  SelectInput,
  SimpleForm,
  TextInput,
  useNotify,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import { useParams } from 'react-router-dom';
import { MAX_RATE, MAX_SHARE, PAYOUT_METHODS } from '../../../common/agents';
import { CHANNEL_PATTERN } from '../../../common/domain';
import { ApiFailure, request } from '../../api/http';
import { useIsAdmin } from '../../auth/permission';
import { EditPage } from '../../components/EditPage';
import { FormSection } from '../setting/shared';
import { modelChoices } from './AgentList';
import { AGENT_MSG, AGENT_RESOURCE, agentEditPath, domainsApi, SECTION_MSG } from './names';

/** qrcode.react only loads with an agent's edit page. */
const QrCode = lazy(() => import('qrcode.react').then((m) => ({ default: m.QRCodeCanvas })));

const f = (name: string) => `${AGENT_MSG}.fields.${name}`;
const payoutChoices = PAYOUT_METHODS.map((m) => ({ id: m, name: `${SECTION_MSG}.payout.${m}` }));
const STORE_API = 'admin/domain/domains';

interface BoundDomain {
  id: number;
  hostname: string;
  status: string;
  role: string;
}

/** The rate's bounds and hint follow the model: a share is a percentage, the others an amount. */
function RateInput() {
  const model = useWatch({ name: 'model' });
  const share = model === 'share';
  return (
    <NumberInput
      source="rate"
      label={f('rate')}
      min={0}
      max={share ? MAX_SHARE : MAX_RATE}
      step={share ? 1 : 0.5}
      validate={[required(), minValue(0), maxValue(share ? MAX_SHARE : MAX_RATE)]}
      helperText={`${AGENT_MSG}.help.${share ? 'rateShare' : 'rateAmount'}`}
    />
  );
}

/** The agent above this one (the API refuses the agent itself and its own sub-agents, naming the field). */
function ParentInput() {
  return (
    <ReferenceInput
      source="parentId"
      reference={AGENT_RESOURCE}
      perPage={100}
      sort={{ field: 'name', order: 'ASC' }}
    >
      <SelectInput label={f('parentId')} optionText="name" emptyText={`${AGENT_MSG}.noParent`} />
    </ReferenceInput>
  );
}

function Inputs({ editing }: { editing: boolean }) {
  return (
    <>
      <FormSection title={`${AGENT_MSG}.sections.main`}>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
          <TextInput source="name" label={f('name')} validate={[required(), maxLength(64)]} />
          <TextInput
            source="channel"
            label={f('channel')}
            disabled={editing}
            validate={[required(), maxLength(64), regex(CHANNEL_PATTERN, `${AGENT_MSG}.help.channel`)]}
            helperText={`${AGENT_MSG}.help.channel`}
          />
          <TextInput source="contact" label={f('contact')} validate={maxLength(128)} />
        </Box>
        <ParentInput />
        <BooleanInput source="enabled" label={f('enabled')} />
      </FormSection>
      <FormSection title={`${AGENT_MSG}.sections.commission`}>
        <RadioButtonGroupInput
          source="model"
          label={f('model')}
          choices={modelChoices}
          validate={required()}
        />
        <RateInput />
      </FormSection>
      <FormSection title={`${AGENT_MSG}.sections.payout`}>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
          <TextInput source="payee" label={f('payee')} validate={maxLength(64)} />
          <SelectInput
            source="payoutMethod"
            label={f('payoutMethod')}
            choices={payoutChoices}
            validate={required()}
          />
          <TextInput source="payoutAccount" label={f('payoutAccount')} validate={maxLength(128)} />
        </Box>
        <TextInput
          source="notes"
          label={f('notes')}
          multiline
          minRows={2}
          validate={maxLength(500)}
          fullWidth
        />
      </FormSection>
    </>
  );
}

/** The agent's promotion link: a bound active domain, else the site's active main domain with the code. */
export function promotionLink(channel: string, bound: BoundDomain[], main: string | null): string | null {
  const own = bound.find((d) => d.status === 'active');
  if (own) return `https://${own.hostname}/`;
  if (main) return `https://${main}/?channel=${encodeURIComponent(channel)}`;
  return null;
}

function PromotionLink({ channel, bound }: { channel: string; bound: BoundDomain[] }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [main, setMain] = useState<string | null | undefined>(undefined);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    request<{ list: BoundDomain[] }>(STORE_API, {
      query: { role: 'main', status: 'active', pageSize: 10 },
      quiet: true,
    })
      .then((r) => setMain(r.list[0]?.hostname ?? null))
      .catch(() => setMain(null));
  }, []);
  if (main === undefined) return <Skeleton height={120} />;
  const link = promotionLink(channel, bound, main);
  if (!link) return <Typography color="text.secondary">{translate(`${AGENT_MSG}.link.none`)}</Typography>;
  const copy = async () => {
    await navigator.clipboard?.writeText(link).catch(() => undefined);
    notify(`${AGENT_MSG}.action.copied`, { type: 'success' });
  };
  const download = () => {
    const canvas = box.current?.querySelector('canvas');
    if (!canvas) return;
    const a = document.createElement('a');
    a.href = canvas.toDataURL('image/png');
    a.download = `agent-${channel}.png`;
    a.click();
  };
  return (
    <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
      <Box ref={box} sx={{ bgcolor: '#fff', p: 1, borderRadius: 1, lineHeight: 0 }}>
        <Suspense fallback={<Skeleton variant="rectangular" width={128} height={128} />}>
          <QrCode value={link} size={128} role="img" aria-label={translate(`${AGENT_MSG}.link.qr`)} />
        </Suspense>
      </Box>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" color="text.secondary">
          {translate(`${AGENT_MSG}.link.hint`)}
        </Typography>
        <Typography
          component="code"
          data-testid="promotion-link"
          sx={{ wordBreak: 'break-all', display: 'block', my: 1 }}
        >
          {link}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1 }}>
          <Button size="small" variant="outlined" startIcon={<ContentCopyIcon />} onClick={copy}>
            {translate(`${AGENT_MSG}.action.copy`)}
          </Button>
          <Button size="small" startIcon={<DownloadIcon />} onClick={download}>
            {translate(`${AGENT_MSG}.action.download`)}
          </Button>
        </Box>
      </Box>
    </Box>
  );
}

/** The domains bound to the agent's channel; admins pick exactly which (free ones, or ones bound here). */
function BoundDomains({
  id,
  bound,
  onSaved,
}: {
  id: number;
  bound: BoundDomain[];
  onSaved: (d: BoundDomain[]) => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const admin = useIsAdmin();
  const labelId = useId();
  const [picked, setPicked] = useState<BoundDomain[]>(bound);
  const [options, setOptions] = useState<BoundDomain[]>([]);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setPicked(bound), [bound]);
  useEffect(() => {
    if (!admin) return;
    const ctl = new AbortController();
    request<{ list: (BoundDomain & { channel: string | null })[] }>(STORE_API, {
      query: { q: text || undefined, pageSize: 20, sort: 'hostname', order: 'asc' },
      signal: ctl.signal,
      quiet: true,
    })
      .then((r) => setOptions(r.list.filter((d) => !d.channel || bound.some((b) => b.id === d.id))))
      .catch(() => undefined);
    return () => ctl.abort();
  }, [text, admin, bound]);
  const save = async () => {
    setError(null);
    try {
      const saved = await request<BoundDomain[]>(domainsApi(id), {
        method: 'PUT',
        json: { ids: picked.map((d) => d.id) },
        quiet: true,
      });
      onSaved(saved);
      notify(`${AGENT_MSG}.domains.saved`, { type: 'success' });
    } catch (err) {
      if (err instanceof ApiFailure) setError(err.body?.errors?.ids ?? err.message);
      else throw err;
    }
  };
  if (!admin)
    return bound.length ? (
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        {bound.map((d) => (
          <Chip key={d.id} label={d.hostname} size="small" />
        ))}
      </Box>
    ) : (
      <Typography color="text.secondary">{translate(`${AGENT_MSG}.domains.none`)}</Typography>
    );
  return (
    <Box>
      <Typography variant="body2" color="text.secondary" id={labelId} sx={{ mb: 1 }}>
        {translate(`${AGENT_MSG}.help.domains`)}
      </Typography>
      <Autocomplete
        multiple
        options={options}
        value={picked}
        onChange={(_e, v) => setPicked(v)}
        onInputChange={(_e, v) => setText(v)}
        getOptionLabel={(d) => d.hostname}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        filterOptions={(x) => x}
        renderInput={(params) => (
          <MuiTextField
            {...params}
            label={translate(`${AGENT_MSG}.domains.pick`)}
            error={!!error}
            helperText={error ?? undefined}
            size="small"
          />
        )}
        sx={{ maxWidth: 640 }}
      />
      <Button sx={{ mt: 1 }} variant="outlined" size="small" startIcon={<LinkIcon />} onClick={save}>
        {translate(`${AGENT_MSG}.action.saveDomains`)}
      </Button>
    </Box>
  );
}

/** Beside the form of a saved agent: its promotion link with a QR code, and its bound domains. */
function LinkAndDomains() {
  const record = useRecordContext();
  const translate = useTranslate();
  const [bound, setBound] = useState<BoundDomain[] | null>(null);
  useEffect(() => {
    if (!record?.id) return;
    request<BoundDomain[]>(domainsApi(record.id), { quiet: true })
      .then(setBound)
      .catch(() => setBound([]));
  }, [record?.id]);
  if (!record?.id) return null;
  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="subtitle1" component="h2" gutterBottom>
          {translate(`${AGENT_MSG}.sections.link`)}
        </Typography>
        {bound ? <PromotionLink channel={record.channel} bound={bound} /> : <Skeleton height={120} />}
        <Typography variant="subtitle1" component="h2" sx={{ mt: 3 }} gutterBottom>
          {translate(`${AGENT_MSG}.sections.domains`)}
        </Typography>
        {bound ? (
          <BoundDomains id={Number(record.id)} bound={bound} onSaved={setBound} />
        ) : (
          <Skeleton height={56} />
        )}
      </CardContent>
    </Card>
  );
}

function EditTitle() {
  const record = useRecordContext();
  const translate = useTranslate();
  return <>{translate(`${AGENT_MSG}.page.edit`, { name: record?.name ?? '' })}</>;
}

/** `/agents/edit/:id?` (SPEC.md §2): an agent with an id, a new one without. */
export function AgentEdit() {
  const { id } = useParams();
  const translate = useTranslate();
  return id ? (
    <EditPage key={id} id={id} title={<EditTitle />} component="div" after={<LinkAndDomains />}>
      <Inputs editing />
    </EditPage>
  ) : (
    <Create
      title={translate(`${AGENT_MSG}.page.create`)}
      redirect={(_r, newId) => agentEditPath(newId)}
      actions={false}
    >
      <SimpleForm
        defaultValues={{ model: 'share', rate: 0, enabled: true, payoutMethod: 'bank', parentId: null }}
      >
        <Inputs editing={false} />
      </SimpleForm>
    </Create>
  );
}
