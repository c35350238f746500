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
import { useEffect, useId, useState } from 'react';
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
import { useCan } from '../../auth/permission';
import { useAutocompleteTexts } from '../../components/autocompleteTexts';
import { EditPage } from '../../components/EditPage';
import { FormSection } from '../setting/shared';
import { modelChoices } from './AgentList';
import { AGENT_MSG, AGENT_RESOURCE, agentEditPath, domainsApi, SECTION_MSG } from './names';
import { type BoundDomain, PromotionLink, STORE_API, withUnicode } from './PromotionLink';

const f = (name: string) => `${AGENT_MSG}.fields.${name}`;
const payoutChoices = PAYOUT_METHODS.map((m) => ({ id: m, name: `${SECTION_MSG}.payout.${m}` }));

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
  const autocompleteTexts = useAutocompleteTexts();
  const notify = useNotify();
  const admin = useCan('agents.edit');
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
          <Chip key={d.id} label={d.unicode ?? d.hostname} size="small" />
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
        {...autocompleteTexts}
        multiple
        options={options}
        value={picked}
        onChange={(_e, v) => setPicked(v)}
        onInputChange={(_e, v) => setText(v)}
        getOptionLabel={(d) => d.unicode ?? d.hostname}
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
  const id = record?.id;
  const channel = String(record?.channel ?? '');
  useEffect(() => {
    if (!id) return;
    request<BoundDomain[]>(domainsApi(id), { quiet: true })
      .then((list) => withUnicode(channel, list))
      .then(setBound)
      .catch(() => setBound([]));
  }, [id, channel]);
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
          <BoundDomains
            id={Number(record.id)}
            bound={bound}
            onSaved={(saved) => withUnicode(record.channel, saved).then(setBound)}
          />
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
