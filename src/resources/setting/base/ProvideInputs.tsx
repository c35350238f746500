import { Box, Typography } from '@mui/material';
import { BooleanInput, maxLength, regex, TextInput, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { BASE_MSG } from '../names';
import { FormSection } from '../shared';

/** The path MacCMS collectors ask (server/modules/provide): a site's root and this, as MacCMS serves it. */
export const PROVIDE_PATH = '/api.php/provide/vod/';

/** The URL an operator gives another MacCMS site's collection: this server, the path, and the key when one is set. */
export function provideUrl(origin: string, key: string | undefined) {
  return `${origin}${PROVIDE_PATH}${key ? `?key=${encodeURIComponent(key)}` : ''}`;
}

/**
 * MacCMS's provide API switch and key (admins edit; the server never sends the key to other operators), with the
 * URL to give a collecting site, following what is typed.
 */
export function ProvideInputs({ disabled, admin }: { disabled: boolean; admin: boolean }) {
  const translate = useTranslate();
  const open = useWatch({ name: 'provideOpen' }) === true;
  const key = useWatch({ name: 'provideKey' }) as string | undefined;
  return (
    <FormSection title={`${BASE_MSG}.sections.provide`} hint={`${BASE_MSG}.provideHint`}>
      <BooleanInput source="provideOpen" label={`${BASE_MSG}.fields.provideOpen`} disabled={disabled} />
      {admin && (
        <TextInput
          source="provideKey"
          label={`${BASE_MSG}.fields.provideKey`}
          helperText={`${BASE_MSG}.provideKeyHint`}
          validate={[maxLength(64), regex(/^[A-Za-z0-9_-]*$/, `${BASE_MSG}.provideKeyFormat`)]}
          disabled={disabled}
          fullWidth
        />
      )}
      <Box>
        <Typography variant="body2" color="text.secondary">
          {translate(open ? `${BASE_MSG}.provideUrl` : `${BASE_MSG}.provideClosed`)}
        </Typography>
        {open && (
          <Typography
            component="code"
            data-testid="provide-url"
            sx={{ fontFamily: 'monospace', wordBreak: 'break-all', display: 'block', mt: 0.5 }}
          >
            {provideUrl(window.location.origin, admin ? key?.trim() : undefined)}
          </Typography>
        )}
      </Box>
    </FormSection>
  );
}
