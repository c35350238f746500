/**
 * react-admin's DataProvider over the API's resource convention (DESIGN.md §6): list/detail/create/update/
 * delete/batch under `/app/<apiPath>`, plus custom actions `POST …/{id}/{name}` and batches `POST …/batch`.
 */
import type {
  DataProvider,
  GetListParams,
  GetManyReferenceParams,
  Identifier,
  RaRecord,
  SortPayload,
} from 'ra-core';
import { request } from './http';
import { MAX_PAGE, walkPages } from './pages';

export interface ListAnswer<T = RaRecord> {
  list: T[];
  total: number;
  /** false when the API counted only up to a cap: `total` is then a lower bound. */
  totalExact?: boolean;
}

/** What a report (`GET /app/admin/stats/reports/<report>`) adds to a list: figures over the whole period. */
export interface ReportMeta {
  totals: Record<string, number>;
  previousTotals?: Record<string, number>;
  series: ({ date: string } & Record<string, number | string>)[];
}

interface ReportAnswer extends ListAnswer, Partial<ReportMeta> {}

export interface ResourceDataProvider extends DataProvider {
  /** POST /app/<apiPath>/{id}/{name} with an optional body; resolves with the answer's data. */
  action<T = unknown>(
    resource: string,
    id: Identifier,
    name: string,
    body?: Record<string, unknown>,
  ): Promise<T>;
  /** POST /app/<apiPath>/batch {action, ids, ...body}; resolves with the answer's data (e.g. {changed}). */
  batch<T = { changed: number }>(
    resource: string,
    action: string,
    ids: Identifier[],
    body?: Record<string, unknown>,
  ): Promise<T>;
}

const id = (value: Identifier) => encodeURIComponent(String(value));

export { MAX_PAGE } from './pages';

function listQuery(params: Pick<GetListParams, 'pagination' | 'sort' | 'filter'>): Record<string, unknown> {
  const query: Record<string, unknown> = { ...(params.filter ?? {}) };
  if (params.pagination) {
    query.page = params.pagination.page;
    query.pageSize = params.pagination.perPage;
  }
  const sort: SortPayload | undefined = params.sort;
  if (sort?.field) {
    query.sort = sort.field;
    query.order = String(sort.order).toLowerCase() === 'desc' ? 'desc' : 'asc';
  }
  return query;
}

const rows = <T>(data: ListAnswer<T> | T[] | null | undefined): T[] =>
  Array.isArray(data) ? data : (data?.list ?? []);

/** A DataProvider for the resources named in `apiPaths` (resource name → API path under /app). */
export function createDataProvider(apiPaths: Record<string, string>): ResourceDataProvider {
  const base = (resource: string): string => {
    const path = apiPaths[resource];
    if (!path) throw new Error(`No API path is declared for the resource "${resource}"`);
    return path.replace(/^\/+|\/+$/g, '');
  };

  const list = async (resource: string, query: Record<string, unknown>, signal?: AbortSignal) => {
    const data = await request<ReportAnswer>(base(resource), { query, signal });
    // A report's rows are keyed by `key` (a keyword, a domain, a movie id): react-admin needs an `id`.
    const list = rows(data).map((r) => (r.id === undefined && r.key !== undefined ? { ...r, id: r.key } : r));
    if (data?.totals) {
      const meta: ReportMeta & { totalExact?: boolean } = { totals: data.totals, series: data.series ?? [] };
      if (data.previousTotals) meta.previousTotals = data.previousTotals;
      // A report list that caps its count (not seen in a period, before the last day seen) says so, as lists do.
      if (data.totalExact === false) meta.totalExact = false;
      return { data: list, total: data.total ?? 0, meta };
    }
    // A list that caps its count on large filters says so (`totalExact: false`): the pagination shows "10,000+".
    const capped = data?.totalExact === false ? { meta: { totalExact: false } } : {};
    return { data: list, total: data?.total ?? 0, ...capped };
  };

  /**
   * A page larger than the API's largest (an export asks for 10,000 rows at once) is read as consecutive pages
   * of MAX_PAGE, stopping at the end of the list.
   */
  const bigList = async (resource: string, query: Record<string, unknown>, signal?: AbortSignal) => {
    const perPage = Number(query.pageSize);
    const { rows: data, total } = await walkPages(
      (page, pageSize) => list(resource, { ...query, page, pageSize }, signal),
      { from: (Number(query.page ?? 1) - 1) * perPage, limit: perPage },
    );
    return { data, total };
  };

  return {
    getList: (resource, params) => {
      const query = listQuery(params);
      return Number(query.pageSize) > MAX_PAGE
        ? bigList(resource, query, params.signal)
        : list(resource, query, params.signal);
    },

    getOne: async (resource, params) => ({
      data: await request(`${base(resource)}/${id(params.id)}`, { signal: params.signal }),
    }),

    getMany: async (resource, params) => {
      const data = await request<ListAnswer>(base(resource), {
        query: { ids: params.ids },
        signal: params.signal,
      });
      return { data: rows(data) };
    },

    getManyReference: (resource, params: GetManyReferenceParams & { signal?: AbortSignal }) =>
      list(resource, { ...listQuery(params), [params.target]: params.id }, params.signal),

    create: async (resource, params) => ({
      data: await request(base(resource), { method: 'POST', json: params.data }),
    }),

    update: async (resource, params) => {
      const data = params.data as Record<string, unknown>;
      const version = data.version ?? (params.previousData as Record<string, unknown> | undefined)?.version;
      const json = version === undefined ? data : { ...data, version };
      return { data: await request(`${base(resource)}/${id(params.id)}`, { method: 'PUT', json }) };
    },

    delete: async (resource, params) => {
      const data = await request<RaRecord | null>(`${base(resource)}/${id(params.id)}`, { method: 'DELETE' });
      return { data: (data ?? params.previousData ?? { id: params.id }) as any };
    },

    deleteMany: async (resource, params) => {
      await request(`${base(resource)}/batch`, {
        method: 'POST',
        json: { action: 'delete', ids: params.ids },
      });
      return { data: params.ids };
    },

    updateMany: async (resource, params) => {
      await request(`${base(resource)}/batch`, {
        method: 'POST',
        json: { action: 'update', ids: params.ids, data: params.data },
      });
      return { data: params.ids };
    },

    action: (resource, recordId, name, body) =>
      request(`${base(resource)}/${id(recordId)}/${encodeURIComponent(name)}`, {
        method: 'POST',
        json: body ?? {},
      }),

    batch: (resource, action, ids, body) =>
      request(`${base(resource)}/batch`, { method: 'POST', json: { ...body, action, ids } }),
  } as ResourceDataProvider;
}
