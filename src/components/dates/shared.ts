import type { InputProps } from 'react-admin';

/** How a day travels between the form, the API and the URL. */
export const DAY_FORMAT = 'YYYY-MM-DD';
/** The form's value for a half-typed date: refused by `completeDate`, never sent. */
export const INVALID = 'invalid-date';

/** Refuses a half-typed date (react-admin validator). */
export const completeDate = (value: unknown) => (value === INVALID ? 'shell.dates.invalid' : undefined);

export interface DayInputProps extends Omit<InputProps, 'source'> {
  source: string;
  /** The earliest and latest days offered, `YYYY-MM-DD`. */
  minDate?: string;
  maxDate?: string;
  fullWidth?: boolean;
  sx?: object;
}
export type InstantInputProps = DayInputProps;

export interface PlainDayPickerProps {
  label: string;
  value: string;
  min?: string;
  max: string;
  onCommit: (day: string) => void;
  /** An error to show (e.g. the period's order). */
  error?: string;
  /** What to say when a typed day is incomplete or out of bounds. */
  invalidText: string;
  /** Told whenever the field starts or stops showing an entry it refused (the period bar holds the other field). */
  onRefused?: (refused: boolean) => void;
}
