import { Box, Chip, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { TextInput, type TextInputProps, useTranslate } from 'react-admin';
import { useSystemSettings } from '../../api/system';

export { useIsAdmin } from '../../auth/permission';

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

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant (ISO string) as the value of a `datetime-local` input, in the browser's time zone, to the second. */
export function toLocalInput(value: unknown): string {
  if (!value) return '';
  const d = new Date(value as string);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(
    d.getMinutes(),
  )}:${pad(d.getSeconds())}`;
}

/** A `datetime-local` value (local time) as an ISO instant; empty is null. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** A date and time to the second (a notice may start at 08:00:30), stored as an ISO instant. */
export function InstantInput(props: Omit<TextInputProps, 'type'>) {
  return (
    <TextInput
      {...props}
      type="datetime-local"
      format={toLocalInput}
      parse={fromLocalInput}
      slotProps={{ htmlInput: { step: 1 }, inputLabel: { shrink: true } }}
    />
  );
}
