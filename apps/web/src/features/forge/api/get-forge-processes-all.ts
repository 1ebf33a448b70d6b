/** POST /api/forge/getForgeProcessesAll (admin): every member's processes with SPEC §2's filters, and `total`. */
import type { ForgeProcessesResponse, GetForgeProcessesAllRequest } from '@starlight/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function getForgeProcessesAll(
  body: GetForgeProcessesAllRequest,
  signal?: AbortSignal,
): Promise<ForgeProcessesResponse> {
  return api<ForgeProcessesResponse>('POST', '/forge/getForgeProcessesAll', body, signal ? { signal } : {});
}

export const forgeProcessesAllQuery = (body: GetForgeProcessesAllRequest) =>
  queryOptions({
    queryKey: queryKeys.forge.processes('all', body),
    queryFn: ({ signal }) => getForgeProcessesAll(body, signal),
    placeholderData: keepPreviousData,
  });

export function useForgeProcessesAll(body: GetForgeProcessesAllRequest) {
  return useQuery(forgeProcessesAllQuery(body));
}
