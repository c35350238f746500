import { TextField } from '@mui/material';
import { lazy, Suspense } from 'react';
import { useTranslate } from 'react-admin';
import { completeDate, type DayInputProps, type InstantInputProps, type PlainDayPickerProps } from './shared';

/**
 * Date inputs in the interface's language (the native ones follow the browser's). The pickers load with the
 * first one shown (a list's date filter stays unloaded until it is opened); until then an empty box holds the place.
 */
const pickers = () => import('./pickers');
const LazyDay = lazy(() => pickers().then((m) => ({ default: m.DayPickerInput })));
const LazyInstant = lazy(() => pickers().then((m) => ({ default: m.InstantPickerInput })));
const LazyPlain = lazy(() => pickers().then((m) => ({ default: m.PlainDayPicker })));

function Placeholder({ label }: { label?: unknown }) {
  const translate = useTranslate();
  return (
    <TextField
      data-date-placeholder=""
      size="small"
      variant="filled"
      disabled
      label={typeof label === 'string' ? translate(label, { _: label }) : undefined}
      value=""
    />
  );
}

const withComplete = (validate: DayInputProps['validate']) =>
  validate ? [completeDate, ...(Array.isArray(validate) ? validate : [validate])] : completeDate;

/** A day (`YYYY-MM-DD`), for react-admin forms and filters: react-admin's DateInput in the interface's language. */
export function DayInput(props: DayInputProps) {
  return (
    <Suspense fallback={<Placeholder label={props.label} />}>
      <LazyDay {...props} validate={withComplete(props.validate)} />
    </Suspense>
  );
}

/** A date and time to the second, stored as an ISO instant (a notice may start at 08:00:30). */
export function InstantInput(props: InstantInputProps) {
  return (
    <Suspense fallback={<Placeholder label={props.label} />}>
      <LazyInstant {...props} validate={withComplete(props.validate)} />
    </Suspense>
  );
}

/** A day picker outside a form (the reports' period bar). */
export function DayPicker(props: PlainDayPickerProps) {
  return (
    <Suspense fallback={<Placeholder label={props.label} />}>
      <LazyPlain {...props} />
    </Suspense>
  );
}
