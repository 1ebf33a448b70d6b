import type { DefconResponse } from '@starlight/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /api/audit/getDefconLevel (public). */
export const defconQuery = queryOptions({
  queryKey: queryKeys.defcon,
  queryFn: () => api<DefconResponse>('GET', '/audit/getDefconLevel'),
  staleTime: 60_000,
});

export function useDefconLevel() {
  return useQuery(defconQuery);
}
