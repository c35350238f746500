import { Alert, Card } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import {
  BooleanInput,
  Loading,
  maxValue,
  minValue,
  NumberInput,
  required,
  SaveButton,
  SimpleForm,
  Toolbar,
  useNotify,
  useTranslate,
} from 'react-admin';
import { ApiFailure, request } from '../../api/http';
import { useCan } from '../../auth/permission';
import { ConflictAlert } from '../../components/ConflictAlert';
import { LocaleDate } from './LocaleDate';
import { SETTING_API, SETTING_MSG } from './names';

interface Settings {
  checkEnabled: boolean;
  checkIntervalSeconds: number;
  checkTimeoutMs: number;
  failThreshold: number;
  autoReplace: boolean;
  expiryWarnDays: number;
  lastCheckAt: string | null;
  version: number;
}

const range = (min: number, max: number) => [required(), minValue(min), maxValue(max)];

/**
 * Domain settings (`/domain/setting`): whether the health checker runs, how often and with what timeout, how many
 * failures in a row block a domain, whether a blocked channel domain is replaced by a standby of its pool, and the
 * expiry warning horizon. Admins save; others read.
 */
export function DomainSettings() {
  const translate = useTranslate();
  const notify = useNotify();
  const admin = useCan('domain.settings');
  const [settings, setSettings] = useState<Settings | null>(null);
  const [conflict, setConflict] = useState(false);
  const reload = useCallback(async () => {
    try {
      setSettings(await request<Settings>(SETTING_API));
      setConflict(false);
    } catch {
      // shown by the HTTP client
    }
  }, []);
  useEffect(() => {
    reload();
  }, [reload]);
  if (!settings) return <Loading />;

  const onSubmit = async (v: Record<string, any>) => {
    try {
      const saved = await request<Settings>(SETTING_API, {
        method: 'PUT',
        json: {
          checkEnabled: v.checkEnabled,
          checkIntervalSeconds: v.checkIntervalSeconds,
          checkTimeoutMs: v.checkTimeoutMs,
          failThreshold: v.failThreshold,
          autoReplace: v.autoReplace,
          expiryWarnDays: v.expiryWarnDays,
          version: settings.version,
        },
      });
      setSettings(saved);
      notify(`${SETTING_MSG}.saved`, { type: 'success' });
    } catch (err) {
      if (err instanceof ApiFailure && err.code === 40900) setConflict(true);
      if (err instanceof ApiFailure && err.body) return err.body.errors;
    }
  };

  return (
    <Card sx={{ mt: 1, maxWidth: 720 }}>
      <ConflictAlert show={conflict} onReload={reload} />
      {!admin && (
        <Alert severity="info" sx={{ m: 2, mb: 0 }}>
          {translate(`${SETTING_MSG}.readOnly`)}
        </Alert>
      )}
      <Alert severity="info" sx={{ m: 2, mb: 0 }}>
        {settings.lastCheckAt ? (
          <>
            {translate(`${SETTING_MSG}.lastCheck`)} <LocaleDate value={settings.lastCheckAt} />
          </>
        ) : (
          translate(`${SETTING_MSG}.neverChecked`)
        )}
      </Alert>
      <SimpleForm
        key={settings.version}
        record={settings}
        onSubmit={onSubmit}
        disabled={!admin}
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
        <BooleanInput
          source="checkEnabled"
          label={`${SETTING_MSG}.fields.checkEnabled`}
          helperText={`${SETTING_MSG}.helper.checkEnabled`}
          disabled={!admin}
        />
        <NumberInput
          source="checkIntervalSeconds"
          label={`${SETTING_MSG}.fields.checkIntervalSeconds`}
          validate={range(30, 86_400)}
          min={30}
          max={86_400}
          disabled={!admin}
        />
        <NumberInput
          source="checkTimeoutMs"
          label={`${SETTING_MSG}.fields.checkTimeoutMs`}
          validate={range(500, 60_000)}
          min={500}
          max={60_000}
          disabled={!admin}
        />
        <NumberInput
          source="failThreshold"
          label={`${SETTING_MSG}.fields.failThreshold`}
          helperText={`${SETTING_MSG}.helper.failThreshold`}
          validate={range(1, 20)}
          min={1}
          max={20}
          disabled={!admin}
        />
        <BooleanInput
          source="autoReplace"
          label={`${SETTING_MSG}.fields.autoReplace`}
          helperText={`${SETTING_MSG}.helper.autoReplace`}
          disabled={!admin}
        />
        <NumberInput
          source="expiryWarnDays"
          label={`${SETTING_MSG}.fields.expiryWarnDays`}
          validate={range(1, 365)}
          min={1}
          max={365}
          disabled={!admin}
        />
      </SimpleForm>
    </Card>
  );
}
