import { useQuery } from '@tanstack/react-query';
import { request } from '../api/http';

/**
 * An operator's name (nickname, else account) by id, for every place that shows who reviewed or changed something:
 * `GET /app/admin/operators/names` (any operator may read names), cached for the session per id. While it loads,
 * or for an id the API does not know, the id itself ("#3").
 */
export function useOperatorName(id: number | null | undefined): string {
  const { data } = useQuery({
    queryKey: ['operator-name', id],
    enabled: typeof id === 'number',
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () => {
      const { list } = await request<{ list: { id: number; name: string }[] }>('admin/operators/names', {
        query: { ids: String(id) },
        quiet: true,
      });
      return list.find((o) => o.id === id)?.name ?? null;
    },
  });
  if (typeof id !== 'number') return '-';
  return data ?? `#${id}`;
}
