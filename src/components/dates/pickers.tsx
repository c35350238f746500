import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { enUS, zhCN } from '@mui/x-date-pickers/locales';
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/zh-cn';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { FieldTitle, InputHelperText, useInput, useLocaleState, useResourceContext } from 'react-admin';
import {
  DAY_FORMAT,
  type DayInputProps,
  INVALID,
  type InstantInputProps,
  type PlainDayPickerProps,
} from './shared';

/**
 * The date pickers (MUI X), in the interface's language rather than the browser's: the calendar, the
 * field's order and the texts follow react-admin's locale. Loaded only with a screen that shows one (DateInputs.tsx).
 */
const LOCALES = {
  'zh-CN': {
    adapter: 'zh-cn',
    text: zhCN.components.MuiLocalizationProvider.defaultProps.localeText,
    day: 'YYYY-MM-DD',
    instant: 'YYYY-MM-DD HH:mm:ss',
    // the calendar's heading as Chinese writes it (2026年11月), not the locale's 十一月 2026
    header: 'YYYY年M月',
  },
  'en-US': {
    adapter: 'en',
    text: enUS.components.MuiLocalizationProvider.defaultProps.localeText,
    day: 'MM/DD/YYYY',
    instant: 'MM/DD/YYYY HH:mm:ss',
    header: 'MMMM YYYY',
  },
} as const;

function useLocaleFormats() {
  const [locale] = useLocaleState();
  return LOCALES[locale === 'en-US' ? 'en-US' : 'zh-CN'];
}

function PickerProvider({ children }: { children: ReactNode }) {
  const l = useLocaleFormats();
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale={l.adapter} localeText={l.text}>
      {children}
    </LocalizationProvider>
  );
}

/** A picker's value as the form keeps it: a day `YYYY-MM-DD`, an ISO instant, null when empty, INVALID when half typed. */
const INSTANT_VIEWS = ['year', 'month', 'day', 'hours', 'minutes', 'seconds'] as const;

const dayValue = (d: Dayjs | null) => (d ? (d.isValid() ? d.format(DAY_FORMAT) : INVALID) : null);
const instantValue = (d: Dayjs | null) => (d ? (d.isValid() ? d.toISOString() : INVALID) : null);
const parsed = (v: unknown, day: boolean) => {
  if (!v || v === INVALID) return null;
  const d = day ? dayjs(String(v), DAY_FORMAT, true) : dayjs(String(v));
  return d.isValid() ? d : null;
};

function RaPicker({
  kind,
  source,
  label,
  helperText,
  minDate,
  maxDate,
  ...props
}: (DayInputProps | InstantInputProps) & { kind: 'day' | 'instant' }) {
  const l = useLocaleFormats();
  const resource = useResourceContext(props);
  const { field, fieldState, isRequired, id } = useInput({ source, ...props });
  // A half-typed date: the form holds INVALID (refused by completeDate, so never saved) and the picker keeps the
  // very value it reported, so what was typed stays on screen to be finished (given null it would clear it).
  const [typed, setTyped] = useState<Dayjs | null>(null);
  const value = field.value === INVALID ? typed : parsed(field.value, kind === 'day');
  const Picker = kind === 'day' ? DatePicker : DateTimePicker;
  const message = fieldState.error?.message;
  // MUI reports a field with some parts typed and others empty as null, like an empty one; what it shows (its
  // hidden input: "05/01/YYYY") tells them apart when the operator leaves the field (or clicks save).
  const input = useRef<HTMLInputElement>(null);
  const onBlur = () => {
    const shown = input.current?.value ?? '';
    if ((field.value === null || field.value === undefined || field.value === '') && /\d/.test(shown)) {
      setTyped(null); // the picker keeps its null, and with it what is shown
      field.onChange(INVALID);
    }
    field.onBlur();
  };
  const commit = (d: Dayjs | null) => {
    const next = kind === 'day' ? dayValue(d) : instantValue(d);
    setTyped(next === INVALID ? d : null);
    field.onChange(next);
  };
  return (
    <PickerProvider>
      <Picker
        value={value}
        onChange={commit}
        // MUI reports an incomplete or impossible entry here too (e.g. typed over a value it never changed)
        onError={(error, d) => {
          if (error === 'invalidDate' && field.value !== INVALID) commit(d ?? dayjs(Number.NaN));
        }}
        format={kind === 'day' ? l.day : l.instant}
        {...(kind === 'day' ? {} : { views: INSTANT_VIEWS as never, ampm: false })}
        minDate={minDate ? dayjs(minDate) : undefined}
        maxDate={maxDate ? dayjs(maxDate) : undefined}
        disabled={props.disabled}
        readOnly={props.readOnly}
        slotProps={{
          calendarHeader: { format: l.header },
          field: { clearable: !isRequired },
          textField: {
            id,
            name: source,
            inputRef: input,
            onBlur,
            size: 'small',
            variant: 'filled',
            sx: props.sx,
            fullWidth: props.fullWidth,
            error: fieldState.invalid,
            label:
              label === false ? undefined : (
                <FieldTitle label={label} source={source} resource={resource} isRequired={isRequired} />
              ),
            helperText:
              helperText === false && !message ? undefined : (
                <InputHelperText error={message} helperText={helperText} />
              ),
          },
        }}
      />
    </PickerProvider>
  );
}

export function DayPickerInput(props: DayInputProps) {
  return <RaPicker kind="day" {...props} />;
}

export function InstantPickerInput(props: InstantInputProps) {
  return <RaPicker kind="instant" {...props} />;
}

/** How long a bad entry stands, the field still being typed in, before it is said (PlainDayPicker). */
const SETTLE_MS = 600;

/**
 * A day picker outside a form (the reports' period, the settlement's days): commits only complete days within the
 * bounds. The picker is controlled, and MUI X's field takes a value it published and did not get back as refused: a
 * complete day published over an empty value and not echoed back within a 0 ms timeout has its parts cleared, the
 * part being typed keeps its pending digit. Typed digit by digit, 2026-11-29 passes through 2026-11-02; below the
 * minimum it was not committed, the field was cleared and the next digit left just "29". So the picker is given back
 * what its field last published (the draft, about the value it was typed over) and the committed day only when it
 * changes; that day's Dayjs is made once per value (a new one each render is a new value: the field's parts reset).
 */
export function PlainDayPicker({
  label,
  value,
  min,
  max,
  onCommit,
  error,
  invalidText,
  onRefused,
}: PlainDayPickerProps) {
  const l = useLocaleFormats();
  const committed = useMemo(() => parsed(value, true), [value]);
  const minDate = useMemo(() => (min ? dayjs(min) : undefined), [min]);
  const maxDate = useMemo(() => dayjs(max), [max]);
  // What the field last published over the value it was typed over: another value (a preset, a commit) drops it.
  const [draft, setDraft] = useState<{ over: string; day: Dayjs | null } | null>(null);
  if (draft && draft.over !== value) setDraft(null);
  const typed = draft?.over === value ? draft : null;
  const within = (d: Dayjs | null) => {
    const v = dayValue(d);
    return v && v !== INVALID && v <= max && (!min || v >= min) ? v : null;
  };
  // A bad entry: a date that is not a day within the bounds, or a committed day emptied (part or whole).
  const bad = !!typed && !within(typed.day) && (typed.day !== null || value !== '');
  // Said at once when the field is left, but while it is typed in only once it has stood SETTLE_MS: typed digit by
  // digit, 2026-11-29 passes through 2026-11-02, which a minimum of 2026-11-05 refuses for a keystroke.
  const [focused, setFocused] = useState(false);
  const [settled, setSettled] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each entry typed (a new draft) starts the wait again
  useEffect(() => {
    setSettled(false);
    if (!bad || !focused) return;
    const timer = setTimeout(() => setSettled(true), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [typed, bad, focused]);
  const said = bad && (!focused || settled);
  // biome-ignore lint/correctness/useExhaustiveDependencies: told on a change of state, whoever the listener is
  useEffect(() => onRefused?.(bad), [bad]);
  // Bounds that move (the end's minimum is the start) may take in a day typed outside them: it is committed then,
  // rather than shown without an error and never committed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the bounds commits what was typed
  useEffect(() => {
    const v = typed && within(typed.day);
    if (v && v !== value) onCommit(v);
  }, [min, max]);
  return (
    <PickerProvider>
      <DatePicker
        label={label}
        value={typed ? typed.day : committed}
        format={l.day}
        minDate={minDate}
        maxDate={maxDate}
        onChange={(next) => {
          setDraft({ over: value, day: next });
          const v = within(next);
          if (v) onCommit(v);
        }}
        slotProps={{
          calendarHeader: { format: l.header },
          textField: {
            size: 'small',
            variant: 'filled',
            onFocus: () => setFocused(true),
            onBlur: () => setFocused(false),
            error: said || !!error,
            helperText: said ? invalidText : error,
          },
        }}
      />
    </PickerProvider>
  );
}
