import { DateField, type DateFieldProps, Pagination, useLocaleState } from 'react-admin';

/** The page sizes the API allows (server/core/crud.ts PAGE_SIZES). */
export const PAGE_SIZES = [10, 20, 50, 100];

export const ListPagination = () => <Pagination rowsPerPageOptions={PAGE_SIZES} />;

/** A date (and time) in the UI's locale, not the browser's. */
export function LocaleDateField(props: DateFieldProps) {
  const [locale] = useLocaleState();
  return <DateField showTime {...props} locales={locale} />;
}
