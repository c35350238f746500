import { queryClient } from '../api/queryClient';
import { REPORT_META_PATH, reportMetaQuery } from './reportCalendar';

/**
 * A report screen's code, with what its first content waits on besides it asked at the same time rather than each
 * after the one before: the calendar (the report's period is the calendar's today, so the report is asked only once
 * the calendar is in the cache), the period bar's date pickers (the screen renders once they are there, so the
 * period bar shows whole) and the chart's code (not waited for: the chart is drawn with the report's answer, later).
 * Section declarations load their report screens with it:
 * `lazyScreen(() => loadReportScreen(() => import('./screens')), 'HotKeywords')`.
 */
export function loadReportScreen<M>(load: () => Promise<M>): Promise<M> {
  // quiet: a failure is the screen's to show, when its own query asks again
  queryClient.prefetchQuery(reportMetaQuery(REPORT_META_PATH, true));
  const parts = import('./ReportList').then((m) => m.preloadReportParts()).catch(() => undefined);
  return Promise.all([load(), parts]).then(([module]) => module);
}
