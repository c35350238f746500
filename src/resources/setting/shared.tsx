import { Box, Chip, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { useSystemSettings } from '../../api/system';

export { useCan } from '../../auth/permission';

/** The platforms of the system settings (SPEC.md §3) as choices. */
export function usePlatformChoices() {
  const settings = useSystemSettings();
  return (settings?.platforms ?? []).map((p) => ({ id: Number(p.key), name: p.name }));
}

/** Platform keys as their names (a key no longer in the settings shows as `#key`). */
export function PlatformChips({ keys }: { keys?: number[] }) {
  const map = useSystemSettings()?.platformMap ?? {};
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
      {(keys ?? []).map((k) => (
        <Chip key={k} size="small" variant="outlined" label={map[String(k)] ?? `#${k}`} />
      ))}
    </Stack>
  );
}

/** A titled group of fields inside a form. */
export function FormSection({
  title,
  children,
  hint,
}: {
  title: string;
  children: ReactNode;
  hint?: string;
}) {
  const translate = useTranslate();
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mb: 3, width: '100%', minWidth: 0 }}>
      <Typography component="legend" variant="subtitle1" sx={{ mb: 0.5, fontWeight: 600 }}>
        {translate(title)}
      </Typography>
      {hint && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate(hint)}
        </Typography>
      )}
      {children}
    </Box>
  );
}

/** A date and time to the second (a notice may start at 08:00:30), stored as an ISO instant. */
export { InstantInput } from '../../components/dates';
