/** POST /api/audit/getAdminLogs (admin): admin actions matching the filters, a page at a time. */
import type { GetAdminLogsRequest, GetAdminLogsResponse } from '@starlight/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Fetches one page of the admin log. */
export function getAdminLogs(body: GetAdminLogsRequest, signal?: AbortSignal): Promise<GetAdminLogsResponse> {
  return api<GetAdminLogsResponse>('POST', '/audit/getAdminLogs', body, signal ? { signal } : {});
}

export const adminLogsQuery = (body: GetAdminLogsRequest) =>
  queryOptions({
    queryKey: [...queryKeys.adminLogs, body],
    queryFn: ({ signal }) => getAdminLogs(body, signal),
    placeholderData: keepPreviousData,
  });

export function useAdminLogs(body: GetAdminLogsRequest) {
  return useQuery(adminLogsQuery(body));
}
