/** POST /api/user/getUserStats (admin): SPEC §3's counts of accounts created in a date range. */
import type { GetUserStatsRequest, GetUserStatsResponse } from '@starlight/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Fetches the stats for an optional date range ('YYYY-MM-DD'). */
export function getUserStats(body: GetUserStatsRequest, signal?: AbortSignal): Promise<GetUserStatsResponse> {
  return api<GetUserStatsResponse>('POST', '/user/getUserStats', body, signal ? { signal } : {});
}

export const userStatsQuery = (body: GetUserStatsRequest) =>
  queryOptions({
    queryKey: [...queryKeys.adminUserStats, body],
    queryFn: ({ signal }) => getUserStats(body, signal),
    placeholderData: keepPreviousData,
  });

export function useUserStats(body: GetUserStatsRequest) {
  return useQuery(userStatsQuery(body));
}
