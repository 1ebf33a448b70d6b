/** POST /api/bank/supplyHistory (public, ours): a currency's supply and circulating per bucket, oldest first. */
import type { SupplyHistoryRequest, SupplyHistoryResponse, SupplyInterval, SupplyPoint } from '@starlight/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function getSupplyHistory(body: SupplyHistoryRequest): Promise<SupplyHistoryResponse> {
  return api<SupplyHistoryResponse>('POST', '/bank/supplyHistory', body);
}

export function supplyHistoryQuery(currencyId: number, interval: SupplyInterval, limit: number) {
  return queryOptions({
    queryKey: queryKeys.supplyHistory(currencyId, interval, limit),
    queryFn: async (): Promise<SupplyPoint[]> => (await getSupplyHistory({ currencyId, interval, limit })).points,
  });
}

export function useSupplyHistory(currencyId: number, interval: SupplyInterval, limit: number) {
  return useQuery(supplyHistoryQuery(currencyId, interval, limit));
}
