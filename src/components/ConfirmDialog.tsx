import {
  Button,
  type ButtonProps,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from '@mui/material';
import { type MouseEvent, type ReactNode, useId } from 'react';
import { useTranslate } from 'react-admin';

export interface ConfirmDialogProps {
  open: boolean;
  /** The title, already translated (a dialog is named by it). */
  title: ReactNode;
  /** The question, already translated; shown as the dialog's text. */
  question?: ReactNode;
  /** More of the dialog under the question (a reason field, a picker…). */
  children?: ReactNode;
  onClose: () => void;
  onConfirm: () => void;
  /** i18n key of the confirm button (`ra.action.confirm`); `null` shows only cancel (nothing can be done). */
  confirmLabel?: string | null;
  color?: ButtonProps['color'];
  /** The confirm button is disabled (running, or something is still missing). */
  disabled?: boolean;
  /** Focus the confirm button when the dialog opens (off when `children` holds an input that takes focus). */
  autoFocusConfirm?: boolean;
  /** Clicks stay in the dialog (a dialog opened from a clickable row must not reach the row). */
  stopClicks?: boolean;
}

/** The one "are you sure?" dialog: a title, the question, optional inputs, cancel and confirm. */
export function ConfirmDialog({
  open,
  title,
  question,
  children,
  onClose,
  onConfirm,
  confirmLabel = 'ra.action.confirm',
  color = 'primary',
  disabled,
  autoFocusConfirm = !children,
  stopClicks,
}: ConfirmDialogProps) {
  const translate = useTranslate();
  const titleId = useId();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      onClick={stopClicks ? (e: MouseEvent) => e.stopPropagation() : undefined}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="xs"
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        {question !== undefined && <DialogContentText>{question}</DialogContentText>}
        {children}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        {confirmLabel !== null && (
          <Button
            variant="contained"
            color={color === 'inherit' ? 'primary' : color}
            disabled={disabled}
            onClick={onConfirm}
            autoFocus={autoFocusConfirm}
          >
            {translate(confirmLabel)}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
