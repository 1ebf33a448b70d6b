import type { DefconResponse } from '@starlight/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** GET /api/audit/getDefconLevel (public). */
export const defconQuery = queryOptions({
  queryKey: ['defcon'],
  queryFn: () => api<DefconResponse>('GET', '/audit/getDefconLevel'),
  staleTime: 60_000,
});

export function useDefconLevel() {
  return useQuery(defconQuery);
}
