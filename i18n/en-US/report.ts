/** Messages of the report components (src/components/Report*: period, comparison, totals, chart), en-US. */
const report = {
  period: {
    label: 'Period',
    presets: 'Period presets',
    today: 'Today',
    yesterday: 'Yesterday',
    last7: 'Last 7 days',
    last30: 'Last 30 days',
    thisMonth: 'This month',
    lastMonth: 'Last month',
    custom: 'Custom',
    from: 'From',
    to: 'To',
    invalid: 'Enter a date between %{min} and %{max}',
    order: 'The start must not be after the end',
    timeZone: 'Days in the time zone %{timeZone}',
    compare: 'Compare with the previous period',
    previous: 'previous period %{from} – %{to}',
  },
  total: 'Total',
  empty: 'No data in this period',
  emptyHint: 'Choose another period, or check that the site sends events.',
  loading: 'Loading the report',
  chart: 'Chart of %{figures}, %{from} – %{to}',
  delta: {
    up: 'up %{diff} (%{pct}) from %{previous}',
    down: 'down %{diff} (%{pct}) from %{previous}',
    flat: 'unchanged from %{previous}',
    new: 'up %{diff} from none',
    points: '%{value} pts',
  },
  csv: {
    previous: '%{name} (previous period)',
    change: '%{name} (change)',
    done: '%{count} rows exported',
  },
};
export default report;
