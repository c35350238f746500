import { TextField } from '@mui/material';
import { lazy, type ReactNode, Suspense } from 'react';
import { FieldTitle } from 'react-admin';
import { preloadable } from '../../routes/lazy';
import { completeDate, type DayInputProps, type InstantInputProps, type PlainDayPickerProps } from './shared';

/**
 * Date inputs in the interface's language (the native ones follow the browser's). The pickers load with the
 * first one shown (a list's date filter stays unloaded until it is opened); until then an empty box holds the place.
 */
const pickers = () => import('./pickers');
const LazyDay = lazy(() => pickers().then((m) => ({ default: m.DayPickerInput })));
const LazyInstant = lazy(() => pickers().then((m) => ({ default: m.InstantPickerInput })));
// Preloadable: a report screen loads the pickers with its code (reportCalendar.ts), and its period bar then shows
// them at once rather than placeholders first.
const Plain = preloadable(() => pickers().then((m) => m.PlainDayPicker));

/** Loads the period bar's day picker ahead: once loaded, `DayPicker` renders it without a placeholder first. */
export const preloadDayPicker = () => Plain.preload();

/**
 * The box shown while the pickers load, named as the picker it stands for: a form's input without a `label` takes its
 * field's name from its source, as react-admin's inputs do (an unnamed box was an unlabelled input to a screen reader).
 */
function Placeholder({ label, source }: { label?: ReactNode | false; source?: string }) {
  return (
    <TextField
      data-date-placeholder=""
      size="small"
      variant="filled"
      disabled
      // react-admin's own naming: a message key or text as given, else the field's name from the resource and source
      label={label === false ? undefined : <FieldTitle label={label} source={source} />}
      value=""
    />
  );
}

const withComplete = (validate: DayInputProps['validate']) =>
  validate ? [completeDate, ...(Array.isArray(validate) ? validate : [validate])] : completeDate;

/** A day (`YYYY-MM-DD`), for react-admin forms and filters: react-admin's DateInput in the interface's language. */
export function DayInput(props: DayInputProps) {
  return (
    <Suspense fallback={<Placeholder label={props.label} source={props.source} />}>
      <LazyDay {...props} validate={withComplete(props.validate)} />
    </Suspense>
  );
}

/** A date and time to the second, stored as an ISO instant (a notice may start at 08:00:30). */
export function InstantInput(props: InstantInputProps) {
  return (
    <Suspense fallback={<Placeholder label={props.label} source={props.source} />}>
      <LazyInstant {...props} validate={withComplete(props.validate)} />
    </Suspense>
  );
}

/** A day picker outside a form (the reports' period bar). */
export function DayPicker(props: PlainDayPickerProps) {
  return (
    <Suspense fallback={<Placeholder label={props.label} />}>
      <Plain {...props} />
    </Suspense>
  );
}
