import NetworkCheckIcon from '@mui/icons-material/NetworkCheck';
import { Alert, Box, Button, Card, CardContent, Chip, Stack } from '@mui/material';
import { useState } from 'react';
import {
  BooleanInput,
  Create,
  maxLength,
  maxValue,
  minValue,
  NumberInput,
  RadioButtonGroupInput,
  required,
  SimpleForm,
  TextInput,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { useParams } from 'react-router-dom';
import { ApiFailure, request } from '../../api/http';
import { Permission } from '../../auth/permission';
import { EditPage } from '../../components/EditPage';
import {
  COLLECT_FORMATS,
  IMAGE_MODES,
  SECTION_MSG,
  SOURCE_KINDS,
  SOURCE_MSG,
  sourceEditPath,
  testApi,
} from './names';

const f = (name: string) => `${SOURCE_MSG}.fields.${name}`;
const formatChoices = COLLECT_FORMATS.map((id) => ({ id, name: `${SECTION_MSG}.format.${id}` }));
const imageModeChoices = IMAGE_MODES.map((id) => ({ id, name: `${SECTION_MSG}.imageMode.${id}` }));
const kindChoices = SOURCE_KINDS.map((id) => ({ id, name: `${SECTION_MSG}.sourceKind.${id}` }));

interface TestResult {
  ok: boolean;
  total: number;
  pageCount: number;
  classes: { typeId: number; typeName: string }[];
  error: string;
}

/** Reads the site's type list (admin): its types and total, or the readable reason it failed. */
function TestButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<TestResult | null>(null);
  const [failure, setFailure] = useState('');
  if (!record?.id) return null;
  const run = async () => {
    setBusy(true);
    setFailure('');
    setResult(null);
    try {
      setResult(await request<TestResult>(testApi(record.id), { method: 'POST', quiet: true }));
    } catch (e) {
      setFailure(e instanceof ApiFailure ? e.msg : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box>
      <Button variant="outlined" startIcon={<NetworkCheckIcon />} onClick={run} disabled={busy}>
        {translate(`${SOURCE_MSG}.action.test`)}
      </Button>
      {failure && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {failure}
        </Alert>
      )}
      {result && !result.ok && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {translate(`${SOURCE_MSG}.test.failed`, { reason: result.error })}
        </Alert>
      )}
      {result?.ok && (
        <Alert severity="success" sx={{ mt: 1 }}>
          {translate(`${SOURCE_MSG}.test.ok`, { total: result.total, types: result.classes.length })}
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5, mt: 1 }}>
            {result.classes.map((c) => (
              <Chip key={c.typeId} size="small" label={`${c.typeId} ${c.typeName}`} />
            ))}
          </Stack>
        </Alert>
      )}
    </Box>
  );
}

/** The kind is chosen when a source is added: its bindings and item records are of that kind (shown, not edited, after). */
function Inputs({ create = false }: { create?: boolean }) {
  return (
    <>
      <TextInput source="name" label={f('name')} validate={[required(), maxLength(64)]} />
      <RadioButtonGroupInput
        source="kind"
        label={f('kind')}
        choices={kindChoices}
        validate={required()}
        disabled={!create}
        helperText={`${SOURCE_MSG}.help.${create ? 'kind' : 'kindFixed'}`}
      />
      <TextInput
        source="url"
        label={f('url')}
        validate={[required(), maxLength(512)]}
        helperText={`${SOURCE_MSG}.help.url`}
        fullWidth
      />
      {/* answered masked to everyone; the mask saved back keeps the key (server/modules/collect/key.ts) */}
      <TextInput
        source="apiKey"
        label={f('apiKey')}
        validate={maxLength(128)}
        helperText={`${SOURCE_MSG}.help.apiKey`}
        autoComplete="off"
      />
      <RadioButtonGroupInput
        source="format"
        label={f('format')}
        choices={formatChoices}
        validate={required()}
      />
      <RadioButtonGroupInput
        source="imageMode"
        label={f('imageMode')}
        choices={imageModeChoices}
        validate={required()}
        helperText={`${SOURCE_MSG}.help.imageMode`}
      />
      <Permission need="collect.settings">
        <BooleanInput source="trusted" label={f('trusted')} helperText={`${SOURCE_MSG}.help.trusted`} />
      </Permission>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <NumberInput
          source="scheduleMinutes"
          label={f('scheduleMinutes')}
          min={0}
          max={7 * 24 * 60}
          validate={[required(), minValue(0), maxValue(7 * 24 * 60)]}
          helperText={`${SOURCE_MSG}.help.scheduleMinutes`}
        />
        <NumberInput
          source="scheduleHours"
          label={f('scheduleHours')}
          min={1}
          max={24 * 30}
          validate={[required(), minValue(1), maxValue(24 * 30)]}
        />
      </Box>
      <BooleanInput source="enabled" label={f('enabled')} />
    </>
  );
}

function EditTitle() {
  const record = useRecordContext();
  const translate = useTranslate();
  return <>{translate(`${SOURCE_MSG}.page.edit`, { name: record?.name ?? '' })}</>;
}

/** `/collect/sourceEdit/:id?`: a source with an id (and its connection test), a new one without. */
export function SourceEdit() {
  const { id } = useParams();
  const translate = useTranslate();
  return id ? (
    <EditPage
      key={id}
      id={id}
      title={<EditTitle />}
      component="div"
      // the connection test in a card of its own below the form's (it was flush against the page's edge)
      after={
        <Permission need="collect.settings">
          <Card sx={{ mt: 2 }}>
            <CardContent>
              <TestButton />
            </CardContent>
          </Card>
        </Permission>
      }
    >
      <Inputs />
    </EditPage>
  ) : (
    <Create
      title={translate(`${SOURCE_MSG}.page.create`)}
      redirect={(_r, newId) => sourceEditPath(newId)}
      actions={false}
    >
      <SimpleForm
        defaultValues={{
          kind: 'vod',
          format: 'json',
          trusted: false,
          imageMode: 'remote',
          scheduleMinutes: 0,
          scheduleHours: 24,
          enabled: true,
        }}
      >
        <Inputs create />
      </SimpleForm>
    </Create>
  );
}
