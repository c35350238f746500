import { useLayoutEffect, useRef } from 'react';
import {
  type DatagridProps,
  DateField,
  type DateFieldProps,
  Pagination,
  Datagrid as RaDatagrid,
  useListContext,
  useLocaleState,
  useTranslate,
} from 'react-admin';
import { PAGE_SIZES as API_PAGE_SIZES } from '../../common/paging';

/** The page sizes the API allows. */
export const PAGE_SIZES: number[] = [...API_PAGE_SIZES];

/** The API's page sizes; a capped total (the list's meta says `totalExact: false`) reads "of 1,000+". */
export function ListPagination() {
  const { meta } = useListContext();
  const translate = useTranslate();
  const capped = (meta as { totalExact?: boolean } | undefined)?.totalExact === false;
  // PaginationProps does not declare it, but react-admin passes the rest to MUI's TablePagination, last.
  const label = capped
    ? {
        labelDisplayedRows: ({ from, to, count }: { from: number; to: number; count: number }) =>
          translate('shell.list.rangeCapped', { from, to, count }),
      }
    : {};
  return <Pagination rowsPerPageOptions={PAGE_SIZES} {...(label as object)} />;
}

/** A date (and time) in the UI's locale, not the browser's. */
export function LocaleDateField(props: DateFieldProps) {
  const [locale] = useLocaleState();
  return <DateField showTime {...props} locales={locale} />;
}

/**
 * react-admin's Datagrid with accessible row checkboxes. react-admin 5.15 puts each row checkbox's aria-label on
 * MUI's wrapping <span> instead of the <input> (axe: aria-prohibited-attr + label, both serious); this moves it
 * where it belongs, also for rows rendered later. Every list uses this instead of react-admin's Datagrid.
 */
export function Datagrid(props: DatagridProps) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const root = ref.current;
    if (!root) return;
    const fix = () => {
      for (const span of root.querySelectorAll<HTMLElement>('.select-item[aria-label]')) {
        const input = span.querySelector('input');
        if (!input) continue;
        input.setAttribute('aria-label', span.getAttribute('aria-label')!);
        span.removeAttribute('aria-label');
      }
    };
    fix();
    const observer = new MutationObserver(fix);
    observer.observe(root, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-label'],
    });
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={ref}>
      <RaDatagrid {...props} />
    </div>
  );
}
