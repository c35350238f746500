import { TextField } from '@mui/material';
import { useTranslate } from 'react-admin';

/**
 * The reason a rejection needs (the submitter sees it), asked in a confirm dialog. `prefix` is the section's
 * action messages, which hold `reason` and `reasonHint`.
 */
export function ReasonField({
  prefix,
  value,
  onChange,
}: {
  prefix: string;
  value: string;
  onChange: (reason: string) => void;
}) {
  const translate = useTranslate();
  return (
    <TextField
      autoFocus
      fullWidth
      required
      multiline
      minRows={2}
      margin="normal"
      label={translate(`${prefix}.reason`)}
      helperText={translate(`${prefix}.reasonHint`)}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      slotProps={{ htmlInput: { maxLength: 500 } }}
    />
  );
}
