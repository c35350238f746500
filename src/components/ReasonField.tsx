import { TextField } from '@mui/material';
import { useTranslate } from 'react-admin';

/**
 * The reason a rejection needs (the submitter sees it), asked in a confirm dialog. `prefix` is the section's
 * action messages, which hold `reason` and `reasonHint`. With `onSubmit`, Enter submits (Shift+Enter: a new line),
 * so a dialog can be answered from the keyboard alone.
 */
export function ReasonField({
  prefix,
  value,
  onChange,
  onSubmit,
}: {
  prefix: string;
  value: string;
  onChange: (reason: string) => void;
  onSubmit?: () => void;
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
      onKeyDown={
        onSubmit &&
        ((e) => {
          if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
          e.preventDefault();
          onSubmit();
        })
      }
      slotProps={{ htmlInput: { maxLength: 500 } }}
    />
  );
}
