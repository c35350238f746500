import DensityMediumIcon from '@mui/icons-material/DensityMedium';
import DensitySmallIcon from '@mui/icons-material/DensitySmall';
import { Box, Chip, TablePagination, type TablePaginationProps, Tooltip } from '@mui/material';
import { alpha, type Theme } from '@mui/material/styles';
import { useLayoutEffect, useRef, useState } from 'react';
import {
  Button,
  type DatagridProps,
  DateField,
  type DateFieldProps,
  Pagination,
  Datagrid as RaDatagrid,
  useListContext,
  useLocaleState,
  useStore,
  useTranslate,
} from 'react-admin';
import { PAGE_SIZES as API_PAGE_SIZES } from '../../common/paging';
import { useUser } from '../api/session';
import { TOP_BAR_VAR } from './topBar';

/** The page sizes the API allows. */
export const PAGE_SIZES: number[] = [...API_PAGE_SIZES];

/**
 * The API's page sizes; counts in the interface's language ("1,500"); a capped total (the list's meta says
 * `totalExact: false`: more than COUNT_CAP match) reads "of 10,000+".
 */
export function ListPagination() {
  const { meta, hasNextPage } = useListContext();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const capped = (meta as { totalExact?: boolean } | undefined)?.totalExact === false;
  const n = (x: number) => x.toLocaleString(locale);
  const labelDisplayedRows = ({ from, to, count }: { from: number; to: number; count: number }) =>
    capped
      ? translate('shell.list.rangeCapped', { from: n(from), to: n(to), count: n(count) })
      : count === -1 && hasNextPage
        ? translate('ra.navigation.partial_page_range_info', { offsetBegin: n(from), offsetEnd: n(to) })
        : translate('ra.navigation.page_range_info', {
            offsetBegin: n(from),
            offsetEnd: n(to),
            total: n(count === -1 ? to : count),
          });
  // PaginationProps does not declare it, but react-admin passes the rest to MUI's TablePagination, last.
  return <Pagination rowsPerPageOptions={PAGE_SIZES} {...({ labelDisplayedRows } as object)} />;
}

/**
 * MUI's TablePagination for a table outside react-admin's lists, in the interface's language (on its own it says
 * "1–3 of 3" and "Rows per page" whatever the locale).
 */
export function LocalTablePagination(props: Omit<TablePaginationProps, 'component'>) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const n = (x: number) => x.toLocaleString(locale);
  return (
    <TablePagination
      component="div"
      labelRowsPerPage={translate('ra.navigation.page_rows_per_page')}
      labelDisplayedRows={({ from, to, count }) =>
        translate('ra.navigation.page_range_info', {
          offsetBegin: n(from),
          offsetEnd: n(to),
          total: n(count),
        })
      }
      getItemAriaLabel={(type) => translate(`ra.navigation.${type}`)}
      {...props}
    />
  );
}

/** Compact rows show times to the minute (the seconds are in the export). */
const COMPACT_TIME: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  // a 24-hour clock in every language: "11/21/2026, 16:38", no AM/PM to widen a compact column
  hourCycle: 'h23',
};

/** A date (and time) in the UI's locale, not the browser's. */
export function LocaleDateField(props: DateFieldProps) {
  const [locale] = useLocaleState();
  const [density] = useDensity();
  const compact =
    density === 'compact' && props.showTime !== false && props.showDate !== false && !props.options;
  return <DateField showTime {...(compact && { options: COMPACT_TIME })} {...props} locales={locale} />;
}

export type Density = 'compact' | 'comfortable';

/**
 * The operator's row density, kept in react-admin's store (localStorage) under their own id: two operators
 * sharing a browser each keep theirs. Compact (one-line rows) by default: operators scan hundreds of rows.
 */
export function useDensity() {
  const uid = useUser()?.uid ?? '';
  return useStore<Density>(`list.density.${uid}`, 'compact');
}

/** The toolbar switch between compact and comfortable rows (every list's Datagrid follows it). */
export function DensityButton() {
  const [density, setDensity] = useDensity();
  const translate = useTranslate();
  const next: Density = density === 'compact' ? 'comfortable' : 'compact';
  return (
    <Tooltip title={translate(`shell.list.density.${next}`)}>
      <span>
        <Button label="shell.list.density.label" onClick={() => setDensity(next)} data-density={density}>
          {density === 'compact' ? <DensitySmallIcon /> : <DensityMediumIcon />}
        </Button>
      </span>
    </Tooltip>
  );
}

/**
 * Names as chips on one line: the first `max`, then "+N" whose tooltip (and accessible name) lists the rest, so a
 * row keeps its height whatever the number of tags.
 */
export function OneLineChips({ names, max = 2 }: { names: string[]; max?: number }) {
  const translate = useTranslate();
  const shown = names.slice(0, max);
  const rest = names.slice(shown.length);
  return (
    <Box component="span" sx={{ display: 'inline-flex', gap: 0.5, flexWrap: 'nowrap', whiteSpace: 'nowrap' }}>
      {shown.map((n) => (
        <Chip key={n} size="small" label={n} title={n} sx={{ maxWidth: 80 }} />
      ))}
      {rest.length > 0 && (
        <Tooltip title={rest.join('、')}>
          <Chip
            size="small"
            variant="outlined"
            label={`+${rest.length}`}
            aria-label={translate('shell.list.moreChips', { count: rest.length, names: rest.join('、') })}
          />
        </Tooltip>
      )}
    </Box>
  );
}

/** Cells that hold controls (buttons, links styled as buttons, inputs) are never cut short. */
const TEXT_CELL = 'td:not(:has(button, .MuiButton-root, input, [role="group"]))';

/**
 * Row styles of each density; headers never wrap. Compact rows are one line with narrower cell padding: a text
 * cell longer than its column is cut with an ellipsis (its whole text in a tooltip, `titleTruncated`). Comfortable
 * rows wrap, unbroken text (a URL, a title with no space) too.
 */
const densitySx = (density: Density) => ({
  '& th': { whiteSpace: 'nowrap' },
  ...(density === 'compact'
    ? {
        '& td': { whiteSpace: 'nowrap', py: 0.25 },
        [`& ${TEXT_CELL}`]: { maxWidth: 320, overflow: 'hidden', textOverflow: 'ellipsis' },
        '& td, & th': { px: 0.75 },
        '& td .MuiCheckbox-root, & th .MuiCheckbox-root': { p: 0.5 },
        '& td:first-of-type, & th:first-of-type': { pl: 1.5 },
      }
    : { [`& ${TEXT_CELL}`]: { maxWidth: 480, overflowWrap: 'anywhere' } }),
});

/** The checkbox column's width: a compact row's checkbox and padding fit (50 px), a comfortable one's (46 px). */
const CHECKBOX_COLUMN = 52;

/**
 * A wide table scrolls inside its own wrapper, never the page, and keeps its first column in view (the row's
 * checkbox, of a set width, and the column after it when the rows can be selected). Sticky cells are opaque — the
 * colour of what the table lies on: a card's paper unless told — and tinted as their row when it is hovered or
 * selected.
 */
export const stickyFirstColumnSx = (theme: Theme, on: 'paper' | 'default' = 'paper') => {
  const palette = (theme.vars ?? theme).palette;
  const tint = (c: string) => `linear-gradient(${c}, ${c})`;
  const cells = (row: string) => `& ${row} > :first-child, & ${row} > .MuiTableCell-paddingCheckbox + *`;
  return {
    [cells('tr')]: {
      position: 'sticky' as const,
      left: 0,
      zIndex: 1,
      backgroundColor: palette.background[on],
      boxShadow: `inset -1px 0 0 ${palette.divider}`,
    },
    '& tr > .MuiTableCell-paddingCheckbox': {
      boxShadow: 'none',
      boxSizing: 'border-box' as const,
      width: CHECKBOX_COLUMN,
      minWidth: CHECKBOX_COLUMN,
      maxWidth: CHECKBOX_COLUMN,
    },
    '& tr > .MuiTableCell-paddingCheckbox + *': { left: CHECKBOX_COLUMN },
    [cells('thead tr')]: { zIndex: 3 },
    [cells('tr.MuiTableRow-hover:hover')]: { backgroundImage: tint(theme.palette.action.hover) },
    [cells('tr.Mui-selected')]: {
      backgroundImage: tint(alpha(theme.palette.primary.main, theme.palette.action.selectedOpacity)),
    },
  };
};

/** Gives a cell cut short by its ellipsis its whole text as a tooltip when the pointer comes to it. */
export function titleTruncated(e: Event) {
  const cell = (e.target as HTMLElement).closest?.('td, th');
  if (!(cell instanceof HTMLElement)) return;
  const cut = cell.scrollWidth > cell.clientWidth + 1;
  if (cut) cell.title = cell.innerText.trim();
  else cell.removeAttribute('title');
}

/**
 * Follows whether the table inside a Datagrid's `root` is wider than its wrapper, as either is resized; `follow()`
 * picks up the table anew when it has changed (it mounts with the first rows), and is cheap when it has not.
 */
function widthFollower(root: HTMLElement, setWide: (wide: boolean) => void) {
  if (typeof ResizeObserver === 'undefined') return undefined;
  let table: HTMLElement | null = null;
  const measure = () => {
    const wrapper = root.querySelector<HTMLElement>('.RaDatagrid-tableWrapper');
    // the wrapper's own width when it does not scroll: the table's beyond it is what would overflow the page
    setWide(!!wrapper && !!table && table.offsetWidth > wrapper.clientWidth + 1);
  };
  const sizes = new ResizeObserver(measure);
  const follow = () => {
    const next = root.querySelector<HTMLElement>('.RaDatagrid-tableWrapper > table');
    if (next === table) return;
    sizes.disconnect();
    table = next;
    if (table) {
      sizes.observe(table);
      sizes.observe(table.parentElement!);
    }
    measure();
  };
  return { follow, stop: () => sizes.disconnect() };
}

/**
 * react-admin 5.15 puts each row checkbox's aria-label on MUI's wrapping <span> instead of the <input> (axe:
 * aria-prohibited-attr + label, both serious): moves it where it belongs.
 */
function labelRowCheckboxes(root: HTMLElement) {
  for (const span of root.querySelectorAll<HTMLElement>('.select-item[aria-label]')) {
    const input = span.querySelector('input');
    if (!input) continue;
    input.setAttribute('aria-label', span.getAttribute('aria-label')!);
    span.removeAttribute('aria-label');
  }
}

/**
 * react-admin's Datagrid with accessible row checkboxes (`labelRowCheckboxes`, also for rows rendered later), a table
 * wider than the page scrolling in its own box (`widthFollower`), and a cut cell's whole text on hover. Every list
 * uses this instead of react-admin's Datagrid. Rows follow the operator's density (`useDensity`).
 */
export function Datagrid({ sx, ...props }: DatagridProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [density] = useDensity();
  const [wide, setWide] = useState(false);
  useLayoutEffect(() => {
    const root = ref.current;
    if (!root) return;
    const width = widthFollower(root, setWide);
    // One observer for both jobs: rows rendered later need their labels moved, and a table that mounts or is
    // replaced needs following.
    const changed = () => {
      labelRowCheckboxes(root);
      width?.follow();
    };
    changed();
    root.addEventListener('mouseover', titleTruncated);
    root.addEventListener('focusin', titleTruncated);
    const observer = new MutationObserver(changed);
    observer.observe(root, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-label'],
    });
    return () => {
      observer.disconnect();
      width?.stop();
      root.removeEventListener('mouseover', titleTruncated);
      root.removeEventListener('focusin', titleTruncated);
    };
  }, []);
  return (
    <div ref={ref} data-density={density}>
      <RaDatagrid
        size={density === 'compact' ? 'small' : 'medium'}
        {...props}
        sx={[
          densitySx(density),
          (theme: Theme) => ({
            // A table that fits keeps its header in view under the top bar while the page scrolls; one wider than
            // the page scrolls inside its wrapper instead (a scrolling box holds its sticky header inside itself).
            '& .RaDatagrid-tableWrapper': {
              overflowX: wide ? 'auto' : 'visible',
              ...(wide ? {} : { '& .RaDatagrid-headerCell': { top: `var(${TOP_BAR_VAR}, 0px)` } }),
              ...stickyFirstColumnSx(theme),
            },
          }),
          ...(Array.isArray(sx) ? sx : [sx]),
        ]}
      />
    </div>
  );
}
