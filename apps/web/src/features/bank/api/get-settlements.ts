/** POST /api/bank/getSettlements (admin): deposits and withdrawals, pending first, with `total`. */
import type { GetSettlementsRequest, GetSettlementsResponse } from '@starlight/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Fetches one page of settlements. */
export function getSettlements(body: GetSettlementsRequest, signal?: AbortSignal): Promise<GetSettlementsResponse> {
  return api<GetSettlementsResponse>('POST', '/bank/getSettlements', body, signal ? { signal } : {});
}

export const settlementsQuery = (body: GetSettlementsRequest) =>
  queryOptions({
    queryKey: [...queryKeys.settlements, body],
    queryFn: ({ signal }) => getSettlements(body, signal),
    placeholderData: keepPreviousData,
  });

export function useSettlements(body: GetSettlementsRequest) {
  return useQuery(settlementsQuery(body));
}
