import { useLocaleState } from 'react-admin';

/** A date-time in the UI's locale. */
export function LocaleDate({ value }: { value: string }) {
  const [locale] = useLocaleState();
  return <>{new Date(value).toLocaleString(locale)}</>;
}
