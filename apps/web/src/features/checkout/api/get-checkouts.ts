/** POST /api/checkout/getTransactions (member): the caller's checkouts with their event history, and `total`. */
import type { CheckoutsResponse, GetCheckoutsRequest } from '@starlight/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function getCheckouts(body: GetCheckoutsRequest, signal?: AbortSignal): Promise<CheckoutsResponse> {
  return api<CheckoutsResponse>('POST', '/checkout/getTransactions', body, signal ? { signal } : {});
}

export const checkoutsQuery = (body: GetCheckoutsRequest) =>
  queryOptions({
    queryKey: queryKeys.checkout.transactions('mine', body),
    queryFn: ({ signal }) => getCheckouts(body, signal),
    placeholderData: keepPreviousData,
  });

export function useCheckouts(body: GetCheckoutsRequest) {
  return useQuery(checkoutsQuery(body));
}
