/** POST /api/checkout/getAllTransactions (admin): every member's checkouts with SPEC §2's filters, and `total`. */
import type { CheckoutsResponse, GetAllCheckoutsRequest } from '@starlight/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function getAllCheckouts(body: GetAllCheckoutsRequest, signal?: AbortSignal): Promise<CheckoutsResponse> {
  return api<CheckoutsResponse>('POST', '/checkout/getAllTransactions', body, signal ? { signal } : {});
}

export const allCheckoutsQuery = (body: GetAllCheckoutsRequest) =>
  queryOptions({
    queryKey: queryKeys.checkout.transactions('all', body),
    queryFn: ({ signal }) => getAllCheckouts(body, signal),
    placeholderData: keepPreviousData,
  });

export function useAllCheckouts(body: GetAllCheckoutsRequest) {
  return useQuery(allCheckoutsQuery(body));
}
