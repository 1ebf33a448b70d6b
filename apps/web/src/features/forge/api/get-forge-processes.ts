/** POST /api/forge/getForgeProcesses (member): the caller's processes, newest first, with `total`. */
import type { ForgeProcessesResponse, GetForgeProcessesRequest } from '@starlight/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Fetches one page of the caller's processes. */
export function getForgeProcesses(
  body: GetForgeProcessesRequest,
  signal?: AbortSignal,
): Promise<ForgeProcessesResponse> {
  return api<ForgeProcessesResponse>('POST', '/forge/getForgeProcesses', body, signal ? { signal } : {});
}

export const forgeProcessesQuery = (body: GetForgeProcessesRequest) =>
  queryOptions({
    queryKey: queryKeys.forge.processes('mine', body),
    queryFn: ({ signal }) => getForgeProcesses(body, signal),
    placeholderData: keepPreviousData,
  });

export function useForgeProcesses(body: GetForgeProcessesRequest) {
  return useQuery(forgeProcessesQuery(body));
}
