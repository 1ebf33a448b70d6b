/** POST /api/audit/getAccessLogs (admin): sign-ins matching the filters, a page at a time. */
import type { GetAccessLogsRequest, GetAccessLogsResponse } from '@starlight/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Fetches one page of the access log. */
export function getAccessLogs(body: GetAccessLogsRequest, signal?: AbortSignal): Promise<GetAccessLogsResponse> {
  return api<GetAccessLogsResponse>('POST', '/audit/getAccessLogs', body, signal ? { signal } : {});
}

export const accessLogsQuery = (body: GetAccessLogsRequest) =>
  queryOptions({
    queryKey: [...queryKeys.accessLogs, body],
    queryFn: ({ signal }) => getAccessLogs(body, signal),
    placeholderData: keepPreviousData,
  });

export function useAccessLogs(body: GetAccessLogsRequest) {
  return useQuery(accessLogsQuery(body));
}
