import { request } from '../api/http';

/** `GET /app/admin/stats/meta`: the tenant's time zone, its today and the first day with data. */
export interface ReportMeta {
  timeZone: string;
  today: string;
  earliest: string | null;
}

export const REPORT_META_PATH = 'admin/stats/meta';

/** The tenant's reporting calendar (react-query), kept a minute. */
export const reportMetaQuery = (path = REPORT_META_PATH, quiet = false) => ({
  queryKey: ['report-meta', path],
  queryFn: ({ signal }: { signal?: AbortSignal }) => request<ReportMeta>(path, { signal, quiet }),
  staleTime: 60_000,
  retry: false,
});
